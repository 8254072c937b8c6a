"""
expect_request and expect_no_request against the sandbox: the worked example of docs/python.md run
as a user's suite (one pass, one failure on purpose), a waiting expectation, absence, bad input.
"""

from __future__ import annotations

import json
import re
import threading
import time
from datetime import timedelta

import pytest

from support import CLIENT, REPO, pay
from wallet_sandbox import RequestExpectationError, Sandbox, SandboxAccount, SandboxApiError
from wallet_sandbox.expectations import within_ms

EXAMPLE = CLIENT / "examples" / "payments_sent.py"
NEAR_MISS = 'body.amount: expected "10.00", got "10"'


def shown_failure() -> list[str]:
    """The failure docs/python.md shows after the example: its lines as patterns (``…`` stands for any text)."""
    page = (REPO / "docs" / "python.md").read_text()
    [block] = re.findall(r"^```text\n(E +wallet_sandbox\.expectations\.RequestExpectationError: .*?)^```$", page, re.M | re.S)
    return [re.sub(r"[*?\[]", lambda special: f"[{special[0]}]", line).replace("…", "*") for line in block.splitlines()]


def test_the_pages_example_passes_its_retry_test_and_fails_on_purpose_showing_the_near_miss(pytester: pytest.Pytester, inner_ini: object) -> None:
    (pytester.path / "test_payments_sent.py").write_text(EXAMPLE.read_text())

    result = pytester.runpytest("-p", "no:cacheprovider")

    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["FAILED test_payments_sent.py::test_fails_on_purpose_the_amount_went_out_as_10*"])
    result.stdout.fnmatch_lines(shown_failure(), consecutive=True)
    # Once in the failure's report; with CI set, pytest's short summary repeats the message whole, unprefixed.
    assert [line for line in result.outlines if line.startswith("E ") and NEAR_MISS in line] == [f"E           {NEAR_MISS}"]


def test_a_waiting_expectation_is_satisfied_as_soon_as_the_request_sent_200_ms_later_is_answered(sandbox_account: SandboxAccount) -> None:
    answered: list[float] = []

    def send() -> None:
        pay(sandbox_account, "12.50")
        answered.append(time.monotonic())

    later = threading.Timer(0.2, send)
    pay(sandbox_account, "12.00")  # Another amount does not end the wait.
    started = time.monotonic()
    later.start()
    try:
        [request] = sandbox_account.expect_request(method="POST", path="/v1/payments", body={"amount": "12.50"}, within=timedelta(seconds=10))
        returned = time.monotonic()
    finally:
        later.join()

    assert json.loads(request["request_body"])["amount"] == "12.50"
    assert returned - started >= 0.2  # it waited: the payment came after it began
    # It followed the payment's own answer, not the end of the 10 s window.
    assert returned - answered[0] < 1


def test_no_request_holds_over_its_window_and_fails_listing_the_one_that_came(sandbox_account: SandboxAccount) -> None:
    sandbox_account.get("/prices")
    sandbox_account.expect_no_request(method="POST", within=0.1)

    started = time.monotonic()
    with pytest.raises(RequestExpectationError) as came:
        sandbox_account.expect_no_request(path="/v1/prices", within=10)
    assert time.monotonic() - started < 5  # said as soon as the journal has one, not after the window
    assert re.match(
        r'^Expected no request matching \{"path": "/v1/prices"\} from the account of sk_test_…\w{4} within 10 s; 1 matched\.\n'
        r"Matched:\n  GET /v1/prices 200 \(req_\w+, [-\d:.TZ]+\)$",
        str(came.value),
    ), str(came.value)
    assert came.value.expectation == {"api_key": sandbox_account.api_key, "path": "/v1/prices", "count": 0, "exactly": True, "within_ms": 10_000}
    assert len(came.value.result["matched"]) == 1


def test_the_sandbox_handle_checks_the_account_it_is_given(wallet_sandbox: Sandbox, sandbox_account: SandboxAccount) -> None:
    sandbox_account.get("/wallets", limit=3)
    [request] = wallet_sandbox.expect_request(account_id=sandbox_account.account_id, path="/v1/wallets", query={"limit": "3"}, status=200)
    assert request["account_id"] == sandbox_account.account_id
    assert wallet_sandbox.expect_request(api_key=sandbox_account.api_key, status="2xx") == [request]
    with pytest.raises(RequestExpectationError, match=rf"^Expected exactly 2 requests matching \{{\}} from account {sandbox_account.account_id}; 1 matched\.\nMatched:\n"):
        wallet_sandbox.expect_request(account_id=sandbox_account.account_id, count=2, exactly=True)


@pytest.mark.parametrize(
    ("expectation", "param", "message"),
    [
        ({"status": "6xx"}, "status", "status must be an HTTP status code such as 201 or a class such as 4xx."),
        ({"path": "payments"}, "path", None),
        ({"headers": {"idempotency-key": 1}}, "headers.idempotency-key", None),
        ({"method": "FETCH"}, "method", None),
    ],
)
def test_a_bad_expectation_is_the_sandboxs_400_naming_the_field(sandbox_account: SandboxAccount, expectation: dict[str, object], param: str, message: str | None) -> None:
    with pytest.raises(SandboxApiError) as refused:
        sandbox_account.expect_request(**expectation)  # type: ignore[arg-type]
    assert (refused.value.status, refused.value.code, refused.value.param) == (400, "parameter_invalid", param)
    assert not isinstance(refused.value, AssertionError)  # a mistake in the test, not a failed expectation
    if message:
        assert str(refused.value).endswith(f"answered 400 parameter_invalid: {message} ({refused.value.request_id})")


@pytest.mark.parametrize(
    ("within", "millis"),
    [(None, 0), (0, 0), (0.7, 700), (10, 10_000), (30, 30_000), (timedelta(milliseconds=250), 250), (timedelta(microseconds=1), 1)],
)
def test_within_is_a_timedelta_or_seconds_sent_as_whole_milliseconds(within: timedelta | float | None, millis: int) -> None:
    assert within_ms(within, "expect_request") == millis


def test_a_bad_window_or_keyword_is_refused_before_anything_is_asked(wallet_sandbox: Sandbox, sandbox_account: SandboxAccount) -> None:
    with pytest.raises(ValueError, match=r"^expect_request\(within=31\): the sandbox waits from 0 to 30 s for requests$"):
        sandbox_account.expect_request(within=31)
    with pytest.raises(ValueError, match=r"^expect_no_request\(within=datetime\.timedelta\(days=-1, seconds=86399\)\): "):
        sandbox_account.expect_no_request(within=timedelta(seconds=-1))
    with pytest.raises(TypeError, match=r"^expect_request\(within=…\) takes a timedelta or seconds, not str: '5s'$"):
        sandbox_account.expect_request(within="5s")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'idempotency_key'"):
        sandbox_account.expect_request(idempotency_key="invoice-41")  # type: ignore[call-arg]
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'count'"):
        sandbox_account.expect_no_request(count=2)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match=r"^expect_request\(\) needs api_key or account_id: whose requests to check$"):
        wallet_sandbox.expect_request(method="POST")
