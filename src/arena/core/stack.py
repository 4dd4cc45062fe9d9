"""Arrays in compiled code without their costs: scratch on the stack, borrowed views.

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

Every function numba compiles takes a reference to each array it receives and drops it
on return: an atomic increment and decrement of the array's count (``lock inc``, about
20 cycles each), two per array per call, which numba's pruning of reference counts
leaves in place around loops and calls. A search calls small functions over the same
arrays millions of times (UCT's choice over three arrays, a kernel's ``play`` over two):
those atomics took a sixth of a Tic-tac-toe search of 3,000 simulations. :func:`borrowed`
gives a view of an array with no reference count at all (numba's count of it is a null
pointer, which its increment and decrement skip): pass it down to those calls instead.
It must not outlive the array it borrows from, whose owner keeps it alive (the caller
that passed it in), and is never returned or stored. Called from Python it is the array
itself.

>>> a = np.arange(3)
>>> borrowed(a) is a
True

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


def borrowed(array: Any) -> Any:
    """``array`` without a reference count, in compiled code (see the module); in Python,
    ``array`` itself."""
    return array


@overload(borrowed, inline="always")
def _borrowed_compiled(array):  # type: ignore[no-untyped-def]
    if isinstance(array, types.Array):
        return lambda array: _uncounted(array)
    return None


@intrinsic
def _uncounted(typingctx: Any, array: Any) -> Any:
    """``array``'s data, shape and strides with no meminfo and no parent object."""

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        model = context.data_model_manager[signature.args[0]]
        view = args[0]
        for name in ("meminfo", "parent"):
            at = model.get_field_position(name)
            view = builder.insert_value(view, cgutils.get_null_value(view.type.elements[at]), at)
        return view

    return array(array), codegen


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
