"""The compiled Othello engine of ``ids``: iterative-deepening PVS and the exact endgame.

``ids`` plays Othello (standard rules, boards up to 8x8) with this engine
unless told ``engine=python``. A move:

1. **one legal move** is played at once;
   **an opening book** (``ids:book=FILE``, :mod:`.book`, 8x8): in a position
   it has expanded, the move whose position the book searched best is played at once,
   when the move has a time limit (a search to a fixed depth or node count, and an
   analysis, search instead);
2. **the exact endgame**: when the empty cells are few enough for the
   solver (:class:`arena.solvers.othello.solver.OthelloSolver`, one per engine)
   to finish in :data:`EXACT_SHARE` of the move's time (by :func:`exact_reach`),
   it solves the position and
   plays a move that keeps the exact score; if the solve runs out of its
   share, the search below gets the rest of the time;
3. **iterative deepening** of the compiled negascout search
   (:mod:`.search`, evaluation :mod:`.evaluation`) to depth 1, 2, 3, ...
   with one transposition table kept over the game: each depth starts with the
   root moves in the order of the previous one's values. A new depth starts
   only if :data:`NEXT_SHARE` of the time is left (the next costs a few times
   the last); the compiled code reads the clock itself and stops at a hard
   deadline (:class:`arena.search.clock.deadline.Deadline`'s margin), so a move never
   overruns. A depth stopped by the deadline still counts a root move that
   proved better than the previous best. The search stops early at a proven
   win or loss, or when no line reached the horizon (the game tree is done).

After each depth ``agent.report`` gets a :class:`~arena.core.agent.SearchInfo`
with the root rows (value, bound), the principal variation from the table,
the depth and the nodes, as the readable ``ids`` reports.

>>> import arena
>>> game = arena.load_game("othello")
>>> engine = make_engine(game)
>>> agent = arena.load_agent("ids")
>>> move, info = engine.choose(game.initial_state(), None, 4, agent)
>>> game.format_move(move) in ("d3", "c4", "f5", "e6"), info.depth, info.engine
(True, 4, 'fast')
>>> make_engine(arena.load_game("othello:size=10")) is None   # 10x10 does not fit 64 bits
True

Tests: tests/search/test_engine_othello.py
"""

from __future__ import annotations

import math
import threading
import time
from functools import partial
from typing import NamedTuple

import numpy as np

from arena.core.agent import Agent, SearchInfo
from arena.core.errors import IllegalMove, SpecError
from arena.core.evaluation import SCALE
from arena.core.game import Game, State
from arena.search.alphabeta.engines.driver import BOUND_TEXT, LazySMP, node_budget
from arena.search.alphabeta.engines.othello import search
from arena.search.alphabeta.engines.othello.book import Book, placements
from arena.search.alphabeta.engines.othello.evaluation import (
    HEURISTIC,
    SOFT,
    UNIT,
    UTILITY,
    masks,
    weights,
)
from arena.search.alphabeta.engines.othello.probcut import cut_table
from arena.search.atomics import private_array
from arena.search.clock.deadline import Deadline, quiet_gc
from arena.search.report import value_rows
from arena.search.values import DISC_MARGIN, HEURISTIC_UNITS, PROVEN_NOTE, Units
from arena.solvers.exact import empty_cells
from arena.solvers.othello.board import board_mask, flips
from arena.solvers.othello.solver import OthelloSolver, discs
from arena.solvers.solve import kind as solver_kind

EXACT_SHARE = 0.5
"""The share of a move's time the exact endgame may take (and what decides whether
a solve is tried: the empty cells must be within reach of this share)."""
NEXT_SHARE = 0.6
"""A new depth starts only while no more than this share of the move's time is used."""
EXACT_EMPTIES, EXACT_SECONDS, EXACT_GROWTH = 18, 2.0, 3.0
"""A solve of EXACT_EMPTIES empty cells takes about EXACT_SECONDS; one fewer, a third."""
SOLVER_RATE = 2e6
"""The most endgame nodes per second the solver's budgets may assume (see ``exact_move``)."""
TABLE_BITS = 21
"""``2**TABLE_BITS`` rows of 24 bytes in the transposition table (48 MB)."""
PROBCUT = 1.5
"""Multi-ProbCut's threshold in standard deviations of a shallow search's prediction
(0 turns it off); the predictions are :mod:`.probcut`'s table."""
NEVER = 1 << 62
"""A deadline (monotonic nanoseconds) that never comes."""


