"""A fresh account on the sandbox: its key, its seeded wallets, the API as it sees it, and control."""

from __future__ import annotations

from typing import Any, Mapping

from . import transport
from .control import ControlClient, SandboxClock
from .durations import Duration, whole_milliseconds
from .events import Event, EventPage, EventTypes
from .expectations import Headers, Request, Status, Within


class SandboxAccount:
    """
    One account, made for one test: ``POST /_sandbox/keys`` gives a new ``sk_test_`` key on a
    freshly seeded account, which no other test uses. ``url`` and ``api_key`` are what an API client
    takes; ``get``/``post``/``request`` call ``/v1`` with the key and return the answer's ``data``.
    Its clock, snapshot, restore and reset are the account's own: tests beside it, in other threads,
    xdist workers or processes sharing the sandbox, go on as they were.
    """

    def __init__(self, control: ControlClient, url: str, key: dict[str, Any]) -> None:
        self.sandbox = control
        self.url = url
        self.api_key: str = key["key"]
        self.account_id: str = key["account_id"]
        self._wallets: list[dict[str, Any]] | None = None

    def __repr__(self) -> str:
        return f"SandboxAccount({self.account_id!r}, api_key={self.api_key!r}, url={self.url!r})"

    # The API (/v1) with this account's key.

    def request(self, method: str, path: str, body: Any = None, **params: Any) -> Any:
        """``request("GET", "/payments/pay_…")``: the ``data`` of the answer; SandboxApiError otherwise."""
        url = transport.with_query(f"{self.url}{path}", params)
        return transport.call(method, url, body=body, token=self.api_key)["data"]

    def get(self, path: str, **params: Any) -> Any:
        return self.request("GET", path, **params)

    def post(self, path: str, body: Any = None) -> Any:
        return self.request("POST", path, {} if body is None else body)

    @property
    def wallets(self) -> list[dict[str, Any]]:
        """The account's wallets as seeded (read once, on first use)."""
        if self._wallets is None:
            self._wallets = self.get("/wallets", limit=100)
        return self._wallets

    def wallet(self, currency: str, network: str, type: str | None = None) -> dict[str, Any]:
        """The first seeded wallet of ``currency`` on ``network`` (user wallets come first)."""
        for wallet in self.wallets:
            if wallet["currency"] == currency and wallet["network"] == network and type in (None, wallet["type"]):
                return wallet
        have = ", ".join(sorted({f"{w['currency']} on {w['network']} ({w['type']})" for w in self.wallets}))
        raise LookupError(f"No {type + ' ' if type else ''}{currency} wallet on {network} in {self.account_id}; it has {have}.")

    # Control, as this account's test needs it.

    def complete_payment(self, payment_id: str) -> dict[str, Any]:
        return self.sandbox.complete_payment(payment_id)

    def fail_payment(self, payment_id: str, failure_code: str | None = None, failure_message: str | None = None) -> dict[str, Any]:
        return self.sandbox.fail_payment(payment_id, failure_code, failure_message)

    def process_payment(self, payment_id: str) -> dict[str, Any]:
        return self.sandbox.process_payment(payment_id)

    def deposit(self, wallet_id: str, amount: str) -> dict[str, Any]:
        return self.sandbox.deposit(wallet_id, amount)

    # This account's time and state.

    def clock(self) -> SandboxClock:
        """This account's clock: the sandbox's time plus the account's own offset (``offset_ms``)."""
        return self.sandbox.clock(api_key=self.api_key)

    def advance_clock(self, by: Duration | None = None, /, *, seconds: float | None = None, ms: float | None = None) -> SandboxClock:
        """
        Moves this account's clock alone, running what falls due of it in time order: settlement,
        webhook retries, idempotency and quote expiry, order fills. ``advance_clock(seconds=31)``,
        ``advance_clock(timedelta(hours=1))``, ``advance_clock(ms=500)``.
        """
        millis = whole_milliseconds(by, seconds, ms, caller="advance_clock")
        return self.sandbox.advance_clock(ms=millis, api_key=self.api_key)

    def snapshot(self) -> dict[str, Any]:
        """This account's whole state (its ``account_id`` set), for ``restore``."""
        return self.sandbox.snapshot(api_key=self.api_key)

    def restore(self, snapshot: dict[str, Any]) -> dict[str, Any]:
        """Puts this account back as ``snapshot`` has it, its clock included; other accounts stay as they are."""
        owner = snapshot.get("account_id")
        if owner != self.account_id:
            whose = "a whole sandbox's (wallet_sandbox.restore() takes it)" if owner is None else f"account {owner}'s"
            raise ValueError(f"restore() of account {self.account_id} takes a snapshot of that account (its snapshot()); this one is {whose}.")
        restored = self.sandbox.restore(snapshot)
        self._wallets = None  # The snapshot's, read again on next use.
        return restored

    def reset(self) -> dict[str, Any]:
        """Back to freshly seeded wallets (new ids), on the sandbox clock, without rules of its own; its key stays valid."""
        reset = self.sandbox.reset(api_key=self.api_key)
        self._wallets = None
        return reset

    # Its events.

    def events(self, type: EventTypes = None, object_id: str | None = None, after: str | None = None, limit: int | None = None) -> EventPage:
        """This account's events, oldest first (one page: ``{"data", "has_more", "dropped", "resets"}``)."""
        return self.sandbox.events(api_key=self.api_key, type=type, object_id=object_id, after=after, limit=limit)

    def wait_for_event(self, type: EventTypes = None, object_id: str | None = None, timeout: float = 5.0) -> Event:
        """This account's first event of ``type`` about ``object_id``, logged or to come (see ControlClient)."""
        __tracebackhide__ = True
        return self.sandbox.wait_for_event(api_key=self.api_key, type=type, object_id=object_id, timeout=timeout)

    async def wait_for_event_async(self, type: EventTypes = None, object_id: str | None = None, timeout: float = 5.0) -> Event:
        """``await`` it in a test on an event loop (pytest-asyncio): as ``wait_for_event``, and the loop goes on meanwhile."""
        __tracebackhide__ = True
        return await self.sandbox.wait_for_event_async(api_key=self.api_key, type=type, object_id=object_id, timeout=timeout)

    # What the code under test sent with its key.

    def expect_request(
        self, *, method: str | None = None, path: str | None = None, query: Mapping[str, str] | None = None, headers: Headers | None = None,
        body: Any = None, status: Status | None = None, count: int | None = None, exactly: bool | None = None, within: Within = None,
    ) -> list[Request]:
        """
        The requests made with this account's keys that match, newest first (``headers``,
        ``request_body``, ``replayed``, ``fault``…). ``path`` is exact, a template
        (``/v1/payments/{id}``) or a prefix ending in ``*``; ``query`` and ``headers`` dicts (a header
        True is present, False absent); ``body`` the JSON the request's must contain; ``status`` 201 or
        "4xx". Fewer than ``count`` (default 1), or other than ``count`` with ``exactly=True``: a
        RequestExpectationError, a test failure, showing each near miss as ``body.amount: expected
        "10.00", got "10"``. ``within`` (a timedelta or seconds, at most 30) waits for them, in real time.
        """
        __tracebackhide__ = True
        return self.sandbox.expect_request(
            api_key=self.api_key, method=method, path=path, query=query, headers=headers, body=body, status=status, count=count, exactly=exactly, within=within,
        )

    def expect_no_request(
        self, *, method: str | None = None, path: str | None = None, query: Mapping[str, str] | None = None, headers: Headers | None = None,
        body: Any = None, status: Status | None = None, within: Within = None,
    ) -> None:
        """That no matching request came with this account's keys, nor comes ``within`` (the whole window is waited)."""
        __tracebackhide__ = True
        self.sandbox.expect_no_request(api_key=self.api_key, method=method, path=path, query=query, headers=headers, body=body, status=status, within=within)
