"""The compiled search of the Othello engine: negascout (PVS) with a transposition table.

Boards are the solver's bitboards (:mod:`arena.solvers.othello.board`), the
side to move first. Values are the mover's, as in :mod:`arena.search.values`:
a finished game is worth ``WIN - plies`` (negated for a loss, 0 for a draw),
an unfinished one at the horizon the evaluation of :mod:`.evaluation` in
hundredths (or the disc difference, ``kind`` UTILITY). A pass is a move and
takes a ply of depth, as in the readable search, so at equal depth the two find
the same values (with the UTILITY evaluation).

- **PVS**: the first move with the full window, the others with a null window,
  searched again only when they fail high.
- **Transposition table**: rows ``[me ^ data, opp ^ data, data]`` with ``data``
  packing the value (offset by 2**31), the depth, the bound type, the best move + 1
  and the search's age; a row is replaced unless it holds a deeper result of the
  same search. Lazy SMP's threads share it without a lock: the key is stored XOR
  the data (Hyatt's lockless hashing), so a row two threads wrote at once fails
  its check instead of giving one position another's value. Wins are stored
  relative to the node, as in :mod:`arena.search.alphabeta.alphabeta`.
- **Move ordering**: the table's move first; then, with :data:`ORDER_DEPTH`
  plies or more left, by the evaluation of the position each move leads to (a
  one-ply search, the best predictor of the deeper one); closer to the
  horizon by the opponent's mobility after the move (fewest replies first,
  corners counting double) and a square's static worth.
- **Threads share the work** (``stats[SPLIT]``, Lazy SMP's threads only): a node
  with :data:`SPLIT_DEPTH` plies or more left marks itself in ``busy``, a small
  table of the positions threads are searching now, and a node searching its moves
  leaves any but the first whose position another thread has marked for after the
  rest (Weill's ABDADA, 1996, in the simplified form of Kerrigan's "Simplified
  ABDADA"): two threads at one depth then split a node's later moves between them
  instead of searching the same ones, where plain Lazy SMP relies on the table alone.
  The root defers its later moves the same way, so the threads take different root
  moves. One thread never marks nor defers, so its moves are the same as without it.
- **Time**: ``stats[DEADLINE]`` is a monotonic time in nanoseconds
  (:mod:`~arena.search.clock.compiled_deadline`), read every :data:`CHECK_EVERY`
  nodes (and the node budget ``stats[NODE_CAP]``); past it the search unwinds without
  storing anything and ``stats[ABORTED]`` is set. ``root``
  releases the GIL, so another thread may stop it by moving the deadline.

Tests: tests/search/test_engine_othello.py, tests/search/test_lazy_smp.py
"""

from __future__ import annotations

import numpy as np
from numba import njit

from arena.search.alphabeta.engines.othello.evaluation import CORNERS, evaluate
from arena.search.alphabeta.engines.table_values import EXACT, LOWER, UPPER, from_table, to_table
from arena.search.clock.compiled import now_ns
from arena.solvers.bits import lowest_index, popcount
from arena.solvers.othello.board import ONE, ZERO, U, flips, moves

WIN = 1_000_000
PROVEN = WIN - 10_000
INF = 2 * WIN
MAX_PLY = 160
"""Deepest ply the scratch arrays hold (64 placements and the passes between them)."""
NO_MOVE = 127
PASS = 64
ORDER_DEPTH = 3
CHECK_EVERY = 255  # a mask: the clock is read when nodes & CHECK_EVERY == 0

