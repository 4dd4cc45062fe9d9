"""The eight symmetries of a square Othello board in the 8x8 layout (compiled with numba).

Tests: tests/solvers/test_othello_solver.py

A ``size`` x ``size`` board sits in the top-left corner of the 8x8 layout
(:mod:`.board`), so each symmetry is the 8x8 one followed by a shift that
brings the board back to the corner: a vertical flip moves row ``r`` to
``7 - r`` and a shift of ``8 - size`` rows brings it to ``size - 1 - r``; a
mirror does the same with columns; the transpose keeps the corner in place.

:func:`canonical` picks one representative among the (up to) eight images of
a position; the search keys its table on it near the root, where symmetric
positions are common (the four first moves of the start are one position up
to symmetry) and the eight transforms cost nothing next to the subtree.

>>> import numpy as np
>>> from arena.solvers.othello.board import board_mask
>>> corner, opposite = np.uint64(1), np.uint64(1 << (5 * 8 + 5))   # a1, f6 on 6x6
>>> int(rotate_half(corner, 2)) == int(opposite)
True
>>> int(transpose(np.uint64(1 << 3))) == 1 << 24     # d1 -> a4
True
"""

from __future__ import annotations

import numpy as np
from numba import njit

U = np.uint64
_K8 = U(0x00FF00FF00FF00FF)
_K16 = U(0x0000FFFF0000FFFF)
_M1 = U(0x5555555555555555)
_M2 = U(0x3333333333333333)
_M4 = U(0x0F0F0F0F0F0F0F0F)
_D1 = U(0x5500550055005500)
_D2 = U(0x3333000033330000)
_D4 = U(0x0F0F0F0F00000000)


@njit(cache=True, inline="always")
def flip_vertical(x: np.uint64, gap: int) -> np.uint64:
    """Rows upside down on a board ``8 - gap`` rows high."""
    x = ((x >> U(8)) & _K8) | ((x & _K8) << U(8))
    x = ((x >> U(16)) & _K16) | ((x & _K16) << U(16))
    x = (x >> U(32)) | (x << U(32))
    return x >> U(8 * gap)


@njit(cache=True, inline="always")
def mirror(x: np.uint64, gap: int) -> np.uint64:
    """Columns left to right on a board ``8 - gap`` columns wide."""
    x = ((x >> U(1)) & _M1) | ((x & _M1) << U(1))
    x = ((x >> U(2)) & _M2) | ((x & _M2) << U(2))
    x = ((x >> U(4)) & _M4) | ((x & _M4) << U(4))
    return x >> U(gap)


@njit(cache=True, inline="always")
def transpose(x: np.uint64) -> np.uint64:
    """Rows become columns (the a1 diagonal stays); the top-left corner stays put."""
    t = _D4 & (x ^ (x << U(28)))
    x ^= t ^ (t >> U(28))
    t = _D2 & (x ^ (x << U(14)))
    x ^= t ^ (t >> U(14))
    t = _D1 & (x ^ (x << U(7)))
    x ^= t ^ (t >> U(7))
    return x


@njit(cache=True)
def rotate_half(x: np.uint64, gap: int) -> np.uint64:
    """The half turn of a board ``8 - gap`` cells wide."""
    return mirror(flip_vertical(x, gap), gap)


@njit(cache=True)
def image(x: np.uint64, k: int, gap: int) -> np.uint64:
    """The ``k``-th of the eight symmetries (0 is the identity): bit 0 mirrors,
    bit 1 flips rows, bit 2 transposes last."""
    if k & 1:
        x = mirror(x, gap)
    if k & 2:
        x = flip_vertical(x, gap)
    if k & 4:
        x = transpose(x)
    return x


@njit(cache=True)
def canonical(me: np.uint64, opp: np.uint64, gap: int) -> tuple[np.uint64, np.uint64]:
    """The least ``(me, opp)`` among the eight images of a position."""
    best_me, best_opp = me, opp
    for k in range(1, 8):
        m = image(me, k, gap)
        o = image(opp, k, gap)
        if m < best_me or (m == best_me and o < best_opp):
            best_me, best_opp = m, o
    return best_me, best_opp
