"""Connect Four's compiled engine: depth-limited negamax over the solver's bitboards.

What ``ids`` runs on Connect Four (``ids:engine=python`` keeps the readable
reference). The pieces come from the solver (:mod:`arena.solvers.connect4`):
the two-word position, its winning cells, the non-losing moves, the move
ordering by threats created (:func:`~arena.solvers.connect4.sorter.sort_moves`)
and the table's hashing. On top of them:

- the evaluation of :mod:`arena.games.connect4.heuristic`, compiled, value for
  value (open windows, threats counted once per cell, the parity rule for
  threats on their owner's rows — odd for the first player, even for the
  second — centre columns, and the two-ply verdicts), plus Allis' zugzwang rule
  (:func:`zugzwang`: a threat on one's own rows with no enemy threat under it,
  against none of the other's, decides the game as the board fills up). It
  scored 55 of 80 in engine-against-engine games at 0.05 s a move against
  the same engine without it; ``zugzwang=False`` gives exactly the reference's
  values;
- alpha-beta with a transposition table of depth, bound and best move; wins
  are ``WIN - plies`` as in :mod:`arena.search.values`, so a proven result is
  reported as such; a node with a winning move returns at once, and from two
  plies up only the moves that do not hand the opponent a win are searched (no
  value changes: the others lose in two);
- the exact solver itself: the engine asks
  :class:`~arena.solvers.connect4.solver.Connect4Solver` for the exact score of
  each move with half the move's time and plays the best; a solve that does not
  finish leaves the rest to the search. Within the solver's reach (few empty
  cells for the time) it tries every move, elsewhere every fourth ply, as the
  ``solver`` agent does: failed solves still fill the solver's table, which the
  process keeps between games (:func:`shared_solver`);
- iterative deepening by :func:`~arena.search.alphabeta.engines.driver.deepen`, with the
  deadline read from compiled code (:mod:`~arena.search.clock.compiled_deadline`) every
  256 nodes.

Every board the solver's layout fits (``cols * (rows + 1) <= 63``) and any
``k``; :func:`make_engine` answers None for larger boards.

>>> import arena
>>> game = arena.load_game("connect4")
>>> engine = make_engine(game)
>>> state = game.play_moves(game.parse_moves("4455"))
>>> move, info = engine.choose(state, 0.5, 64, arena.load_agent("ids"))
>>> game.format_move(move) in ("3", "6"), info.root[0]["text"]
(True, 'win in 3')

Tests: tests/search/test_engine_connect4.py
"""

from __future__ import annotations

import math
import threading
import time

import numpy as np
from numba import njit

from arena.core.agent import Agent, SearchInfo
from arena.core.game import Game, State
from arena.search.alphabeta.engines.driver import (
    BOUND_TEXT,
    Iteration,
    LazySMP,
    RootSearch,
    deepen,
    final,
    node_budget,
)
from arena.search.alphabeta.engines.table_values import (
    EXACT,
    LOWER,
    UPPER,
    entry_key,
    from_table,
    store_entry,
    to_table,
)
from arena.search.clock import compiled as compiled_clock
from arena.search.clock.compiled_deadline import deadline_ns, expired, now_ns
from arena.search.clock.deadline import Deadline, quiet_gc
from arena.search.report import value_rows
from arena.search.values import PROVEN_NOTE, WIN
from arena.solvers.bits import lowest_index, popcount
from arena.solvers.connect4 import position, table
from arena.solvers.connect4 import search as solver_search
from arena.solvers.connect4.position import (
    BOARD,
    BOTTOM,
    ORDER,
    H,
    K,
    W,
    can_win_next,
    column_mask,
    non_losing_moves,
    possible,
    winning_cells,
)
from arena.solvers.connect4.solver import Connect4Solver
from arena.solvers.connect4.sorter import sort_moves
from arena.solvers.solution import Solution, bisect

# The heuristic's constants (arena.games.connect4.heuristic), value for value.
THREAT, PARITY, CENTRE, SOFT = 24.0, 12.0, 2.0, 100.0
ZUGZWANG = 60.0
WIN_NOW, STATIC = 990.0, 900.0
BASE = 4

