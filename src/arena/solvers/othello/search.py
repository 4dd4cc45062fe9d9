"""The exact endgame search: negamax with a table of bounds and PVS.

Tests: tests/solvers/test_othello_solver.py

- Deep nodes (more than :data:`SHALLOW` empty cells) probe and store the
  table, order their moves fastest-first (the fewest replies for the opponent,
  corners counted twice; the table's best move first) and search the first
  move with the full window, the others with a null window (PVS). With
  enough empty cells (:func:`sort_depths`, by board size), each move's key
  also counts a shallow alpha-beta of the child, 1 to 4 plies, on a rough
  evaluation (:func:`_mobility`: moves and corners): near the root
  a good first move saves whole subtrees (on a 6x6 position with 26 empty
  cells, half the nodes and half the time of fastest-first alone). Before
  the table, the stable discs (:mod:`.stability`) bound the score: the
  opponent's cap it, the player's floor it, and a bound outside the window
  cuts (17% fewer nodes on 6x6 positions with 24 empty cells). With
  :data:`ETC_EMPTIES` or more empty cells they first look up their children:
  one whose stored bound already refutes the parent cuts at once (enhanced
  transposition cutoff; 4-8% fewer nodes on FFO #40-#42). The children's
  rows are prefetched while the moves are sorted.
- Near the root of a deep solve (``sym_from`` or more empty cells) a node
  first turns into its :func:`~.symmetry.canonical` image, so symmetric
  positions share one table row: of the four first moves of the start only
  one is searched, the others are table hits.
- Shallow nodes (:data:`SHALLOW` empty cells or fewer, :func:`tail`) skip the
  table, the sorting and even move generation, which cost more than they save
  near the end: each empty cell is tried, one that flips nothing is no move,
  and the cells of regions with an odd number of empties come first (parity:
  the last move of a region is an advantage); within each parity class the
  corners come first and the cells diagonal to a corner last
  (:func:`cell_classes`; 4% fewer nodes on FFO #40 and #42 solved move by
  move, about the same time). The regions are the board's quadrants
  (:func:`quadrants`). Measured on FFO #40, this tail is three times
  faster than generating and ordering moves at 5-6 empties. From :data:`FEW`
  empty cells down (:func:`end_few`), the cells are taken once, in parity
  order, and passed down as values to unrolled code for four, three and two
  cells (no recursion, no loop over regions; 6% less time on FFO #40-#44); the
  last empty cell has its own: the flips for the player, then for the opponent,
  on 8x8 only counted, from the four lines through the cell
  (:func:`~.board.last_flips`; 4-7% less time on FFO #40 and #42 every move).
- Nodes with fewer than :data:`TABLE_EMPTIES` empty cells sort their moves
  fastest-first but neither probe nor store the table: 6% more nodes for 3%
  less time on FFO #40-#44.

``stats`` is ``[nodes, node_budget, aborted, end, next_look]``: past the budget,
or once the monotonic clock (:mod:`arena.search.clock.compiled`, read when
``nodes`` reaches ``next_look``, every :data:`CLOCK_EVERY` nodes) passes ``end``
(nanoseconds; 0: no deadline), the search unwinds without storing anything,
which is how the Python side keeps a time limit. The clock holds it however
wrong the budget's guess at the speed (a first solve on a cold table is
several times slower than the next ones).

The table is a list of buckets of two rows ``[me, opp, packed]``; ``packed``
holds the lower bound, the upper bound (each + 64), the best move's bit
index + 1 and the empty cells of the position, a byte each. The first row of
a bucket keeps the position with the most empty cells (the costliest to find
again), the second the latest other one.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from arena.core.stack import borrowed
from arena.search.clock.compiled import now_ns
from arena.solvers.bits import lowest_index, popcount, prefetch
from arena.solvers.othello.board import (
    FULL,
    ONE,
    ZERO,
    U,
    final_score,
    flips,
    last_flips,
    moves,
    near,
)
from arena.solvers.othello.stability import stable
from arena.solvers.othello.symmetry import canonical

NODES, BUDGET, ABORTED, END, NEXT_LOOK = 0, 1, 2, 3, 4
STATS = 5
"""The length of ``stats``."""
CLOCK_EVERY = 16
"""Nodes between two reads of the clock: near the root of a solve a deep node costs
tens of microseconds to a millisecond (its children's shallow ordering searches are
not counted as nodes), a read of the clock tens of nanoseconds."""
SHALLOW = 6
FEW = 4
TABLE_EMPTIES = 8
"""From this many empty cells down, :func:`end_few`'s unrolled code."""
ETC_EMPTIES = 10
STABILITY_EMPTIES = 10
HASH1 = U(0x9E3779B97F4A7C15)
HASH2 = U(0xC2B2AE3D27D4EB4F)
SORT_WEIGHT = 2
SORT_DEPTHS = 68
"""Where :func:`sort_depths` start in ``geo``, after :func:`~.stability.geometry`."""
WIN = 10000
NO_SYMMETRY = 99
"""``sym_from`` that never canonicalises."""