# stats: counters and settings of one search, shared with Python.
NODES, DEADLINE, ABORTED, ROOT_BEST, AGE, KIND, MPC_MARGIN, NODE_CAP, SPLIT, DEFERRED = range(10)
STATS = 10
"""``stats[SPLIT]``: 1 when other threads search the same root (the ``busy`` table is
used to share the work), 0 for one thread; ``stats[DEFERRED]`` counts the moves left
for later because another thread was searching them."""
SPLIT_DEPTH = 3
"""Nodes with this many plies left or more take part in sharing (shallower ones cost
less than the look-up: Kerrigan's threshold is about the same)."""
BUSY_BITS = 15
"""``stats[NODE_CAP]``: the most nodes this search may visit (a budget per thread, with
which a measurement stands for equal time on free cores; ``NO_CAP`` otherwise)."""
NO_CAP = 1 << 62
# Multi-ProbCut (Buro, 1995 and 1997): at a node of some depth, a search a few plies
# shallower predicts the deep value as slope * shallow + offset, give or take sigma. The
# table ``cuts[empties, depth, try]`` holds (shallow depth or -1, slope in SLOPE_ONE-ths,
# offset, sigma) for up to TRIES shallow depths (:mod:`.probcut` makes it);
# stats[MPC_MARGIN] is the margin in hundredths of sigma (0: no ProbCut).
CUT_DEPTHS = 40
TRIES = 2
CUT_SHALLOW, CUT_SLOPE, CUT_OFFSET, CUT_SIGMA = range(4)
SLOPE_ONE = 1024


def no_cuts() -> np.ndarray:
    """A cut table with no ProbCut anywhere (fill its rows to make one)."""
    out = np.zeros((65, CUT_DEPTHS, TRIES, 4), dtype=np.int64)
    out[..., CUT_SHALLOW] = -1
    out[..., CUT_SLOPE] = SLOPE_ONE
    return out


HASH1 = U(0x9E3779B97F4A7C15)
HASH2 = U(0xC2B2AE3D27D4EB4F)

# A square's static worth on 8x8 (bit row * 8 + col), for ordering near the horizon.
SQUARES = np.array(
    [
        [100, -20, 10, 5, 5, 10, -20, 100],
        [-20, -50, -2, -2, -2, -2, -50, -20],
        [10, -2, -1, -1, -1, -1, -2, 10],
        [5, -2, -1, -1, -1, -1, -2, 5],
        [5, -2, -1, -1, -1, -1, -2, 5],
        [10, -2, -1, -1, -1, -1, -2, 10],
        [-20, -50, -2, -2, -2, -2, -50, -20],
        [100, -20, 10, 5, 5, 10, -20, 100],
    ],
    dtype=np.int64,
).ravel()


def square_values(size: int) -> np.ndarray:
    """:data:`SQUARES` for a ``size`` board in the top-left corner: the corners, X- and
    C-squares of the smaller board take the 8x8 values of theirs."""
    out = np.zeros(64, dtype=np.int64)
    for r in range(size):
        for c in range(size):
            rr = r if r < size // 2 else 7 - (size - 1 - r)
            cc = c if c < size // 2 else 7 - (size - 1 - c)
            out[r * 8 + c] = SQUARES[rr * 8 + cc]
    return out


def new_table(bits: int) -> np.ndarray:
    """An empty table of ``2**bits`` rows (24 bytes each)."""
    return np.zeros((1 << bits, 3), dtype=np.uint64)


def new_busy() -> np.ndarray:
    """An empty table of the positions being searched (shared by an engine's threads)."""
    return np.zeros(1 << BUSY_BITS, dtype=np.uint64)


@njit(cache=True, inline="always")
def busy_key(me: np.uint64, opp: np.uint64) -> np.uint64:
    return ((me ^ (opp * HASH2)) * HASH1) | ONE


@njit(cache=True, inline="always")
def is_busy(busy: np.ndarray, me: np.uint64, opp: np.uint64) -> bool:
    """Whether another thread marked the position ``me, opp`` as under search (the
    node and the root defer such a move)."""
    key = busy_key(me, opp)
    return busy[np.int64(key >> U(64 - BUSY_BITS))] == key


def new_stats() -> np.ndarray:
    return np.zeros(STATS, dtype=np.int64)


def new_scratch() -> np.ndarray:
    """Per-ply move lists: ``[ply, i, 0]`` the move's bit, ``[ply, i, 1]`` its sort key."""
    return np.zeros((MAX_PLY + 1, 64, 2), dtype=np.int64)


@njit(cache=True, inline="always")
def _index(me: np.uint64, opp: np.uint64, size: int) -> int:
    return np.int64(((me ^ (opp * HASH2)) * HASH1) >> U(40)) & (size - 1)


