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
from arena.solvers.othello.lanes import flips_lanes, moves_lanes

U = np.uint64
ONE = U(1)
ZERO = U(0)


def board_mask(size: int) -> int:
    """The cells of a ``size`` x ``size`` board in the 8x8 layout."""
    return sum(1 << (r * 8 + c) for r in range(size) for c in range(size))


@njit(cache=True)
def moves(me: np.uint64, opp: np.uint64, board: np.uint64) -> np.uint64:
    """The cells where the player with discs ``me`` may place against ``opp``.

    Each direction's runs of ``opp`` discs grow from ``me`` by one cell twice, then
    by two cells twice (over pairs of ``opp`` discs), four directions at once
    (:func:`~.lanes.moves_lanes`): 2.5 times the throughput of the eight directions
    one after the other.
    """
    return moves_lanes(me, opp, board)


@njit(cache=True)
def flips(me: np.uint64, opp: np.uint64, x: np.uint64) -> np.uint64:
    """The discs of ``opp`` that a disc of ``me`` placed on the cell ``x`` turns over.

    In each direction the run of ``opp`` discs from ``x`` grows as in :func:`moves`
    and flips when the cell after it is a disc of ``me``, four directions at once
    and with no branch (:func:`~.lanes.flips_lanes`). Cells outside a smaller board
    are never discs, so they stop a run as the edge does.
    """
    return flips_lanes(me, opp, x)


NOT_A = U(0xFEFEFEFEFEFEFEFE)
NOT_H = U(0x7F7F7F7F7F7F7F7F)


@njit(cache=True, inline="always")
def near(discs: np.uint64) -> np.uint64:
    """The cells next to ``discs`` (in any of the eight directions), ``discs`` included:
    a move must flip a neighbour, so no other cell can be one."""
    row = discs | ((discs << ONE) & NOT_A) | ((discs >> ONE) & NOT_H)
    return row | (row << U(8)) | (row >> U(8))


def line_counts() -> np.ndarray:
    """``[position, line]``: how many discs a move at ``position`` of a full line of 8
    cells turns over, ``line`` holding the mover's discs (bit i: cell i) and the
    opponent's on every other cell. Cells past a short line's end count as
    opponent's discs that no disc of the mover closes: they flip nothing, so one
    table serves every row, column and diagonal.

    >>> int(line_counts()[0, 0b10000000]), int(line_counts()[3, 0b01000001])
    (6, 4)
    """
    out = np.zeros((8, 256), dtype=np.int64)
    for pos in range(8):
        for line in range(256):
            if line >> pos & 1:
                continue
            n = 0
            for step in (1, -1):
                i, run = pos + step, 0
                while 0 <= i < 8 and not line >> i & 1:
                    i, run = i + step, run + 1
                if 0 <= i < 8:
                    n += run
            out[pos, line] = n
    return out


def diagonals() -> np.ndarray:
    """``[cell, 0 or 1]``: the diagonal (towards h8) and the anti-diagonal through a cell."""
    out = np.zeros((64, 2), dtype=np.uint64)
    for cell in range(64):
        r, c = divmod(cell, 8)
        for i in range(64):
            rr, cc = divmod(i, 8)
            if rr - cc == r - c:
                out[cell, 0] |= np.uint64(1 << i)
            if rr + cc == r + c:
                out[cell, 1] |= np.uint64(1 << i)
    return out


LINE_COUNTS = line_counts()
DIAGONALS = diagonals()
FULL = U(0xFFFFFFFFFFFFFFFF)
COLUMN_A = U(0x0101010101010101)
COLUMN_GATHER = U(0x0102040810204080)
"""Times a column's discs (shifted to column a), puts row ``r``'s disc on bit ``56 + r``."""


@njit(cache=True, inline="always")
def last_flips(me: np.uint64, cell: int) -> int:
    """How many discs a move of ``me`` on ``cell`` turns over when it is the 8x8 board's
    only empty cell (every other cell a disc, so ``me`` alone says where the runs
    end): each of the four lines through the cell gathered into a byte (a row by a
    shift, a column or a diagonal by a multiplication that stacks its cells) and
    counted in :data:`LINE_COUNTS`. About a third of :func:`flips`' work."""
    r = cell >> 3
    c = cell & 7
    n = LINE_COUNTS[c, np.int64((me >> U(r * 8)) & U(255))]
    n += LINE_COUNTS[r, np.int64((((me >> U(c)) & COLUMN_A) * COLUMN_GATHER) >> U(56))]
    n += LINE_COUNTS[c, np.int64(((me & DIAGONALS[cell, 0]) * COLUMN_A) >> U(56))]
    n += LINE_COUNTS[c, np.int64(((me & DIAGONALS[cell, 1]) * COLUMN_A) >> U(56))]
    return n


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