def new_table(bits: int = 21) -> np.ndarray:
    """An empty table of ``2**bits`` rows (24 bytes each), every page of it written now:
    a fresh table's first touches (a page fault each, 50 MB at 21 bits) made a first
    solve hundreds of times slower, on the clock."""
    table = np.empty((1 << bits, 3), dtype=np.uint64)
    table[:] = 0
    return table


def quadrants(size: int) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64]:
    """The four quadrants of a ``size`` x ``size`` board, the regions of parity.

    >>> [bin(int(q)).count("1") for q in quadrants(6)]
    [9, 9, 9, 9]
    """
    half = size // 2
    cells = [[0, 0], [0, 0]]
    for r in range(size):
        for c in range(size):
            cells[r >= half][c >= half] |= 1 << (r * 8 + c)
    return U(cells[0][0]), U(cells[0][1]), U(cells[1][0]), U(cells[1][1])


QUADRANTS_8, QUADRANTS_6, QUADRANTS_4 = quadrants(8), quadrants(6), quadrants(4)


def cell_classes(size: int) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64]:
    """The cells of a ``size`` x ``size`` board by how good a move there usually is, best
    first: the corners, the cells next to no corner, the edge cells next to a corner
    (C), the cells diagonal to a corner (X). The tail tries its cells in this order
    within each parity class.

    >>> [bin(int(c)).count("1") for c in cell_classes(8)]
    [4, 48, 8, 4]
    """
    n = size - 1
    corner = {(0, 0), (0, n), (n, 0), (n, n)}
    cells = [0, 0, 0, 0]
    for r in range(size):
        for c in range(size):
            near = {(abs(r - cr), abs(c - cc)) for cr, cc in corner}
            if (0, 0) in near:
                kind = 0
            elif (1, 1) in near:
                kind = 3
            elif (0, 1) in near or (1, 0) in near:
                kind = 2
            else:
                kind = 1
            cells[kind] |= 1 << (r * 8 + c)
    return U(cells[0]), U(cells[1]), U(cells[2]), U(cells[3])


CLASSES_8, CLASSES_6, CLASSES_4 = cell_classes(8), cell_classes(6), cell_classes(4)


def sort_depths(size: int) -> np.ndarray:
    """The depth of the shallow search that orders the moves, for each number of
    empty cells (0: fastest-first alone), by board size.

    On 8x8 from 16 empty cells, 2 plies, 3 from 20, 4 from 24: earlier or
    deeper searches cost FFO #40 (20 empty cells) 20% more time for no fewer
    nodes. Smaller boards have fewer moves, so these searches cost less there,
    and their solves start from more empty cells: 1 ply from 13, 2 from 14, 3
    from 18, 4 from 22 (the 6x6 start: 0.95 G nodes, against 1.10 G with 2
    plies from 15; a 6x6 position with 26 empty cells: 32% fewer nodes than
    with the 8x8 depths, for up to 15% more time).

    >>> [int(d) for d in sort_depths(6)[12:24:2]], [int(d) for d in sort_depths(8)[14:26:2]]
    ([0, 2, 2, 3, 3, 4], [0, 2, 2, 3, 3, 4])
    """
    steps = (16, 16, 20, 24) if size == 8 else (13, 14, 18, 22)
    return np.array([sum(e >= s for s in steps) for e in range(65)], dtype=np.uint64)


