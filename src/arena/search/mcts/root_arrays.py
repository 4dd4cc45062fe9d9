"""The root of the compiled tree, read in one compiled call: its children and its best line.

A move of the compiled MCTS ends by reading the root's children (visits, wins,
proofs, in the legal moves' order) and the most visited line. Done with numpy
from Python that took a dozen array operations, 100-150 µs a move once the
caches had gone cold — as long as 200 simulations of Tic-tac-toe; these two
functions do it over the tree's arrays (:mod:`arena.search.mcts.kernel`'s
layout) in a few microseconds, inside the call that searches
(:mod:`arena.search.mcts.entry`).

Tests: ``tests/search/test_fast_mcts.py``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from arena.core.kernel import ONGOING
from arena.search.mcts.kernel import FIRST, MOVER, OUTCOME, PROOF, TRIED, VISITS


@njit(cache=True)
def root_children(node, wins, edge_move, edge_child, x, moves, visits, won, proven):  # type: ignore[no-untyped-def]
    """Fill ``visits``, ``won`` and ``proven`` (zeroed by the caller) for ``moves``, the
    legal moves of node ``x`` in their order, from its tried children; the index in
    ``moves`` of the first tried child (in the tree's order) that is a finished game won
    by the player to move at ``x``, else -1."""
    first, tried = node[x, FIRST], node[x, TRIED]
    if first < 0 or tried == 0:
        return -1
    order = np.argsort(moves, kind="mergesort")
    ranked = moves[order]
    at_once = -1
    for e in range(first, first + tried):
        i = order[np.searchsorted(ranked, edge_move[e])]
        y = edge_child[e]
        visits[i] = node[y, VISITS]
        won[i] = wins[y]
        proven[i] = node[y, PROOF]
        over = node[y, OUTCOME]
        mine = over if node[x, MOVER] == 0 else -over
        if at_once < 0 and over != ONGOING and mine > 0:
            at_once = i
    return at_once


@njit(cache=True)
def principal_line(node, edge_move, edge_child, x, line):  # type: ignore[no-untyped-def]
    """Write the most visited line from node ``x`` (the first of equals) into ``line``, as
    long as it fits; its length."""
    length = 0
    while length < line.shape[0] and node[x, FIRST] >= 0 and node[x, TRIED] > 0:
        first = node[x, FIRST]
        best, most = first, -1
        for e in range(first, first + node[x, TRIED]):
            n = node[edge_child[e], VISITS]
            if n > most:
                best, most = e, n
        line[length] = edge_move[best]
        length += 1
        x = edge_child[best]
    return length
