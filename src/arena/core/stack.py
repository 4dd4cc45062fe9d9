"""Scratch arrays on the stack of compiled code: a kernel's playout without a heap allocation.

A random playout keeps its pool of moves in an array of its own. Made with
``np.empty`` inside compiled code, each playout pays numba's heap allocation,
its reference counts and its release — about 50 ns of a 200-250 ns playout of
Tic-tac-toe a few plies in, where a search of 3,000 simulations plays 3,000 of
them. :func:`int64_scratch` gives the same array on the stack of the function
that asks for it (its frame's memory: free to make, gone when it returns), up
to :data:`MOST` entries, and a heap array beyond.

Called from Python (``NUMBA_DISABLE_JIT=1``) it is ``np.empty``. In compiled code
its implementation is inlined into the caller (``inline="always"``), so the
stack memory is the caller's own and lives as long as the caller runs; never
return the array, nor keep it past the caller's return.

>>> int64_scratch(3).shape
(3,)

Tests: ``tests/games/test_kinarow_kernel.py`` (the playouts move for move, compiled and as
plain Python), ``tests/search/test_fast_mcts.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from llvmlite import ir
from numba import carray, types
from numba.core import cgutils
from numba.extending import intrinsic, overload

MOST = 512
"""The most entries a scratch array takes on the stack (4 KB: every board's moves up to
22x22); larger ones are heap arrays."""


def int64_scratch(n: int) -> Any:
    """An uninitialised int64 array of ``n`` entries, on the caller's stack in compiled
    code (see the module)."""
    return np.empty(n, np.int64)


@intrinsic
def _stack_memory(typingctx: Any) -> Any:
    """A pointer to :data:`MOST` int64 on the stack of the function being compiled."""

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        # One element type and a count (not an array type): the entry block zero-fills one
        # element, not 4 KB, and the memory is left as found.
        return cgutils.alloca_once(builder, ir.IntType(64), size=MOST)

    return types.CPointer(types.int64)(), codegen


@overload(int64_scratch, inline="always")
def _int64_scratch_compiled(n):  # type: ignore[no-untyped-def]
    def make(n):  # type: ignore[no-untyped-def]
        if n <= MOST:
            return carray(_stack_memory(), n)
        return np.empty(n, np.int64)

    return make
