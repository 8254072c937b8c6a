"""How far to move a clock, said as Python says durations: a timedelta, or seconds= and ms=."""

from __future__ import annotations

import warnings
from datetime import timedelta
from typing import Union

#: What ``advance_clock`` takes positionally: a timedelta (a bare number is deprecated, see below).
Duration = Union[timedelta, int, float]


def whole_milliseconds(by: Duration | None, seconds: float | None, ms: float | None, *, caller: str) -> int:
    """
    The milliseconds of ``by``, or of ``seconds`` plus ``ms`` (as ``timedelta`` adds them): whole,
    since the sandbox's clock counts milliseconds, and not negative, since clocks only go forward.
    A bare number for ``by`` is read as milliseconds, what ``advance_clock(5000)`` meant before
    durations had a unit, with a DeprecationWarning at the caller's line (three frames up).
    """
    if by is not None and (seconds is not None or ms is not None):
        raise TypeError(f"{caller}() takes a timedelta or seconds=/ms=, not both")
    if isinstance(by, (int, float)) and not isinstance(by, bool):
        warnings.warn(
            f"{caller}({by!r}): a bare number is read as milliseconds; say {caller}(ms={by!r}), "
            f"{caller}(seconds=…) or {caller}(timedelta(…))",
            DeprecationWarning,
            stacklevel=3,
        )
        by, ms = None, by
    if by is None:
        if seconds is None and ms is None:
            raise TypeError(f"{caller}() needs a duration: {caller}(timedelta(minutes=5)), {caller}(seconds=31) or {caller}(ms=500)")
        by = timedelta(seconds=seconds or 0, milliseconds=ms or 0)
    elif not isinstance(by, timedelta):
        raise TypeError(f"{caller}() takes a timedelta, not {type(by).__name__}: {by!r}")
    microseconds = by // timedelta(microseconds=1)
    if microseconds < 0:
        raise ValueError(f"{caller}() moves the clock forward only; {by!r} is negative")
    if microseconds % 1000:
        raise ValueError(f"{caller}() takes whole milliseconds, as the sandbox's clock counts; {by!r} is {microseconds / 1000:g} ms")
    return microseconds // 1000
