"""Bit tricks the compiled solvers share: population count and lowest set bit.

numba has no popcount of its own; these intrinsics emit LLVM's ``ctpop`` and
``cttz``, which compile to single instructions on current x86 and ARM chips.
Import this module only from compiled code: it imports numba.
"""

from __future__ import annotations

from typing import Any

from llvmlite import ir
from numba import types
from numba.extending import intrinsic


@intrinsic
def popcount(typingctx: Any, x: Any) -> Any:
    """The number of set bits of an integer (same type back)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return x(x), codegen


@intrinsic
def lowest_index(typingctx: Any, x: Any) -> Any:
    """The index of the lowest set bit (undefined for 0)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return x(x), codegen
