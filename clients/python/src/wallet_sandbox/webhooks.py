"""
Standard Webhooks (https://www.standardwebhooks.com) with ``hmac``: a secret is ``whsec_`` + base64
of the key bytes, and a signature ``v1,`` + base64 of HMAC-SHA256(key, "<id>.<timestamp>.<body>").
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from typing import Mapping

SECRET_PREFIX = "whsec_"
#: How far a delivery's timestamp may be from now, as the Standard Webhooks libraries allow.
TIMESTAMP_TOLERANCE_S = 5 * 60


def secret_key(secret: str) -> bytes:
    """The HMAC key: the base64-decoded part after ``whsec_``."""
    return base64.b64decode(secret[len(SECRET_PREFIX):] if secret.startswith(SECRET_PREFIX) else secret)


def sign(secret: str, webhook_id: str, timestamp: int, body: bytes) -> str:
    """``v1,<base64>``: the value of the ``webhook-signature`` header."""
    mac = hmac.new(secret_key(secret), f"{webhook_id}.{timestamp}.".encode() + body, hashlib.sha256)
    return "v1," + base64.b64encode(mac.digest()).decode()


def verification_error(secret: str, headers: Mapping[str, str], body: bytes, now: int) -> str | None:
    """
    Why a delivery does not verify, or None when it does: the three headers present (names in lower
    case), the timestamp within five minutes of ``now``, and one of the space-separated ``v1,``
    signatures the HMAC of the body, compared in constant time.
    """
    webhook_id = headers.get("webhook-id")
    timestamp = headers.get("webhook-timestamp")
    signatures = headers.get("webhook-signature")
    if not webhook_id or not timestamp or not signatures:
        return "missing webhook-id, webhook-timestamp or webhook-signature"
    if not (timestamp.isascii() and timestamp.isdigit()):
        return f"webhook-timestamp is not whole seconds: {timestamp!r}"
    if abs(now - int(timestamp)) > TIMESTAMP_TOLERANCE_S:
        return f"webhook-timestamp {timestamp} is more than {TIMESTAMP_TOLERANCE_S} s from now ({now})"
    expected = sign(secret, webhook_id, int(timestamp), body)
    if any(hmac.compare_digest(given.encode(), expected.encode()) for given in signatures.split(" ") if given.startswith("v1,")):
        return None
    return "no v1 signature matches the body under this secret"
