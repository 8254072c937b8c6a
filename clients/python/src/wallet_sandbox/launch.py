"""A sandbox command run under the supervisor: its ready line, the tail of its output, its stop."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import threading
from collections import deque
from pathlib import Path
from typing import IO, Any, Mapping, Sequence, TypeVar

from .errors import SandboxProcessError, SandboxStartError

E = TypeVar("E", bound=SandboxProcessError)

SUPERVISOR = str(Path(__file__).with_name("supervisor.py"))
#: How many of the sandbox's first lines a failure shows: a refused flag says so first, then prints help.
HEAD_LINES = 10
#: How many of its last lines: a crash says why last.
TAIL_LINES = 50
#: SIGTERM to SIGKILL, as the supervisor waits (the CLI flushes and exits within milliseconds).
GRACE_S = 5.0


class SandboxProcess:
    """
    ``command`` started through the supervisor, in a process group of its own. Both output streams
    are drained for the life of the process (a full pipe would block the sandbox) into its first
    and last lines; the first stdout line that is a JSON object with ``"ready": true`` is the ready
    line. ``advice``, when given, ends the message of a start that fails.
    """

    def __init__(
        self,
        command: Sequence[str],
        *,
        env: Mapping[str, str] | None = None,
        stop_command: Sequence[str] | None = None,
        advice: str | None = None,
    ) -> None:
        self.command = list(command)
        self.advice = advice
        supervisor = [sys.executable, SUPERVISOR, "--grace", str(GRACE_S)]
        if stop_command:
            supervisor += ["--stop-command", json.dumps(list(stop_command))]
        # start_new_session: the group the supervisor stops, and out of reach of the terminal's
        # Ctrl-C, which must reach the test process only (its teardown or death closes the pipe).
        self._popen = subprocess.Popen(
            [*supervisor, "--", *self.command],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            env=None if env is None else dict(env),
        )
        self._output = OutputLines()
        self._ready = threading.Event()
        self._ready_line: dict[str, Any] | None = None
        self._stdout_closed = False
        assert self._popen.stdout is not None and self._popen.stderr is not None
        self._drains = [
            threading.Thread(target=self._drain, args=(self._popen.stdout, True), daemon=True),
            threading.Thread(target=self._drain, args=(self._popen.stderr, False), daemon=True),
        ]
        for drain in self._drains:
            drain.start()

    @property
    def pgid(self) -> int:
        """The process group: the supervisor leads it, the sandbox is in it."""
        return self._popen.pid

    @property
    def returncode(self) -> int | None:
        return self._popen.poll()

    def output(self) -> list[str]:
        """The first and last lines of stdout and stderr, interleaved as they came."""
        return self._output.lines()

    def wait_ready(self, timeout: float) -> dict[str, Any]:
        """The ready line; raises SandboxStartError if the process exits first or ``timeout`` passes."""
        __tracebackhide__ = True  # pytest shows the message, not this frame.
        # Set by the ready line, or by the end of stdout (the supervisor exits last: the process ended).
        self._ready.wait(timeout)
        if self._ready_line is not None:
            return self._ready_line
        if not self._stdout_closed:
            code = self.stop()
            raise self.start_error(
                f"wrote no ready line within {timeout:g} s (--wallet-sandbox-start-timeout); "
                f"stopped then, it exited with code {code}"
            )
        code = self._popen.wait()
        self._drains[1].join(1)
        raise self.start_error(f"exited with code {code} before it was ready")

    def start_error(self, what: str) -> SandboxStartError:
        advice = f" {self.advice}" if self.advice else ""
        return self._error(SandboxStartError, f"wallet-sandbox did not start: `{shlex.join(self.command)}` {what}.{advice}")

    def exit_error(self) -> SandboxProcessError:
        """For a sandbox that ended before the session did."""
        return self._error(SandboxProcessError, f"wallet-sandbox stopped during the session: `{shlex.join(self.command)}` exited with code {self.returncode}.")

    def _error(self, kind: type[E], headline: str) -> E:
        lines = self.output()
        shown = "\n".join(f"  {line}" for line in lines) if lines else "  (it wrote nothing)"
        return kind(f"{headline} {self._output.title()}:\n{shown}", command=self.command, returncode=self.returncode, output=lines)

    def stop(self) -> int:
        """Closes the supervisor's pipe (its cue to stop the group) and waits; SIGKILL if it hangs."""
        if self._popen.stdin is not None and not self._popen.stdin.closed:
            try:
                self._popen.stdin.close()
            except BrokenPipeError:
                pass
        try:
            self._popen.wait(GRACE_S + 15)
        except subprocess.TimeoutExpired:
            os.killpg(self.pgid, signal.SIGKILL)
            self._popen.wait()
        for drain in self._drains:
            drain.join(1)
        return self._popen.returncode

    def _drain(self, stream: IO[bytes], stdout: bool) -> None:
        for raw in iter(stream.readline, b""):
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            self._output.add(line if stdout else f"stderr: {line}")
            if stdout and self._ready_line is None:
                self._ready_line = ready_line(line)
                if self._ready_line is not None:
                    self._ready.set()
        stream.close()
        if stdout:
            self._stdout_closed = True
            self._ready.set()


def ready_line(line: str) -> dict[str, Any] | None:
    if not line.startswith("{"):
        return None
    try:
        parsed = json.loads(line)
    except ValueError:
        return None
    return parsed if isinstance(parsed, dict) and parsed.get("ready") is True else None


class OutputLines:
    """The first ``HEAD_LINES`` and the last ``TAIL_LINES`` lines of a process's output, as they came."""

    def __init__(self) -> None:
        self._head: list[str] = []
        self._tail: deque[str] = deque(maxlen=TAIL_LINES)
        self._count = 0
        self._lock = threading.Lock()

    def add(self, line: str) -> None:
        with self._lock:
            (self._head.append if len(self._head) < HEAD_LINES else self._tail.append)(line)
            self._count += 1

    def lines(self) -> list[str]:
        """Every line kept, and between the first and the last, how many were not."""
        with self._lock:
            left_out = self._count - len(self._head) - len(self._tail)
            return [*self._head, *([f"… {left_out} lines left out …"] if left_out else []), *self._tail]

    def title(self) -> str:
        with self._lock:
            kept = len(self._head) + len(self._tail)
            return "Its output" if kept == self._count else f"The first {len(self._head)} and the last {len(self._tail)} of its {self._count} lines"
