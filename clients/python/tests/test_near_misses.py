"""The message of an expectation not satisfied, from answers of the route written out here."""

from __future__ import annotations

from typing import Any

import pytest

from wallet_sandbox.near_misses import describe_difference, describe_failure, mask_key

AT = "2026-01-01T00:00:00.000Z"


def request(id: str, method: str = "POST", path: str = "/v1/payments", status: int | None = 201, **more: Any) -> dict[str, Any]:
    return {"id": id, "method": method, "path": path, "query": None, "status": status, "replayed": False, "at": AT, **more}


@pytest.mark.parametrize(
    ("difference", "shown"),
    [
        ({"field": "body.amount", "expected": "10.00", "actual": "10"}, 'body.amount: expected "10.00", got "10"'),
        ({"field": "body.amount", "expected": "10.00", "actual": 10}, 'body.amount: expected "10.00", got 10'),
        ({"field": "body", "expected": {"amount": "10.00"}}, 'body: expected {"amount": "10.00"}, got nothing'),
        ({"field": "headers.idempotency-key", "expected": True}, "headers.idempotency-key: expected present, got nothing"),
        ({"field": "headers.x-debug", "expected": False, "actual": "1"}, 'headers.x-debug: expected absent, got "1"'),
        ({"field": "query.limit", "expected": "5", "actual": ["1", "2"]}, 'query.limit: expected "5", got ["1", "2"]'),
        ({"field": "body.paid", "expected": True, "actual": False}, "body.paid: expected true, got false"),
        ({"field": "body.note", "expected": "café", "actual": None}, 'body.note: expected "café", got null'),
        ({"field": "status", "expected": "4xx", "actual": 201}, 'status: expected "4xx", got 201'),
    ],
    ids=["strings", "a number", "no body", "a header present", "a header absent", "a repeated parameter", "booleans in a body", "null and accents", "a status class"],
)
def test_a_difference_reads_field_expected_got(difference: dict[str, Any], shown: str) -> None:
    assert describe_difference(difference) == shown


def test_the_failure_shows_the_expectation_and_each_near_miss_with_its_differences() -> None:
    sent = {"api_key": "sk_test_sandbox_default_key", "method": "POST", "body": {"amount": "10.00"}, "within_ms": 1500}
    result = {
        "satisfied": False,
        "matched": [],
        "near_misses": [
            {"request": request("req_2", replayed=True), "differences": [{"field": "body.amount", "expected": "10.00", "actual": "10"}]},
            {"request": request("req_1", status=None), "differences": [{"field": "body.amount", "expected": "10.00", "actual": "10"}]},
            {"request": request("req_0", "GET", "/v1/wallets", 200, query="limit=100"), "differences": [
                {"field": "method", "expected": "POST", "actual": "GET"},
                {"field": "body", "expected": {"amount": "10.00"}},
            ]},
        ],
    }
    assert describe_failure(sent, result) == "\n".join([
        'Expected at least 1 request matching {"method": "POST", "body": {"amount": "10.00"}} from the account of sk_test_…_key within 1.5 s; 0 matched.',
        "Closest requests:",
        f"  POST /v1/payments 201 (req_2, replayed, {AT})",
        '    body.amount: expected "10.00", got "10"',
        f"  POST /v1/payments no answer (req_1, {AT})",
        '    body.amount: expected "10.00", got "10"',
        f"  GET /v1/wallets?limit=100 200 (req_0, {AT})",
        '    method: expected "POST", got "GET"',
        '    body: expected {"amount": "10.00"}, got nothing',
    ])


def test_too_many_for_exactly_lists_the_matched_requests() -> None:
    sent = {"account_id": "acct_1", "path": "/v1/payments", "count": 1, "exactly": True}
    result = {"satisfied": False, "matched": [request(f"req_{n}") for n in range(7)], "near_misses": []}
    assert describe_failure(sent, result).splitlines() == [
        'Expected exactly 1 request matching {"path": "/v1/payments"} from account acct_1; 7 matched.',
        "Matched:",
        *(f"  POST /v1/payments 201 (req_{n}, {AT})" for n in range(5)),
    ]


@pytest.mark.parametrize(
    ("count", "exactly", "how"),
    [(0, True, "no request"), (1, False, "at least 1 request"), (3, False, "at least 3 requests"), (2, True, "exactly 2 requests")],
)
def test_an_account_without_other_requests_says_so(count: int, exactly: bool, how: str) -> None:
    sent = {"api_key": "sk_test_abcdefghijkl", "count": count, "exactly": exactly}
    assert describe_failure(sent, {"satisfied": False, "matched": [], "near_misses": []}) == (
        f"Expected {how} matching {{}} from the account of sk_test_…ijkl; 0 matched.\nThe account has no other /v1 requests in the journal."
    )


def test_a_key_is_masked_as_the_journal_masks_it() -> None:
    assert [mask_key(key) for key in ("sk_test_sandbox_default_key", "rk_live_0123456789", "sk_test_x", "whatever-1234")] == [
        "sk_test_…_key", "rk_live_…6789", "sk_test_…", "…1234",
    ]
