"""What the tests share: this checkout's CLI, a payment, and processes and runs watched from outside."""

from __future__ import annotations

import os
import select
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from wallet_sandbox import SandboxAccount

REPO = Path(__file__).resolve().parents[3]
CLIENT = REPO / "clients" / "python"
#: This checkout's CLI (npm run build first), as pyproject.toml's wallet_sandbox_bin names it.
CLI = REPO / "bin" / "wallet-sandbox.js"
#: A polygon address outside the sandbox, for payments out of a USDC wallet on polygon.
RECIPIENT = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"


def pay(account: SandboxAccount, amount: str = "10.00") -> dict[str, Any]:
    """A payment out of the account's first USDC wallet on polygon: pending until its account's clock moves (the suite's --clock manual)."""
    wallet = account.wallet("USDC", "polygon")
    return account.post("/payments", {"source_wallet": wallet["id"], "amount": amount, "currency": "USDC", "recipient": RECIPIENT})


def run_pytest(*args: str, cwd: Path, exec_flags: list[str] | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m pytest args…`` in a process of its own, under ``wallet-sandbox exec exec_flags… --`` when given."""
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args]
    if exec_flags is not None:
        command = ["node", str(CLI), "exec", *exec_flags, "--", *command]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=300, env=None if env is None else {**os.environ, **env})


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def group_members(pgid: int) -> list[int]:
    """The processes of a group that still run (Linux's /proc): a zombie, ended but not yet reaped by init, is none."""
    members = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            members.append(int(entry))
    return members


def ended_within(pid: int, timeout: float) -> bool:
    """Whether ``pid`` ends within ``timeout`` s: a pidfd becomes readable when it does."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        ready, _, _ = select.select([fd], [], [], timeout)
        return bool(ready)
    finally:
        os.close(fd)


INNER_TEST = """
import os, threading

def test_waits_to_be_interrupted(wallet_sandbox):
    with open(os.environ["STARTED_FIFO"], "w") as started:
        started.write(f"{wallet_sandbox.pid} {wallet_sandbox.process.pgid}\\n")
    # A long test: blocks until the outer test interrupts or kills this run.
    threading.Event().wait(120)
"""


@dataclass
class InterruptedRun:
    """A pytest run whose test waits to be interrupted, and its sandbox's pid and process group."""

    process: subprocess.Popen[bytes]
    pid: int | None
    group: int
    log: Path

    def output(self) -> str:
        return self.log.read_text()


def start_interrupted_run(pytester: pytest.Pytester, *args: str) -> InterruptedRun:
    """
    The run in a process group of its own (as a shell runs a foreground job), once its sandbox is
    up: the test says so through a named pipe, which works under xdist too (a worker's output is
    not shown).
    """
    pytester.makepyfile(test_inner_interrupted=INNER_TEST)
    started = pytester.path / "started"
    os.mkfifo(started)
    # Open for reading and writing: never at end of file, so select waits for the line.
    fifo = os.open(started, os.O_RDWR | os.O_NONBLOCK)
    log = pytester.path / "run.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "test_inner_interrupted.py", *args],
            cwd=pytester.path,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env={**os.environ, "STARTED_FIFO": str(started)},
        )
    try:
        if not select.select([fifo], [], [], 60)[0]:
            process.kill()
            raise AssertionError(f"the run did not start its sandbox within 60 s; it wrote:\n{log.read_text()}")
        pid, group = os.read(fifo, 100).decode().split()
    finally:
        os.close(fifo)
    return InterruptedRun(process, None if pid == "None" else int(pid), int(group), log)
