"""The fixtures seen from outside: runs of pytest (pytester) that use them as a user's suite does."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from support import CLI, alive
from wallet_sandbox import Sandbox

RECORD = """
import json, pathlib

def record(wallet_sandbox, sandbox_account):
    seen = {"pid": wallet_sandbox.pid, "account": sandbox_account.account_id, "key": sandbox_account.api_key,
            "wallets": [w["id"] for w in sandbox_account.wallets]}
    with pathlib.Path("seen.jsonl").open("a") as out:
        out.write(json.dumps(seen) + "\\n")
"""


def seen(pytester: pytest.Pytester) -> list[dict]:
    return [json.loads(line) for line in (pytester.path / "seen.jsonl").read_text().splitlines()]


def test_one_sandbox_serves_the_session_and_each_test_gets_an_account_of_its_own(pytester: pytest.Pytester, inner_ini: Path) -> None:
    pytester.makeconftest(RECORD)
    pytester.makepyfile(
        test_inner_a="from conftest import record\ndef test_one(wallet_sandbox, sandbox_account): record(wallet_sandbox, sandbox_account)\n"
        "def test_two(wallet_sandbox, sandbox_account): record(wallet_sandbox, sandbox_account)\n",
        test_inner_b="from conftest import record\ndef test_three(wallet_sandbox, sandbox_account): record(wallet_sandbox, sandbox_account)\n",
    )
    pytester.runpytest().assert_outcomes(passed=3)
    runs = seen(pytester)
    assert len({run["pid"] for run in runs}) == 1
    assert len({run["account"] for run in runs}) == len({run["key"] for run in runs}) == 3
    wallets = [set(run["wallets"]) for run in runs]
    assert all(wallets) and not (wallets[0] & wallets[1]) and not (wallets[1] & wallets[2])
    # Stopped at the end of the session.
    assert not alive(runs[0]["pid"])


def test_flags_for_the_sandbox_come_from_the_ini_or_from_a_fixture_that_overrides_them(pytester: pytest.Pytester, inner_ini: Path) -> None:
    pytester.makeini(f"[pytest]\nwallet_sandbox_bin = {CLI}\nwallet_sandbox_args = --clock manual --seed from-the-ini\n")
    pytester.makepyfile(test_inner_clock="def test_clock(wallet_sandbox): assert wallet_sandbox.clock()['mode'] == 'manual'\n")
    pytester.runpytest().assert_outcomes(passed=1)

    pytester.makeconftest("import pytest\n@pytest.fixture(scope='session')\ndef wallet_sandbox_args(): return ['--clock', 'real']\n")
    pytester.makepyfile(test_inner_clock="def test_clock(wallet_sandbox): assert wallet_sandbox.clock()['mode'] == 'real'\n")
    pytester.runpytest().assert_outcomes(passed=1)


def test_with_WALLET_SANDBOX_BASE_URL_it_attaches_and_starts_none(
    pytester: pytest.Pytester, clean_env: None, monkeypatch: pytest.MonkeyPatch, wallet_sandbox: Sandbox
) -> None:
    monkeypatch.setenv("WALLET_SANDBOX_BASE_URL", wallet_sandbox.base_url)
    pytester.makepyfile(
        test_inner_attached=f"""
def test_attached(wallet_sandbox, sandbox_account):
    assert (wallet_sandbox.base_url, wallet_sandbox.url, wallet_sandbox.pid) == ({wallet_sandbox.base_url!r}, {wallet_sandbox.url!r}, None)
    assert wallet_sandbox.version == {wallet_sandbox.version!r}
    assert sandbox_account.api_key.startswith("sk_test_")
"""
    )
    # A CLI that cannot start proves none is started.
    result = pytester.runpytest("--wallet-sandbox-bin", "/no/such/wallet-sandbox")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines([f"wallet-sandbox: attaches to {wallet_sandbox.base_url} (WALLET_SANDBOX_BASE_URL)"])


def test_the_report_header_says_which_cli_starts(pytester: pytest.Pytester, inner_ini: Path) -> None:
    pytester.makepyfile(test_inner_nothing="def test_nothing(): pass\n")
    result = pytester.runpytest()
    result.stdout.fnmatch_lines(["wallet-sandbox: starts * */bin/wallet-sandbox.js (found by wallet_sandbox_bin)"])
    # The sandbox starts only for a test that asks for it.
    assert "SANDBOX" not in result.stdout.str()


def test_under_wallet_sandbox_exec_it_attaches_to_the_sandbox_exec_started(pytester: pytest.Pytester, clean_env: None) -> None:
    pytester.makepyfile(
        test_inner_exec="""
import os

def test_attached(wallet_sandbox, sandbox_account):
    assert wallet_sandbox.base_url == os.environ["WALLET_SANDBOX_BASE_URL"]
    assert wallet_sandbox.pid is None
    assert wallet_sandbox.clock()["mode"] == "manual"
"""
    )
    command = ["node", str(CLI), "exec", "--clock", "manual", "--", sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "test_inner_exec.py"]
    run = subprocess.run(command, cwd=pytester.path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "wallet-sandbox: attaches to http://127.0.0.1:" in run.stdout
    assert "1 passed" in run.stdout


def test_a_start_timeout_that_is_no_number_of_seconds_is_a_usage_error(pytester: pytest.Pytester, inner_ini: Path) -> None:
    pytester.makepyfile(test_inner_timeout="def test_start(wallet_sandbox): pass\n")
    result = pytester.runpytest("--wallet-sandbox-start-timeout", "soon")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["E * --wallet-sandbox-start-timeout (wallet_sandbox_start_timeout) takes seconds, not 'soon'"])
