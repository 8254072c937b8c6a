"""The control API of one sandbox (``/_sandbox``), as the fixtures' objects use it."""

from __future__ import annotations

from typing import Any, Literal, Optional, TypedDict

from . import transport
from .durations import Duration, whole_milliseconds
from .events import Event, EventPage, EventTypes, Query, run, run_async, type_filter, waiting
from .expectations import RequestExpectations


class SandboxClock(TypedDict):
    """The answer of ``clock()`` and ``advance_clock()``."""

    mode: Literal["real", "manual"]
    #: ISO 8601: the sandbox's time, or the account's (the sandbox's plus its offset).
    now: str
    #: The sandbox clock: how far it was advanced by hand. An account's: how far it is ahead of the sandbox's.
    offset_ms: int
    #: None for the sandbox clock, which every account follows.
    account_id: Optional[str]


def account_scope(api_key: str | None, account_id: str | None) -> dict[str, str]:
    """The account a control call is about, as the routes take it; empty: the whole sandbox."""
    return {name: value for name, value in (("api_key", api_key), ("account_id", account_id)) if value is not None}


class ControlClient(RequestExpectations):
    """
    Calls of the control API; each returns the answer's ``data``, or raises SandboxApiError with
    the sandbox's error. The control token, when the sandbox has one, goes with every call. The
    clock, snapshots and resets are one account's with ``api_key=`` (or ``account_id=``), and the
    whole sandbox's without: every account in it, whichever test made it. ``expect_request`` and
    ``expect_no_request`` (RequestExpectations) assert on what an account sent.
    """

    def __init__(self, base_url: str, control_token: str | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.control_token = control_token

    def control(self, method: str, path: str, body: Any = None, *, timeout: float = 30.0, **params: Any) -> Any:
        """Any control route: ``control("POST", "/outcomes", {...})`` for ``POST /_sandbox/outcomes``."""
        url = transport.with_query(f"{self.base_url}/_sandbox{path}", params)
        return transport.call(method, url, body=body, token=self.control_token, timeout=timeout)["data"]

    def _object(self, method: str, path: str, body: Any = None, **params: Any) -> dict[str, Any]:
        """A control call whose ``data`` is one object."""
        data: dict[str, Any] = self.control(method, path, body, **params)
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

    # Time and state: one account's, or the whole sandbox's.

    def clock(self, *, api_key: str | None = None, account_id: str | None = None) -> SandboxClock:
        """The sandbox clock, or one account's: the sandbox's time plus the account's offset."""
        clock: SandboxClock = self.control("GET", "/clock", **account_scope(api_key, account_id))
        return clock

    def advance_clock(
        self,
        by: Duration | None = None,
        /,
        *,
        seconds: float | None = None,
        ms: float | None = None,
        api_key: str | None = None,
        account_id: str | None = None,
    ) -> SandboxClock:
        """
        Moves a clock forward, running what falls due on it in time order (settlement, webhook
        retries, expiries, order fills): one account's with ``api_key``/``account_id``, every other
        account standing still; without, the sandbox clock and every account with it.
        ``advance_clock(timedelta(minutes=5))``, ``advance_clock(seconds=31)``, ``advance_clock(ms=500)``.
        """
        millis = whole_milliseconds(by, seconds, ms, caller="advance_clock")
        scope = account_scope(api_key, account_id)
        if not scope:
            self._sandbox_wide("advance_clock()")
        clock: SandboxClock = self.control("POST", "/clock/advance", {"ms": millis, **scope})
        return clock

    def snapshot(self, *, api_key: str | None = None, account_id: str | None = None) -> dict[str, Any]:
        """The whole sandbox's state, or one account's (its ``account_id`` set), for ``restore``."""
        scope = account_scope(api_key, account_id)
        if not scope:
            self._sandbox_wide("snapshot()")
        return self._object("GET", "/snapshot", **scope)

    def restore(self, snapshot: dict[str, Any]) -> dict[str, Any]:
        """
        Puts back what ``snapshot`` holds: one account's snapshot replaces that account alone (here
        or in another sandbox); a whole one replaces every account. The clock goes back to its time.
        """
        if snapshot.get("account_id") is None:
            self._sandbox_wide("restore() of a whole snapshot")
        return self._object("POST", "/restore", snapshot)

    def reset(self, *, api_key: str | None = None) -> dict[str, Any]:
        """Back to the fixtures: the account of ``api_key`` (its keys stay valid), else the whole sandbox."""
        if api_key is None:
            self._sandbox_wide("reset()")
        return self._object("POST", "/reset", {} if api_key is None else {"api_key": api_key})

    def _sandbox_wide(self, operation: str) -> None:
        """Called before a sandbox-wide operation, from the public method (``Sandbox`` warns here)."""

    # Events.

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
        page: EventPage = transport.call("GET", url, token=self.control_token, timeout=_poll_timeout(wait))
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
        __tracebackhide__ = True
        steps = waiting(_whose(api_key, account_id), type, object_id, timeout)
        return run(steps, lambda query: self.events(**query))

    async def wait_for_event_async(
        self,
        *,
        api_key: str | None = None,
        account_id: str | None = None,
        type: EventTypes = None,
        object_id: str | None = None,
        timeout: float = 5.0,
    ) -> Event:
        """``wait_for_event`` for a test on an event loop (pytest-asyncio): the loop goes on meanwhile."""
        __tracebackhide__ = True
        return await run_async(waiting(_whose(api_key, account_id), type, object_id, timeout), self._events_async)

    async def _events_async(self, query: Query) -> EventPage:
        url = transport.with_query(f"{self.base_url}/_sandbox/events", query)
        page: EventPage = await transport.get_async(url, token=self.control_token, timeout=_poll_timeout(query.get("wait")))
        return page

    # What an account sent: expect_request and expect_no_request (RequestExpectations) ask here.

    def _expect(self, body: dict[str, Any]) -> dict[str, Any]:
        return self._object("POST", "/requests/expect", body, timeout=_poll_timeout(body.get("within_ms")))


def _whose(api_key: str | None, account_id: str | None) -> dict[str, str]:
    whose = {"api_key": api_key} if api_key is not None else account_scope(None, account_id)
    if not whose:
        raise TypeError("wait_for_event needs api_key or account_id: whose events to wait for")
    return whose


def _poll_timeout(wait_ms: int | None) -> float:
    """A long poll answers within ``wait`` ms; the margin is for a busy machine."""
    return (wait_ms or 0) / 1000 + 30
