"""
Request expectations (``POST /_sandbox/requests/expect``) as assertions: what the code under test
sent with an account's key. Satisfied, an expectation answers the matched requests; otherwise a
RequestExpectationError, an AssertionError so that pytest reports a failure, whose message shows the
expectation and each near miss as ``field: expected …, got …`` (near_misses.py).
"""

from __future__ import annotations

import math
from datetime import timedelta
from typing import Any, Mapping, Union

from .events import LONGEST_POLL_MS
from .near_misses import describe_failure

#: One request of the journal: ``{id, method, path, query, status, headers, request_body, replayed, fault, at, …}``.
Request = dict[str, Any]
#: The answer of the route: ``{satisfied, matched, near_misses}``.
Result = dict[str, Any]
#: Each header equal to a value, present (True) or absent (False); names in any case.
Headers = Mapping[str, Union[str, bool]]
#: A status code (201) or a class ("4xx").
Status = Union[int, str]
#: How long to wait for the requests: a timedelta, or seconds as every Python timeout takes them.
Within = Union[timedelta, int, float, None]


class RequestExpectationError(AssertionError):
    """An expectation not satisfied. ``expectation`` is what was asked, ``result`` the sandbox's answer (``near_misses``…)."""

    def __init__(self, message: str, expectation: dict[str, Any], result: Result) -> None:
        super().__init__(message)
        self.expectation = expectation
        self.result = result


class RequestExpectations:
    """``expect_request`` and ``expect_no_request`` of a control client, which asks the route in ``_expect``."""

    def _expect(self, body: dict[str, Any]) -> Result:
        raise NotImplementedError

    def expect_request(
        self, *, api_key: str | None = None, account_id: str | None = None, method: str | None = None, path: str | None = None,
        query: Mapping[str, str] | None = None, headers: Headers | None = None, body: Any = None, status: Status | None = None,
        count: int | None = None, exactly: bool | None = None, within: Within = None,
    ) -> list[Request]:
        """
        The requests of the account (by key or id) that match, newest first; a RequestExpectationError
        when fewer than ``count`` (default 1) came, or other than ``count`` with ``exactly=True``, its
        message showing the closest requests. ``within`` (a timedelta or seconds, at most 30) waits,
        in real time, for them to come. The keywords are SandboxAccount.expect_request's.
        """
        __tracebackhide__ = True
        fields = {"method": method, "path": path, "query": query, "headers": headers, "body": body, "status": status, "count": count, "exactly": exactly}
        return self._check("expect_request", within, api_key=api_key, account_id=account_id, **fields)

    def expect_no_request(
        self, *, api_key: str | None = None, account_id: str | None = None, method: str | None = None, path: str | None = None,
        query: Mapping[str, str] | None = None, headers: Headers | None = None, body: Any = None, status: Status | None = None,
        within: Within = None,
    ) -> None:
        """That no such request of the account came, nor comes ``within`` (the whole window is waited); fails as soon as one does."""
        __tracebackhide__ = True
        fields = {"method": method, "path": path, "query": query, "headers": headers, "body": body, "status": status, "count": 0, "exactly": True}
        self._check("expect_no_request", within, api_key=api_key, account_id=account_id, **fields)

    def _check(self, caller: str, within: Within, **fields: Any) -> list[Request]:
        """Asks the route with the fields given (None is not given); the matched requests, or the failure."""
        __tracebackhide__ = True
        sent = {name: value for name, value in fields.items() if value is not None}
        if "api_key" not in sent and "account_id" not in sent:
            raise TypeError(f"{caller}() needs api_key or account_id: whose requests to check")
        millis = within_ms(within, caller)
        if millis:
            sent["within_ms"] = millis
        result = self._expect(sent)
        if not result["satisfied"]:
            raise RequestExpectationError(describe_failure(sent, result), sent, result)
        matched: list[Request] = result["matched"]
        return matched


def within_ms(within: Within, caller: str) -> int:
    """``within`` in whole milliseconds (a fraction of one rounded up), at most the 30 s the sandbox waits."""
    if within is None:
        return 0
    if isinstance(within, bool) or not isinstance(within, (timedelta, int, float)):
        raise TypeError(f"{caller}(within=…) takes a timedelta or seconds, not {type(within).__name__}: {within!r}")
    # As a timedelta, microseconds are whole: 0.7 s is 700 ms, where 0.7 * 1000 is 700.0000000000001.
    millis = math.ceil((within if isinstance(within, timedelta) else timedelta(seconds=within)) / timedelta(milliseconds=1))
    if not 0 <= millis <= LONGEST_POLL_MS:
        raise ValueError(f"{caller}(within={within!r}): the sandbox waits from 0 to {LONGEST_POLL_MS // 1000} s for requests")
    return millis
