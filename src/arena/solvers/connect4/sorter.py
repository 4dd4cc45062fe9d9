"""Move ordering: the moves that create the most winning cells first.

Tests: tests/solvers/test_connect4_solver.py

A winning cell is an empty cell that would complete a line for the player;
a move that makes several is a strong threat, and searching it first gives the
early cut-offs alpha-beta needs. Ties keep the centre-first order of the
columns, since central stones take part in more lines.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from arena.solvers.connect4.position import column_mask, move_score


@njit(cache=True, inline="always")
def sort_moves(
    order: np.ndarray,
    h: int,
    k: int,
    board: int,
    pos: int,
    mask: int,
    candidates: int,
    moves: np.ndarray,
    scores: np.ndarray,
    row: int,
) -> int:
    """Write the cells of ``candidates`` into ``moves[row]`` best first; return their number.

    ``scores[row]`` is scratch space; one row per ply lets the recursion reuse
    two preallocated arrays. ``order``: the columns, centre first.
    """
    n = 0
    for i in range(order.size):
        move = candidates & column_mask(h, order[i])
        if move:
            score = move_score(pos, mask, move, h, k, board)
            j = n
            # Insertion sort, strictly greater moves ahead: ties keep column order.
            while j > 0 and scores[row, j - 1] < score:
                moves[row, j] = moves[row, j - 1]
                scores[row, j] = scores[row, j - 1]
                j -= 1
            moves[row, j] = move
            scores[row, j] = score
            n += 1
    return n
