"""A monotonic clock that compiled code can read, so a batch of simulations keeps its deadline.

:func:`now_ns` is ``CLOCK_MONOTONIC`` in nanoseconds. Called from Python it is
:func:`time.monotonic_ns`; inside numba-compiled code it calls the C library's
``clock_gettime`` directly (tens of nanoseconds), so the compiled MCTS can stop
a batch the moment its deadline passes instead of trusting the batch's
predicted length. On Linux, Python's :func:`time.perf_counter` reads the same
clock, so a :class:`~arena.search.clock.deadline.Deadline` converts to it with
:func:`deadline_ns`. Elsewhere the compiled clock is off (:data:`AVAILABLE` is
False, :func:`deadline_ns` gives 0 = no deadline inside a batch) and batches
stop between two reads of Python's clock only.

>>> now_ns() > 0
True
>>> deadline_ns(float("inf")), deadline_ns(float("-inf"))
(0, 1)

Tests: ``tests/search/test_fast_mcts.py``.
"""

from __future__ import annotations

import sys
import time
from typing import Any

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload

AVAILABLE = sys.platform.startswith("linux")
"""Whether compiled code reads the clock (Linux: ``clock_gettime`` and
:func:`time.perf_counter` share ``CLOCK_MONOTONIC``)."""


def now_ns() -> int:
    """``CLOCK_MONOTONIC`` in nanoseconds (0 in compiled code where :data:`AVAILABLE` is
    False)."""
    return time.monotonic_ns()


def deadline_ns(seconds: float) -> int:
    """A :func:`time.perf_counter` moment as :func:`now_ns` reads it in compiled code; 0
    (none) for an infinite moment or where the compiled clock is off, 1 (long past) for a
    deadline stopped before its search began (``Deadline.stop``: minus infinity)."""
    if not AVAILABLE or seconds == float("inf"):
        return 0
    if seconds == float("-inf"):
        return 1
    return max(1, int(seconds * 1e9))


@intrinsic
def _clock_gettime_ns(typingctx: Any) -> Any:
    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        i32, i64 = ir.IntType(32), ir.IntType(64)
        if not AVAILABLE:
            return ir.Constant(i64, 0)
        # struct timespec on 64-bit Linux: two 64-bit fields, seconds and nanoseconds.
        spec = cgutils.alloca_once(builder, ir.ArrayType(i64, 2))
        pointer = ir.IntType(8).as_pointer()
        function = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(i32, [i32, pointer]), "clock_gettime"
        )
        builder.call(
            function, [ir.Constant(i32, time.CLOCK_MONOTONIC), builder.bitcast(spec, pointer)]
        )
        zero = ir.Constant(i32, 0)
        seconds = builder.load(builder.gep(spec, [zero, zero]))
        nanoseconds = builder.load(builder.gep(spec, [zero, ir.Constant(i32, 1)]))
        return builder.add(builder.mul(seconds, ir.Constant(i64, 1_000_000_000)), nanoseconds)

    return types.int64(), codegen


@overload(now_ns)
def _now_ns_compiled():  # type: ignore[no-untyped-def]
    def read():  # type: ignore[no-untyped-def]
        return _clock_gettime_ns()

    return read