def corners(size: int) -> np.uint64:
    """The four corner cells of a ``size`` x ``size`` board."""
    n = size - 1
    return U((1 << 0) | (1 << n) | (1 << (n * 8)) | (1 << (n * 8 + n)))


@njit(cache=True, inline="always")
def _index(me: np.uint64, opp: np.uint64, size: int) -> int:
    # The first row of the position's bucket (an even index).
    return np.int64(((me ^ (opp * HASH2)) * HASH1) >> U(40)) & (size - 2)


@njit(cache=True, inline="always")
def _find(table: np.ndarray, i: int, me: np.uint64, opp: np.uint64) -> int:
    # The row of the position in the bucket at i, or -1.
    if table[i, 0] == me and table[i, 1] == opp:
        return i
    if table[i + 1, 0] == me and table[i + 1, 1] == opp:
        return i + 1
    return -1


@njit(cache=True, inline="always")
def _store(
    table: np.ndarray, i: int, me: np.uint64, opp: np.uint64, packed: np.uint64, empties: int
) -> None:
    if table[i, 0] == me and table[i, 1] == opp:
        row = i
    elif table[i + 1, 0] == me and table[i + 1, 1] == opp:
        row = i + 1
    elif empties >= np.int64(table[i, 2] >> U(24)):
        # The deeper position takes the first row; the one it displaces the second.
        table[i + 1, 0] = table[i, 0]
        table[i + 1, 1] = table[i, 1]
        table[i + 1, 2] = table[i, 2]
        row = i
    else:
        row = i + 1
    table[row, 0] = me
    table[row, 1] = opp
    table[row, 2] = packed


@njit(cache=True)
def last_one(me: np.uint64, opp: np.uint64, x: np.uint64, board: np.uint64) -> int:
    """The score with one empty cell ``x`` left."""
    if board == FULL:  # 8x8: count the flips, from the lines through x
        cell = np.int64(lowest_index(x))
        n = last_flips(me, cell)
        if n:
            return 2 * (np.int64(popcount(me)) + n) - 62
        n = last_flips(opp, cell)
        if n:
            return 62 - 2 * (np.int64(popcount(opp)) + n)
        return final_score(me, opp, board)
    f = flips(me, opp, x)
    if f:
        return 2 * np.int64(popcount(me | f)) + 2 - np.int64(popcount(board))
    f = flips(opp, me, x)
    if f:
        return np.int64(popcount(board)) - 2 - 2 * np.int64(popcount(opp | f))
    return final_score(me, opp, board)


@njit(cache=True, inline="always")
def _odd_cells(empty: np.uint64, gap: int) -> np.uint64:
    # The cells of the parity regions (quadrants) that hold an odd number of empties.
    regions = QUADRANTS_8 if gap == 0 else QUADRANTS_6 if gap == 2 else QUADRANTS_4
    odd = ZERO
    for region in regions:
        if popcount(empty & region) & ONE:
            odd |= region
    return odd


@njit(cache=True, inline="always")
def _take(first: np.uint64, then: np.uint64) -> tuple[np.uint64, np.uint64, np.uint64]:
    # The next cell: the lowest of ``first``, or of ``then`` once ``first`` is empty.
    if first:
        x = first & (ZERO - first)
        return x, first ^ x, then
    x = then & (ZERO - then)
    return x, first, then ^ x


