"""What goes wrong with a sandbox, each with the message that says what to do."""

from __future__ import annotations

from typing import Any, Sequence

#: The sandbox versions this plugin speaks to: the same major.minor.
SUPPORTED_VERSION = "0.1"


class SandboxProcessError(RuntimeError):
    """The sandbox's process failed: the message names the command, its exit code and its last lines."""

    def __init__(self, message: str, *, command: Sequence[str], returncode: int | None, output: Sequence[str]) -> None:
        super().__init__(message)
        self.command = list(command)
        self.returncode = returncode
        self.output = list(output)


class SandboxStartError(SandboxProcessError):
    """The sandbox did not start (or, attaching, does not answer)."""


class SandboxVersionError(RuntimeError):
    """The sandbox is a version this plugin was not written for."""


class SandboxApiError(Exception):
    """
    An answer other than 2xx. ``status``, the sandbox's error ``code`` (``resource_missing``…), the
    ``param`` it names when a field was wrong, the ``request_id`` (to find the request in the
    sandbox's log: ``wallet-sandbox tail``, the dashboard) and the parsed ``body`` are kept; the
    message is the method, the URL and the sandbox's own words.
    """

    def __init__(self, method: str, url: str, status: int, body: Any, request_id: str | None = None) -> None:
        error = body.get("error") if isinstance(body, dict) else None
        self.status = status
        self.code: str | None = error.get("code") if isinstance(error, dict) else None
        self.param: str | None = error.get("param") if isinstance(error, dict) else None
        # The body's, as the API's error envelope has it; the X-Request-Id header's otherwise.
        self.request_id: str | None = (body.get("request_id") if isinstance(body, dict) else None) or request_id
        self.body = body
        said = error.get("message") if isinstance(error, dict) else body
        request = f" ({self.request_id})" if self.request_id else ""
        super().__init__(f"{method} {url} answered {status}{f' {self.code}' if self.code else ''}: {said}{request}")


class SharedSandboxWarning(UserWarning):
    """
    A sandbox-wide clock advance, snapshot, restore or reset on a sandbox this process did not
    start (``wallet-sandbox exec``, ``WALLET_SANDBOX_BASE_URL``): it reaches every test that shares
    the sandbox. Given once per process; ``-W error::wallet_sandbox.SharedSandboxWarning`` makes it
    an error.
    """


def check_version(version: str | None, where: str) -> None:
    """Raises SandboxVersionError unless ``version`` has the major.minor this plugin was written for."""
    if version is not None and version.split(".")[:2] == SUPPORTED_VERSION.split("."):
        return
    raise SandboxVersionError(
        f"{where} is wallet-sandbox {version or '(no version given)'}, but this plugin speaks to "
        f"{SUPPORTED_VERSION}.x: use wallet-sandbox {SUPPORTED_VERSION}, or the plugin that comes with "
        f"wallet-sandbox {version} (clients/python in its checkout)."
    )
