"""
wallet-sandbox for pytest: a sandbox per test session, a fresh account per test with a clock and
state of its own, a verifying webhook receiver. The fixtures and the ``wallet_sandbox`` marker come
from the plugin (``wallet_sandbox.plugin``, registered under ``pytest11``); the classes are here for
type hints and for use without pytest (``with start_sandbox() as sandbox: ...``).
"""

from .account import SandboxAccount
from .container import start_container
from .control import ControlClient, SandboxClock
from .errors import (
    SUPPORTED_VERSION,
    SandboxApiError,
    SandboxProcessError,
    SandboxStartError,
    SandboxVersionError,
    SharedSandboxWarning,
)
from .events import EventWaitTimeout
from .expectations import RequestExpectationError
from .receiver import Delivery, WebhookReceiver
from .sandbox import Sandbox, attach_sandbox, start_sandbox

__version__ = "0.1.0"

__all__ = [
    "SUPPORTED_VERSION",
    "ControlClient",
    "Delivery",
    "EventWaitTimeout",
    "RequestExpectationError",
    "Sandbox",
    "SandboxAccount",
    "SandboxApiError",
    "SandboxClock",
    "SandboxProcessError",
    "SandboxStartError",
    "SandboxVersionError",
    "SharedSandboxWarning",
    "WebhookReceiver",
    "attach_sandbox",
    "start_container",
    "start_sandbox",
]