@njit(cache=True, inline="always")
def _two_side(
    me: np.uint64, opp: np.uint64, beta: int, x1: np.uint64, x2: np.uint64, board: np.uint64
) -> tuple[int, int]:
    # The best of ``me``'s moves on x1, x2 (-65: none), and the nodes below.
    best, nodes = -65, 0
    f = flips(me, opp, x1)
    if f:
        best = -last_one(opp ^ f, me | f | x1, x2, board)
        nodes += 1
        if best >= beta:
            return best, nodes
    f = flips(me, opp, x2)
    if f:
        v = -last_one(opp ^ f, me | f | x2, x1, board)
        nodes += 1
        if v > best:
            best = v
    return best, nodes


@njit(cache=True)
def end_two(
    me: np.uint64,
    opp: np.uint64,
    alpha: int,
    beta: int,
    x1: np.uint64,
    x2: np.uint64,
    board: np.uint64,
) -> tuple[int, int]:
    """Two empty cells ``x1``, ``x2`` left: ``(score, nodes)``, the score exact
    inside ``(alpha, beta)`` and a bound on the same side outside."""
    best, nodes = _two_side(me, opp, beta, x1, x2, board)
    if best != -65:
        return best, nodes + 1
    best, n = _two_side(opp, me, -alpha, x1, x2, board)
    if best != -65:
        return -best, nodes + n + 1
    return final_score(me, opp, board), nodes + 1


@njit(cache=True, inline="always")
def _three_side(
    me: np.uint64,
    opp: np.uint64,
    alpha: int,
    beta: int,
    x1: np.uint64,
    x2: np.uint64,
    x3: np.uint64,
    board: np.uint64,
) -> tuple[int, int]:
    # The best of ``me``'s moves on x1, x2, x3 (-65: none), and the nodes below.
    best, nodes = -65, 0
    f = flips(me, opp, x1)
    if f:
        v, n = end_two(opp ^ f, me | f | x1, -beta, -alpha, x2, x3, board)
        nodes += n
        best = -v
        if best >= beta:
            return best, nodes
        alpha = max(alpha, best)
    f = flips(me, opp, x2)
    if f:
        v, n = end_two(opp ^ f, me | f | x2, -beta, -alpha, x1, x3, board)
        nodes += n
        if -v > best:
            best = -v
            if best >= beta:
                return best, nodes
            alpha = max(alpha, best)
    f = flips(me, opp, x3)
    if f:
        v, n = end_two(opp ^ f, me | f | x3, -beta, -alpha, x1, x2, board)
        nodes += n
        if -v > best:
            best = -v
    return best, nodes


@njit(cache=True)
def end_three(
    me: np.uint64,
    opp: np.uint64,
    alpha: int,
    beta: int,
    x1: np.uint64,
    x2: np.uint64,
    x3: np.uint64,
    board: np.uint64,
) -> tuple[int, int]:
    """Three empty cells left, tried in the order given: ``(score, nodes)``."""
    best, nodes = _three_side(me, opp, alpha, beta, x1, x2, x3, board)
    if best != -65:
        return best, nodes + 1
    best, n = _three_side(opp, me, -beta, -alpha, x1, x2, x3, board)
    if best != -65:
        return -best, nodes + n + 1
    return final_score(me, opp, board), nodes + 1


