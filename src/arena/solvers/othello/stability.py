"""Stable discs, which no later move can flip: a bound on the final score.

Tests: tests/solvers/test_othello_solver.py

A disc can be flipped only along one of the four lines through it
(horizontal, vertical, two diagonals), and only if the run of its colour
through it has empty cells or the opponent's discs at both ends. So a disc is
stable when, on each of the four lines, one of its two neighbours is off the
board or a stable disc of its colour, or the line has no empty cell left.
:func:`stable` grows that set from nothing until it stops changing; it finds
the edges anchored on corners, the wedges behind them and discs on full
lines, a subset of the truly stable discs (enough for a bound).

If the opponent has ``k`` stable discs, the player to move ends with at most
``cells - 2k`` (the empty cells to the winner included): the search cuts when
that is no better than what it already has (:mod:`.search`).

:func:`geometry` precomputes, for one board size, the cells whose neighbour
in each of the eight directions is off the board and the cells of every line.

>>> import numpy as np
>>> from arena.solvers.othello.board import board_mask
>>> geo = geometry(4)
>>> full = np.uint64(board_mask(4))
>>> int(stable(full, np.uint64(0), full, geo)) == int(full)   # a full board is stable
True
>>> a1 = np.uint64(1)
>>> int(stable(a1, np.uint64(2), np.uint64(board_mask(4)), geo))   # a corner is
1
"""

from __future__ import annotations

import numpy as np
from numba import njit

U = np.uint64
# The directions as (row step, column step); shifting by 8 * dr + dc moves a
# cell's bit to its neighbour's.
DIRECTIONS = ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1), (1, -1), (-1, 1))
LINES = 8 + 8 + 15 + 15
"""Rows in the geometry array after the eight edge masks (lines of 8x8)."""


def geometry(size: int) -> np.ndarray:
    """``[edge masks of the 8 directions, then the cells of each line, 0-padded]``
    for a ``size`` x ``size`` board in the 8x8 layout (uint64)."""
    geo = np.zeros(8 + 4 * 15, dtype=np.uint64)
    for d, (dr, dc) in enumerate(DIRECTIONS):
        mask = 0
        for r in range(size):
            for c in range(size):
                if not (0 <= r + dr < size and 0 <= c + dc < size):
                    mask |= 1 << (r * 8 + c)
        geo[d] = mask
    # Lines: rows, columns, then the two diagonal directions, by their key.
    keys = (
        lambda r, c: r,
        lambda r, c: c,
        lambda r, c: r - c + size,
        lambda r, c: r + c,
    )
    for axis, key in enumerate(keys):
        lines: dict[int, int] = {}
        for r in range(size):
            for c in range(size):
                lines[key(r, c)] = lines.get(key(r, c), 0) | 1 << (r * 8 + c)
        for j, mask in enumerate(sorted(lines.values())):
            geo[8 + axis * 15 + j] = mask
    return geo


@njit(cache=True, inline="always")
def _full(occupied: np.uint64, geo: np.ndarray, axis: int) -> np.uint64:
    # The cells of the lines along ``axis`` that have no empty cell.
    full = U(0)
    for j in range(8 + axis * 15, 8 + axis * 15 + 15):
        line = geo[j]
        if occupied & line == line:
            full |= line
    return full


@njit(cache=True)
def stable(me: np.uint64, opp: np.uint64, board: np.uint64, geo: np.ndarray) -> np.uint64:
    """Discs of ``me`` that can never be flipped (a subset of them)."""
    occupied = me | opp
    fixed = (
        _full(occupied, geo, 0),
        _full(occupied, geo, 1),
        _full(occupied, geo, 2),
        _full(occupied, geo, 3),
    )
    s = U(0)
    while True:
        # A neighbour in each direction that is off the board or stable.
        h = geo[0] | geo[1] | (s >> U(1)) | (s << U(1)) | fixed[0]
        v = geo[2] | geo[3] | (s >> U(8)) | (s << U(8)) | fixed[1]
        d = geo[4] | geo[5] | (s >> U(9)) | (s << U(9)) | fixed[2]
        a = geo[6] | geo[7] | (s >> U(7)) | (s << U(7)) | fixed[3]
        grown = me & h & v & d & a
        if grown == s:
            return s
        s = grown
