"""
The pytest plugin (entry point ``pytest11``): options, the ``wallet_sandbox`` marker, and the
fixtures ``wallet_sandbox`` (one sandbox per session, so one per pytest-xdist worker, or a marked
test's own), ``sandbox_account`` (a fresh account per test) and ``webhook_receiver``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generator, Iterator, Sequence

import pytest

from . import marker
from .account import SandboxAccount
from .container import container_engine, start_container
from .errors import SandboxProcessError, SandboxVersionError
from .locate import Cli, find_cli
from .receiver import WebhookReceiver
from .sandbox import Sandbox, attach_sandbox, launch

#: Seconds to wait for the ready line: node's first start on a loaded machine takes a few.
DEFAULT_START_TIMEOUT_S = 30.0

OPTIONS = (
    ("bin", "the wallet-sandbox command: a path (a .js file runs with node) or a command line; "
     "default: WALLET_SANDBOX_BIN, else node_modules/.bin/wallet-sandbox in the rootdir or above, then PATH, then npx --no-install"),
    ("image", "run this container image instead of the CLI (engine: docker, or WALLET_SANDBOX_CONTAINER_ENGINE)"),
    ("start-timeout", f"seconds to wait for the sandbox's ready line (default {DEFAULT_START_TIMEOUT_S:g})"),
)

# The first test whose setup failed with each sandbox error: the others point to it.
_FIRST_FAILED = pytest.StashKey[dict]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("wallet-sandbox", "wallet-sandbox (the started sandbox; WALLET_SANDBOX_BASE_URL attaches instead)")
    for name, help in OPTIONS:
        ini = f"wallet_sandbox_{name.replace('-', '_')}"
        group.addoption(f"--wallet-sandbox-{name}", dest=ini, default=None, help=f"{help}. ini: {ini}")
        parser.addini(ini, help=help, default=None)
    parser.addini("wallet_sandbox_args", type="args", default=[], help="flags for the started sandbox (--clock manual --settle manual …)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", marker.DESCRIPTION)


@dataclass(frozen=True)
class Settings:
    """Where the options say the session's sandbox comes from."""

    base_url: str | None
    image: str | None
    start_timeout: float
    bin: str | None
    bin_relative_to: Path
    rootdir: Path
    invocation_dir: Path

    def cli(self) -> Cli:
        return find_cli(self.bin, self.bin_relative_to, [self.rootdir, self.invocation_dir], cwd=self.invocation_dir)

    def describe(self) -> str:
        if self.base_url:
            return f"attaches to {self.base_url} (WALLET_SANDBOX_BASE_URL)"
        if self.image:
            return f"runs the image {self.image} with {container_engine()}"
        return f"starts {self.cli().describe()}"

    def sandbox(self, args: Sequence[str], own: marker.OwnSandbox | None) -> Sandbox:
        """The sandbox to attach to, else one to start: a marked test's own is always started, with its flags."""
        __tracebackhide__ = True
        if own is not None:
            return self.start([*args, *own.flags])
        if self.base_url:
            return attach_sandbox(
                self.base_url,
                control_token=os.environ.get("WALLET_SANDBOX_CONTROL_TOKEN") or None,
                api_key=os.environ.get("WALLET_SANDBOX_API_KEY") or None,
            )
        return self.start(args)

    def start(self, args: Sequence[str]) -> Sandbox:
        """A sandbox of this process's own, from the image or the CLI, whatever the variables say."""
        __tracebackhide__ = True
        if self.image:
            return start_container(self.image, args, timeout=self.start_timeout)
        return launch(self.cli(), args, timeout=self.start_timeout)


def settings(config: pytest.Config) -> Settings:
    def option(ini: str) -> tuple[str | None, Path]:
        """The flag's value (paths relative to where pytest runs), else the ini's (relative to the ini file)."""
        given = config.getoption(ini)
        if given is not None:
            return given, config.invocation_params.dir
        return config.getini(ini) or None, config.inipath.parent if config.inipath else config.rootpath

    raw_timeout = option("wallet_sandbox_start_timeout")[0] or DEFAULT_START_TIMEOUT_S
    try:
        timeout = float(raw_timeout)
    except ValueError:
        raise pytest.UsageError(f"--wallet-sandbox-start-timeout (wallet_sandbox_start_timeout) takes seconds, not {raw_timeout!r}") from None
    configured, relative_to = option("wallet_sandbox_bin")
    return Settings(
        base_url=os.environ.get("WALLET_SANDBOX_BASE_URL") or None,
        image=option("wallet_sandbox_image")[0],
        start_timeout=timeout,
        bin=configured,
        bin_relative_to=relative_to,
        rootdir=config.rootpath,
        invocation_dir=config.invocation_params.dir,
    )


def pytest_report_header(config: pytest.Config) -> str:
    try:
        return f"wallet-sandbox: {settings(config).describe()}"
    except Exception as error:  # The header only reports; the fixture raises when a test needs it.
        return f"wallet-sandbox: {error}"


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    marker.parametrize(metafunc)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    """A sandbox that did not start fails every test that needs it: the first says why, the others point there."""
    outcome = yield
    error = call.excinfo.value if call.when == "setup" and call.excinfo is not None else None
    if isinstance(error, (SandboxProcessError, SandboxVersionError)):
        first = item.config.stash.setdefault(_FIRST_FAILED, {}).setdefault((type(error), str(error)), item.nodeid)
        if first != item.nodeid:
            outcome.get_result().longrepr = f"{type(error).__name__}: the same error as at the setup of {first}, which shows it whole."


@pytest.fixture(scope="session")
def wallet_sandbox_args(pytestconfig: pytest.Config) -> list[str]:
    """Flags for the started sandbox: the ini's ``wallet_sandbox_args``; override it in a conftest."""
    return list(pytestconfig.getini("wallet_sandbox_args"))


@pytest.fixture(scope="session")
def wallet_sandbox(request: pytest.FixtureRequest, pytestconfig: pytest.Config, wallet_sandbox_args: list[str]) -> Iterator[Sandbox]:
    """
    The session's sandbox (each xdist worker has its own): attached per WALLET_SANDBOX_BASE_URL,
    else started from the image or the CLI, and stopped with its whole process group at the end.
    A test, class or module marked ``wallet_sandbox(...)`` has one of its own, always started.
    """
    with settings(pytestconfig).sandbox(wallet_sandbox_args, own=getattr(request, "param", None)) as sandbox:
        yield sandbox


@pytest.fixture
def sandbox_account(wallet_sandbox: Sandbox) -> SandboxAccount:
    """A fresh ``sk_test_`` key on a freshly seeded account: no other test sees its wallets, clock or events."""
    return wallet_sandbox.create_account()


@pytest.fixture
def webhook_receiver() -> Iterator[WebhookReceiver]:
    """A verifying webhook receiver on 127.0.0.1; set its ``secret`` to the endpoint's."""
    with WebhookReceiver() as receiver:
        yield receiver
