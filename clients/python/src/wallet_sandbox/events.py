"""
Awaiting an event through ``GET /_sandbox/events``: long polls until the first match. The wait is
written once, as the requests it makes (``waiting``), and run blocking (``run``) or awaited
(``run_async``), so a test on an event loop waits without stopping the loop.
"""

from __future__ import annotations

import math
import time
from typing import Any, Awaitable, Callable, Generator, Sequence, TypeVar, Union

Event = dict[str, Any]
EventPage = dict[str, Any]
#: ``type`` of a filter: one event type, ``resource.*``, ``*``, or several of them.
EventTypes = Union[str, Sequence[str], None]
#: The parameters of one request of the events route.
Query = dict[str, Any]
#: A wait: it yields the query of each request, is sent its page, and returns what it waited for.
Steps = Generator[Query, EventPage, Event]
R = TypeVar("R")

#: The longest wait one request of the events route takes; a longer wait is several.
LONGEST_POLL_MS = 30_000
#: How many of the account's events a timeout's message lists.
SHOWN = 10


class EventWaitTimeout(AssertionError):
    """No matching event in time. ``seen`` holds the account's last events: what arrived instead."""

    def __init__(self, message: str, seen: list[Event]) -> None:
        super().__init__(message)
        self.seen = seen


def type_filter(types: EventTypes) -> str | None:
    return types if types is None or isinstance(types, str) else ",".join(types)


def waiting(whose: dict[str, str], types: EventTypes, object_id: str | None, timeout: float) -> Steps:
    """
    The first event of the account ``whose`` names (``api_key`` or ``account_id``), already logged
    or still to come, of ``types`` and about ``object_id``. A poll without ``after`` answers at once
    with a match already logged, so nothing that happened before the wait began is missed. After
    ``timeout`` seconds, EventWaitTimeout with the account's last events.
    """
    deadline = time.monotonic() + timeout
    while True:
        left_ms = max(0, math.ceil((deadline - time.monotonic()) * 1000))
        page = yield {**whose, "type": type_filter(types), "object_id": object_id, "limit": 1, "wait": min(left_ms, LONGEST_POLL_MS)}
        if page["data"]:
            first: Event = page["data"][0]
            return first
        if left_ms == 0 or time.monotonic() >= deadline:
            break
    # What arrived instead: the newest events, a few pages at most.
    seen: list[Event] = []
    after = None
    for _ in range(5):
        page = yield {**whose, "after": after, "limit": 100}
        seen = (seen + page["data"])[-SHOWN:]
        if not page["has_more"] or not page["data"]:
            break
        after = page["data"][-1]["id"]
    raise EventWaitTimeout(describe_timeout(whose, types, object_id, timeout, seen), seen)


def run(steps: Generator[Query, EventPage, R], read: Callable[[Query], EventPage]) -> R:
    """The steps' result, each request made with ``read``."""
    __tracebackhide__ = True
    try:
        query = next(steps)
        while True:
            query = steps.send(read(query))
    except StopIteration as done:
        result: R = done.value
        return result


async def run_async(steps: Generator[Query, EventPage, R], read: Callable[[Query], Awaitable[EventPage]]) -> R:
    """As ``run``, each request awaited."""
    __tracebackhide__ = True
    try:
        query = next(steps)
        while True:
            query = steps.send(await read(query))
    except StopIteration as done:
        result: R = done.value
        return result


def describe(event: Event) -> str:
    obj = event.get("data", {}).get("object", {})
    return f"{event.get('type')} {obj.get('id', '')} ({event.get('id')})".replace("  ", " ")


def describe_timeout(whose: dict[str, str], types: EventTypes, object_id: str | None, timeout: float, seen: list[Event]) -> str:
    wanted = "any" if types is None else type_filter(types).replace(",", " or ")  # type: ignore[union-attr]
    of = f" of {object_id}" if object_id else ""
    account = f"the account of {whose['api_key']}" if "api_key" in whose else f"account {whose.get('account_id')}"
    arrived = (
        "it has had no events at all"
        if not seen
        else "its last events were: " + ", ".join(describe(event) for event in seen)
    )
    return f"No {wanted} event{of} on {account} within {timeout:g} s; {arrived}."
