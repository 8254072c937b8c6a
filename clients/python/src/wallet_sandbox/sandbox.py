"""A running sandbox: one the plugin started (under the supervisor), or one it attached to."""

from __future__ import annotations

import shlex
import urllib.error
from typing import Any, Mapping, Sequence

from . import transport
from .account import SandboxAccount
from .control import ControlClient
from .errors import SandboxStartError, SandboxVersionError, check_version
from .launch import SandboxProcess

#: The key of the seeded default account, the one the ready line gives.
DEFAULT_API_KEY = "sk_test_sandbox_default_key"


class Sandbox(ControlClient):
    """
    The session's sandbox: its addresses (``url`` is what an API client takes as its base URL),
    the default ``api_key``, the control API (ControlClient's methods) and ``create_account()``.
    ``pid`` is the CLI's process when the plugin started it, else None.
    """

    def __init__(
        self,
        base_url: str,
        *,
        api_key: str = DEFAULT_API_KEY,
        control_token: str | None = None,
        version: str | None = None,
        pid: int | None = None,
        process: SandboxProcess | None = None,
    ) -> None:
        super().__init__(base_url, control_token)
        self.url = f"{self.base_url}/v1"
        self.stream_url = f"ws{self.base_url[4:]}/v1/stream"
        self.api_key = api_key
        self.version = version
        self.pid = pid
        self.process = process

    def __repr__(self) -> str:
        how = f"pid={self.pid}" if self.pid else "started" if self.process else "attached"
        return f"Sandbox({self.base_url!r}, version={self.version!r}, {how})"

    def create_account(self) -> SandboxAccount:
        """A new key on a freshly seeded account: what ``sandbox_account`` gives each test."""
        __tracebackhide__ = True
        if self.process is not None and self.process.returncode is not None:
            raise self.process.exit_error()
        return SandboxAccount(self, self.url, self.create_key())

    def output(self) -> list[str]:
        """The last lines the started sandbox wrote (stderr's marked), or [] when attached."""
        return self.process.output() if self.process else []

    def stop(self) -> None:
        """Stops a sandbox the plugin started (its whole process group); an attached one is left alone."""
        if self.process is not None:
            self.process.stop()


def start_sandbox(command: Sequence[str], args: Sequence[str] = (), *, timeout: float = 30.0, env: Mapping[str, str] | None = None) -> Sandbox:
    """Runs ``command --ready-json --port 0 args…`` under the supervisor and waits for its ready line."""
    __tracebackhide__ = True
    process = SandboxProcess([*command, "--ready-json", "--port", "0", *args], env=env)
    ready = process.wait_ready(timeout)
    try:
        check_version(ready.get("version"), f"`{shlex.join(process.command)}`")
    except SandboxVersionError:
        process.stop()
        raise
    return from_ready_line(ready, ready["base_url"], process, pid=ready.get("pid"))


def from_ready_line(ready: Mapping[str, Any], base_url: str, process: SandboxProcess, pid: int | None) -> Sandbox:
    return Sandbox(base_url, api_key=ready["api_key"], control_token=ready.get("control_token"), version=ready["version"], pid=pid, process=process)


def attach_sandbox(base_url: str, *, control_token: str | None = None, api_key: str | None = None) -> Sandbox:
    """A sandbox already running (``WALLET_SANDBOX_BASE_URL``): checked to answer and to be a version this plugin speaks to."""
    __tracebackhide__ = True
    where = f"The sandbox at {base_url} (WALLET_SANDBOX_BASE_URL)"
    try:
        answer = transport.send("GET", f"{base_url.rstrip('/')}/_sandbox/health", timeout=10)
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise SandboxStartError(f"{where} does not answer: {reason}. Start it first, or unset the variable to let the plugin start one.", command=[], returncode=None, output=[]) from error
    version = answer.headers.get("Wallet-Sandbox-Version")
    check_version(version, where)
    return Sandbox(base_url, api_key=api_key or DEFAULT_API_KEY, control_token=control_token, version=version)
