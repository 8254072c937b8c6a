"""Ctrl-C in the middle of a run, or a test process killed outright, leaves no sandbox process."""

from __future__ import annotations

import os
import signal

import pytest

from support import alive, ended_within, group_members, start_interrupted_run

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
    assert run.process.returncode == pytest.ExitCode.INTERRUPTED, run.output()
    assert "KeyboardInterrupt" in run.output()
    # The teardown waited for the group: it is gone when pytest has exited.
    assert not alive(run.pid)
    assert group_members(run.group) == []


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
