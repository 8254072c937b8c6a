"""The watchdog between a test process and the sandbox it started.

Run as a script (``python supervisor.py [--grace S] [--stop-command JSON] -- command...``) in a
process group of its own, with its standard input a pipe from the test process. It starts the
command in that group and stops the whole group when the pipe closes. A pipe closes however the
test process ends: a clean teardown closes it, and so does the kernel when the process dies of
Ctrl-C, an exception or SIGKILL, which no signal handler or atexit hook in the test process would
survive. Standard library only, and no import of the package: it runs by its path.

Stopping: the stop command first (``docker stop NAME`` for a container), then SIGTERM to the group,
then SIGKILL after the grace period. The supervisor is the children's subreaper where Linux offers
it, so it also waits for a grandchild (``npx`` starts the CLI as one) and exits only once every
process it started is gone. Its exit code is the command's (128 + n when signal n ended it).

The supervisor itself may be killed (SIGKILL stops it before it can stop anything): on Linux the
command gets SIGTERM from the kernel then (PR_SET_PDEATHSIG), and passes it on as it does any
SIGTERM (the CLI flushes and exits; npx and ``docker run`` forward it).
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import select
import signal
import subprocess
import sys
import time
from typing import Callable

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36


def prctl() -> Callable[..., int] | None:
    """Linux's prctl(2), or None elsewhere."""
    try:
        call: Callable[..., int] = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    return call


def become_subreaper() -> None:
    """Orphaned descendants come to this process instead of init, so it can wait for them."""
    call = prctl()
    if call is not None:
        call(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    # Not Linux: only the direct child is waited for.


def ended_with(supervisor: int) -> Callable[[], None] | None:
    """
    Run in the command's process before it execs (``preexec_fn``): SIGTERM for it when the
    supervisor is gone, whatever ended the supervisor. None where there is no prctl.
    """
    call = prctl()
    if call is None:
        return None

    def arrange() -> None:
        # The supervisor's own handler would swallow a SIGTERM that came before the exec.
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        call(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        if os.getppid() != supervisor:  # It died before the line above.
            os.kill(os.getpid(), signal.SIGTERM)

    return arrange


def exit_code(status: int) -> int:
    code = os.waitstatus_to_exitcode(status)
    return 128 - code if code < 0 else code


class Group:
    """The supervisor's children, reaped as SIGCHLD arrives; a signal wakes the loop through a pipe."""

    def __init__(self) -> None:
        self.wake_r, wake_w = os.pipe()
        os.set_blocking(wake_w, False)
        signal.set_wakeup_fd(wake_w)
        self.signals: set[int] = set()
        for number in (*STOP_SIGNALS, signal.SIGCHLD):
            signal.signal(number, self._note)
        self.child_pid = -1
        self.code: int | None = None
        self.empty = False

    def _note(self, number: int, _frame: object) -> None:
        self.signals.add(number)

    def reap(self) -> None:
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                self.empty = True
                return
            if pid == 0:
                return
            if pid == self.child_pid:
                self.code = exit_code(status)

    def wait(self, readable: list[int], timeout: float | None) -> list[int]:
        ready, _, _ = select.select([self.wake_r, *readable], [], [], timeout)
        if self.wake_r in ready:
            os.read(self.wake_r, 512)
        self.reap()
        return ready


def supervise(command: list[str], grace: float, stop_command: list[str] | None) -> int:
    become_subreaper()
    group = Group()
    try:
        child = subprocess.Popen(command, stdin=subprocess.DEVNULL, preexec_fn=ended_with(os.getpid()))
    except OSError as error:
        sys.stderr.write(f"cannot run {command[0]}: {error.strerror}\n")
        return 127 if isinstance(error, FileNotFoundError) else 126
    group.child_pid = child.pid
    stdin = sys.stdin.fileno()
    # Until the pipe closes, a stop signal comes, or the command ends by itself.
    while group.code is None and not (group.signals & set(STOP_SIGNALS)):
        if stdin in group.wait([stdin], None) and not os.read(stdin, 4096):
            break
    stop(group, grace, stop_command)
    return group.code if group.code is not None else 1


def stop(group: Group, grace: float, stop_command: list[str] | None) -> None:
    if stop_command and group.code is None:
        try:
            subprocess.run(stop_command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, timeout=grace + 10)
        except (OSError, subprocess.TimeoutExpired) as error:
            sys.stderr.write(f"stop command {stop_command} failed: {error}\n")
    # Our own handler takes the SIGTERM we send the group, so the supervisor stays to wait.
    os.killpg(os.getpgrp(), signal.SIGTERM)
    deadline = time.monotonic() + grace
    while not group.empty and time.monotonic() < deadline:
        group.wait([], deadline - time.monotonic())
    if not group.empty:
        sys.stderr.write(f"still running {grace:g} s after SIGTERM: SIGKILL to the process group\n")
        sys.stderr.flush()
        os.killpg(os.getpgrp(), signal.SIGKILL)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="wallet_sandbox.supervisor")
    parser.add_argument("--grace", type=float, default=5.0)
    parser.add_argument("--stop-command", type=json.loads, default=None)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    options = parser.parse_args(argv)
    command = options.command[1:] if options.command[:1] == ["--"] else options.command
    if not command:
        parser.error("no command given")
    return supervise(command, options.grace, options.stop_command)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
