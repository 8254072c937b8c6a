"""
--wallet-sandbox-image, against engine_stub.py standing in for docker or podman (no Docker engine
runs where this suite runs): the run command, the host port from ``port``, ``stop`` at the end and
after the test process was killed.
"""

from __future__ import annotations

import os
import re
import signal
import sys
from pathlib import Path

import pytest

from support import CLI, ended_within, group_members, start_interrupted_run

STUB = Path(__file__).with_name("engine_stub.py")


@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clean_env: None) -> Path:
    """PATH gets a ``docker`` and a ``podman`` that run the stub; its log and files go to the returned folder."""
    folder = tmp_path / "engine"
    bin_dir = folder / "bin"
    bin_dir.mkdir(parents=True)
    for engine in ("docker", "podman"):
        wrapper = bin_dir / engine
        wrapper.write_text(f'#!/bin/sh\nSTUB_ENGINE={engine} exec "{sys.executable}" "{STUB}" "$@"\n')
        wrapper.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("STUB_STATE", str(folder))
    monkeypatch.setenv("STUB_CLI", str(CLI))
    return folder


def calls(state: Path) -> list[str]:
    return (state / "calls.log").read_text().splitlines()


INNER = """
def test_in_the_container(wallet_sandbox, sandbox_account):
    port = open({port!r}.replace("NAME", wallet_sandbox.process.command[4])).read()
    assert wallet_sandbox.base_url == f"http://127.0.0.1:{{port}}"
    assert wallet_sandbox.url == f"http://127.0.0.1:{{port}}/v1"
    assert wallet_sandbox.pid is None
    assert wallet_sandbox.clock()["mode"] == "manual"
    assert sandbox_account.wallet("USDC", "polygon")["balance"] == "250.00"
"""


@pytest.mark.parametrize("engine", ["docker", "podman"])
def test_runs_the_image_and_stops_it_at_the_end(pytester: pytest.Pytester, state: Path, monkeypatch: pytest.MonkeyPatch, engine: str) -> None:
    if engine != "docker":
        monkeypatch.setenv("WALLET_SANDBOX_CONTAINER_ENGINE", engine)
    pytester.makepyfile(test_inner_container=INNER.format(port=str(state / "NAME.port")))
    result = pytester.runpytest("--wallet-sandbox-image", "wallet-sandbox:test", "-o", "wallet_sandbox_args=--clock manual")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines([f"wallet-sandbox: runs the image wallet-sandbox:test with {engine}"])
    run, port, stop = calls(state)
    name = re.match(rf"{engine} run --rm --name (wallet-sandbox-[0-9a-f]{{12}}) -p 127\.0\.0\.1::4400 wallet-sandbox:test --ready-json --clock manual$", run).group(1)  # type: ignore[union-attr]
    assert (port, stop) == (f"{engine} port {name} 4400/tcp", f"{engine} stop {name}")
    pid = int((state / f"{name}.pid").read_text())
    assert ended_within(pid, timeout=15)


def test_a_killed_test_process_stops_the_container(pytester: pytest.Pytester, state: Path) -> None:
    run = start_interrupted_run(pytester, "--wallet-sandbox-image", "wallet-sandbox:test")
    os.killpg(run.process.pid, signal.SIGKILL)
    run.process.wait(timeout=60)
    assert ended_within(run.group, timeout=20)
    name = calls(state)[0].split()[4]
    assert calls(state)[-1] == f"docker stop {name}"
    assert ended_within(int((state / f"{name}.pid").read_text()), timeout=15)
    assert group_members(run.group) == []
