"""A monotonic clock that compiled code can read: the engines' hard deadline.

Compiled searches cannot call Python's ``time.perf_counter``; :func:`now_ns`
calls the C library's ``clock_gettime(CLOCK_MONOTONIC)`` from inside numba
code (about 30 ns through the vDSO), the clock ``time.perf_counter`` reads on
Linux, so a search can compare it with a deadline computed on the Python side
(:func:`deadline_ns`) every few hundred nodes (:func:`expired`, which also keeps
a margin of the longest stretch between two looks). The call is emitted by symbol
name, not by address, so functions that use it stay cacheable (``cache=True``).

>>> import time
>>> before = time.monotonic_ns()
>>> before <= now_ns() <= time.monotonic_ns()
True
>>> deadline_ns(None) > now_ns()
True

Tests: tests/search/test_engine_connect4.py (keeps time with tiny limits)
"""

from __future__ import annotations

import math
import time

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

CLOCK_MONOTONIC = 1
NEVER = (1 << 62) - 1
"""A deadline that never comes."""


@intrinsic
def _monotonic(typingctx):  # type: ignore[no-untyped-def]
    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        i64, i32 = ir.IntType(64), ir.IntType(32)
        timespec = ir.LiteralStructType([i64, i64])
        fnty = ir.FunctionType(i32, [i32, timespec.as_pointer()])
        clock_gettime = cgutils.get_or_insert_function(builder.module, fnty, "clock_gettime")
        ts = cgutils.alloca_once(builder, timespec)
        builder.call(clock_gettime, [i32(CLOCK_MONOTONIC), ts])
        sec = builder.load(cgutils.gep_inbounds(builder, ts, 0, 0))
        nsec = builder.load(cgutils.gep_inbounds(builder, ts, 0, 1))
        return builder.add(builder.mul(sec, i64(1_000_000_000)), nsec)

    return types.int64(), codegen


@njit(cache=True)
def now_ns() -> int:
    """Nanoseconds on the monotonic clock (the clock of ``time.monotonic_ns``)."""
    return _monotonic()  # type: ignore[no-any-return]


@njit(cache=True, inline="always")
def expired(stats: np.ndarray, end: int, last: int, longest: int) -> bool:
    """Whether the deadline ``stats[end]`` is so near that the next stretch of work
    may not finish before it, as :class:`~arena.search.deadline.Deadline` judges:
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
