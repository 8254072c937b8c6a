"""Which command the plugin starts: the option, a project's node_modules, PATH, then npx."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from support import REPO
from wallet_sandbox import SandboxStartError
from wallet_sandbox.locate import find_cli

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
    assert find_cli("cli/bin/wallet-sandbox.js", tmp_path, []) == ([NODE, str(tmp_path / "cli/bin/wallet-sandbox.js")], "wallet_sandbox_bin")
    assert find_cli("/opt/ws/wallet-sandbox", tmp_path, []) == (["/opt/ws/wallet-sandbox"], "wallet_sandbox_bin")


def test_the_option_may_be_a_command_line(tmp_path: Path) -> None:
    assert find_cli("npx --yes wallet-sandbox@0.1", tmp_path, [])[0] == ["npx", "--yes", "wallet-sandbox@0.1"]
    assert find_cli("wallet-sandbox", tmp_path, [])[0] == ["wallet-sandbox"]


def test_without_the_option_a_project_npm_install_is_found_in_the_rootdir_or_above(tmp_path: Path, bare_path: Path) -> None:
    installed = executable(tmp_path / "project/node_modules/.bin/wallet-sandbox")
    executable(bare_path / "wallet-sandbox")
    assert find_cli(None, tmp_path, [tmp_path / "project/tests/python"]) == ([str(installed)], f"npm install in {tmp_path / 'project'}")


def test_then_wallet_sandbox_on_PATH_then_npx(tmp_path: Path, bare_path: Path) -> None:
    npx = executable(bare_path / "npx")
    assert find_cli(None, tmp_path, [tmp_path]) == (["npx", "--no-install", "wallet-sandbox"], "npx")
    on_path = executable(bare_path / "wallet-sandbox")
    assert find_cli(None, tmp_path, [tmp_path]) == ([str(on_path)], "PATH")
    on_path.unlink()
    npx.unlink()
    with pytest.raises(SandboxStartError, match=r"^No wallet-sandbox to start: no node_modules/\.bin/wallet-sandbox in the rootdir or above it, none on PATH, and no npx\."):
        find_cli(None, tmp_path, [tmp_path])


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