@njit(cache=True)
def terminal(me: np.uint64, opp: np.uint64, ply: int) -> int:
    """A finished game's value for the mover, ``ply`` plies below the root."""
    d = np.int64(popcount(me)) - np.int64(popcount(opp))
    if d > 0:
        return WIN - ply
    if d < 0:
        return ply - WIN
    return 0


@njit(cache=True)
def store(
    table: np.ndarray,
    me: np.uint64,
    opp: np.uint64,
    depth: int,
    value: int,
    flag: int,
    move: int,
    ply: int,
    age: int,
) -> None:
    """Keep a result unless the row holds a deeper one of the same search.

    A row is ``[me ^ data, opp ^ data, data]`` (lockless XOR): threads write rows
    without a lock, and a row whose words two writers interleaved decodes to a key
    no position has, so no reader takes one position's data for another's."""
    i = _index(me, opp, table.shape[0])
    old = np.int64(table[i, 2])
    if (
        (table[i, 0] ^ U(old) != me or table[i, 1] ^ U(old) != opp)
        and (old >> 50) & 255 == age
        and (old >> 32) & 255 > depth
    ):
        return
    data = U(
        (to_table(value, ply, PROVEN) + (1 << 31))
        | (np.int64(depth) << 32)
        | (np.int64(flag) << 40)
        | (np.int64(move + 1) << 42)
        | (np.int64(age & 255) << 50)
    )
    table[i, 0] = me ^ data
    table[i, 1] = opp ^ data
    table[i, 2] = data


@njit(cache=True)
def table_move(table: np.ndarray, me: np.uint64, opp: np.uint64) -> int:
    """The stored best move's bit index (PASS for a pass), or -1."""
    i = _index(me, opp, table.shape[0])
    data = table[i, 2]
    if table[i, 0] ^ data != me or table[i, 1] ^ data != opp or data == ZERO:
        return -1
    move = ((np.int64(data) >> 42) & 255) - 1
    return -1 if move == NO_MOVE else move


