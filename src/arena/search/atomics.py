"""Atomic operations and a spin lock for compiled code that threads run side by side.

numba compiles no atomics of its own, and compiled functions declared
``nogil=True`` run truly in parallel when several Python threads call them on
the same arrays. What they need to share a structure safely is here, written
as LLVM instructions (the way :mod:`arena.search.clock.compiled` reads the
clock):

- :func:`compare_exchange` (``cmpxchg``, acquire-release) and :func:`fetch_add`
  (``atomicrmw add``) on one int64 of an array;
- :func:`release_store` (an atomic store with release order), and the fences
  :func:`fence_acquire` and :func:`fence_release`;
- :func:`float_bits`: a float's 64 bits as an integer, with which a table that
  threads share without a lock (Lazy SMP's) checks its entries the *lockless XOR*
  way: an entry stores its key XOR its data words, so an entry whose words two
  writers interleaved (one's key, the other's value) fails the check whatever the
  order the words were written or read in;
- :func:`acquire` / :func:`release`: a spin lock in one int64 of an array,
  which gives up the processor (``sched_yield``) after a few tries, so a holder
  the operating system paused (the machine is busy) gets it back at once
  instead of the waiter spinning for its whole time slice;
- :func:`private_array`: an array that shares no cache line with any other data.
  Small numpy arrays made one after the other (or freed by one thread and reused
  by the next) sit side by side in memory; when two threads write them, every
  write takes the line away from the other core (*false sharing*) — measured, the
  position of one thread's tree and the root position another reads every
  simulation shared a line. A thread's own arrays come from here.

The orders matter: plain stores made while holding the lock are visible to the
next holder (release, then acquire), and the compiler moves no plain access
across them.

>>> import numpy as np
>>> a = np.zeros(2, np.int64)
>>> int(try_cas(a, 0, 0, 5)), int(a[0]), int(add(a, 1, 3)), int(a[1])
(0, 5, 0, 3)

Tests: ``tests/search/test_mcts_threads.py``, ``tests/search/test_lazy_smp.py`` (the XOR check).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

SPINS = 64
"""Tries of a busy lock before :func:`acquire` yields the processor."""
LINE = 128
"""The span :func:`private_array` keeps to itself: two 64-byte cache lines, since the
processor fetches lines in pairs (a write to the neighbour line costs as much)."""


def private_array(shape: int | tuple[int, ...], dtype: Any = np.int64, zero: bool = True) -> Any:
    """An array (zeroed, or left as found with ``zero=False``) that starts on a
    :data:`LINE` boundary and fills whole lines of an allocation of its own, so no other
    data shares its cache lines.

    >>> a = private_array(3)
    >>> a.tolist(), a.ctypes.data % LINE, a.base.nbytes >= LINE
    ([0, 0, 0], 0, True)
    >>> private_array((2, 5), np.float64).shape
    (2, 5)
    """
    dims = (shape,) if isinstance(shape, int) else tuple(shape)
    kind = np.dtype(dtype)
    nbytes = int(np.prod(dims, dtype=np.int64)) * kind.itemsize
    span = -(-max(nbytes, 1) // LINE) * LINE  # whole lines
    raw = (np.zeros if zero else np.empty)(span + LINE, np.uint8)
    start = -raw.ctypes.data % LINE
    return raw[start : start + nbytes].view(kind).reshape(dims)


def _element(context: Any, builder: Any, array_type: Any, array: Any, index: Any) -> Any:
    """A pointer to ``array[index]`` (no wraparound, no bounds check)."""
    ary = context.make_array(array_type)(context, builder, array)
    return cgutils.get_item_pointer(context, builder, array_type, ary, [index], wraparound=False)


@intrinsic
def compare_exchange(typingctx, array, index, expected, new):  # type: ignore[no-untyped-def]
    """Set ``array[index]`` to ``new`` if it is ``expected``, atomically; its old value."""

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        pointer = _element(context, builder, signature.args[0], args[0], args[1])
        pair = builder.cmpxchg(pointer, args[2], args[3], "acq_rel", "acquire")
        return builder.extract_value(pair, 0)

    return types.int64(array, types.intp, types.int64, types.int64), codegen


@intrinsic
def fetch_add(typingctx, array, index, value):  # type: ignore[no-untyped-def]
    """Add ``value`` to ``array[index]`` atomically; the old value."""

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        pointer = _element(context, builder, signature.args[0], args[0], args[1])
        return builder.atomic_rmw("add", pointer, args[2], "acq_rel")

    return types.int64(array, types.intp, types.int64), codegen


@intrinsic
def release_store(typingctx, array, index, value):  # type: ignore[no-untyped-def]
    """Store ``value`` in ``array[index]`` with release order (earlier stores land first)."""

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        pointer = _element(context, builder, signature.args[0], args[0], args[1])
        builder.store_atomic(args[2], pointer, "release", 8)
        return context.get_dummy_value()

    return types.none(array, types.intp, types.int64), codegen


@intrinsic
def float_bits(typingctx, x):  # type: ignore[no-untyped-def]
    """The 64 bits of the float ``x`` as an int64 (a bit cast: no instruction).

    >>> import numpy as np
    >>> @njit
    ... def bits(x):
    ...     return float_bits(x)
    >>> int(bits(1.0)) == int(np.float64(1.0).view(np.int64)), int(bits(0.0))
    (True, 0)
    """
    if not isinstance(x, types.Float) or x.bitwidth != 64:
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.bitcast(args[0], ir.IntType(64))

    return types.int64(types.float64), codegen


@intrinsic
def fence_acquire(typingctx):  # type: ignore[no-untyped-def]
    """No load before it moves after it, nor any access after it before it (no instruction
    on x86: it stops the compiler)."""

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        builder.fence("acquire")
        return context.get_dummy_value()

    return types.none(), codegen


@intrinsic
def fence_release(typingctx):  # type: ignore[no-untyped-def]
    """No access before it moves after a store that follows it."""

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        builder.fence("release")
        return context.get_dummy_value()

    return types.none(), codegen


@intrinsic
def sched_yield(typingctx):  # type: ignore[no-untyped-def]
    """Give the processor to another thread (the C library's ``sched_yield``)."""

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        function = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.IntType(32), []), "sched_yield"
        )
        builder.call(function, [])
        return context.get_dummy_value()

    return types.none(), codegen


@njit(cache=True)
def try_cas(array, index, expected, new):  # type: ignore[no-untyped-def]
    """:func:`compare_exchange` callable from Python (for tests and doctests)."""
    return compare_exchange(array, index, expected, new)


@njit(cache=True)
def add(array, index, value):  # type: ignore[no-untyped-def]
    """:func:`fetch_add` callable from Python (for tests and doctests)."""
    return fetch_add(array, index, value)


@njit(cache=True, inline="always")
def acquire(lock, index):  # type: ignore[no-untyped-def]
    """Take the spin lock ``lock[index]`` (0 free, 1 held)."""
    tries = 0
    while True:
        if lock[index] == 0 and compare_exchange(lock, index, 0, 1) == 0:
            return
        tries += 1
        if tries >= SPINS:
            sched_yield()
            tries = 0


@njit(cache=True, inline="always")
def release(lock, index):  # type: ignore[no-untyped-def]
    """Free the spin lock ``lock[index]``."""
    release_store(lock, index, 0)
