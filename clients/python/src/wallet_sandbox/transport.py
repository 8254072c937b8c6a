"""
JSON over HTTP with the standard library: every call the plugin makes goes through ``send``, and
the awaitable waits through ``get_async``, which asks on a connection of its own (asyncio streams)
so that an event loop goes on while the sandbox holds a long poll.
"""

from __future__ import annotations

import asyncio
import http.client
import io
import json
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from email.message import Message
from typing import Any, Mapping

from .errors import SandboxApiError

# The sandbox is local: a proxy from the environment (HTTP_PROXY) must not come between.
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


@dataclass(frozen=True)
class Answer:
    status: int
    body: Any
    headers: Message


def with_query(url: str, params: Mapping[str, Any] | None) -> str:
    """``url`` with the parameters that are not None, in their order."""
    given = {name: value for name, value in (params or {}).items() if value is not None}
    return f"{url}?{urllib.parse.urlencode(given)}" if given else url


def send(method: str, url: str, *, body: Any = None, token: str | None = None, timeout: float = 30.0) -> Answer:
    """One request; the answer whatever its status (the body parsed when it is JSON)."""
    headers = {"Accept": "application/json"}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with _OPENER.open(request, timeout=timeout) as response:
            return Answer(response.status, _parse(response.read()), response.headers)
    except urllib.error.HTTPError as error:
        with error:
            return Answer(error.code, _parse(error.read()), error.headers)


def call(method: str, url: str, *, body: Any = None, token: str | None = None, timeout: float = 30.0) -> Any:
    """The parsed body of a 2xx answer; SandboxApiError for any other."""
    return _checked(method, url, send(method, url, body=body, token=token, timeout=timeout))


async def get_async(url: str, *, token: str | None = None, timeout: float = 30.0) -> Any:
    """``call("GET", url)`` without blocking the event loop; cancelling it closes its connection."""
    return _checked("GET", url, await asyncio.wait_for(_send_get(url, token), timeout))


async def _send_get(url: str, token: str | None) -> Answer:
    parts = urllib.parse.urlsplit(url)
    secure = parts.scheme == "https"
    reader, writer = await asyncio.open_connection(parts.hostname, parts.port or (443 if secure else 80), ssl=True if secure else None)
    try:
        target = f"{parts.path or '/'}{f'?{parts.query}' if parts.query else ''}"
        lines = [f"GET {target} HTTP/1.1", f"Host: {parts.netloc}", "Accept: application/json", "Connection: close"]
        if token is not None:
            lines.append(f"Authorization: Bearer {token}")
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        await writer.drain()
        raw = await reader.read()  # To the end: the sandbox closes the connection after its answer.
    finally:
        writer.close()
    # http.client parses what came, chunked or not, as it would from a socket.
    response = http.client.HTTPResponse(_Received(raw))  # type: ignore[arg-type]
    response.begin()
    return Answer(response.status, _parse(response.read()), response.msg)


class _Received:
    """An answer already read, in the shape http.client reads from: a socket's ``makefile``."""

    def __init__(self, raw: bytes) -> None:
        self._file = io.BytesIO(raw)

    def makefile(self, *_: Any, **__: Any) -> io.BytesIO:
        return self._file


def _checked(method: str, url: str, answer: Answer) -> Any:
    if not 200 <= answer.status < 300:
        raise SandboxApiError(method, url, answer.status, answer.body, answer.headers.get("X-Request-Id"))
    return answer.body


def _parse(raw: bytes) -> Any:
    if not raw:
        return None
    try:
        return json.loads(raw)
    except ValueError:
        return raw.decode("utf-8", "replace")