@njit(cache=True)
def pvs(
    me: np.uint64,
    opp: np.uint64,
    depth: int,
    alpha: int,
    beta: int,
    ply: int,
    board: np.uint64,
    table: np.ndarray,
    busy: np.ndarray,
    stats: np.ndarray,
    m: np.ndarray,
    w: np.ndarray,
    squares: np.ndarray,
    cuts: np.ndarray,
    scratch: np.ndarray,
) -> int:
    """The mover's value if it lies in ``(alpha, beta)``, else a bound on the same side."""
    stats[NODES] += 1
    if stats[NODES] & CHECK_EVERY == 0 and (
        now_ns() >= stats[DEADLINE] or stats[NODES] >= stats[NODE_CAP]
    ):
        stats[ABORTED] = 1
    if stats[ABORTED]:
        return 0
    kind = stats[KIND]
    mv = moves(me, opp, board)
    if mv == ZERO:
        om = moves(opp, me, board)
        if om == ZERO:
            return terminal(me, opp, ply)
        if depth <= 0:
            return evaluate(me, opp, mv, om, kind, m, w)
        return -pvs(
            opp, me, depth - 1, -beta, -alpha, ply + 1, board, table, busy, stats, m, w, squares,
            cuts, scratch,
        )  # fmt: skip
    if depth <= 0:
        return evaluate(me, opp, mv, moves(opp, me, board), kind, m, w)
    age = stats[AGE]
    i = _index(me, opp, table.shape[0])
    hint = -1
    # The row's words, each read once; the key checked by XOR (see store).
    word = table[i, 2]
    data = np.int64(word)
    if table[i, 0] ^ word == me and table[i, 1] ^ word == opp:
        hint = ((data >> 42) & 255) - 1
        if (data >> 32) & 255 >= depth:
            v = from_table((data & 0xFFFFFFFF) - (1 << 31), ply, PROVEN)
            flag = (data >> 40) & 3
            if flag == EXACT:
                return v
            if flag == LOWER and v >= beta:
                return v
            if flag == UPPER and v <= alpha:
                return v
    # Multi-ProbCut: a shallow search whose value, projected to this depth, lies far
    # beyond the window predicts the deep one's fail; return the bound without searching.
    # The table gives, by empty cells and depth, the shallow depths to try (cheapest first)
    # and each one's prediction; stats[MPC_MARGIN] is the margin in hundredths of sigma.
    t = stats[MPC_MARGIN]
    if t and depth < CUT_DEPTHS and alpha > -PROVEN and beta < PROVEN:
        empties = np.int64(popcount(board & ~(me | opp)))
        if depth < empties:  # not where the search sees the end
            for k in range(TRIES):
                shallow = cuts[empties, depth, k, CUT_SHALLOW]
                if shallow < 0:
                    break
                slope = cuts[empties, depth, k, CUT_SLOPE]
                offset = cuts[empties, depth, k, CUT_OFFSET]
                margin = t * cuts[empties, depth, k, CUT_SIGMA] // 100
                bound = ((beta + margin - offset) * SLOPE_ONE) // slope
                if bound < PROVEN:
                    v = pvs(
                        me, opp, shallow, bound - 1, bound, ply, board, table, busy, stats, m, w,
                        squares, cuts, scratch,
                    )  # fmt: skip
                    if stats[ABORTED]:
                        return 0
                    if v >= bound:
                        return beta
                bound = ((alpha - margin - offset) * SLOPE_ONE) // slope
                if bound > -PROVEN:
                    v = pvs(
                        me, opp, shallow, bound, bound + 1, ply, board, table, busy, stats, m, w,
                        squares, cuts, scratch,
                    )  # fmt: skip
                    if stats[ABORTED]:
                        return 0
                    if v <= bound:
                        return alpha
    # Order the moves (insertion sort on the key, smallest first).
    xs = scratch[ply, :, 0]
    keys = scratch[ply, :, 1]
    n = 0
    rest = mv
    while rest:
        x = rest & (ZERO - rest)
        rest ^= x
        b = np.int64(lowest_index(x))
        if b == hint:
            key = -INF
        elif depth >= ORDER_DEPTH:
            f = flips(me, opp, x)
            cp, co = opp ^ f, me | f | x
            cm = moves(cp, co, board)
            key = evaluate(cp, co, cm, moves(co, cp, board), kind, m, w)
        else:
            f = flips(me, opp, x)
            cm = moves(opp ^ f, me | f | x, board)
            key = 100 * np.int64(popcount(cm) + popcount(cm & m[CORNERS])) - squares[b]
        j = n
        while j > 0 and keys[j - 1] > key:
            xs[j] = xs[j - 1]
            keys[j] = keys[j - 1]
            j -= 1
        xs[j] = b
        keys[j] = key
        n += 1
    best = -INF
    best_move = xs[0]
    a = alpha
    # Sharing (ABDADA): this node marks itself while it searches its moves, and leaves a
    # move whose position another thread has marked for a second pass (its index kept
    # in keys[], no longer needed once sorted).
    split = stats[SPLIT] != 0 and depth >= SPLIT_DEPTH
    share = split and depth - 1 >= SPLIT_DEPTH
    mine = ZERO
    slot = 0
    if split:
        mine = busy_key(me, opp)
        slot = np.int64(mine >> U(64 - BUSY_BITS))
        busy[slot] = mine
    deferred = 0
    k = 0
    searched = 0
    while True:
        if k < n:
            b = xs[k]
            k += 1
        elif k - n < deferred:
            b = keys[k - n]
            k += 1
        else:
            break
        x = ONE << U(b)
        f = flips(me, opp, x)
        cp, co = opp ^ f, me | f | x
        if share and searched > 0 and k <= n and is_busy(busy, cp, co):
            keys[deferred] = b
            deferred += 1
            stats[DEFERRED] += 1
            continue
        searched += 1
        if searched == 1:
            v = -pvs(
                cp, co, depth - 1, -beta, -a, ply + 1, board, table, busy, stats, m, w, squares,
                cuts, scratch,
            )  # fmt: skip
        else:
            v = -pvs(
                cp, co, depth - 1, -a - 1, -a, ply + 1, board, table, busy, stats, m, w, squares,
                cuts, scratch,
            )  # fmt: skip
            if a < v < beta and not stats[ABORTED]:
                v = -pvs(
                    cp, co, depth - 1, -beta, -a, ply + 1, board, table, busy, stats, m, w, squares,
                    cuts, scratch,
                )  # fmt: skip
        if stats[ABORTED]:
            if split and busy[slot] == mine:
                busy[slot] = ZERO
            return 0
        if v > best:
            best = v
            best_move = b
            if v > a:
                a = v
                if a >= beta:
                    break
    if split and busy[slot] == mine:
        busy[slot] = ZERO
    flag = UPPER if best <= alpha else LOWER if best >= beta else EXACT
    store(table, me, opp, depth, best, flag, best_move, ply, age)
    return best