@njit(cache=True, inline="always")
def _four_side(
    me: np.uint64,
    opp: np.uint64,
    alpha: int,
    beta: int,
    x1: np.uint64,
    x2: np.uint64,
    x3: np.uint64,
    x4: np.uint64,
    board: np.uint64,
) -> tuple[int, int]:
    # The best of ``me``'s moves on x1..x4 (-65: none), and the nodes below.
    best, nodes = -65, 0
    f = flips(me, opp, x1)
    if f:
        v, n = end_three(opp ^ f, me | f | x1, -beta, -alpha, x2, x3, x4, board)
        nodes += n
        best = -v
        if best >= beta:
            return best, nodes
        alpha = max(alpha, best)
    f = flips(me, opp, x2)
    if f:
        v, n = end_three(opp ^ f, me | f | x2, -beta, -alpha, x1, x3, x4, board)
        nodes += n
        if -v > best:
            best = -v
            if best >= beta:
                return best, nodes
            alpha = max(alpha, best)
    f = flips(me, opp, x3)
    if f:
        v, n = end_three(opp ^ f, me | f | x3, -beta, -alpha, x1, x2, x4, board)
        nodes += n
        if -v > best:
            best = -v
            if best >= beta:
                return best, nodes
            alpha = max(alpha, best)
    f = flips(me, opp, x4)
    if f:
        v, n = end_three(opp ^ f, me | f | x4, -beta, -alpha, x1, x2, x3, board)
        nodes += n
        if -v > best:
            best = -v
    return best, nodes


@njit(cache=True)
def end_four(
    me: np.uint64,
    opp: np.uint64,
    alpha: int,
    beta: int,
    x1: np.uint64,
    x2: np.uint64,
    x3: np.uint64,
    x4: np.uint64,
    board: np.uint64,
) -> tuple[int, int]:
    """Four empty cells left, tried in the order given: ``(score, nodes)``."""
    best, nodes = _four_side(me, opp, alpha, beta, x1, x2, x3, x4, board)
    if best != -65:
        return best, nodes + 1
    best, n = _four_side(opp, me, -beta, -alpha, x1, x2, x3, x4, board)
    if best != -65:
        return -best, nodes + n + 1
    return final_score(me, opp, board), nodes + 1


@njit(cache=True)
def end_few(
    me: np.uint64, opp: np.uint64, alpha: int, beta: int, board: np.uint64, gap: int
) -> tuple[int, int]:
    """One to four empty cells: their own code, the cells of odd parity regions
    first, no table, no move generation. ``(score, nodes)``."""
    empty = board & ~(me | opp)
    odd = empty & _odd_cells(empty, gap)
    even = empty ^ odd
    k = popcount(empty)
    x1, odd, even = _take(odd, even)
    if k == 1:
        return last_one(me, opp, x1, board), 1
    x2, odd, even = _take(odd, even)
    if k == 2:
        return end_two(me, opp, alpha, beta, x1, x2, board)
    x3, odd, even = _take(odd, even)
    if k == 3:
        return end_three(me, opp, alpha, beta, x1, x2, x3, board)
    x4, odd, even = _take(odd, even)
    return end_four(me, opp, alpha, beta, x1, x2, x3, x4, board)


@njit(cache=True)
def tail(
    me: np.uint64,
    opp: np.uint64,
    alpha: int,
    beta: int,
    board: np.uint64,
    gap: int,
) -> tuple[int, int]:
    """The last few empty cells: try each empty cell (parity first) without
    generating moves; a cell that flips nothing is not a move. ``(score, nodes)``."""
    empty = board & ~(me | opp)
    if popcount(empty) <= FEW:
        return end_few(me, opp, alpha, beta, board, gap)
    nodes = 1
    best = -65
    # The board's quadrants and cell classes as constants: passed down the recursion
    # as values they made FFO #40 15% slower.
    odd = _odd_cells(empty, gap)
    classes = CLASSES_8 if gap == 0 else CLASSES_6 if gap == 2 else CLASSES_4
    # Only cells next to an opponent's disc can flip one.
    cells = empty & near(opp)
    for half in (odd, ~odd):
        for cls in classes:
            m = cells & half & cls
            while m:
                x = m & (ZERO - m)
                m ^= x
                f = flips(me, opp, x)
                if f == ZERO:
                    continue
                v, n = tail(opp ^ f, me | f | x, -beta, -alpha, board, gap)
                nodes += n
                v = -v
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            return best, nodes
    if best == -65:  # no move: pass, or the game is over
        if moves(opp, me, board) == ZERO:
            return final_score(me, opp, board), nodes
        v, n = tail(opp, me, -beta, -alpha, board, gap)
        return -v, nodes + n
    return best, nodes


