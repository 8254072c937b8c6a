"""JSON over HTTP with the standard library: every call the plugin makes goes through ``send``."""

from __future__ import annotations

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
    answer = send(method, url, body=body, token=token, timeout=timeout)
    if not 200 <= answer.status < 300:
        raise SandboxApiError(method, url, answer.status, answer.body)
    return answer.body


def _parse(raw: bytes) -> Any:
    if not raw:
        return None
    try:
        return json.loads(raw)
    except ValueError:
        return raw.decode("utf-8", "replace")
