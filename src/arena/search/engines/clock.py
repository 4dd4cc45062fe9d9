"""A monotonic clock that compiled (numba) code can read: deadlines checked from inside a search.

numba cannot call ``time.perf_counter``; :func:`monotonic_ns` is an intrinsic
that calls the C library's ``clock_gettime(CLOCK_MONOTONIC)`` directly — the
clock behind ``time.monotonic_ns`` on Linux — so Python can hand a compiled
search an absolute deadline in nanoseconds and the search checks it every few
hundred nodes (a call costs about 25 ns through the vDSO). Code that uses it
caches like any other (the symbol is resolved when the cached code is loaded).
Import this module only from compiled code: it imports numba.

>>> import time
>>> from numba import njit
>>> now = njit(lambda: monotonic_ns())
>>> abs(now() - time.monotonic_ns()) < 50_000_000
True

Tests: tests/search/test_engine_othello.py (the engine keeps time with tiny limits)
"""

from __future__ import annotations

from typing import Any

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

CLOCK_MONOTONIC = 1
"""Linux's id of the monotonic clock (the one ``time.monotonic_ns`` reads)."""


@intrinsic
def monotonic_ns(typingctx: Any) -> Any:
    """Nanoseconds of the monotonic clock, comparable with ``time.monotonic_ns()``."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        i64 = ir.IntType(64)
        timespec = ir.LiteralStructType([i64, i64])  # tv_sec, tv_nsec (64-bit Linux)
        spec = cgutils.alloca_once(builder, timespec)
        fnty = ir.FunctionType(ir.IntType(32), [ir.IntType(32), timespec.as_pointer()])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "clock_gettime")
        builder.call(fn, [ir.IntType(32)(CLOCK_MONOTONIC), spec])
        seconds = builder.load(cgutils.gep_inbounds(builder, spec, 0, 0))
        nanos = builder.load(cgutils.gep_inbounds(builder, spec, 0, 1))
        return builder.add(builder.mul(seconds, i64(1_000_000_000)), nanos)

    return types.int64(), codegen
