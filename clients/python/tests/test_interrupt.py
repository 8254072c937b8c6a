"""Ctrl-C in the middle of a run, or a test process killed outright, leaves no sandbox process."""

from __future__ import annotations

import os
import signal

import pytest

from support import alive, ended_within, group_members, start_interrupted_run


def test_ctrl_c_in_the_middle_of_a_run_leaves_no_sandbox_process(pytester: pytest.Pytester, inner_ini: object) -> None:
    run, pid, group = start_interrupted_run(pytester)
    assert pid is not None and alive(pid)
    # What a terminal's Ctrl-C does: SIGINT to the foreground process group.
    os.killpg(run.pid, signal.SIGINT)
    output, _ = run.communicate(timeout=60)
    assert run.returncode == pytest.ExitCode.INTERRUPTED, output
    assert "KeyboardInterrupt" in output
    # The teardown waited for the group: it is gone when pytest has exited.
    assert not alive(pid)
    assert group_members(group) == []


def test_a_killed_test_process_leaves_no_sandbox_process(pytester: pytest.Pytester, inner_ini: object) -> None:
    run, pid, group = start_interrupted_run(pytester)
    assert pid is not None and alive(pid)
    os.killpg(run.pid, signal.SIGKILL)
    run.communicate(timeout=60)
    assert run.returncode == -signal.SIGKILL
    # No teardown ran: the supervisor saw its pipe close and stopped the group by itself.
    assert ended_within(pid, timeout=15), f"the sandbox {pid} outlived the killed test process"
    assert ended_within(group, timeout=15)
    assert group_members(group) == []
