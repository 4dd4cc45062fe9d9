"""perft and repeated playouts over a compiled kernel's functions, as plain Python
that numba compiles (:func:`arena.core.kernel.kernel_perft` compiles them on first use).

Kept apart from :mod:`arena.core.kernel` so that numpy, like numba, is imported
only when a kernel is used.

Tests: tests/games/test_kinarow_kernel.py
"""

from __future__ import annotations

import numpy as np

ONGOING = 2  # as arena.core.kernel.ONGOING (numba reads module globals as constants)


def perft(legal_moves, play, outcome, p, s, depth, max_moves):  # type: ignore[no-untyped-def]
    """The number of move sequences of ``depth`` plies from ``s`` (not changed).

    Depth-first over one state row and one move list per level, without
    recursion, so numba compiles it once for every kernel.
    """
    if depth == 0:
        return 1
    if outcome(p, s) != ONGOING:
        return 0
    states = np.empty((depth, s.shape[0]), np.int64)
    moves = np.empty((depth, max_moves), np.int64)
    count = np.zeros(depth, np.int64)
    index = np.zeros(depth, np.int64)
    states[0, :] = s
    count[0] = legal_moves(p, states[0], moves[0])
    if depth == 1:
        return count[0]
    total = 0
    level = 0
    while level >= 0:
        if index[level] == count[level]:
            level -= 1
            continue
        move = moves[level, index[level]]
        index[level] += 1
        child = level + 1
        states[child, :] = states[level, :]
        play(p, states[child], move)
        n = legal_moves(p, states[child], moves[child])
        if child == depth - 1:
            total += n
        else:
            count[child] = n
            index[child] = 0
            level = child
    return total


def repeat_playouts(playout, p, s, n):  # type: ignore[no-untyped-def]
    """``n`` playouts from copies of ``s``; the first player's total return."""
    work = np.empty_like(s)
    total = 0
    for _ in range(n):
        work[:] = s
        total += playout(p, work)
    return total
