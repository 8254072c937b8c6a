"""Ctrl-C in the middle of a run, or a test process killed outright, leaves no sandbox process."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys

import pytest

from support import alive, ended_within, group_members, line_with

INNER_TEST = """
import threading

def test_waits_to_be_interrupted(wallet_sandbox):
    print(f"SANDBOX {wallet_sandbox.pid} {wallet_sandbox.process.pgid}", flush=True)
    # A long test: blocks until the outer test interrupts or kills this run.
    threading.Event().wait(120)
"""


def start_run(pytester: pytest.Pytester) -> tuple[subprocess.Popen[str], int, int]:
    """A pytest run in a process group of its own (as a shell runs a foreground job), once its sandbox is up."""
    pytester.makepyfile(test_inner=INNER_TEST)
    run = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-s", "-p", "no:cacheprovider", "test_inner.py"],
        cwd=pytester.path,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        # With -s the line may follow the test's name.
        pid, group = re.search(r"SANDBOX (\d+) (\d+)", line_with(run, "SANDBOX ", timeout=60)).groups()  # type: ignore[union-attr]
    except AssertionError:
        run.kill()
        raise
    assert alive(int(pid))
    return run, int(pid), int(group)


def test_ctrl_c_in_the_middle_of_a_run_leaves_no_sandbox_process(pytester: pytest.Pytester, inner_ini: object) -> None:
    run, pid, group = start_run(pytester)
    # What a terminal's Ctrl-C does: SIGINT to the foreground process group.
    os.killpg(run.pid, signal.SIGINT)
    output, _ = run.communicate(timeout=60)
    assert run.returncode == pytest.ExitCode.INTERRUPTED, output
    assert "KeyboardInterrupt" in output
    # The teardown waited for the group: it is gone when pytest has exited.
    assert not alive(pid)
    assert group_members(group) == []


def test_a_killed_test_process_leaves_no_sandbox_process(pytester: pytest.Pytester, inner_ini: object) -> None:
    run, pid, group = start_run(pytester)
    os.killpg(run.pid, signal.SIGKILL)
    run.communicate(timeout=60)
    assert run.returncode == -signal.SIGKILL
    # No teardown ran: the supervisor saw its pipe close and stopped the group by itself.
    assert ended_within(pid, timeout=15), f"the sandbox {pid} outlived the killed test process"
    assert ended_within(group, timeout=15)
    assert group_members(group) == []
