"""A running sandbox: one this process started (under the supervisor), or one it attached to."""

from __future__ import annotations

import shlex
import urllib.error
import urllib.parse
import warnings
from pathlib import Path
from typing import Any, Mapping, Sequence, Union

from . import transport
from .account import SandboxAccount
from .control import ControlClient
from .errors import SandboxStartError, SandboxVersionError, SharedSandboxWarning, check_version
from .launch import SandboxProcess
from .locate import HOW_TO_NAME_THE_CLI, Cli, configured_command, find_cli

#: The key of the seeded default account, the one the ready line gives.
DEFAULT_API_KEY = "sk_test_sandbox_default_key"
#: A setting's value: ``settle="manual"`` is ``--settle manual``, ``quiet=True`` is ``--quiet``.
Setting = Union[str, int, float, bool, None]

# Said once per process: a suite is told once, not once for every test that shares the sandbox.
_shared_warning_given = False


class Sandbox(ControlClient):
    """
    A sandbox: its addresses (``url`` is what an API client takes as its base URL), the default
    ``api_key``, the control API (ControlClient's methods) and ``create_account()``. ``pid`` is the
    CLI's process when this process started it, else None. As a context manager it stops at the end.
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

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()

    @property
    def shared(self) -> bool:
        """Whether this process did not start it (``exec``, ``WALLET_SANDBOX_BASE_URL``): other test processes may use it too."""
        return self.process is None

    def create_account(self) -> SandboxAccount:
        """A new key on a freshly seeded account: what ``sandbox_account`` gives each test."""
        __tracebackhide__ = True
        if self.process is not None and self.process.returncode is not None:
            raise self.process.exit_error()
        return SandboxAccount(self, self.url, self.create_key())

    def output(self) -> list[str]:
        """The first and last lines the started sandbox wrote (stderr's marked), or [] when attached."""
        return self.process.output() if self.process else []

    def stop(self) -> None:
        """Stops a sandbox this process started (its whole process group); an attached one is left alone."""
        if self.process is not None:
            self.process.stop()

    def _sandbox_wide(self, operation: str) -> None:
        global _shared_warning_given
        if not self.shared or _shared_warning_given:
            return
        _shared_warning_given = True
        warnings.warn(
            f"{operation} on the sandbox at {self.base_url} reaches every test that shares it, and this process did not "
            "start it (wallet-sandbox exec, WALLET_SANDBOX_BASE_URL). Give the test's own account the call "
            "(sandbox_account.advance_clock(), .snapshot(), .restore(), .reset()), or the test a sandbox of its own "
            "(@pytest.mark.wallet_sandbox). Said once per process.",
            SharedSandboxWarning,
            stacklevel=3,
        )


def settings_flags(settings: Mapping[str, Setting]) -> list[str]:
    """The CLI's flags for settings given as keywords: ``settle="manual"`` is ``--settle manual``, ``settle_delay=100`` ``--settle-delay 100``, ``quiet=True`` ``--quiet``; None and False give none."""
    flags: list[str] = []
    for name, value in settings.items():
        flag = f"--{name.replace('_', '-')}"
        if value is True:
            flags.append(flag)
        elif value is not None and value is not False:
            flags += [flag, str(value)]
    return flags


def start_sandbox(
    command: Sequence[str] | str | None = None,
    args: Sequence[str] = (),
    *,
    timeout: float = 30.0,
    env: Mapping[str, str] | None = None,
    **settings: Setting,
) -> Sandbox:
    """
    Starts a sandbox of this process's own and waits for its ready line: ``command --ready-json
    --port 0 args… settings…`` under the supervisor, so it ends with this process however that
    ends. ``command`` is found as the plugin finds it when not given (``WALLET_SANDBOX_BIN``, then
    ``node_modules/.bin/wallet-sandbox`` here or above, PATH, npx); a string is a path or a command
    line. ``settings`` are the CLI's flags as keywords (``settle="manual"``). Stop it with ``stop()``,
    or use it as a context manager: ``with start_sandbox(clock="manual") as sandbox: ...``.
    """
    __tracebackhide__ = True
    if command is None:
        cli = find_cli(None, Path.cwd(), [Path.cwd()])
    else:
        cli = Cli(configured_command(command, Path.cwd()) if isinstance(command, str) else list(command), "the caller")
    return launch(cli, [*args, *settings_flags(settings)], timeout=timeout, env=env)


def launch(cli: Cli, args: Sequence[str], *, timeout: float, env: Mapping[str, str] | None = None) -> Sandbox:
    """``start_sandbox`` of a CLI already found."""
    __tracebackhide__ = True
    advice = f"No CLI was found in node_modules/.bin or on PATH, so npx was tried. {HOW_TO_NAME_THE_CLI}" if cli.guessed else None
    process = SandboxProcess([*cli.command, "--ready-json", "--port", "0", *args], env=env, advice=advice)
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
    parts = urllib.parse.urlsplit(base_url)
    if parts.path.rstrip("/").endswith("/v1"):
        root = urllib.parse.urlunsplit(parts._replace(path=parts.path.rstrip("/")[: -len("/v1")]))
        raise SandboxStartError(
            f"{where} ends in /v1, but WALLET_SANDBOX_BASE_URL is the address without it: drop the /v1 ({root}). "
            "WALLET_SANDBOX_URL is the one with /v1, for an API client.",
            command=[],
            returncode=None,
            output=[],
        )
    try:
        answer = transport.send("GET", f"{base_url.rstrip('/')}/_sandbox/health", timeout=10)
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise SandboxStartError(f"{where} does not answer: {reason}. Start it first, or unset the variable to let the plugin start one.", command=[], returncode=None, output=[]) from error
    version = answer.headers.get("Wallet-Sandbox-Version")
    check_version(version, where)
    return Sandbox(base_url, api_key=api_key or DEFAULT_API_KEY, control_token=control_token, version=version)
