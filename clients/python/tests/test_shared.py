"""
One sandbox shared by several test processes, as `wallet-sandbox exec -- python -m pytest -n 4`
and WALLET_SANDBOX_BASE_URL give it: each test's account keeps its own clock and state while the
others pay, settle, snapshot and restore (examples/test_shared_sandbox.py, which docs/python.md
shows), and a sandbox-wide call warns, once, that it reaches every test.
"""

from __future__ import annotations

import re
import warnings

import pytest

from support import CLI, CLIENT, run_pytest
from wallet_sandbox import Sandbox, SharedSandboxWarning, start_sandbox

EXAMPLE = "examples/test_shared_sandbox.py"
PAGE = (CLIENT.parents[1] / "docs" / "python.md").read_text()


@pytest.fixture
def xdist() -> None:
    pytest.importorskip("xdist", reason="pytest-xdist is not installed for this interpreter (Debian: python3-pytest-xdist)")


def test_the_page_runs_the_example_as_these_tests_do() -> None:
    assert f"wallet-sandbox exec --clock manual -- python -m pytest -n 4 {EXAMPLE}" in PAGE
    assert f"WALLET_SANDBOX_BASE_URL=http://127.0.0.1:4400 python -m pytest -n 4 {EXAMPLE}" in PAGE


# Twenty runs, each a few seconds: the old account handle (its clock, snapshot and restore the
# whole sandbox's) failed one in one, settling or removing the payments and accounts of the others.
@pytest.mark.repeated
@pytest.mark.parametrize("run", range(1, 21))
def test_four_workers_under_one_exec_keep_their_accounts_time_and_state(run: int, xdist: None, clean_env: None) -> None:
    done = run_pytest("-n", "4", EXAMPLE, cwd=CLIENT, exec_flags=["--clock", "manual"])
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert re.search(r"^=+ 12 passed in ", done.stdout, re.M), done.stdout[-2000:]


def test_four_workers_attached_through_the_variable_keep_their_accounts_time_and_state(xdist: None, clean_env: None) -> None:
    with start_sandbox(["node", str(CLI)], clock="manual") as shared:
        done = run_pytest("-n", "4", EXAMPLE, cwd=CLIENT, env={"WALLET_SANDBOX_BASE_URL": shared.base_url})
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert f"wallet-sandbox: attaches to {shared.base_url} (WALLET_SANDBOX_BASE_URL)" in done.stdout
    assert re.search(r"^=+ 12 passed in ", done.stdout, re.M), done.stdout[-2000:]


SANDBOX_WIDE = """
def test_advances_the_sandbox_clock(wallet_sandbox):
    wallet_sandbox.advance_clock(seconds=1)

def test_snapshots_and_restores_the_sandbox(wallet_sandbox):
    wallet_sandbox.restore(wallet_sandbox.snapshot())

def test_resets_the_sandbox(wallet_sandbox):
    wallet_sandbox.reset()

def test_its_own_account_warns_of_nothing(sandbox_account):
    sandbox_account.advance_clock(seconds=1)
    sandbox_account.restore(sandbox_account.snapshot())
    sandbox_account.reset()
"""


def test_sandbox_wide_calls_on_a_sandbox_it_did_not_start_warn_once(pytester: pytest.Pytester, clean_env: None) -> None:
    pytester.makepyfile(test_inner_sandbox_wide=SANDBOX_WIDE)
    done = run_pytest(cwd=pytester.path, exec_flags=["--clock", "manual"])
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"^=+ 4 passed, 1 warning in ", done.stdout, re.M), done.stdout
    assert done.stdout.count("SharedSandboxWarning") == 1
    assert (
        "test_inner_sandbox_wide.py:2: SharedSandboxWarning: advance_clock() on the sandbox at http://127.0.0.1:" in done.stdout
    ), done.stdout


@pytest.mark.wallet_sandbox
def test_sandbox_wide_calls_on_a_sandbox_of_its_own_warn_of_nothing(wallet_sandbox: Sandbox) -> None:
    assert not wallet_sandbox.shared
    with warnings.catch_warnings():
        warnings.simplefilter("error", SharedSandboxWarning)
        wallet_sandbox.advance_clock(seconds=1)
        wallet_sandbox.restore(wallet_sandbox.snapshot())
        wallet_sandbox.reset()
