"""
The pytest plugin (entry point ``pytest11``): options, and the fixtures ``wallet_sandbox`` (one
sandbox per session, so one per pytest-xdist worker), ``sandbox_account`` (a fresh account per test)
and ``webhook_receiver``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import pytest

from .account import SandboxAccount
from .container import container_engine, start_container
from .locate import find_cli
from .receiver import WebhookReceiver
from .sandbox import Sandbox, attach_sandbox, start_sandbox

#: Seconds to wait for the ready line: node's first start on a loaded machine takes a few.
DEFAULT_START_TIMEOUT_S = 30.0

OPTIONS = (
    ("bin", "the wallet-sandbox command: a path (a .js file runs with node) or a command line; "
     "default: WALLET_SANDBOX_BIN, else node_modules/.bin/wallet-sandbox in the rootdir or above, then PATH, then npx --no-install"),
    ("image", "run this container image instead of the CLI (engine: docker, or WALLET_SANDBOX_CONTAINER_ENGINE)"),
    ("start-timeout", f"seconds to wait for the sandbox's ready line (default {DEFAULT_START_TIMEOUT_S:g})"),
)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("wallet-sandbox", "wallet-sandbox (the started sandbox; WALLET_SANDBOX_BASE_URL attaches instead)")
    for name, help in OPTIONS:
        ini = f"wallet_sandbox_{name.replace('-', '_')}"
        group.addoption(f"--wallet-sandbox-{name}", dest=ini, default=None, help=f"{help}. ini: {ini}")
        parser.addini(ini, help=help, default=None)
    parser.addini("wallet_sandbox_args", type="args", default=[], help="flags for the started sandbox (--clock manual --settle manual …)")


@dataclass(frozen=True)
class Settings:
    """Where the options say the session's sandbox comes from."""

    command: list[str] | None
    found_by: str
    image: str | None
    start_timeout: float
    base_url: str | None

    def describe(self) -> str:
        if self.base_url:
            return f"attaches to {self.base_url} (WALLET_SANDBOX_BASE_URL)"
        if self.image:
            return f"runs the image {self.image} with {container_engine()}"
        return f"starts {' '.join(self.command or [])} (found by {self.found_by})"


def settings(config: pytest.Config) -> Settings:
    def option(ini: str) -> tuple[str | None, Path]:
        """The flag's value (paths relative to where pytest runs), else the ini's (relative to the ini file)."""
        given = config.getoption(ini)
        if given is not None:
            return given, config.invocation_params.dir
        return config.getini(ini) or None, config.inipath.parent if config.inipath else config.rootpath

    base_url = os.environ.get("WALLET_SANDBOX_BASE_URL") or None
    image = option("wallet_sandbox_image")[0]
    raw_timeout = option("wallet_sandbox_start_timeout")[0] or DEFAULT_START_TIMEOUT_S
    try:
        timeout = float(raw_timeout)
    except ValueError:
        raise pytest.UsageError(f"--wallet-sandbox-start-timeout (wallet_sandbox_start_timeout) takes seconds, not {raw_timeout!r}") from None
    command, found_by = None, ""
    if not base_url and not image:
        configured, relative_to = option("wallet_sandbox_bin")
        from_env = os.environ.get("WALLET_SANDBOX_BIN") or None
        if configured is None and from_env is not None:
            # The variable every helper reads (Go and Ruby too): one setting for a CI that runs them all.
            command, found_by = find_cli(from_env, config.invocation_params.dir, [])[0], "WALLET_SANDBOX_BIN"
        else:
            command, found_by = find_cli(configured, relative_to, [config.rootpath, config.invocation_params.dir])
    return Settings(command, found_by, image, timeout, base_url)


def pytest_report_header(config: pytest.Config) -> str:
    try:
        return f"wallet-sandbox: {settings(config).describe()}"
    except Exception as error:  # The header only reports; the fixture raises when a test needs it.
        return f"wallet-sandbox: {error}"


@pytest.fixture(scope="session")
def wallet_sandbox_args(pytestconfig: pytest.Config) -> list[str]:
    """Flags for the started sandbox: the ini's ``wallet_sandbox_args``; override it in a conftest."""
    return list(pytestconfig.getini("wallet_sandbox_args"))


@pytest.fixture(scope="session")
def wallet_sandbox(pytestconfig: pytest.Config, wallet_sandbox_args: list[str]) -> Iterator[Sandbox]:
    """
    The session's sandbox (each xdist worker has its own): attached per WALLET_SANDBOX_BASE_URL,
    else started from the image or the CLI, and stopped with its whole process group at the end.
    """
    chosen = settings(pytestconfig)
    if chosen.base_url:
        sandbox = attach_sandbox(
            chosen.base_url,
            control_token=os.environ.get("WALLET_SANDBOX_CONTROL_TOKEN") or None,
            api_key=os.environ.get("WALLET_SANDBOX_API_KEY") or None,
        )
    elif chosen.image:
        sandbox = start_container(chosen.image, wallet_sandbox_args, timeout=chosen.start_timeout)
    else:
        assert chosen.command is not None
        sandbox = start_sandbox(chosen.command, wallet_sandbox_args, timeout=chosen.start_timeout)
    try:
        yield sandbox
    finally:
        sandbox.stop()


@pytest.fixture
def sandbox_account(wallet_sandbox: Sandbox) -> SandboxAccount:
    """A fresh ``sk_test_`` key on a freshly seeded account: no other test sees its wallets or events."""
    return wallet_sandbox.create_account()


@pytest.fixture
def webhook_receiver() -> Iterator[WebhookReceiver]:
    """A verifying webhook receiver on 127.0.0.1; set its ``secret`` to the endpoint's."""
    with WebhookReceiver() as receiver:
        yield receiver