@njit(cache=True, nogil=True)
def root(
    me: np.uint64,
    opp: np.uint64,
    depth: int,
    alpha: int,
    beta: int,
    order: np.ndarray,
    values: np.ndarray,
    bounds: np.ndarray,
    board: np.uint64,
    table: np.ndarray,
    busy: np.ndarray,
    stats: np.ndarray,
    m: np.ndarray,
    w: np.ndarray,
    squares: np.ndarray,
    cuts: np.ndarray,
    scratch: np.ndarray,
) -> int:
    """Search the root's placements ``order`` (bit indices, best guess first) to ``depth``.

    Fills ``values`` and ``bounds`` (EXACT, or UPPER for moves that failed low)
    for the moves searched; ``stats[ROOT_BEST]`` is the index of the best move
    so far (a later move that fails high takes over at once, so a search stopped
    by the deadline still knows it). Returns the best value (0 if aborted).
    """
    stats[ABORTED] = 0
    stats[ROOT_BEST] = 0
    # A variable, not the literal 1: a literal argument would compile a second version
    # of the recursive pvs, and numba's cache cannot load the pair (it crashes).
    ply = np.int64(1)
    best = -INF
    a = alpha
    n = order.shape[0]
    # Sharing at the root too: a later root move another thread is searching now is left
    # for after the others (its index kept in scratch[0], which no node uses), so two
    # threads take different root moves instead of both entering one and splitting below.
    share = stats[SPLIT] != 0 and depth - 1 >= SPLIT_DEPTH
    waiting = scratch[0, :, 0]
    deferred = 0
    j = 0
    while True:
        if j < n:
            k = j
        elif j - n < deferred:
            k = waiting[j - n]
        else:
            break
        j += 1
        b = order[k]
        x = ONE << U(b)
        f = flips(me, opp, x)
        cp, co = opp ^ f, me | f | x
        if share and k > 0 and j <= n and is_busy(busy, cp, co):
            waiting[deferred] = k
            deferred += 1
            stats[DEFERRED] += 1
            continue
        bounds[k] = EXACT
        if k == 0:
            v = -pvs(
                cp, co, depth - 1, -beta, -a, ply, board, table, busy, stats, m, w, squares,
                cuts, scratch,
            )  # fmt: skip
        else:
            v = -pvs(
                cp, co, depth - 1, -a - 1, -a, ply, board, table, busy, stats, m, w, squares,
                cuts, scratch,
            )  # fmt: skip
            if v > a and not stats[ABORTED]:
                stats[ROOT_BEST] = k  # better than the best so far, whatever the re-search says
                if v < beta:
                    v = -pvs(
                        cp, co, depth - 1, -beta, -a, ply, board, table, busy, stats, m, w, squares,
                        cuts, scratch,
                    )  # fmt: skip
            elif not stats[ABORTED]:
                bounds[k] = UPPER
        if stats[ABORTED]:
            return 0
        values[k] = v
        if v > best:
            best = v
            stats[ROOT_BEST] = k
            if v > a:
                a = v
                if a >= beta:
                    break
    store(
        table,
        me,
        opp,
        depth,
        best,
        EXACT if alpha < best < beta else (LOWER if best >= beta else UPPER),
        order[stats[ROOT_BEST]],
        0,
        stats[AGE],
    )
    return best