def exact_reach(seconds: float) -> int:
    """The most empty cells a solve usually finishes in ``seconds``.

    Measured on this project's machine (busy, 4 M nodes/s) on positions of real and
    random games: 2 s at 18 empties, each empty cell fewer about three times faster.

    >>> exact_reach(0.05), exact_reach(0.5), exact_reach(2.0)
    (14, 16, 18)
    """
    if seconds <= 0:
        return 0
    return int(EXACT_EMPTIES + math.log(seconds / EXACT_SECONDS) / math.log(EXACT_GROWTH))


def exact_text(score: int) -> str:
    """A solved score for people, as the ``solver`` agent writes it.

    >>> exact_text(4), exact_text(0), exact_text(-2)
    ('exact +4 discs (win)', 'exact 0 (draw)', 'exact -2 discs (loss)')
    """
    if score == 0:
        return "exact 0 (draw)"
    return f"exact {score:+d} discs ({'win' if score > 0 else 'loss'})"


DISCS_PER_RAW = 0.25
"""The 8x8 weights were fitted to four times the final disc difference
(``scripts/fit_othello_weights.py``): a raw value of 4 is one disc."""


def predicted_discs(value: float) -> float:
    """A reported value (squashed into ``(-SCALE, SCALE)``, see :meth:`OthelloEngine.
    report_value`) as the final disc difference the 8x8 evaluation predicts.

    >>> round(predicted_discs(SCALE * 40 / (40 + SOFT)), 6)   # raw 40: ten discs
    10.0
    """
    raw = SOFT * value / max(SCALE - abs(value), 1e-9)
    return raw * DISCS_PER_RAW


PREDICTED_DISCS = Units(
    "discs",
    "value: the final disc difference the evaluation predicts for the player to move "
    f"(fitted to 8x8 games); {PROVEN_NOTE}",
    predicted_discs,
)
EXACT_UNITS = "exact: the final disc difference for the player to move with perfect play from here"


def make_engine(game: Game, threads: int = 1) -> OthelloEngine | None:
    """The engine for ``game`` (searching with ``threads`` threads): standard rules on
    boards up to 8x8 (else None)."""
    if game.name != "othello" or game.size > 8 or not game.can_pass:  # type: ignore[attr-defined]
        return None
    return OthelloEngine(game, threads=threads)


class RootResult(NamedTuple):
    """One completed depth of the Othello search: its value and the root's rows
    ``(bit, value, bound)`` best first (internal units)."""

    value: int
    rows: list[tuple[int, int, int]]


class OthelloHelper:
    """A Lazy SMP helper of :class:`OthelloEngine` (``ids:threads=N``): the engine's
    table, its own counters and move lists, and its own root order (its last depth's,
    best first); what :class:`~.driver.LazySMP` runs."""

    def __init__(self, engine: OthelloEngine) -> None:
        self.engine = engine
        # Its counters and move lists on cache lines of their own (written every node).
        stats, scratch = search.new_stats(), search.new_scratch()
        self.arrays = (private_array(stats.shape), private_array(scratch.shape))
        self.halted = False
        self.order: np.ndarray = np.zeros(0, dtype=np.int64)
        self.nodes = 0
        self.me = self.opp = np.uint64(0)

    def set_root(self, me: np.uint64, opp: np.uint64, order: np.ndarray) -> None:
        self.me, self.opp, self.order, self.nodes = me, opp, order, 0

    def iterate(self, depth: int, end_ns: int) -> RootResult | None:
        """Search the root to ``depth``; None when stopped."""
        value, values, bounds = self.engine._root(
            self.me, self.opp, depth, self.order, end_ns, self
        )
        self.nodes += int(self.arrays[0][search.NODES])
        if self.arrays[0][search.ABORTED] or self.halted:
            return None
        rows = sorted(
            zip(self.order.tolist(), values.tolist(), bounds.tolist(), strict=True),
            key=lambda row: -row[1],
        )
        self.order = np.array([row[0] for row in rows], dtype=np.int64)
        return RootResult(value, rows)

    def stop(self) -> None:
        self.halted = True
        self.arrays[0][search.DEADLINE] = 0


