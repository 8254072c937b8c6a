"""
wallet-sandbox for pytest: a sandbox per test session, a fresh account per test, a verifying
webhook receiver. The fixtures come from the plugin (``wallet_sandbox.plugin``, registered under
``pytest11``); the classes are here for type hints and for use without pytest.
"""

from .account import SandboxAccount
from .container import start_container
from .control import ControlClient
from .errors import SUPPORTED_VERSION, SandboxApiError, SandboxProcessError, SandboxStartError, SandboxVersionError
from .events import EventWaitTimeout
from .receiver import Delivery, WebhookReceiver
from .sandbox import Sandbox, attach_sandbox, start_sandbox

__version__ = "0.1.0"

__all__ = [
    "SUPPORTED_VERSION",
    "ControlClient",
    "Delivery",
    "EventWaitTimeout",
    "Sandbox",
    "SandboxAccount",
    "SandboxApiError",
    "SandboxProcessError",
    "SandboxStartError",
    "SandboxVersionError",
    "WebhookReceiver",
    "attach_sandbox",
    "start_container",
    "start_sandbox",
]
