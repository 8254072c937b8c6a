"""
The pages' Python runs: docs/python.md shows the example files exactly (the suite runs them as
tests) and its pytest.ini is run here; the examples of docs/signing.md run as printed.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from support import CLI, REPO
from wallet_sandbox import Sandbox

CLIENT = REPO / "clients" / "python"
PYTHON_PAGE = (REPO / "docs" / "python.md").read_text()
SIGNING_PAGE = (REPO / "docs" / "signing.md").read_text()


def blocks(page: str, language: str) -> list[str]:
    return re.findall(rf"^ *```{language}\n(.*?)^ *```$", page, re.M | re.S)


def test_every_python_block_of_the_page_is_a_file_of_clients_python_shown_exactly() -> None:
    shown = re.findall(r"^\[clients/python/(\S+)\]\(\.\./clients/python/\1\):\n\n```python\n(.*?)^```$", PYTHON_PAGE, re.M | re.S)
    assert len(shown) == len(blocks(PYTHON_PAGE, "python")), "a python block of docs/python.md has no file link line before it"
    for name, code in shown:
        assert code == (CLIENT / name).read_text(), f"docs/python.md shows {name} otherwise than the file"
    files = {f"examples/{path.name}" for path in (CLIENT / "examples").glob("*.py")} | {"conftest.py"}
    assert {name for name, _ in shown} == files


def test_the_pages_pytest_ini_runs(pytester: pytest.Pytester, clean_env: None) -> None:
    [ini] = blocks(PYTHON_PAGE, "ini")
    (pytester.path / "pytest.ini").write_text(ini)
    (pytester.path / "node_modules" / ".bin").mkdir(parents=True)
    os.symlink(CLI, pytester.path / "node_modules" / ".bin" / "wallet-sandbox")
    pytester.makepyfile(test_inner_ini="def test_manual(wallet_sandbox): assert wallet_sandbox.clock()['mode'] == 'manual'\n")
    result = pytester.runpytest()
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines([f"wallet-sandbox: starts {pytester.path}/node_modules/.bin/wallet-sandbox (found by wallet_sandbox_bin)"])


def test_the_script_without_pytest_finds_the_cli_and_stops_its_sandbox(tmp_path: Path, clean_env: None) -> None:
    done = subprocess.run(
        [sys.executable, str(CLIENT / "examples" / "without_pytest.py")],
        cwd=tmp_path, env={**os.environ, "WALLET_SANDBOX_BIN": str(CLI)}, capture_output=True, text=True, timeout=120,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "expired\n", "")


def test_the_virtual_environment_the_page_creates_in_the_checkout_is_ignored_by_git() -> None:
    [folder] = re.findall(r"-m venv --system-site-packages (\S+)$", PYTHON_PAGE, re.M)
    done = subprocess.run(["git", "check-ignore", "--quiet", "--no-index", f"{folder}/"], cwd=REPO)
    assert done.returncode == 0, f"git would add {folder}/, which docs/python.md has readers create in the checkout"


def run_signing_example(code: str, env: dict[str, str], tmp_path: Path) -> str:
    script = tmp_path / "sign_request.py"
    script.write_text(code)
    done = subprocess.run([sys.executable, str(script)], env={**os.environ, **env}, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_signing_pages_hmac_example_signs_a_request_the_sandbox_accepts(wallet_sandbox: Sandbox, tmp_path: Path) -> None:
    hmac_example = blocks(SIGNING_PAGE, "python")[0]
    key = wallet_sandbox.create_key(signing="hmac-sha256")
    env = {"SANDBOX_URL": wallet_sandbox.base_url, "API_KEY": key["key"], "KEY_ID": key["signing"]["key_id"], "SIGNING_SECRET": key["signing"]["secret"]}
    assert re.match(r'^201 \{"data":\{"id":"wal_', run_signing_example(hmac_example, env, tmp_path))


def test_the_signing_pages_ed25519_lines_in_place_of_the_hmac_sign_a_request_the_sandbox_accepts(wallet_sandbox: Sandbox, tmp_path: Path) -> None:
    pytest.importorskip("cryptography", reason="the Ed25519 example uses the cryptography package (Debian: python3-cryptography)")
    hmac_example, ed25519_lines = blocks(SIGNING_PAGE, "python")
    # As the page says: alg="ed25519" in params, its lines instead of the HMAC line, no secret line.
    lines = hmac_example.splitlines(keepends=True)
    [hmac_line] = [line for line in lines if line.startswith("signature = ")]
    [secret_line] = [line for line in lines if line.startswith("secret = ")]
    assert hmac_example.count('alg="hmac-sha256"') == 1
    code = hmac_example.replace('alg="hmac-sha256"', 'alg="ed25519"').replace(hmac_line, ed25519_lines).replace(secret_line, "")
    key = wallet_sandbox.create_key(signing="ed25519")
    env = {
        "SANDBOX_URL": wallet_sandbox.base_url, "API_KEY": key["key"], "KEY_ID": key["signing"]["key_id"],
        "PRIVATE_KEY": key["signing"]["private_key"],
    }
    output = run_signing_example(code, env, tmp_path)
    assert re.match(r'^201 \{"data":\{"id":"wal_', output)
    assert json.loads(output.split(" ", 1)[1])["data"]["name"] == "Signed wallet"
