"""Which command the plugin starts: the option, a project's node_modules, PATH, then npx."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from support import REPO
from wallet_sandbox import SandboxStartError
from wallet_sandbox.locate import HOW_TO_NAME_THE_CLI, Cli, find_cli

NODE = shutil.which("node") or "node"


def executable(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    return path


@pytest.fixture
def bare_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """PATH is one empty folder: no wallet-sandbox, no npx, unless a test puts them there."""
    folder = tmp_path / "path"
    folder.mkdir()
    monkeypatch.setenv("PATH", str(folder))
    return folder


def test_the_option_is_a_path_relative_to_where_it_was_given_and_a_js_file_runs_with_node(tmp_path: Path) -> None:
    assert find_cli("cli/bin/wallet-sandbox.js", tmp_path, []) == Cli([NODE, str(tmp_path / "cli/bin/wallet-sandbox.js")], "wallet_sandbox_bin")
    assert find_cli("/opt/ws/wallet-sandbox", tmp_path, []) == Cli(["/opt/ws/wallet-sandbox"], "wallet_sandbox_bin")


def test_the_option_may_be_a_command_line(tmp_path: Path) -> None:
    assert find_cli("npx --yes wallet-sandbox@0.1", tmp_path, []).command == ["npx", "--yes", "wallet-sandbox@0.1"]
    assert find_cli("wallet-sandbox", tmp_path, []).command == ["wallet-sandbox"]


def test_without_the_option_a_project_npm_install_is_found_in_the_rootdir_or_above(tmp_path: Path, bare_path: Path) -> None:
    installed = executable(tmp_path / "project/node_modules/.bin/wallet-sandbox")
    executable(bare_path / "wallet-sandbox")
    assert find_cli(None, tmp_path, [tmp_path / "project/tests/python"]) == Cli([str(installed)], f"npm install in {tmp_path / 'project'}")


def test_then_wallet_sandbox_on_PATH_then_npx(tmp_path: Path, bare_path: Path) -> None:
    npx = executable(bare_path / "npx")
    assert find_cli(None, tmp_path, [tmp_path]) == Cli(["npx", "--no-install", "wallet-sandbox"], "npx")
    on_path = executable(bare_path / "wallet-sandbox")
    assert find_cli(None, tmp_path, [tmp_path]) == Cli([str(on_path)], "PATH")
    on_path.unlink()
    npx.unlink()
    with pytest.raises(SandboxStartError) as failed:
        find_cli(None, tmp_path, [tmp_path])
    assert str(failed.value) == f"No wallet-sandbox to start: no node_modules/.bin/wallet-sandbox in the rootdir or above it, none on PATH, and no npx. {HOW_TO_NAME_THE_CLI}"


def test_an_ini_path_is_relative_to_the_ini_file_and_a_flag_to_where_pytest_runs(pytester: pytest.Pytester, clean_env: None) -> None:
    os.symlink(REPO, pytester.path / "checkout")
    suite = pytester.mkdir("suite")
    (suite / "pytest.ini").write_text("[pytest]\nwallet_sandbox_bin = ../checkout/bin/wallet-sandbox.js\n")
    (suite / "test_inner_locate.py").write_text("def test_starts(wallet_sandbox): assert wallet_sandbox.pid\n")
    result = pytester.runpytest("suite")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines([f"wallet-sandbox: starts {NODE} {pytester.path}/checkout/bin/wallet-sandbox.js (found by wallet_sandbox_bin)"])

    result = pytester.runpytest("suite", "--wallet-sandbox-bin", "checkout/bin/wallet-sandbox.js", "--co")
    result.stdout.fnmatch_lines([f"wallet-sandbox: starts {NODE} {pytester.path}/checkout/bin/wallet-sandbox.js (found by wallet_sandbox_bin)"])


def test_takes_wallet_sandbox_bin_when_no_option_names_the_cli(pytester: pytest.Pytester, clean_env: None, monkeypatch: pytest.MonkeyPatch) -> None:
    os.symlink(REPO, pytester.path / "checkout")
    monkeypatch.setenv("WALLET_SANDBOX_BIN", "checkout/bin/wallet-sandbox.js")
    test = pytester.makepyfile("def test_starts(wallet_sandbox): assert wallet_sandbox.pid\n")
    result = pytester.runpytest(test)
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines([f"wallet-sandbox: starts {NODE} {pytester.path}/checkout/bin/wallet-sandbox.js (found by WALLET_SANDBOX_BIN)"])
    # An option still wins over the variable.
    result = pytester.runpytest(test, "--wallet-sandbox-bin", "checkout/bin/wallet-sandbox.js", "--co")
    result.stdout.fnmatch_lines(["*(found by wallet_sandbox_bin)"])


NPX_404 = """#!/bin/sh
echo "npm ERR! code E404" >&2
echo "npm ERR! 404 Not Found - GET <registry>/wallet-sandbox - Not found" >&2
exit 1
"""


def test_when_npx_is_all_there_is_its_failure_says_once_how_to_name_the_cli(pytester: pytest.Pytester, clean_env: None, bare_path: Path) -> None:
    (bare_path / "npx").write_text(NPX_404)
    (bare_path / "npx").chmod(0o755)
    pytester.makepyfile(test_inner_npx="def test_one(sandbox_account): pass\ndef test_two(sandbox_account): pass\ndef test_three(wallet_sandbox): pass\n")
    result = pytester.runpytest()
    result.assert_outcomes(errors=3)
    # pytest's own short summary repeats each error's first line (whole where CI is set), so only the
    # report above it is counted.
    output = result.stdout.str().split("short test summary info")[0]
    result.stdout.fnmatch_lines(["wallet-sandbox: starts npx --no-install wallet-sandbox (found by npx: no CLI in node_modules/.bin of the rootdir or above it, none on PATH)"])
    # The first test that needed the sandbox shows why it did not start and what to do; the others point to it.
    assert output.count(HOW_TO_NAME_THE_CLI) == 1
    assert output.count("npm ERR! 404 Not Found") == 1
    result.stdout.fnmatch_lines([
        "E * wallet-sandbox did not start: `npx --no-install wallet-sandbox --ready-json --port 0` exited with code 1 before it was ready. "
        f"No CLI was found in node_modules/.bin or on PATH, so npx was tried. {HOW_TO_NAME_THE_CLI} Its output:",
        "*_ ERROR at setup of test_two _*",
        "SandboxStartError: the same error as at the setup of test_inner_npx.py::test_one, which shows it whole.",
    ])
