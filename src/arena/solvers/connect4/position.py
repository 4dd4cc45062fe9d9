"""Connect Four positions as two 64-bit words (compiled with numba).

Tests: tests/solvers/test_connect4_solver.py

Layout: column ``c`` owns bits ``c*(H+1) .. c*(H+1)+H-1`` from the bottom up,
and one spare bit on top that is always zero, so a line never wraps from the
top of one column into the next and ``mask + bottom`` finds the lowest free cell
of every column in one addition. A position is

- ``mask``: every stone on the board, and
- ``pos``: the stones of the player to move,

so playing a move is ``pos ^= mask; mask |= move`` (the opponent moves next)
and ``pos + mask`` is a unique key: in each column it sets the bit above the
top stone and keeps the player's stones under it. The key uses ``W*(H+1)``
bits, so boards with ``W*(H+1) <= 63`` fit (7x6 takes 49); words are signed
int64, whose top bit no board uses.

The board shape lives in a small int64 array ``L`` (see :func:`layout`); the
hot functions take its fields as scalars (height ``h``, ``k``, the ``bottom``
row and the ``board`` cells), so one compiled search serves every board size
and keeps them in registers.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from arena.solvers.bits import popcount

# Indices into a layout array.
W, H, K, BOTTOM, BOARD, CELLS, SYMMETRY, ORDER = 0, 1, 2, 3, 4, 5, 6, 7
MAX_BITS = 63


def fits(rows: int, cols: int) -> bool:
    """Whether a board of ``rows`` x ``cols`` fits the 64-bit layout."""
    return cols * (rows + 1) <= MAX_BITS


def centre_order(cols: int) -> list[int]:
    """Columns from the centre outwards, left first on ties.

    >>> centre_order(7)
    [3, 2, 4, 1, 5, 0, 6]
    """
    return sorted(range(cols), key=lambda c: (abs(2 * c - (cols - 1)), c))


def layout(rows: int, cols: int, k: int, symmetry: bool = True) -> np.ndarray:
    """The layout array of a board (``fits(rows, cols)`` must hold).

    ``symmetry``: mirror images share table entries (the key is the smaller
    of a position's key and its mirror's).
    """
    if not fits(rows, cols):
        raise ValueError(f"a {cols}x{rows} board does not fit 63 bits")
    bottom = sum(1 << (c * (rows + 1)) for c in range(cols))
    board = bottom * ((1 << rows) - 1)
    head = [cols, rows, k, bottom, board, rows * cols, int(symmetry)]
    return np.array(head + centre_order(cols), dtype=np.int64)


@njit(cache=True, inline="always")
def column_mask(h: int, col: int) -> int:
    """The cells of column ``col`` on a board of height ``h``."""
    return ((1 << h) - 1) << (col * (h + 1))


@njit(cache=True, inline="always")
def possible(mask: int, bottom: int, board: int) -> int:
    """The cell each non-full column would receive a stone on."""
    return (mask + bottom) & board


@njit(cache=True, inline="always")
def _shift(x: int, s: int) -> int:
    # Shifts by 64 or more are undefined in LLVM: runs that long are empty anyway.
    if s >= 0:
        return x << s if s < 64 else 0
    return x >> -s if s > -64 else 0


@njit(cache=True, inline="always")
def _four(pos: int, d: int) -> int:
    # Cells that complete four in direction d: three stones around the cell,
    # split 3+0, 2+1, 1+2 or 0+3 between its two sides.
    below2 = (pos << d) & (pos << (2 * d))
    above2 = (pos >> d) & (pos >> (2 * d))
    return (
        (below2 & (pos << (3 * d)))
        | (below2 & (pos >> d))
        | (above2 & (pos << d))
        | (above2 & (pos >> (3 * d)))
    )


@njit(cache=True)
def _k_cells(pos: int, d: int, k: int) -> int:
    # Cells c such that some window of k cells on the line through c in
    # direction d holds the player's stones everywhere but c.
    r = 0
    for j in range(k):  # c is the j-th cell of the window
        m = -1
        for i in range(k):
            if i != j:
                m &= _shift(pos, (j - i) * d)
        r |= m
    return r


@njit(cache=True, inline="always")
def winning_cells(pos: int, mask: int, h: int, k: int, board: int) -> int:
    """The empty cells (playable now or not) where a stone of ``pos`` makes k in a line."""
    if k == 4:
        # Vertical: the only empty cell of a column run is on top of it.
        r = (pos << 1) & (pos << 2) & (pos << 3)
        r |= _four(pos, h + 1) | _four(pos, h) | _four(pos, h + 2)
    else:
        r = _k_cells(pos, h + 1, k) | _k_cells(pos, h, k) | _k_cells(pos, h + 2, k)
        m = -1
        for i in range(1, k):
            m &= pos << i
        r |= m
    return r & (board ^ mask)


@njit(cache=True)
def can_win_next(L: np.ndarray, pos: int, mask: int) -> bool:
    """Whether the player to move wins with one stone."""
    wins = winning_cells(pos, mask, L[H], L[K], L[BOARD])
    return (wins & possible(mask, L[BOTTOM], L[BOARD])) != 0


@njit(cache=True, inline="always")
def non_losing_moves(pos: int, mask: int, h: int, k: int, bottom: int, board: int) -> int:
    """The playable cells after which the opponent cannot win at once (0: lost).

    Call only when the player to move cannot win at once.
    """
    moves = possible(mask, bottom, board)
    threats = winning_cells(pos ^ mask, mask, h, k, board)
    forced = moves & threats
    if forced:
        if forced & (forced - 1):  # two threats: no move stops both
            return 0
        moves = forced
    # Never fill the cell under an opponent's winning cell.
    return moves & ~(threats >> 1)


@njit(cache=True, inline="always")
def move_score(pos: int, mask: int, move: int, h: int, k: int, board: int) -> int:
    """The number of winning cells the player owns after playing ``move``."""
    return popcount(winning_cells(pos | move, mask, h, k, board))


@njit(cache=True)
def mirror(L: np.ndarray, key: int) -> int:
    """The key of the left-right mirror image."""
    width, stride = L[W], L[H] + 1
    col = (1 << stride) - 1
    r = 0
    for c in range(width):
        r |= ((key >> (c * stride)) & col) << ((width - 1 - c) * stride)
    return r


@njit(cache=True)
def has_won(L: np.ndarray, stones: int) -> bool:
    """Whether ``stones`` hold k in a line."""
    k, h = L[K], L[H]
    for d in (1, h + 1, h, h + 2):
        m = stones
        for _ in range(1, k):
            m &= m >> d
        if m:
            return True
    return False


def from_moves(rows: int, cols: int, moves: list[int]) -> tuple[int, int]:
    """``(pos, mask)`` after the 0-based column moves from the empty board (Python)."""
    stride = rows + 1
    pos = mask = 0
    for col in moves:
        bottom = 1 << (col * stride)
        cell = (mask + bottom) & (((1 << rows) - 1) * bottom)
        pos ^= mask
        mask |= cell
    return pos, mask