# stats: nodes, deadline (ns), aborted, horizon seen, last look at the clock, longest
# time between two looks (clock.expired), the most nodes this search may visit (a budget:
# ``Limit(nodes=N)``; NO_CAP without one).
NODES, END, ABORTED, HORIZON, LAST, LONGEST, NODE_CAP = range(7)
NO_CAP = 1 << 62
CHECK_EVERY = 255  # nodes between two looks at the clock, minus one (a mask)
# Eval tables X: rows with odd index (1st, 3rd, ... row), even rows, parity on, then the
# centre weight of each column, then every k-window's cells.
X_ODD, X_EVEN, X_PARITY, X_ZUGZWANG, X_CENTRE = range(5)
# Table meta word: depth (8 bits), bound (2 bits), best move's bit index + 1 (above).
TABLE_BITS = 20
INF = math.inf
PROVEN = WIN - 10_000.0
PROBE_SECONDS = 0.004
"""The solver's probes are cut into pieces of about this long, to read the clock between."""
MIN_PROBE = 2000
SOLVE_SHARE = 0.5
"""The share of the move's time the exact solver gets before the search takes over."""
RETRY_PLIES = 4
"""After a solve out of reach failed, plies before the next try."""


def eval_tables(
    rows: int, cols: int, k: int, zugzwang: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    """``(X, weights)``: the masks the compiled evaluation reads (see ``X_*``) and the
    worth of an open window by its stones. ``zugzwang``: add :func:`zugzwang`'s term
    (off: exactly the reference heuristic)."""
    stride = rows + 1

    def bit(r: int, c: int) -> int:
        return 1 << (c * stride + r)

    odd = sum(bit(r, c) for r in range(0, rows, 2) for c in range(cols))
    even = sum(bit(r, c) for r in range(1, rows, 2) for c in range(cols))
    centre = [min(c, cols - k) - max(0, c - k + 1) + 1 for c in range(cols)]
    windows = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_r, end_c = r + (k - 1) * dr, c + (k - 1) * dc
                if 0 <= end_r < rows and 0 <= end_c < cols:
                    windows.append(sum(bit(r + i * dr, c + i * dc) for i in range(k)))
    parity = rows % 2 == 0
    x = np.array([odd, even, int(parity), int(parity and zugzwang), *centre, *windows], np.int64)
    weights = np.array([BASE ** (j - 1) if 1 <= j <= k - 2 else 0 for j in range(k + 1)], float)
    return x, weights


@njit(cache=True)
def evaluate(L: np.ndarray, X: np.ndarray, weights: np.ndarray, pos: int, mask: int) -> float:
    """The heuristic value for the player to move (``pos``): Connect Four's
    ``heuristic.evaluate`` from the mover's side, on the solver's bitboards."""
    h, k, board, cols = L[H], L[K], L[BOARD], L[W]
    opp = pos ^ mask
    playable = possible(mask, L[BOTTOM], board)
    mine = winning_cells(pos, mask, h, k, board)
    theirs = winning_cells(opp, mask, h, k, board)
    if mine & playable:
        return WIN_NOW
    now = theirs & playable
    if now & (now - 1):
        return -WIN_NOW
    if now and (now << 1) & theirs:  # a forced block right under another of their threats
        return -WIN_NOW
    raw = THREAT * (popcount(mine) - popcount(theirs))
    for i in range(X_CENTRE + cols, X.size):
        w = X[i]
        a = popcount(pos & w)
        b = popcount(opp & w)
        if b == 0:
            raw += weights[a]
        elif a == 0:
            raw -= weights[b]
    for c in range(cols):
        column = column_mask(h, c)
        raw += CENTRE * X[X_CENTRE + c] * (popcount(pos & column) - popcount(opp & column))
    if X[X_PARITY]:
        # The "odd" player is the one to move when an even number of cells are empty.
        if popcount(board & ~mask) % 2 == 0:
            mine_rows, their_rows = X[X_ODD], X[X_EVEN]
        else:
            mine_rows, their_rows = X[X_EVEN], X[X_ODD]
        raw += PARITY * (popcount(mine & mine_rows) - popcount(theirs & their_rows))
        if X[X_ZUGZWANG]:
            raw += zugzwang(mine, theirs, mine_rows, their_rows, h, board)
    return STATIC * raw / (abs(raw) + SOFT)


@njit(cache=True, inline="always")
def above(cells: int, h: int, board: int) -> int:
    """The cells above any of ``cells`` in the same column."""
    found = 0
    x = cells
    for _ in range(h):
        x = (x << 1) & board  # the spare bit on top of each column stops the climb
        found |= x
    return found


@njit(cache=True)
def zugzwang(mine: int, theirs: int, mine_rows: int, their_rows: int, h: int, board: int) -> float:
    """Allis' zugzwang rule, for the mover: as the board fills up, each player gets the
    cells of its parity, so a threat on one's own rows that no enemy threat lies under
    (the lower threat is reached first) wins if the other side has none: +-ZUGZWANG."""
    mine_good = mine & mine_rows & ~above(theirs, h, board)
    their_good = theirs & their_rows & ~above(mine, h, board)
    if mine_good and not their_good:
        return ZUGZWANG
    if their_good and not mine_good:
        return -ZUGZWANG
    return 0.0


SEARCH_SIGNATURE = (
    "float64(int64[::1], int64[::1], float64[::1], int64, int64, int64, int64, float64, float64,"
    " int64[::1], float64[::1], int64[::1], int64, int64[:, ::1], int64[:, ::1], int64[::1])"
)
"""Declared: a recursive function whose types numba infers does not load from its cache."""


@njit(SEARCH_SIGNATURE, cache=True)
def search(
    L: np.ndarray,
    X: np.ndarray,
    weights: np.ndarray,
    pos: int,
    mask: int,
    ply: int,
    depth: int,
    alpha: float,
    beta: float,
    keys: np.ndarray,
    values: np.ndarray,
    meta: np.ndarray,
    shift: int,
    moves: np.ndarray,
    scores: np.ndarray,
    stats: np.ndarray,
) -> float:
    """Negamax value of (pos, mask), ``ply`` plies below the root, to ``depth``.

    The mover has no line of k yet (the parent returned at once when it had a
    winning move). Returns 0 with ``stats[ABORTED]`` set past the deadline.
    """
    stats[NODES] += 1
    if stats[NODES] & CHECK_EVERY == 0 and (
        expired(stats, END, LAST, LONGEST) or stats[NODES] >= stats[NODE_CAP]
    ):
        stats[ABORTED] = 1
    if stats[ABORTED]:
        return 0.0
    h, k, bottom, board = L[H], L[K], L[BOTTOM], L[BOARD]
    if mask == board:
        return 0.0
    if depth <= 0:
        stats[HORIZON] = 1
        return evaluate(L, X, weights, pos, mask)
    playable = possible(mask, bottom, board)
    if winning_cells(pos, mask, h, k, board) & playable:
        return WIN - (ply + 1)
    if depth >= 2:
        candidates = non_losing_moves(pos, mask, h, k, bottom, board)
        if candidates == 0:
            return -(WIN - (ply + 2))
    else:
        candidates = playable
    key = pos + mask
    slot = table.index(keys, key, shift)
    first = 0
    # The entry's words, each read once; its key checked by XOR (see store_entry).
    m = meta[slot]
    entry_value = values[slot]
    if entry_key(keys[slot], entry_value, m) == key and m != 0:
        if m >> 10:
            first = 1 << ((m >> 10) - 1)
        if m & 255 >= depth:
            stats[HORIZON] = 1  # the stored subtree may have been cut by its horizon
            value = from_table(entry_value, ply, PROVEN)
            bound = (m >> 8) & 3
            if bound == EXACT:
                return value
            if bound == LOWER and value > alpha:
                alpha = value
            elif bound == UPPER and value < beta:
                beta = value
            if alpha >= beta:
                return value
    n = sort_moves(L[ORDER:], h, k, board, pos, mask, candidates, moves, scores, ply)
    if first & candidates:
        for i in range(n):
            if moves[ply, i] == first:
                for j in range(i, 0, -1):
                    moves[ply, j] = moves[ply, j - 1]
                moves[ply, 0] = first
                break
    alpha_in = alpha
    best = -INF
    best_move = 0
    for i in range(n):
        move = moves[ply, i]
        value = -search(
            L, X, weights, pos ^ mask, mask | move, ply + 1, depth - 1, -beta, -alpha,
            keys, values, meta, shift, moves, scores, stats,
        )  # fmt: skip
        if stats[ABORTED]:
            return 0.0
        if value > best:
            best, best_move = value, move
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    bound = UPPER if best <= alpha_in else LOWER if best >= beta else EXACT
    data = min(depth, 255) | (bound << 8) | ((lowest_index(best_move) + 1) << 10)
    store_entry(keys, values, meta, slot, key, to_table(best, ply, PROVEN), data)
    return best


@njit(cache=True, nogil=True)  # other threads (a web server's event loop) run meanwhile
def search_root(
    L: np.ndarray,
    X: np.ndarray,
    weights: np.ndarray,
    pos: int,
    mask: int,
    depth: int,
    first: int,
    keys: np.ndarray,
    values: np.ndarray,
    meta: np.ndarray,
    shift: int,
    moves: np.ndarray,
    scores: np.ndarray,
    stats: np.ndarray,
    out: np.ndarray,
) -> int:
    """Search every legal move to ``depth`` (``first``, a cell bit, first); write rows
    ``(cell, value, bound)`` in search order into ``out`` and return how many moves
    were searched completely (fewer than all when the deadline came)."""
    h, k, bottom, board = L[H], L[K], L[BOTTOM], L[BOARD]
    playable = possible(mask, bottom, board)
    wins = winning_cells(pos, mask, h, k, board) & playable
    n = sort_moves(L[ORDER:], h, k, board, pos, mask, playable, moves, scores, 0)
    order = moves[0, :n].copy()
    if first & playable:
        for i in range(n):
            if order[i] == first:
                for j in range(i, 0, -1):
                    order[j] = order[j - 1]
                order[0] = first
                break
    alpha = -INF
    best = -INF
    for i in range(n):
        move = order[i]
        if move & wins:
            value = WIN - 1
        else:
            value = -search(
                L, X, weights, pos ^ mask, mask | move, 1, depth - 1, -INF, -alpha,
                keys, values, meta, shift, moves, scores, stats,
            )  # fmt: skip
            if stats[ABORTED]:
                return i
        out[i, 0] = move
        out[i, 1] = value
        out[i, 2] = EXACT if value > alpha or i == 0 else UPPER
        if value > best:
            best = value
            if value > alpha:
                alpha = value
    key = pos + mask
    slot = table.index(keys, key, shift)
    best_i = 0
    for i in range(n):
        if out[i, 1] == best:
            best_i = i
            break
    data = min(depth, 255) | (EXACT << 8) | ((lowest_index(order[best_i]) + 1) << 10)
    store_entry(keys, values, meta, slot, key, best, data)
    return n


@njit(cache=True)
def principal_variation(
    L: np.ndarray,
    pos: int,
    mask: int,
    keys: np.ndarray,
    values: np.ndarray,
    meta: np.ndarray,
    shift: int,
    out: np.ndarray,
) -> int:
    """The expected line from the table's best moves (cell bits into ``out``)."""
    n = 0
    board = L[BOARD]
    playable = possible(mask, L[BOTTOM], board)
    while n < out.size:
        key = pos + mask
        slot = table.index(keys, key, shift)
        m = meta[slot]
        if entry_key(keys[slot], values[slot], m) != key or m >> 10 == 0:
            break
        move = 1 << ((m >> 10) - 1)
        if not move & playable:
            break
        out[n] = move
        n += 1
        if winning_cells(pos, mask, L[H], L[K], board) & move:
            break
        pos, mask = pos ^ mask, mask | move
        if mask == board:
            break
        playable = possible(mask, L[BOTTOM], board)
    return n


def solver_reach(seconds: float) -> int:
    """The most empty cells of 7x6 positions the solver usually settles in ``seconds``.

    Measured on 180 positions from six games of the engine against itself
    (2026-11-23, load about 4, an empty table each time): the median solve of
    every move took 0.012 s with 24 empty cells, 0.045 s with 26, 0.24 s with 30
    (the worst of six about four times the median), so about two more cells per
    doubling of the time; in play the table kept from earlier moves helps.

    >>> solver_reach(0.05), solver_reach(0.4), solver_reach(0.001)
    (24, 30, 12)
    """
    if seconds <= 0:
        return 0
    return max(12, int(24 + 2 * math.log2(seconds / 0.05)))


class Connect4Search(RootSearch):
    """One root at a time, one depth per :meth:`iterate` (the driver's Deepening)."""

    SCRATCH = ("moves", "scores", "stats", "out", "pv")

    def __init__(self, game: Game, zugzwang: bool = True) -> None:
        rows, cols, k = game.rows, game.cols, game.k  # type: ignore[attr-defined]
        self.rows, self.cols, self.stride = rows, cols, rows + 1
        self.L = position.layout(rows, cols, k, symmetry=False)
        self.X, self.weights = eval_tables(rows, cols, k, zugzwang)
        self.keys, self.shift = table.new_table(cols * (rows + 1), TABLE_BITS)
        self.values = np.zeros(self.keys.size, float)
        self.meta = np.zeros(self.keys.size, np.int64)
        cells = rows * cols
        self.moves = np.zeros((cells + 2, cols), np.int64)
        self.scores = np.zeros((cells + 2, cols), np.int64)
        self.stats = np.zeros(7, np.int64)
        self.longest = 0
        self.out = np.zeros((cols, 3), float)
        self.pv = np.zeros(cells, np.int64)
        self.pos = self.mask = 0
        self.first = 0
        self.nodes = 0
        self.budget: int | None = None
        """The most nodes this move's iterations may visit together (None: no budget)."""

    def warm(self) -> None:
        """Load the compiled code and touch every page of the table (off the clock:
        a first touch of 24 MB costs tens of milliseconds on a virtual machine)."""
        self.set_root(0, 0)
        self.iterate(2, (1 << 62) - 1)
        self.reset()

    def reset(self) -> None:
        """Forget the table."""
        self.keys[:] = 0
        self.values[:] = 0.0
        self.meta[:] = 0

    def set_root(self, pos: int, mask: int) -> None:
        self.pos, self.mask = pos, mask
        self.first = 0
        self.nodes = 0
        self.halted = False
        self.longest = 0

    def move_of(self, cell: int) -> int:
        """The column of a cell's bit."""
        return (int(cell).bit_length() - 1) // self.stride

    def iterate(self, depth: int, end_ns: int) -> Iteration | None:
        cap = NO_CAP if self.budget is None else self.budget - self.nodes
        self.stats[:] = (0, end_ns, 0, 0, now_ns(), self.longest, cap)
        if self.halted:  # checked after the write: a stop() racing it still wins
            self.best_partial = None
            return None
        n = search_root(
            self.L, self.X, self.weights, self.pos, self.mask, depth, self.first,
            self.keys, self.values, self.meta, self.shift, self.moves, self.scores,
            self.stats, self.out,
        )  # fmt: skip
        self.nodes += int(self.stats[NODES])
        self.longest = int(self.stats[LONGEST])
        rows = self.root_rows(self.out, n, bool(self.stats[ABORTED]))
        if not rows:
            return None
        best_cell = rows[0][0]
        self.first = best_cell
        line = [best_cell]
        after_pos, after_mask = self.pos ^ self.mask, self.mask | best_cell
        wins = winning_cells(self.pos, self.mask, self.rows, self.L[K], self.L[BOARD])
        if not wins & best_cell and after_mask != self.L[BOARD]:
            m = principal_variation(
                self.L,
                after_pos,
                after_mask,
                self.keys,
                self.values,
                self.meta,
                self.shift,
                self.pv,
            )
            line += [int(c) for c in self.pv[: min(m, depth - 1)]]
        return Iteration(
            value=rows[0][1],
            move=self.move_of(best_cell),
            rows=[(self.move_of(c), v, BOUND_TEXT[b]) for c, v, b in rows],
            pv=[self.move_of(c) for c in line],
            horizon=bool(self.stats[HORIZON]),
        )


class Connect4Engine:
    """``ids``'s engine for one Connect Four board: the exact solver in reach, else the search."""

    def __init__(self, game: Game, zugzwang: bool = True, threads: int = 1) -> None:
        self.game = game
        self.rows, self.cols = game.rows, game.cols  # type: ignore[attr-defined]
        self.cells = self.rows * self.cols
        self.search = Connect4Search(game, zugzwang)
        self.search.warm()
        self.smp = (
            LazySMP([self.search.helper() for _ in range(threads - 1)]) if threads > 1 else None
        )
        """Lazy SMP's helpers (``ids:threads=N``); the solver runs on one thread."""
        self.solver = shared_solver(self.rows, self.cols, game.k)  # type: ignore[attr-defined]
        self.failed_at: int | None = None
        # The reach is measured on 7x6; other boards use it scaled by their cell count.
        self.scale = self.cells / 42
        self.rate = 1e6  # solver nodes per second, until measured
        self.halt = threading.Event()
        """Set by :meth:`stop` until the next move: the exact solve looks at it too."""
        # Load the compiled helpers of exact() (from numba's cache: milliseconds each)
        # now, not on the first move's clock; with no time it stops before solving.
        self.exact(game.initial_state(), 0, 0, 0.0)

    def bitboards(self, state: State) -> tuple[int, int]:
        """``(pos, mask)`` in the solver's layout: the mover's stones and all stones."""
        pos = mask = 0
        stride = self.rows + 1
        mover = state.to_move
        for col in range(self.cols):
            for row in range(self.rows):
                owner = state.stone(row * self.cols + col)  # type: ignore[attr-defined]
                if owner is None:
                    break
                bit = 1 << (col * stride + row)
                mask |= bit
                if owner == mover:
                    pos |= bit
        return pos, mask

    def solve(self, pos: int, mask: int, ply: int, seconds: float) -> Solution:
        """The solver's score of a position whose mover cannot win at once, in short
        probes (a few milliseconds of nodes each, sized from the measured speed) so
        that the clock is read often; bounds only when ``seconds`` run out."""
        solver = self.solver
        if mask == self.search.L[BOARD]:
            return Solution(0, 0, 0, 0.0)

        def probe(mid: int, left: float) -> tuple[int, int, bool]:
            budget = max(MIN_PROBE, int(self.rate * min(left, PROBE_SECONDS)))
            with solver.lock:  # the solver is the process's: other threads' engines share it
                start = time.perf_counter()
                solver.stats[:] = (0, budget, 0, compiled_clock.deadline_ns(start + left))
                value = solver_search.probe(
                    solver.L, pos, mask, ply, mid, mid + 1, solver.table, solver.shift,
                    solver.mbuf, solver.sbuf, solver.frames, solver.stats,
                )  # fmt: skip
                spent = time.perf_counter() - start
                nodes = int(solver.stats[solver_search.NODES])
                aborted = bool(solver.stats[solver_search.ABORTED])
            if spent > 0.001:
                # The slowest recent speed: a loaded machine must not stretch a probe.
                self.rate = min(nodes / spent, 0.5 * (self.rate + nodes / spent))
            return value, nodes, aborted

        low, high = -((self.cells - ply) // 2), (self.cells + 1 - ply) // 2
        return bisect(probe, low, high, seconds, stop=self.halt)

    def exact(
        self, state: State, pos: int, mask: int, seconds: float
    ) -> tuple[int, SearchInfo] | None:
        """The best move by the solver, or None when it does not finish in ``seconds``."""
        start = time.perf_counter()
        ply = state.ply
        L = self.search.L
        playable = possible(mask, L[BOTTOM], L[BOARD])
        wins = winning_cells(pos, mask, self.rows, L[K], L[BOARD])
        rows: list[tuple[int, int]] = []
        nodes = 0
        for col in position.centre_order(self.cols):
            cell = playable & column_mask(self.rows, col)
            if not cell:
                continue
            if wins & cell:
                score = (self.cells + 1 - ply) // 2
            else:
                left = seconds - (time.perf_counter() - start)
                if left <= 0 or self.halt.is_set():
                    return None
                child_pos, child_mask = pos ^ mask, mask | cell
                if can_win_next(L, child_pos, child_mask):
                    score = -((self.cells - ply) // 2)  # the opponent wins next move
                else:
                    found = self.solve(child_pos, child_mask, ply + 1, left)
                    nodes += found.nodes
                    if not found.exact:
                        return None
                    score = -found.score
            rows.append((col, score))
        rows.sort(key=lambda r: -r[1])
        values = [(col, self.value_of(score, ply)) for col, score in rows]
        info = SearchInfo(
            seconds=time.perf_counter() - start,
            depth=self.cells - ply,
            nodes=nodes,
            value=values[0][1],
            method="exact",
            engine="compiled",
            units=f"exact: the solved result for the player to move; {PROVEN_NOTE}",
        )
        info.root = value_rows(state, [(c, v, "=") for c, v in values], self.cells - ply)
        return rows[0][0], info

    def value_of(self, score: int, ply: int) -> float:
        """A solver score (see :mod:`arena.solvers.connect4.search`) as a search value:
        ``WIN - plies`` to the end for a win, its negation for a loss, 0 for a draw."""
        top = (self.cells + 1) // 2 + 1
        if score > 0:
            stones = top - score  # the mover's stones when it completes its line
            return WIN - (2 * (stones - ply // 2) - 1)
        if score < 0:
            stones = top + score  # the opponent's
            return -(WIN - 2 * (stones - (ply + 1) // 2))
        return 0.0

    def stop(self) -> None:
        """End the search under way soon (from another thread, or from a listener)."""
        self.halt.set()
        self.search.stop()

    def choose(
        self,
        state: State,
        seconds: float | None,
        maxdepth: int,
        agent: Agent,
        nodes: int | None = None,
    ) -> tuple[int, SearchInfo]:
        """The move and its report; ``nodes``: at most about that many nodes (the search
        looks at its count every :data:`CHECK_EVERY` + 1), on one thread and without the
        solver, so the same position gives the same move on any machine."""
        self.halt.clear()
        with quiet_gc(), node_budget(self.search, nodes) as budgeted:
            return self._choose(state, seconds, maxdepth, agent, budgeted)

    def try_exact(self, ply: int, empty: int, seconds: float) -> bool:
        """Whether to give the solver its share of this move: always within its reach,
        and otherwise too (a solve that fails still fills the shared table with bounds
        that later solves and games use) unless one failed in the last few plies."""
        if empty <= solver_reach(SOLVE_SHARE * seconds) * self.scale:
            return True
        return self.failed_at is None or ply >= self.failed_at + RETRY_PLIES

    def _choose(
        self,
        state: State,
        seconds: float | None,
        maxdepth: int,
        agent: Agent,
        budgeted: bool = False,
    ) -> tuple[int, SearchInfo]:
        start = time.perf_counter()
        pos, mask = self.bitboards(state)
        legal = state.legal_moves()
        empty = self.cells - state.ply
        depth = min(maxdepth, empty)
        smp = None if budgeted else self.smp
        if not budgeted and seconds is not None and self.try_exact(state.ply, empty, seconds):
            if smp is not None:  # the helpers deepen while this thread tries the solve
                for helper in smp.ready():
                    helper.set_root(pos, mask)
                smp.begin(depth, deadline_ns(Deadline(seconds, start).end), final)
            try:
                found = self.exact(state, pos, mask, SOLVE_SHARE * seconds)
            except BaseException:
                if smp is not None:
                    smp.finish(time.perf_counter())
                raise
            if found is not None:
                if smp is not None:
                    smp.finish(time.perf_counter())
                return found
            self.failed_at = state.ply
        search = self.search
        search.set_root(pos, mask)
        if smp is not None and not smp.active:
            for helper in smp.ready():
                helper.set_root(pos, mask)
        if self.halt.is_set():  # stopped during the solve: the depths stop at once too
            search.stop()
        return deepen(state, search, seconds, depth, agent, legal[0], start=start, smp=smp)


_SOLVERS: dict[tuple[int, int, int], Connect4Solver] = {}


def shared_solver(rows: int, cols: int, k: int) -> Connect4Solver:
    """The process's solver for a board: its table is kept between moves, games and
    engines (what one solve proved serves the next ones; a table holds only facts
    about positions, so sharing it is safe). Built, and its 64 MB touched, on first use."""
    key = (rows, cols, k)
    found = _SOLVERS.get(key)
    if found is None:
        found = _SOLVERS[key] = Connect4Solver(rows, cols, k)  # its 64 MB touched
    return found


def make_engine(game: Game, threads: int = 1) -> Connect4Engine | None:
    """The engine for ``game``'s board (searching with ``threads`` threads), or None when
    the bitboards do not fit it."""
    if not position.fits(game.rows, game.cols):  # type: ignore[attr-defined]
        return None
    return Connect4Engine(game, threads=threads)
