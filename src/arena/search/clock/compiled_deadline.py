"""A monotonic clock that compiled code can read: the engines' hard deadline.

Compiled searches cannot call Python's ``time.perf_counter``; they read
:func:`arena.search.clock.compiled.now_ns` (the C library's
``clock_gettime(CLOCK_MONOTONIC)``, tens of nanoseconds, the clock the compiled
MCTS stops its batches by), so a search can compare it with a deadline computed
on the Python side (:func:`deadline_ns`) every few hundred nodes
(:func:`expired`, which also keeps a margin of the longest stretch between two
looks). Where compiled code cannot read the clock (``compiled_clock.AVAILABLE``
is False: not Linux) there are no engines: ``ids`` searches in Python.

>>> import time
>>> before = time.monotonic_ns()
>>> before <= time.monotonic_ns()
True
>>> deadline_ns(None) > now_ns()
True

Tests: tests/search/test_engine_connect4.py (keeps time with tiny limits)
"""

from __future__ import annotations

import math
import time

import numpy as np
from numba import njit

from arena.search.clock.compiled import now_ns

NEVER = (1 << 62) - 1
"""A deadline that never comes."""


@njit(cache=True, inline="always")
def expired(stats: np.ndarray, end: int, last: int, longest: int) -> bool:
    """Whether the deadline ``stats[end]`` is so near that the next stretch of work
    may not finish before it, as :class:`~arena.search.clock.deadline.Deadline` judges:
    ``stats[longest]`` keeps the longest time seen between two calls (a pause of the
    process included, which makes the rest of the move more careful) and
    ``stats[last]`` the time of the last call. Call it at regular intervals of work.
    """
    now = now_ns()
    gap = now - stats[last]
    if gap > stats[longest]:
        stats[longest] = gap
    stats[last] = now
    return now + stats[longest] >= stats[end]  # type: ignore[no-any-return]


def deadline_ns(end: float | None) -> int:
    """A ``time.perf_counter`` moment (seconds; None or inf: never) on :func:`now_ns`'s scale."""
    if end is None or math.isinf(end):
        return NEVER
    return time.monotonic_ns() + int((end - time.perf_counter()) * 1e9)