class OthelloEngine:
    """Searches positions of one Othello game; keeps its table between moves.

    ``kind``: HEURISTIC (the game's evaluation, for play) or UTILITY (the disc
    difference, as ``eval=utility``, for checks against the readable search).
    """

    def __init__(
        self, game: Game, table_bits: int = TABLE_BITS, kind: int = HEURISTIC, threads: int = 1
    ) -> None:
        size = game.size  # type: ignore[attr-defined]
        if game.name != "othello" or size > 8:
            raise SpecError(f"the Othello engine plays boards up to 8x8, not {game.spec}")
        self.game = game
        self.size = size
        self.kind = kind
        self.board = np.uint64(board_mask(size))
        self.weights, families = weights(size)
        self.masks = masks(size, families)
        self.squares = search.square_values(size)
        self.cuts = cut_table(size)
        """Multi-ProbCut's shallow searches and predictions (:mod:`.probcut`)."""
        self.table = search.new_table(table_bits)
        self.busy = search.new_busy()
        """The positions the threads are searching now (shared, see :mod:`.search`)."""
        self.stats = search.new_stats()
        self.scratch = search.new_scratch()
        self.age = 0
        self.stopped = False
        self.halt = threading.Event()
        """Set by :meth:`stop` until the next move: the exact solve looks at it too."""
        self.units = (
            DISC_MARGIN if kind == UTILITY else PREDICTED_DISCS if size == 8 else HEURISTIC_UNITS
        )
        """What the reported values are (the evaluation predicts discs on 8x8 only)."""
        self.probcut = PROBCUT
        self.book: Book | None = None
        """The opening book played on a clock (8x8, ``ids:book=FILE``; None: none)."""
        self.next_share = NEXT_SHARE
        self.budget: int | None = None
        """Measurements: the most nodes each thread searches in a move, standing for
        equal time on free cores (None: no budget, the clock alone)."""
        self.spent = 0
        """The main search's nodes this move (against :attr:`budget`)."""
        self.split = True
        """Threads share a node's later moves (ABDADA, :mod:`.search`); False:
        plain Lazy SMP. Two threads reach a depth a third sooner with it (in matches
        against one thread: 52.3% over 200 games, plain Lazy SMP 49.5% over 100,
        docs/speed.md); one thread never marks."""
        self.smp = (
            LazySMP([OthelloHelper(self) for _ in range(threads - 1)]) if threads > 1 else None
        )
        """Lazy SMP's helpers (``ids:threads=N``); the exact endgame runs on one thread."""
        self.solver: OthelloSolver | None = None
        if kind == HEURISTIC and solver_kind(game) == "othello":
            # The engine's own solver, its table touched now: the first touch of 48 MB
            # of fresh pages takes a good part of a second, not to be spent on a clock.
            self.solver = OthelloSolver(size)
            self.solver.reset()
        # Load the compiled search now (from numba's cache, or compile it), not on a clock.
        start = game.initial_state()
        self.search_depth(start, 1)
        self.principal_variation(start, start.legal_moves()[0], 2)
        self.reset()

    def reset(self) -> None:
        """Forget the table (a new game)."""
        self.table[:] = 0
        self.busy[:] = 0
        self.age = 0

    def stop(self) -> None:
        """Make the running search stop at its next look at the clock (any thread)."""
        self.stopped = True
        self.halt.set()
        self.stats[search.DEADLINE] = 0

    def bits(self, state: State) -> tuple[np.uint64, np.uint64]:
        """``(mover, opponent)`` discs of ``state`` in the solver's layout, as numba's words."""
        me, opp = discs(state)
        return np.uint64(me), np.uint64(opp)

    def move_of(self, bit: int) -> int:
        """The game's move for a bit index of the layout."""
        if bit == search.PASS:
            return self.game.PASS  # type: ignore[attr-defined, no-any-return]
        return (bit // 8) * self.size + bit % 8

    def bit_of(self, move: int) -> int:
        return (move // self.size) * 8 + move % self.size

    def report_value(self, value: int) -> float:
        """An internal value in the units of :mod:`arena.search.values`."""
        if abs(value) >= search.PROVEN or self.kind == UTILITY:
            return float(value)
        raw = value / UNIT
        return SCALE * raw / (abs(raw) + SOFT)

    def _root(
        self,
        me: np.uint64,
        opp: np.uint64,
        depth: int,
        order: np.ndarray,
        deadline_ns: int,
        helper: OthelloHelper | None = None,
    ) -> tuple[int, np.ndarray, np.ndarray]:
        """One depth of the root's moves ``order``; with ``helper``, on its arrays (a Lazy
        SMP helper's search, which a stop() racing its start still stops)."""
        values = np.zeros(len(order), dtype=np.int64)
        bounds = np.zeros(len(order), dtype=np.int64)
        stats, scratch = (self.stats, self.scratch) if helper is None else helper.arrays
        stats[search.NODES] = 0
        stats[search.DEADLINE] = deadline_ns
        stats[search.AGE] = self.age
        stats[search.KIND] = self.kind
        stats[search.MPC_MARGIN] = round(self.probcut * 100) if self.kind == HEURISTIC else 0
        spent = self.spent if helper is None else helper.nodes
        stats[search.NODE_CAP] = search.NO_CAP if self.budget is None else self.budget - spent
        stats[search.SPLIT] = int(self.smp is not None and self.split)
        if helper is not None and helper.halted:  # after the write: a racing stop() wins
            return 0, values, bounds
        value = search.root(
            me, opp, depth, -search.INF, search.INF, order, values, bounds, self.board,
            self.table, self.busy, stats, self.masks, self.weights, self.squares, self.cuts,
            scratch,
        )  # fmt: skip
        return value, values, bounds

    def search_depth(self, state: State, depth: int) -> tuple[int, int]:
        """``(value, best move)`` of a fixed-depth search (no deadline), in internal units."""
        me, opp = self.bits(state)
        order = self._order(state, None)
        if len(order) == 0:
            raise IllegalMove(None, "the engine searches positions with a placement to make")
        value, _, _ = self._root(me, opp, depth, order, NEVER)
        return value, self.move_of(int(order[self.stats[search.ROOT_BEST]]))

    def search_bits(self, me: int, opp: int, depth: int) -> int:
        """The value for the mover of a fixed-depth search of the 8x8 position ``(me, opp)``
        (the solver's layout), in internal units; the mover must have a placement."""
        order = np.array(placements((me, opp)), dtype=np.int64)
        if len(order) == 0:
            raise IllegalMove(None, "the engine searches positions with a placement to make")
        value, _, _ = self._root(np.uint64(me), np.uint64(opp), depth, order, NEVER)
        return value

    def book_move(
        self, state: State, me: np.uint64, opp: np.uint64
    ) -> tuple[int, SearchInfo] | None:
        """The book's move in ``state`` and its rows, or None when the book has not
        expanded the position."""
        if self.book is None or self.size != 8:
            return None
        rows = self.book.rows(int(me), int(opp))
        if rows is None:
            return None
        depth = self.book.depth + 1  # each move's position searched to the book's depth
        info = SearchInfo(
            depth=depth,
            value=self.report_value(rows[0][1]),
            root=value_rows(
                state,
                [(self.move_of(b), self.report_value(v), "=") for b, v in rows],
                depth,
                self.units,
            ),
            method="book",
            engine="fast",
            units=f"book: {self.units.note}",
        )
        info.root[0]["pv"] = [self.game.format_move(self.move_of(rows[0][0]))]
        return self.move_of(rows[0][0]), info

    def _order(self, state: State, first: int | None) -> np.ndarray:
        moves = [self.bit_of(m) for m in state.legal_moves() if m != self.game.PASS]  # type: ignore[attr-defined]
        if first is not None and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        return np.array(moves, dtype=np.int64)

    def principal_variation(self, state: State, first: int, length: int) -> list[str]:
        fmt = self.game.format_move
        line = [first]
        state = state.play(first)
        while len(line) < length and not state.is_terminal():
            legal = state.legal_moves()
            if legal == (self.game.PASS,):  # type: ignore[attr-defined]
                move = legal[0]
            else:
                me, opp = self.bits(state)
                bit = search.table_move(self.table, me, opp)
                move = self.move_of(bit) if bit >= 0 else -1
                if move not in legal:
                    break
            line.append(move)
            state = state.play(move)
        return [fmt(m) for m in line]

    def exact_move(
        self, state: State, me: np.uint64, opp: np.uint64, seconds: float
    ) -> tuple[int, SearchInfo] | None:
        """Solve the position, then its moves (the table's best first) until one keeps
        the score: the move and the report, or None when ``seconds`` run out."""
        assert self.solver is not None
        start = time.perf_counter()
        # The solver keeps time by node budgets from the speed it measured; never trust
        # more than SOLVER_RATE (the machine may be busier than when it measured).
        self.solver.rate = min(self.solver.rate, SOLVER_RATE)
        root = self.solver.solve_bits(int(me), int(opp), seconds=seconds, stop=self.halt)
        if not root.exact:
            return None
        nodes = root.nodes
        hint = search.table_move(self.table, me, opp)
        rows = []
        best = None
        for bit in self._order(state, hint if hint >= 0 else None).tolist():
            left = seconds - (time.perf_counter() - start)
            if left <= 0 or self.halt.is_set():
                return None
            x = np.uint64(1 << bit)
            f = flips(me, opp, x)
            child = self.solver.solve_bits(
                int(opp ^ f), int(me | f | x), seconds=left, stop=self.halt
            )
            nodes += child.nodes
            if not child.exact:
                return None
            rows.append((bit, -child.score))
            if -child.score == root.score:
                best = bit
                break
        assert best is not None, "no move keeps the solved value"
        rows.sort(key=lambda row: -row[1])
        fmt = self.game.format_move
        info = SearchInfo(
            seconds=time.perf_counter() - start,
            depth=0,
            nodes=nodes,
            value=root.score,
            root=[
                {
                    "move": fmt(self.move_of(bit)),
                    "value": score,
                    "bound": "=",
                    "depth": 0,
                    "exact": True,
                    "text": exact_text(score),
                }
                for bit, score in rows
            ],
            method="exact",
            engine="fast",
            units=EXACT_UNITS,
        )
        return self.move_of(best), info

    multipv = True
    """:meth:`choose` takes ``multipv`` (``ids`` looks for this)."""

    def choose(
        self,
        state: State,
        seconds: float | None,
        maxdepth: int,
        agent: Agent,
        multipv: int = 0,
        nodes: int | None = None,
    ) -> tuple[int, SearchInfo]:
        """The move to play in ``state`` and what the search found (see the module).

        ``multipv`` > 1 (analysis): after each depth, the best ``multipv`` root moves
        are searched again with an open window at that depth, so each has its own
        exact value (``=``) instead of a bound; moves the time did not reach keep
        their bounds.

        ``nodes``: at most about that many nodes, and no new depth past
        :data:`NEXT_SHARE` of them (the time rule, in nodes), on one thread and without
        the timed exact endgame, so the same position gives the same move on any machine.
        """
        deadline = Deadline(seconds)
        self.halt.clear()
        # No collector pause on the clock.
        with quiet_gc(), node_budget(self, nodes) as budgeted:
            return self._choose(state, seconds, maxdepth, agent, deadline, multipv, budgeted)

    @staticmethod
    def final(value: int) -> bool:
        """Whether deeper iterations cannot change a root ``value``: a proven win or loss."""
        return abs(value) >= search.PROVEN

    def fill(
        self, state: State, info: SearchInfo, depth: int, value: int,
        rows: list[tuple[int, int, int]], move: int,
    ) -> None:  # fmt: skip
        """Write a completed depth's value, root rows and line into ``info``."""
        info.depth, info.value = depth, self.report_value(value)
        info.root = value_rows(
            state,
            [(self.move_of(b), self.report_value(v), BOUND_TEXT[f]) for b, v, f in rows],
            depth,
            self.units,
        )
        info.root[0]["pv"] = self.principal_variation(state, move, depth)

    def open_window(
        self, me: np.uint64, opp: np.uint64, depth: int, rows: list[tuple[int, int, int]],
        count: int, deadline_ns: int,
    ) -> tuple[list[tuple[int, int, int]], int, bool]:  # fmt: skip
        """``rows`` (bit, internal value, bound) best first, with the first ``count`` that
        are bounds searched again to ``depth`` with an open window: ``(rows, nodes,
        complete)``; ``complete`` is False when the deadline or a stop cut the pass short
        (the rows not reached keep their bounds)."""
        out = list(rows)
        nodes = 0
        for i, (bit, _, flag) in enumerate(rows[:count]):
            if flag == search.EXACT:
                continue
            value, _, _ = self._root(me, opp, depth, np.array([bit], dtype=np.int64), deadline_ns)
            nodes += int(self.stats[search.NODES])
            if self.stats[search.ABORTED] or self.stopped:
                return sorted(out, key=lambda row: -row[1]), nodes, False
            out[i] = (bit, value, search.EXACT)
        # Stable: the deepening's best move stays first among equals.
        return sorted(out, key=lambda row: -row[1]), nodes, True

    def _choose(
        self,
        state: State,
        seconds: float | None,
        maxdepth: int,
        agent: Agent,
        deadline: Deadline,
        multipv: int = 0,
        budgeted: bool = False,
    ) -> tuple[int, SearchInfo]:
        if state.game != self.game:
            raise IllegalMove(None, f"the engine plays {self.game.spec}, not {state.game.spec}")
        if state.is_terminal():
            raise IllegalMove(None, "the game is over")
        legal = state.legal_moves()
        if len(legal) == 1:
            return legal[0], SearchInfo(seconds=deadline.finish(), depth=0, engine="fast")
        me, opp = self.bits(state)
        if seconds is not None and not budgeted and multipv <= 1:
            found = self.book_move(state, me, opp)
            if found is not None:
                found[1].seconds = deadline.finish()
                return found
        if self.solver is not None and seconds is not None and not budgeted:
            budget = EXACT_SHARE * seconds
            if empty_cells(state) <= exact_reach(budget):
                found = self.exact_move(state, me, opp, budget)
                if found is not None:
                    return found
        self.age = (self.age + 1) & 255
        # A stop during the exact solve holds for the depths too (they play at once).
        self.stopped = self.halt.is_set()
        deadline_ns = NEVER
        if self.stopped:
            deadline_ns = 0
        elif seconds is not None:
            deadline_ns = time.monotonic_ns() + int(
                max(0.0, deadline.end - time.perf_counter()) * 1e9
            )
        order = self._order(state, None)
        move = self.move_of(int(order[0]))
        info = SearchInfo(depth=0, engine="fast", units=self.units.note)
        nodes = self.spent = 0
        smp = None if budgeted else self.smp
        last = empty_cells(state) + 2  # a depth past the end of every line
        settled = False  # the main search's value is exact (a helper's estimate stays out)
        if smp is not None:
            for helper in smp.ready():
                helper.set_root(me, opp, order)  # type: ignore[attr-defined]
            smp.begin(min(maxdepth, last), deadline_ns, lambda found: self.final(found.value))
        try:
            for depth in range(1, maxdepth + 1):
                if smp is not None:
                    smp.main_depth = depth
                value, values, bounds = self._root(me, opp, depth, order, deadline_ns)
                nodes += int(self.stats[search.NODES])
                self.spent = nodes
                best = int(self.stats[search.ROOT_BEST])
                if self.stats[search.ABORTED] or self.stopped:
                    if best > 0:  # a move proved better than the previous best before the stop
                        move = self.move_of(int(order[best]))
                    break
                rows = sorted(
                    zip(order.tolist(), values.tolist(), bounds.tolist(), strict=True),
                    key=lambda row: -row[1],
                )
                if multipv > 1:
                    rows, more, complete = self.open_window(
                        me, opp, depth, rows, multipv, deadline_ns
                    )
                    nodes += more
                    if not complete and info.depth:
                        # An analysis shows the last depth whose every row is exact, and its
                        # best move, rather than a deeper table of bounds the clock left.
                        break
                order = np.array([row[0] for row in rows], dtype=np.int64)
                move = self.move_of(int(order[0]))
                self.fill(state, info, depth, value, rows, move)
                # Settled before a listener's stop may end the loop.
                settled = self.final(value) or depth >= last
                elapsed = deadline.elapsed()
                if agent.listener is not None and agent.report(
                    partial(
                        SearchInfo,
                        elapsed,
                        depth,
                        nodes + (smp.nodes if smp is not None else 0),
                        info.value,
                        info.root,
                        engine="fast",
                        units=self.units.note,
                    ),
                    force=True,
                ):
                    break
                if settled:
                    break
                if seconds is not None and elapsed > self.next_share * seconds:
                    break
                if self.budget is not None and nodes > self.next_share * self.budget:
                    break  # the time rule, in nodes
        finally:
            if smp is not None:
                smp.finish(deadline.end)
        deeper = smp.deepest(info.depth, settled) if smp is not None and multipv <= 1 else None
        if deeper is not None:  # a helper completed a deeper iteration: its answer
            depth, found = deeper
            move = self.move_of(int(found.rows[0][0]))
            self.fill(state, info, depth, found.value, found.rows, move)
        info.nodes = nodes + (smp.nodes if smp is not None else 0)
        info.seconds = deadline.finish()
        return move, info