@njit(cache=True)
def _mobility(me: np.uint64, opp: np.uint64, board: np.uint64, corner_cells: np.uint64) -> int:
    # A rough midgame evaluation for move ordering: moves and corners, mine minus theirs.
    a = moves(me, opp, board)
    b = moves(opp, me, board)
    return (
        np.int64(popcount(a))
        + np.int64(popcount(a & corner_cells))
        - np.int64(popcount(b))
        - np.int64(popcount(b & corner_cells))
        + 4 * (np.int64(popcount(me & corner_cells)) - np.int64(popcount(opp & corner_cells)))
    )


@njit(cache=True)
def _reply(me: np.uint64, opp: np.uint64, board: np.uint64, corner_cells: np.uint64) -> int:
    # The best :func:`_mobility` after one move (a pass or the end: the position's own).
    mv = moves(me, opp, board)
    if mv == ZERO:
        if moves(opp, me, board) == ZERO:
            return 100 * final_score(me, opp, board)
        return _mobility(me, opp, board, corner_cells)
    best = -WIN
    while mv:
        x = mv & (ZERO - mv)
        mv ^= x
        f = flips(me, opp, x)
        best = max(best, -_mobility(opp ^ f, me | f | x, board, corner_cells))
    return best


@njit(cache=True)
def _two(
    me: np.uint64, opp: np.uint64, alpha: int, beta: int, board: np.uint64, corner_cells: np.uint64
) -> int:
    # Two plies of alpha-beta on :func:`_mobility`, written out per depth: a recursive
    # function without an explicit signature crashes when numba loads it from its cache
    # (numba issue 6061, open).
    mv = moves(me, opp, board)
    if mv == ZERO:
        return _reply(me, opp, board, corner_cells)
    best = -WIN
    while mv:
        x = mv & (ZERO - mv)
        mv ^= x
        f = flips(me, opp, x)
        v = -_reply(opp ^ f, me | f | x, board, corner_cells)
        if v > best:
            best = v
            if best >= beta:
                break
    return best


@njit(cache=True)
def _three(
    me: np.uint64, opp: np.uint64, alpha: int, beta: int, board: np.uint64, corner_cells: np.uint64
) -> int:
    # Three plies of alpha-beta on :func:`_mobility`.
    mv = moves(me, opp, board)
    if mv == ZERO:
        return _two(me, opp, alpha, beta, board, corner_cells)
    best = -WIN
    while mv:
        x = mv & (ZERO - mv)
        mv ^= x
        f = flips(me, opp, x)
        v = -_two(opp ^ f, me | f | x, -beta, -max(alpha, best), board, corner_cells)
        if v > best:
            best = v
            if best >= beta:
                break
    return best


@njit(cache=True)
def _four(
    me: np.uint64, opp: np.uint64, alpha: int, beta: int, board: np.uint64, corner_cells: np.uint64
) -> int:
    # Four plies of alpha-beta on :func:`_mobility`.
    mv = moves(me, opp, board)
    if mv == ZERO:
        return _three(me, opp, alpha, beta, board, corner_cells)
    best = -WIN
    while mv:
        x = mv & (ZERO - mv)
        mv ^= x
        f = flips(me, opp, x)
        v = -_three(opp ^ f, me | f | x, -beta, -max(alpha, best), board, corner_cells)
        if v > best:
            best = v
            if best >= beta:
                break
    return best


@njit(cache=True)
def _shallow(
    me: np.uint64, opp: np.uint64, depth: int, board: np.uint64, corner_cells: np.uint64
) -> int:
    # A 1- to 3-ply search on :func:`_mobility`, for move ordering.
    if depth == 1:
        return _reply(me, opp, board, corner_cells)
    if depth == 2:
        return _two(me, opp, -WIN, WIN, board, corner_cells)
    if depth == 3:
        return _three(me, opp, -WIN, WIN, board, corner_cells)
    return _four(me, opp, -WIN, WIN, board, corner_cells)


