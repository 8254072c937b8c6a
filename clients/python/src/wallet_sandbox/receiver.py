"""A local webhook receiver that verifies every delivery, for tests of what webhooks deliver."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

from .events import Event, EventTypes, describe
from .webhooks import verification_error


@dataclass(frozen=True)
class Delivery:
    """One request the receiver got, verified or not (then it was answered 400 with ``error``)."""

    event: Event | None
    body: bytes
    headers: dict[str, str]
    verified: bool
    error: str | None = None


class WebhookReceiver:
    """
    An HTTP server on a thread (127.0.0.1 and a free port by default) that checks every delivery's
    Standard Webhooks signature with ``secret``: 200 when it verifies, 400 with the reason when not,
    both recorded in ``received``. ``secret`` may be set once the endpoint exists (its ``whsec_``).
    """

    def __init__(self, secret: str | None = None, *, host: str = "127.0.0.1", port: int = 0) -> None:
        self.secret = secret
        self.received: list[Delivery] = []
        self._changed = threading.Condition()
        # The awaiting waits: each wakes its event loop (wait_for_async).
        self._wakers: list[Callable[[], None]] = []
        self._server = ThreadingHTTPServer((host, port), _handler(self))
        self._server.daemon_threads = True
        shown = "127.0.0.1" if host in ("", "0.0.0.0") else host
        self.url = f"http://{shown}:{self._server.server_address[1]}/webhooks"
        self._thread = threading.Thread(target=self._server.serve_forever, name="webhook-receiver", daemon=True)
        self._thread.start()

    def __enter__(self) -> WebhookReceiver:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()

    def wait_for(self, type: EventTypes = None, object_id: str | None = None, timeout: float = 5.0) -> Event:
        """
        The first verified delivery's event, already received or still to come, of ``type`` (one,
        several, ``payment.*`` or ``*``) about ``object_id``. After ``timeout`` seconds an
        AssertionError says what it waited for and what arrived instead.
        """
        __tracebackhide__ = True
        deadline = time.monotonic() + timeout
        with self._changed:
            while (event := self._first(type, object_id)) is None:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(self._describe_timeout(type, object_id, timeout))
                self._changed.wait(left)
        return event

    async def wait_for_async(self, type: EventTypes = None, object_id: str | None = None, timeout: float = 5.0) -> Event:
        """``await`` it in a test on an event loop (pytest-asyncio): as ``wait_for``, and the loop goes on meanwhile."""
        __tracebackhide__ = True
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        arrived = asyncio.Event()

        def wake() -> None:  # On the server's thread, after each delivery.
            with contextlib.suppress(RuntimeError):  # The loop is closed: nobody waits any more.
                loop.call_soon_threadsafe(arrived.set)

        with self._changed:
            self._wakers.append(wake)
        try:
            while True:
                arrived.clear()  # Before looking: a delivery after the look sets it again.
                with self._changed:
                    event = self._first(type, object_id)
                if event is not None:
                    return event
                left = deadline - loop.time()
                if left <= 0:
                    raise AssertionError(self._describe_timeout(type, object_id, timeout))
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(arrived.wait(), left)
        finally:
            with self._changed:
                self._wakers.remove(wake)

    def _first(self, types: EventTypes, object_id: str | None) -> Event | None:
        """The first verified delivery's event that matches (the caller holds ``_changed``)."""
        for delivery in self.received:
            if delivery.verified and delivery.event is not None and matches(delivery.event, types, object_id):
                return delivery.event
        return None

    def _receive(self, body: bytes, headers: dict[str, str]) -> tuple[int, str]:
        if self.secret is None:
            error: str | None = "the receiver has no secret to verify with (WebhookReceiver(secret) or receiver.secret = …)"
        else:
            error = verification_error(self.secret, headers, body, int(time.time()))
        with self._changed:
            self.received.append(Delivery(_parse(body), body, headers, error is None, error))
            self._changed.notify_all()
            for wake in self._wakers:
                wake()
        return (200, "ok") if error is None else (400, error)

    def _describe_timeout(self, types: EventTypes, object_id: str | None, timeout: float) -> str:
        kinds = "" if types is None else (types if isinstance(types, str) else " or ".join(types)) + " "
        wanted = f"a {kinds}delivery{f' of {object_id}' if object_id else ''}"
        if not self.received:
            return f"Waited {timeout:g} s for {wanted} at {self.url}; nothing arrived."
        last = [
            (describe(d.event) if d.event else "not JSON") + ("" if d.verified else f" (refused: {d.error})")
            for d in self.received[-10:]
        ]
        return f"Waited {timeout:g} s for {wanted} at {self.url}; {len(self.received)} arrived, the last: {', '.join(last)}."


def matches(event: Event, types: EventTypes, object_id: str | None) -> bool:
    wanted = [types] if isinstance(types, str) else list(types or [])
    kind = str(event.get("type", ""))
    type_ok = not wanted or any(w == "*" or w == kind or (w.endswith(".*") and kind.startswith(w[:-1])) for w in wanted)
    obj = event.get("data", {}).get("object", {})
    return type_ok and (object_id is None or obj.get("id") == object_id)


def _parse(body: bytes) -> Any:
    try:
        parsed = json.loads(body)
    except ValueError:
        return None
    return parsed if isinstance(parsed, dict) else None


def _handler(receiver: WebhookReceiver) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            headers = {name.lower(): value for name, value in self.headers.items()}
            status, text = receiver._receive(body, headers)
            payload = text.encode()
            self.send_response(status)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # The test's output is not the place for a line per delivery.

    return Handler
