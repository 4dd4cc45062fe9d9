"""Othello bitboards for boards up to 8x8 (compiled with numba).

Tests: tests/solvers/test_othello_solver.py

Bit ``row * 8 + col`` is the cell ``row, col`` (rows from the top, so a1 is
bit 0 and h8 bit 63, the order of the FFO position strings). Smaller boards
sit in the top-left corner: cells outside the ``board`` mask are walls that
no disc is ever placed on, so runs of discs stop there as at an edge.

Words are uint64; every constant here is a ``np.uint64`` so numba keeps the
arithmetic unsigned (mixing in a Python int would make it signed).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from arena.solvers.bits import popcount

U = np.uint64
INNER = U(0x7E7E7E7E7E7E7E7E)
ONE = U(1)
ZERO = U(0)


def board_mask(size: int) -> int:
    """The cells of a ``size`` x ``size`` board in the 8x8 layout."""
    return sum(1 << (r * 8 + c) for r in range(size) for c in range(size))


@njit(cache=True, inline="always")
def _run(me: np.uint64, opp: np.uint64, shift: int, left: bool) -> np.uint64:
    # Empty cells reached from me over a run of opp discs in one direction.
    s = U(shift)
    if left:
        t = opp & (me << s)
        t |= opp & (t << s)
        t |= opp & (t << s)
        t |= opp & (t << s)
        t |= opp & (t << s)
        t |= opp & (t << s)
        return t << s
    t = opp & (me >> s)
    t |= opp & (t >> s)
    t |= opp & (t >> s)
    t |= opp & (t >> s)
    t |= opp & (t >> s)
    t |= opp & (t >> s)
    return t >> s


@njit(cache=True)
def moves(me: np.uint64, opp: np.uint64, board: np.uint64) -> np.uint64:
    """The cells where the player with discs ``me`` may place against ``opp``."""
    inner = opp & INNER  # a horizontal or diagonal run never crosses the a/h edge
    m = _run(me, inner, 1, True) | _run(me, inner, 1, False)
    m |= _run(me, opp, 8, True) | _run(me, opp, 8, False)
    m |= _run(me, inner, 7, True) | _run(me, inner, 7, False)
    m |= _run(me, inner, 9, True) | _run(me, inner, 9, False)
    return m & board & ~(me | opp)


@njit(cache=True, inline="always")
def _ray(me: np.uint64, opp: np.uint64, x: np.uint64, shift: int, left: bool) -> np.uint64:
    # The opp discs flipped in one direction by a disc placed on x: the run of opp
    # next to x, if a disc of me closes it. Branch-free, like ``_run``.
    s = U(shift)
    if left:
        t = opp & (x << s)
        t |= opp & (t << s)
        t |= opp & (t << s)
        t |= opp & (t << s)
        t |= opp & (t << s)
        t |= opp & (t << s)
        return t if (t << s) & me else ZERO
    t = opp & (x >> s)
    t |= opp & (t >> s)
    t |= opp & (t >> s)
    t |= opp & (t >> s)
    t |= opp & (t >> s)
    t |= opp & (t >> s)
    return t if (t >> s) & me else ZERO


@njit(cache=True)
def flips(me: np.uint64, opp: np.uint64, x: np.uint64) -> np.uint64:
    """The discs of ``opp`` that a disc of ``me`` placed on the cell ``x`` turns over."""
    inner = opp & INNER  # a horizontal or diagonal run never crosses the a/h edge
    f = _ray(me, inner, x, 1, True) | _ray(me, inner, x, 1, False)
    f |= _ray(me, opp, x, 8, True) | _ray(me, opp, x, 8, False)
    f |= _ray(me, inner, x, 7, True) | _ray(me, inner, x, 7, False)
    f |= _ray(me, inner, x, 9, True) | _ray(me, inner, x, 9, False)
    return f


@njit(cache=True)
def final_score(me: np.uint64, opp: np.uint64, board: np.uint64) -> int:
    """The disc difference for me at the end, the empty cells going to the winner."""
    p = np.int64(popcount(me))
    o = np.int64(popcount(opp))
    empty = np.int64(popcount(board)) - p - o
    if p > o:
        return p - o + empty
    if p < o:
        return p - o - empty
    return 0
