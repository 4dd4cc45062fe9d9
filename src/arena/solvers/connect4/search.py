"""Negamax alpha-beta with the bounds table, and the root's null-window search.

Tests: tests/solvers/test_connect4_solver.py

Scores (the convention of Pons' tutorial and of the shared test positions):
0 for a draw; a win is worth ``(cells + 1) // 2 + 1`` minus the stones the
winner has placed when the game ends (22 minus the winner's stones on 7x6),
so a faster win scores higher; a loss is the negated score of the opponent's win.

:func:`probe` assumes the player to move cannot win at once (the caller
checks); it searches only moves that do not hand the opponent an immediate
win, which is what lets it bound the score before searching: the opponent
cannot win on the next move, and neither can the player.

The search (:func:`probe`) is called by :mod:`arena.solvers.connect4.solver`
once per null window ``[v, v+1]``: each probe answers "is the score above v?",
and a binary search over v finds the exact score in a few probes, each much
cheaper than a full-window search.

``stats`` is ``[nodes, node_budget, aborted, end]``: when ``nodes`` passes the
budget, or the monotonic clock (:mod:`arena.search.clock.compiled`, read every
:data:`CLOCK_EVERY` nodes) passes ``end`` (nanoseconds; 0: no deadline), the
search unwinds without storing anything and sets ``aborted``, which is how the
Python side enforces a time limit. The clock holds the limit however wrong the
budget's guess at the speed (a first solve on a cold table runs several
times slower than the next ones).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from arena.search.clock.compiled import now_ns
from arena.solvers.bits import prefetch
from arena.solvers.connect4.position import (
    BOARD,
    BOTTOM,
    CELLS,
    ORDER,
    SYMMETRY,
    H,
    K,
    mirror,
    non_losing_moves,
)
from arena.solvers.connect4.sorter import sort_moves
from arena.solvers.connect4.table import get, index, put

NODES, BUDGET, ABORTED, END = 0, 1, 2, 3
STATS = 4
"""The length of ``stats``."""
CLOCK_EVERY = 1023
"""Nodes between two reads of the clock, minus one (a mask): about a millisecond's
tenth at the solver's speed."""
ETC_EMPTY = 12
"""Nodes with more empty cells than this look their children up in the table
before searching them (enhanced transposition cutoff): on the 200 test
positions 20% fewer nodes and about 10% less time; closer to the end the
look-ups cost more than they save."""


@njit(cache=True)
def score_range(L: np.ndarray) -> tuple[int, int]:
    """``(min, max)`` score of any position on the board."""
    return -(L[CELLS] // 2), (L[CELLS] + 1) // 2


# Fields of a stack frame (one row of ``frames`` per depth).
POS, MASK, ALPHA, BETA, KEY, COUNT, NEXT = range(7)
FIELDS = 7


@njit(cache=True)
def probe(
    L: np.ndarray,
    pos: int,
    mask: int,
    ply: int,
    alpha: int,
    beta: int,
    entries: np.ndarray,
    shift: int,
    moves: np.ndarray,
    scores: np.ndarray,
    frames: np.ndarray,
    stats: np.ndarray,
) -> int:
    """Negamax from the root: the score if it lies in ``(alpha, beta)``, else a
    bound on the same side. The player to move must not be able to win at once.

    The recursion runs on an explicit stack (``frames``, one row per depth,
    ``moves``/``scores`` one row per ply): a loop that enters a node, or
    returns a value to its parent, is several times faster in numba than
    recursive calls, each of which passes every array anew.
    """
    cells = L[CELLS]
    symmetric = L[SYMMETRY] != 0
    smin, smax = score_range(L)
    span = smax - smin + 1
    h, k, bottom, board = L[H], L[K], L[BOTTOM], L[BOARD]
    order = L[ORDER:]
    nodes, budget, end = stats[NODES], stats[BUDGET], stats[END]
    stats[ABORTED] = 0
    depth = 0
    entering = True
    value = 0
    while True:
        if entering:
            # Enter the node at ``depth`` with pos, mask, alpha, beta set.
            nodes += 1
            if nodes > budget or (end and nodes & CLOCK_EVERY == 0 and now_ns() >= end):
                stats[NODES] = nodes
                stats[ABORTED] = 1
                return 0
            p = ply + depth
            entering = False
            candidates = non_losing_moves(pos, mask, h, k, bottom, board)
            if candidates == 0:  # the opponent wins with its next stone
                value = -((cells - p) // 2)
            elif p >= cells - 2:  # neither side can win with the last two stones
                value = 0
            else:
                low = -((cells - 2 - p) // 2)  # the opponent cannot win at once
                high = (cells - 1 - p) // 2  # nor can the player
                done = False
                if alpha < low:
                    alpha = low
                    if alpha >= beta:
                        value = alpha
                        done = True
                if not done:
                    key = pos + mask
                    if symmetric:
                        key = min(key, mirror(L, key))
                    stored = np.int64(get(entries, key, shift))
                    if stored > span:  # a lower bound
                        bound = stored - span - 1 + smin
                        if alpha < bound:
                            alpha = bound
                            if alpha >= beta:
                                value = alpha
                                done = True
                    elif stored > 0:  # an upper bound
                        bound = stored - 1 + smin
                        if high > bound:
                            high = bound
                if not done and beta > high:
                    beta = high
                    if alpha >= beta:
                        value = beta
                        done = True
                if not done:
                    if not symmetric:
                        # Start fetching the children's table slots from memory
                        # while the moves are sorted.
                        c = candidates
                        while c:
                            move = c & -c
                            c ^= move
                            child = (pos ^ mask) + (mask | move)
                            prefetch(entries, index(entries, child, shift))
                    n = sort_moves(order, h, k, board, pos, mask, candidates, moves, scores, p)
                    if not symmetric and p < cells - ETC_EMPTY:
                        # Enhanced transposition cutoff: a child whose stored upper
                        # bound already lifts this node to beta cuts before any search.
                        for i in range(n):
                            child = (pos ^ mask) + (mask | moves[p, i])
                            stored = np.int64(get(entries, child, shift))
                            if 0 < stored <= span and -(stored - 1 + smin) >= beta:
                                value = -(stored - 1 + smin)
                                done = True
                                break
                if not done:
                    frames[depth, POS] = pos
                    frames[depth, MASK] = mask
                    frames[depth, ALPHA] = alpha
                    frames[depth, BETA] = beta
                    frames[depth, KEY] = key
                    frames[depth, COUNT] = n
                    frames[depth, NEXT] = 1
                    # Enter the first child.
                    pos, mask = pos ^ mask, mask | moves[p, 0]
                    alpha, beta = -beta, -alpha
                    depth += 1
                    entering = True
            continue
        # Return ``value`` from the node at ``depth`` to its parent.
        if depth == 0:
            stats[NODES] = nodes
            return value
        depth -= 1
        score = -value
        if score >= frames[depth, BETA]:
            put(entries, frames[depth, KEY], shift, score - smin + 1 + span)
            value = score
            continue
        if score > frames[depth, ALPHA]:
            frames[depth, ALPHA] = score
        i = frames[depth, NEXT]
        if i < frames[depth, COUNT]:
            frames[depth, NEXT] = i + 1
            p = ply + depth
            mask = frames[depth, MASK]
            pos, mask = frames[depth, POS] ^ mask, mask | moves[p, i]
            alpha, beta = -frames[depth, BETA], -frames[depth, ALPHA]
            depth += 1
            entering = True
        else:
            alpha = frames[depth, ALPHA]
            put(entries, frames[depth, KEY], shift, alpha - smin + 1)
            value = alpha
