"""advance_clock's durations: a timedelta or seconds=/ms=, whole milliseconds; a bare number still works, with a warning."""

from __future__ import annotations

from datetime import timedelta

import pytest

from wallet_sandbox import SandboxAccount
from wallet_sandbox.durations import whole_milliseconds


@pytest.mark.parametrize(
    ("by", "seconds", "ms", "expected"),
    [
        (timedelta(minutes=5), None, None, 300_000),
        (timedelta(milliseconds=1), None, None, 1),
        (None, 31, None, 31_000),
        (None, 1.5, None, 1_500),
        (None, None, 500, 500),
        (None, 2, 250, 2_250),
        (timedelta(0), None, None, 0),
    ],
)
def test_a_duration_is_whole_milliseconds(by: timedelta | None, seconds: float | None, ms: float | None, expected: int) -> None:
    assert whole_milliseconds(by, seconds, ms, caller="advance_clock") == expected


@pytest.mark.parametrize(
    ("by", "seconds", "ms", "error", "message"),
    [
        (None, None, None, TypeError, "advance_clock() needs a duration: advance_clock(timedelta(minutes=5)), advance_clock(seconds=31) or advance_clock(ms=500)"),
        (timedelta(seconds=1), 1, None, TypeError, "advance_clock() takes a timedelta or seconds=/ms=, not both"),
        ("5s", None, None, TypeError, "advance_clock() takes a timedelta, not str: '5s'"),
        (None, -1, None, ValueError, "advance_clock() moves the clock forward only; datetime.timedelta(days=-1, seconds=86399) is negative"),
        (None, None, 0.5, ValueError, "advance_clock() takes whole milliseconds, as the sandbox's clock counts; datetime.timedelta(microseconds=500) is 0.5 ms"),
    ],
    ids=["none", "both", "a string", "negative", "a fraction of a millisecond"],
)
def test_a_duration_that_is_not_one_is_refused_saying_why(by: object, seconds: float | None, ms: float | None, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as refused:
        whole_milliseconds(by, seconds, ms, caller="advance_clock")  # type: ignore[arg-type]
    assert str(refused.value) == message


def test_a_bare_number_is_still_milliseconds_and_warns_at_the_callers_line(sandbox_account: SandboxAccount) -> None:
    with pytest.warns(DeprecationWarning, match=r"^advance_clock\(1500\): a bare number is read as milliseconds; say advance_clock\(ms=1500\)") as warned:
        clock = sandbox_account.advance_clock(1500)
    assert clock["offset_ms"] == 1500
    assert warned[0].filename == __file__
