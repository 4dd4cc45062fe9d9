"""Bit tricks the compiled solvers share: population count, lowest and highest set bit.

Tests: tests/solvers/test_connect4_solver.py, tests/solvers/test_othello_solver.py

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


@intrinsic
def highest_index(typingctx: Any, x: Any) -> Any:
    """The index of the highest set bit of a 64-bit word (undefined for 0)."""
    if not isinstance(x, types.Integer) or x.bitwidth != 64:
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        zeros = builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))
        return builder.sub(ir.Constant(ir.IntType(64), 63), zeros)

    return x(x), codegen


@intrinsic
def prefetch(typingctx: Any, array: Any, index: Any) -> Any:
    """Ask the processor to bring ``array[index]`` (a 2-D array: its row) into its
    caches; no effect on values.

    A table probe that misses every cache waits about 100 ns for memory;
    prefetching the entries a search will probe next overlaps those waits with work.
    """
    if not isinstance(array, types.Array) or not isinstance(index, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        from numba.core import cgutils

        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        zero = context.get_constant(types.intp, 0)
        indices = [args[1]] + [zero] * (aryty.ndim - 1)
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, indices, wraparound=False)
        byte_ptr = builder.bitcast(ptr, ir.IntType(8).as_pointer())
        fnty = ir.FunctionType(
            ir.VoidType(),
            [ir.IntType(8).as_pointer(), ir.IntType(32), ir.IntType(32), ir.IntType(32)],
        )
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        i32 = ir.IntType(32)
        # read, keep in all cache levels, data cache
        builder.call(fn, [byte_ptr, i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.none(array, index), codegen
