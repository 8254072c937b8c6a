"""
The message of an expectation not satisfied, as a failed test shows it: what was expected, what
matched, and the near misses, each difference as ``body.amount: expected "10.00", got "10"``.
"""

from __future__ import annotations

import json
from typing import Any, Mapping

#: How many matched requests a message lists (the sandbox answers up to 5 near misses).
SHOWN = 5


def describe_failure(sent: Mapping[str, Any], result: Mapping[str, Any]) -> str:
    """``sent`` is the expectation as the route took it, ``result`` its answer."""
    pattern = {name: value for name, value in sent.items() if name not in ("api_key", "account_id", "count", "exactly", "within_ms")}
    count, exactly, waited = sent.get("count", 1), sent.get("exactly", False), sent.get("within_ms", 0)
    how = "no request" if count == 0 and exactly else f"{'exactly' if exactly else 'at least'} {count} request{'' if count == 1 else 's'}"
    whose = f"the account of {mask_key(sent['api_key'])}" if "api_key" in sent else f"account {sent.get('account_id')}"
    within = f" within {waited / 1000:g} s" if waited else ""
    lines = [f"Expected {how} matching {json.dumps(pattern, ensure_ascii=False)} from {whose}{within}; {len(result['matched'])} matched."]
    if result["matched"] and exactly:
        lines += ["Matched:", *(f"  {describe_request(request)}" for request in result["matched"][:SHOWN])]
    if result["near_misses"]:
        lines.append("Closest requests:")
        for miss in result["near_misses"]:
            lines += [f"  {describe_request(miss['request'])}", *(f"    {describe_difference(difference)}" for difference in miss["differences"])]
    elif not result["matched"]:
        lines.append("The account has no other /v1 requests in the journal.")
    return "\n".join(lines)


def describe_request(request: Mapping[str, Any]) -> str:
    """``POST /v1/payments 201 (req_…, replayed, 2026-01-01T00:00:00.000Z)``"""
    query = f"?{request['query']}" if request.get("query") else ""
    status = "no answer" if request.get("status") is None else request["status"]
    replayed = ", replayed" if request.get("replayed") else ""
    return f"{request['method']} {request['path']}{query} {status} ({request['id']}{replayed}, {request['at']})"


def describe_difference(difference: Mapping[str, Any]) -> str:
    """``body.amount: expected "10.00", got "10"``; a header expected True is ``present``, False ``absent``; no such field ``nothing``."""
    header = difference["field"].startswith("headers.")

    def shown(value: Any) -> str:
        if header and isinstance(value, bool):
            return "present" if value else "absent"
        return json.dumps(value, ensure_ascii=False)

    got = shown(difference["actual"]) if "actual" in difference else "nothing"
    return f"{difference['field']}: expected {shown(difference['expected'])}, got {got}"


def mask_key(key: str) -> str:
    """``sk_test_…_key``, as the journal shows a key."""
    prefix = next((kind for kind in ("sk_test_", "sk_live_", "rk_test_", "rk_live_") if key.startswith(kind)), "")
    return f"{prefix}…{key[-4:] if len(key) >= 12 else ''}"
