"""The control API of one sandbox (``/_sandbox``), as the fixtures' objects use it."""

from __future__ import annotations

from typing import Any

from . import transport
from .events import Event, EventPage, EventTypes, type_filter, wait_for_event


class ControlClient:
    """
    Calls of the control API; each returns the answer's ``data``, or raises SandboxApiError with
    the sandbox's error. The control token, when the sandbox has one, goes with every call.
    """

    def __init__(self, base_url: str, control_token: str | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.control_token = control_token

    def control(self, method: str, path: str, body: Any = None, *, timeout: float = 30.0, **params: Any) -> Any:
        """Any control route: ``control("POST", "/outcomes", {...})`` for ``POST /_sandbox/outcomes``."""
        url = transport.with_query(f"{self.base_url}/_sandbox{path}", params)
        return transport.call(method, url, body=body, token=self.control_token, timeout=timeout)["data"]

    def _object(self, method: str, path: str, body: Any = None) -> dict[str, Any]:
        """A control call whose ``data`` is one object."""
        data: dict[str, Any] = self.control(method, path, body)
        return data

    def health(self) -> dict[str, Any]:
        return self._object("GET", "/health")

    def create_key(self, **options: Any) -> dict[str, Any]:
        """A new ``sk_test_`` key on a freshly seeded account (``POST /_sandbox/keys``)."""
        return self._object("POST", "/keys", options)

    def complete_payment(self, payment_id: str) -> dict[str, Any]:
        return self._object("POST", f"/payments/{payment_id}/complete", {})

    def fail_payment(self, payment_id: str, failure_code: str | None = None, failure_message: str | None = None) -> dict[str, Any]:
        body = {name: value for name, value in (("failure_code", failure_code), ("failure_message", failure_message)) if value is not None}
        return self._object("POST", f"/payments/{payment_id}/fail", body)

    def process_payment(self, payment_id: str) -> dict[str, Any]:
        return self._object("POST", f"/payments/{payment_id}/process", {})

    def deposit(self, wallet_id: str, amount: str) -> dict[str, Any]:
        """Adds ``amount`` (a decimal string, ``"25.00"``) to the wallet; answers the wallet."""
        return self._object("POST", f"/wallets/{wallet_id}/deposit", {"amount": amount})

    def clock(self) -> dict[str, Any]:
        """``{"mode", "now", "offset_ms"}``."""
        return self._object("GET", "/clock")

    def advance_clock(self, ms: int) -> dict[str, Any]:
        """Moves the sandbox clock (the whole sandbox's) forward; what falls due runs."""
        return self._object("POST", "/clock/advance", {"ms": ms})

    def snapshot(self) -> dict[str, Any]:
        """The whole sandbox's state, for ``restore``."""
        return self._object("GET", "/snapshot")

    def restore(self, snapshot: dict[str, Any]) -> Any:
        """Puts the whole sandbox back in the state of ``snapshot``: every account, not one."""
        return self.control("POST", "/restore", snapshot)

    def events(
        self,
        *,
        api_key: str | None = None,
        account_id: str | None = None,
        type: EventTypes = None,
        object_id: str | None = None,
        after: str | None = None,
        limit: int | None = None,
        wait: int | None = None,
    ) -> EventPage:
        """One page of an account's events, oldest first: ``{"data", "has_more", "dropped", "resets"}``."""
        params = {"api_key": api_key, "account_id": account_id, "type": type_filter(type), "object_id": object_id, "after": after, "limit": limit, "wait": wait}
        url = transport.with_query(f"{self.base_url}/_sandbox/events", params)
        # A long poll answers within `wait` ms; the margin is for a busy machine.
        page: EventPage = transport.call("GET", url, token=self.control_token, timeout=(wait or 0) / 1000 + 30)
        return page

    def wait_for_event(
        self,
        *,
        api_key: str | None = None,
        account_id: str | None = None,
        type: EventTypes = None,
        object_id: str | None = None,
        timeout: float = 5.0,
    ) -> Event:
        """
        The first event of the account (by key or id), already logged or still to come, of ``type``
        and about ``object_id``; after ``timeout`` seconds an AssertionError (EventWaitTimeout) says
        what it waited for and which events the account had instead.
        """
        whose = {"api_key": api_key} if api_key is not None else {"account_id": account_id} if account_id is not None else None
        if whose is None:
            raise TypeError("wait_for_event needs api_key or account_id: whose events to wait for")
        return wait_for_event(self.events, whose, type, object_id, timeout)