@njit(cache=True)
def deep(
    me: np.uint64,
    opp: np.uint64,
    alpha: int,
    beta: int,
    board: np.uint64,
    corner_cells: np.uint64,
    geo: np.ndarray,
    gap: int,
    sym_from: int,
    table: np.ndarray,
    order: np.ndarray,
    stats: np.ndarray,
) -> int:
    """The score if it lies in ``(alpha, beta)``, else a bound on the same side."""
    stats[NODES] += 1
    if stats[NODES] > stats[BUDGET]:
        stats[ABORTED] = 1
        return 0
    if stats[END] and stats[NODES] >= stats[NEXT_LOOK]:
        stats[NEXT_LOOK] = stats[NODES] + CLOCK_EVERY
        if now_ns() >= stats[END]:
            stats[ABORTED] = 1
            return 0
    empties = popcount(board & ~(me | opp))
    if empties <= SHALLOW:
        v, n = tail(me, opp, alpha, beta, board, gap)
        stats[NODES] += n - 1
        return v
    mv = moves(me, opp, board)
    if mv == ZERO:
        if moves(opp, me, board) == ZERO:
            return final_score(me, opp, board)
        return -deep(
            opp,
            me,
            -beta,
            -alpha,
            board,
            corner_cells,
            geo,
            gap,
            sym_from,
            table,
            order,
            stats,
        )
    # Stability cutoff: the opponent's stable discs cap the score, mine floor it
    # (computed only when the disc counts leave a chance to cut).
    cells = np.int64(popcount(board))
    if empties >= STABILITY_EMPTIES and cells - 2 * np.int64(popcount(opp)) <= alpha:
        bound = cells - 2 * np.int64(popcount(stable(opp, me, board, geo)))
        if bound <= alpha:
            return bound
    if empties >= STABILITY_EMPTIES and 2 * np.int64(popcount(me)) - cells >= beta:
        bound = 2 * np.int64(popcount(stable(me, opp, board, geo))) - cells
        if bound >= beta:
            return bound
    if empties >= sym_from:
        me, opp = canonical(me, opp, gap)
        mv = moves(me, opp, board)
    i = _index(me, opp, table.shape[0])
    low, high, hint = -64, 64, -1
    row = _find(table, i, me, opp) if empties >= TABLE_EMPTIES else -1
    if row >= 0:
        packed = np.int64(table[row, 2])
        low = (packed & 255) - 64
        high = ((packed >> 8) & 255) - 64
        hint = ((packed >> 16) & 255) - 1
        if low >= beta:
            return low
        if high <= alpha:
            return high
        if low == high:
            return low
        alpha = max(alpha, low)
        beta = min(beta, high)
    # Fastest first: sort the moves by the opponent's replies (corners twice).
    n = 0
    # order[empties, k] holds the k-th move, its key and its flips (kept for the ETC
    # and the search); indexed in place, as slices (views) cost two atomic reference
    # counts each.
    m = mv
    while m:
        x = m & (ZERO - m)
        m ^= x
        f = flips(me, opp, x)
        # Start fetching the child's table row while the others are sorted.
        if empties > TABLE_EMPTIES:
            prefetch(table, _index(opp ^ f, me | f | x, table.shape[0]))
        if np.int64(lowest_index(x)) == hint:
            key = -WIN * WIN
        else:
            replies = moves(opp ^ f, me | f | x, board)
            key = np.int64(popcount(replies)) + np.int64(popcount(replies & corner_cells))
            depth = np.int64(geo[SORT_DEPTHS + empties])
            if depth:
                key += SORT_WEIGHT * _shallow(opp ^ f, me | f | x, depth, board, corner_cells)
        j = n
        while j > 0 and order[empties, j - 1, 1] > key:
            order[empties, j, 0] = order[empties, j - 1, 0]
            order[empties, j, 1] = order[empties, j - 1, 1]
            order[empties, j, 2] = order[empties, j - 1, 2]
            j -= 1
        order[empties, j, 0] = np.int64(x)
        order[empties, j, 1] = key
        order[empties, j, 2] = np.int64(f)
        n += 1
    if empties >= ETC_EMPTIES:
        # Enhanced transposition cutoff: a child whose stored upper bound already
        # makes this move reach beta cuts here, before any search.
        for k in range(n):
            x = U(order[empties, k, 0])
            f = U(order[empties, k, 2])
            child_p, child_o = opp ^ f, me | f | x
            if empties - 1 >= sym_from:
                child_p, child_o = canonical(child_p, child_o, gap)
            c = _find(table, _index(child_p, child_o, table.shape[0]), child_p, child_o)
            if c >= 0:
                child_high = ((np.int64(table[c, 2]) >> 8) & 255) - 64
                if -child_high >= beta:
                    return -child_high
    best = -65
    best_x = U(order[empties, 0, 0])
    a = alpha
    # Children with SHALLOW empty cells or fewer go to the tail directly: through
    # ``deep`` each paid one more call, the budget's and the clock's checks and (before
    # :func:`probe` passed the arrays borrowed) eight atomic reference counts.
    to_tail = empties - 1 <= SHALLOW
    for k in range(n):
        x = U(order[empties, k, 0])
        f = U(order[empties, k, 2])
        child_p, child_o = opp ^ f, me | f | x
        if to_tail:
            v, nodes = tail(child_p, child_o, -beta if k == 0 else -a - 1, -a, board, gap)
            v = -v
            if k > 0 and a < v < beta:
                v, more = tail(child_p, child_o, -beta, -v, board, gap)
                v = -v
                nodes += more
            stats[NODES] += nodes
        elif k == 0:
            v = -deep(
                child_p,
                child_o,
                -beta,
                -a,
                board,
                corner_cells,
                geo,
                gap,
                sym_from,
                table,
                order,
                stats,
            )
        else:
            v = -deep(
                child_p,
                child_o,
                -a - 1,
                -a,
                board,
                corner_cells,
                geo,
                gap,
                sym_from,
                table,
                order,
                stats,
            )
            if a < v < beta and not stats[ABORTED]:
                v = -deep(
                    child_p,
                    child_o,
                    -beta,
                    -v,
                    board,
                    corner_cells,
                    geo,
                    gap,
                    sym_from,
                    table,
                    order,
                    stats,
                )
        if stats[ABORTED]:
            return 0
        if v > best:
            best = v
            best_x = x
            if v > a:
                a = v
                if a >= beta:
                    break
    # Store the bound the search proved, merged with what the row knew.
    if best <= alpha:
        high = min(high, best)
    elif best >= beta:
        low = max(low, best)
    else:
        low = high = best
    packed = (
        (low + 64)
        | ((high + 64) << 8)
        | ((np.int64(lowest_index(best_x)) + 1) << 16)
        | (np.int64(empties) << 24)
    )
    if empties >= TABLE_EMPTIES:
        _store(table, i, me, opp, U(packed), empties)
    return best


@njit(cache=True)
def probe(
    me: np.uint64,
    opp: np.uint64,
    alpha: int,
    beta: int,
    board: np.uint64,
    corner_cells: np.uint64,
    geo: np.ndarray,
    gap: int,
    sym_from: int,
    table: np.ndarray,
    order: np.ndarray,
    stats: np.ndarray,
) -> int:
    """A root search in ``(alpha, beta)``."""
    stats[ABORTED] = 0
    # The arrays go down the recursion without their reference counts
    # (:func:`~arena.core.stack.borrowed`: numba's pruning of them gives up on ``deep``'s
    # many exits, 9% of the time); the caller holds them for the whole search.
    return deep(
        me,
        opp,
        alpha,
        beta,
        board,
        corner_cells,
        borrowed(geo),
        gap,
        sym_from,
        borrowed(table),
        borrowed(order),
        borrowed(stats),
    )
