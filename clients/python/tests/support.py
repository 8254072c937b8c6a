"""What the tests share: this checkout's CLI, and watching processes that are not our children."""

from __future__ import annotations

import os
import re
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from wallet_sandbox import SandboxAccount

REPO = Path(__file__).resolve().parents[3]
#: This checkout's CLI (npm run build first), as pyproject.toml's wallet_sandbox_bin names it.
CLI = REPO / "bin" / "wallet-sandbox.js"
#: A polygon address outside the sandbox, for payments out of a USDC wallet on polygon.
RECIPIENT = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"


def pay(account: SandboxAccount, amount: str = "10.00") -> dict[str, Any]:
    """A payment out of the account's first USDC wallet on polygon: pending, under --settle manual."""
    wallet = account.wallet("USDC", "polygon")
    return account.post("/payments", {"source_wallet": wallet["id"], "amount": amount, "currency": "USDC", "recipient": RECIPIENT})


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


def line_with(proc: subprocess.Popen[str], marker: str, timeout: float) -> str:
    """The first line of the child's stdout that contains ``marker``; AssertionError with what it wrote else."""
    assert proc.stdout is not None
    seen: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([proc.stdout], [], [], deadline - time.monotonic())
        if not ready:
            break
        line = proc.stdout.readline()
        if not line:
            break
        if marker in line:
            return line
        seen.append(line)
    raise AssertionError(f"no line with {marker!r} within {timeout:g} s; the run wrote:\n{''.join(seen)}")


INNER_TEST = """
import threading

def test_waits_to_be_interrupted(wallet_sandbox):
    print(f"SANDBOX {wallet_sandbox.pid} {wallet_sandbox.process.pgid}", flush=True)
    # A long test: blocks until the outer test interrupts or kills this run.
    threading.Event().wait(120)
"""


def start_interrupted_run(pytester: pytest.Pytester, *args: str) -> tuple[subprocess.Popen[str], int | None, int]:
    """
    A pytest run in a process group of its own (as a shell runs a foreground job) whose test waits
    to be interrupted, once its sandbox is up: the run, the sandbox's pid and its process group.
    """
    pytester.makepyfile(test_inner_interrupted=INNER_TEST)
    run = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-s", "-p", "no:cacheprovider", "test_inner_interrupted.py", *args],
        cwd=pytester.path,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        # With -s the line may follow the test's name.
        pid, group = re.search(r"SANDBOX (\d+|None) (\d+)", line_with(run, "SANDBOX ", timeout=60)).groups()  # type: ignore[union-attr]
    except AssertionError:
        run.kill()
        raise
    return run, None if pid == "None" else int(pid), int(group)
