"""Ctrl-C in the middle of a run, or a test process or the supervisor killed outright, leaves no sandbox process."""

from __future__ import annotations

import os
import signal

import pytest

from support import CLI, alive, ended_within, group_members, start_interrupted_run
from wallet_sandbox import start_sandbox

# A run with its sandbox in the test process, and one whose sandboxes are in xdist's workers.
RUNS = [pytest.param([], id="plain"), pytest.param(["-n", "2"], id="xdist")]


@pytest.mark.parametrize("args", RUNS)
def test_ctrl_c_in_the_middle_of_a_run_leaves_no_sandbox_process(pytester: pytest.Pytester, inner_ini: object, args: list[str]) -> None:
    if args:
        pytest.importorskip("xdist", reason="pytest-xdist is not installed for this interpreter (Debian: python3-pytest-xdist)")
    run = start_interrupted_run(pytester, *args)
    assert run.pid is not None and alive(run.pid)
    # What a terminal's Ctrl-C does: SIGINT to the foreground process group.
    os.killpg(run.process.pid, signal.SIGINT)
    run.process.wait(timeout=60)
    output = run.output()
    assert "KeyboardInterrupt" in output
    # The teardown waited for the group: it is gone when pytest has exited.
    assert not alive(run.pid)
    assert group_members(run.group) == []
    assert run.process.returncode == pytest.ExitCode.INTERRUPTED or cpython_condition_race(args, run.process.returncode, output), output


def cpython_condition_race(args: list[str], returncode: int, output: str) -> bool:
    """
    xdist's controller waits on a queue; a KeyboardInterrupt that lands inside threading.Condition's
    own lock handling makes it raise "release unlocked lock" (python/cpython#78667, open), and pytest
    exits with INTERNALERROR instead of INTERRUPTED. Ours is the sandbox's cleanup, checked above.
    """
    return bool(args) and returncode == pytest.ExitCode.INTERNAL_ERROR and "RuntimeError: release unlocked lock" in output


@pytest.mark.parametrize("args", RUNS)
def test_a_killed_test_process_leaves_no_sandbox_process(pytester: pytest.Pytester, inner_ini: object, args: list[str]) -> None:
    if args:
        pytest.importorskip("xdist", reason="pytest-xdist is not installed for this interpreter (Debian: python3-pytest-xdist)")
    run = start_interrupted_run(pytester, *args)
    assert run.pid is not None and alive(run.pid)
    # The run's whole group: under xdist its workers too.
    os.killpg(run.process.pid, signal.SIGKILL)
    run.process.wait(timeout=60)
    assert run.process.returncode == -signal.SIGKILL
    # No teardown ran: the supervisor saw its pipe close and stopped the group by itself.
    assert ended_within(run.pid, timeout=15), f"the sandbox {run.pid} outlived the killed test process"
    assert ended_within(run.group, timeout=15)
    assert group_members(run.group) == []


def test_a_killed_supervisor_takes_its_sandbox_with_it() -> None:
    sandbox = start_sandbox(["node", str(CLI)])
    assert sandbox.pid is not None and sandbox.process is not None
    supervisor = sandbox.process.pgid  # It leads the group it started the sandbox in.
    os.kill(supervisor, signal.SIGKILL)
    try:
        # Nothing stopped it: the kernel told the sandbox that its parent was gone (PR_SET_PDEATHSIG).
        assert ended_within(sandbox.pid, timeout=15), f"the sandbox {sandbox.pid} outlived its killed supervisor"
        assert group_members(supervisor) == []
    finally:
        kill_leftovers(supervisor)
    sandbox.stop()  # Returns at once: there is nothing left to stop.


def test_a_run_killed_with_its_supervisor_leaves_no_sandbox_process(pytester: pytest.Pytester, inner_ini: object) -> None:
    run = start_interrupted_run(pytester)
    assert run.pid is not None and alive(run.pid)
    os.killpg(run.process.pid, signal.SIGKILL)
    os.kill(run.group, signal.SIGKILL)  # The supervisor, which leads the sandbox's group.
    run.process.wait(timeout=60)
    try:
        assert ended_within(run.pid, timeout=15), f"the sandbox {run.pid} outlived the killed test process and supervisor"
        assert group_members(run.group) == []
    finally:
        kill_leftovers(run.group)


def kill_leftovers(group: int) -> None:
    """A failed test's sandbox, which nothing else would stop."""
    for pid in group_members(group):
        os.kill(pid, signal.SIGKILL)
