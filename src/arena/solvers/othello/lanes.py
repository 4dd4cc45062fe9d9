"""Othello's moves and flips four directions at a time, in one vector of four words.

Tests: tests/solvers/test_othello_solver.py

A direction's run of discs is found by the same few shifts and masks in each of
the eight directions: four of them shift towards higher bits (by 1, 8, 7 and 9),
four towards lower bits by the same amounts. Written as LLVM vector code (four
64-bit lanes, one direction a lane, a shift amount a lane), the processor does
the four directions in one instruction each (AVX2's ``vpsllvq``/``vpsrlvq`` on
x86-64), instead of one after the other: numba does not vectorise the scalar
loop by itself (its SLP vectoriser is off by default). On a processor without
such instructions LLVM splits the vectors into words again: the same values,
about the old speed.

Each direction's run grows from its start by one cell twice, then by two cells
twice (over pairs of the opponent's discs, the longest run being 6):

- :func:`moves_lanes`: from the player's discs, over the opponent's, to an
  empty cell beyond.
- :func:`flips_lanes`: from the cell played, over the opponent's discs; the
  run flips when the cell after it is the player's.

Horizontal and diagonal runs go over the opponent's discs off the a and h
files only (``INNER``), so they never wrap from one row to the next. The
functions are numba intrinsics (LLVM code written here, compiled into the
caller): call them from compiled code, or through :func:`~.board.moves` and
:func:`~.board.flips`.
"""

from __future__ import annotations

from typing import Any

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

INNER = 0x7E7E7E7E7E7E7E7E
ALL = (1 << 64) - 1
SHIFTS = (1, 8, 7, 9)
"""A lane's shift: east-west, north-south and the two diagonals."""
LANE_MASKS = (INNER, ALL, INNER, INNER)
"""The opponent's discs a lane's run may cross (the a and h files stop the others)."""

_I32 = ir.IntType(32)
_I64 = ir.IntType(64)
_V4 = ir.VectorType(_I64, 4)


def _vector(values: tuple[int, ...]) -> ir.Constant:
    return ir.Constant(_V4, [ir.Constant(_I64, v) for v in values])


def _splat(builder: ir.IRBuilder, word: Any) -> Any:
    # The word in all four lanes.
    one = builder.insert_element(ir.Constant(_V4, ir.Undefined), word, _I32(0))
    mask = ir.Constant(ir.VectorType(_I32, 4), [0, 0, 0, 0])
    return builder.shuffle_vector(one, ir.Constant(_V4, ir.Undefined), mask)


def _or_lanes(builder: ir.IRBuilder, vector: Any) -> Any:
    # The four lanes OR-ed into one word.
    high = builder.shuffle_vector(
        vector, ir.Constant(_V4, ir.Undefined), ir.Constant(ir.VectorType(_I32, 4), [2, 3, 2, 3])
    )
    pair = builder.or_(vector, high)
    return builder.or_(
        builder.extract_element(pair, _I32(0)), builder.extract_element(pair, _I32(1))
    )


def _runs(builder: ir.IRBuilder, start: Any, opp: Any, shift: Any) -> Any:
    """The opponent's discs in a run from ``start`` (not included), per lane, in the
    direction of ``shift`` (``builder.shl`` or ``builder.lshr``)."""
    amount = _vector(SHIFTS)
    double = _vector(tuple(2 * s for s in SHIFTS))
    pairs = builder.and_(opp, shift(opp, amount))
    run = builder.and_(opp, shift(start, amount))
    run = builder.or_(run, builder.and_(opp, shift(run, amount)))
    run = builder.or_(run, builder.and_(pairs, shift(run, double)))
    return builder.or_(run, builder.and_(pairs, shift(run, double)))


def _uint64s(*args: Any) -> bool:
    return all(isinstance(a, types.Integer) and a.bitwidth == 64 for a in args)


@intrinsic
def moves_lanes(typingctx: Any, me: Any, opp: Any, board: Any) -> Any:
    """The empty cells of ``board`` where ``me`` may place a disc against ``opp``."""
    if not _uint64s(me, opp, board):
        return None

    def codegen(context: Any, builder: ir.IRBuilder, signature: Any, args: Any) -> Any:
        me, opp, board = args
        player = _splat(builder, me)
        crossed = builder.and_(_splat(builder, opp), _vector(LANE_MASKS))
        amount = _vector(SHIFTS)
        found = None
        for shift in (builder.shl, builder.lshr):
            reached = shift(_runs(builder, player, crossed, shift), amount)
            found = reached if found is None else builder.or_(found, reached)
        empty = builder.xor(builder.or_(me, opp), ir.Constant(_I64, ALL))
        return builder.and_(builder.and_(_or_lanes(builder, found), board), empty)

    return types.uint64(types.uint64, types.uint64, types.uint64), codegen


@intrinsic
def flips_lanes(typingctx: Any, me: Any, opp: Any, x: Any) -> Any:
    """The discs of ``opp`` that a disc of ``me`` on the cell ``x`` (one bit) turns over."""
    if not _uint64s(me, opp, x):
        return None

    def codegen(context: Any, builder: ir.IRBuilder, signature: Any, args: Any) -> Any:
        me, opp, x = args
        player = _splat(builder, me)
        cell = _splat(builder, x)
        crossed = builder.and_(_splat(builder, opp), _vector(LANE_MASKS))
        amount = _vector(SHIFTS)
        zero = _vector((0, 0, 0, 0))
        found = None
        for shift in (builder.shl, builder.lshr):
            run = _runs(builder, cell, crossed, shift)
            # The run flips when the cell after it holds a disc of mine: an all-ones
            # lane mask from the comparison, no branch.
            closed = builder.and_(shift(run, amount), player)
            keep = builder.sext(builder.icmp_unsigned("!=", closed, zero), _V4)
            run = builder.and_(run, keep)
            found = run if found is None else builder.or_(found, run)
        return _or_lanes(builder, found)

    return types.uint64(types.uint64, types.uint64, types.uint64), codegen
