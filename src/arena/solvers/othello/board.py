"""Othello bitboards for boards up to 8x8 (compiled with numba).

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
def _run(P: np.uint64, O: np.uint64, shift: int, left: bool) -> np.uint64:
    # Empty cells reached from P over a run of O discs in one direction.
    s = U(shift)
    if left:
        t = O & (P << s)
        t |= O & (t << s)
        t |= O & (t << s)
        t |= O & (t << s)
        t |= O & (t << s)
        t |= O & (t << s)
        return t << s
    t = O & (P >> s)
    t |= O & (t >> s)
    t |= O & (t >> s)
    t |= O & (t >> s)
    t |= O & (t >> s)
    t |= O & (t >> s)
    return t >> s


@njit(cache=True)
def moves(P: np.uint64, O: np.uint64, board: np.uint64) -> np.uint64:
    """The cells where the player with discs ``P`` may place against ``O``."""
    inner = O & INNER  # a horizontal or diagonal run never crosses the a/h edge
    m = _run(P, inner, 1, True) | _run(P, inner, 1, False)
    m |= _run(P, O, 8, True) | _run(P, O, 8, False)
    m |= _run(P, inner, 7, True) | _run(P, inner, 7, False)
    m |= _run(P, inner, 9, True) | _run(P, inner, 9, False)
    return m & board & ~(P | O)


@njit(cache=True, inline="always")
def _ray(P: np.uint64, O: np.uint64, x: np.uint64, shift: int, left: bool) -> np.uint64:
    # The O discs flipped in one direction by a disc placed on x: the run of O
    # next to x, if a disc of P closes it. Branch-free, like ``_run``.
    s = U(shift)
    if left:
        t = O & (x << s)
        t |= O & (t << s)
        t |= O & (t << s)
        t |= O & (t << s)
        t |= O & (t << s)
        t |= O & (t << s)
        return t if (t << s) & P else ZERO
    t = O & (x >> s)
    t |= O & (t >> s)
    t |= O & (t >> s)
    t |= O & (t >> s)
    t |= O & (t >> s)
    t |= O & (t >> s)
    return t if (t >> s) & P else ZERO


@njit(cache=True)
def flips(P: np.uint64, O: np.uint64, x: np.uint64) -> np.uint64:
    """The discs of ``O`` that a disc of ``P`` placed on the cell ``x`` turns over."""
    inner = O & INNER  # a horizontal or diagonal run never crosses the a/h edge
    f = _ray(P, inner, x, 1, True) | _ray(P, inner, x, 1, False)
    f |= _ray(P, O, x, 8, True) | _ray(P, O, x, 8, False)
    f |= _ray(P, inner, x, 7, True) | _ray(P, inner, x, 7, False)
    f |= _ray(P, inner, x, 9, True) | _ray(P, inner, x, 9, False)
    return f


@njit(cache=True)
def final_score(P: np.uint64, O: np.uint64, board: np.uint64) -> int:
    """The disc difference for P at the end, the empty cells going to the winner."""
    p = np.int64(popcount(P))
    o = np.int64(popcount(O))
    empty = np.int64(popcount(board)) - p - o
    if p > o:
        return p - o + empty
    if p < o:
        return p - o - empty
    return 0
