"""The Python side of a compiled engine: iterative deepening, the deadline, reports.

Every compiled engine (Connect Four, Gomoku, Othello, ...) searches one depth
per call in compiled code and stops itself at a hard deadline it reads from the
compiled clock (:mod:`~arena.search.clock.compiled_deadline`). What is left is
the same for all of them and lives here: :func:`deepen` turns the move's
``seconds`` into that deadline (with the margin of
:class:`~arena.search.clock.deadline.Deadline`), calls depth 1, 2, 3, ...
while time remains, keeps the last completed depth's answer (or, from an
iteration cut short, a root move that was searched completely and beat the
previous best), reports each depth to ``agent.report`` as ``ids`` does, and
stops early on a proven value or when a depth saw no horizon (every line ended
the game).

An engine gives :func:`deepen` a :class:`Deepening`: ``iterate(depth, end_ns)``
returns an :class:`Iteration` or None when the deadline cut it short. With
``ids:threads=N``, :class:`LazySMP` runs N-1 helper copies of it, each deepening
on its own thread over the whole move beside the main search, through the shared
table; the deepest completed iteration is played.

Tests: tests/search/test_engine_connect4.py, tests/search/test_engine_gomoku.py,
tests/search/test_ids_engines.py,
tests/search/test_lazy_smp.py
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from functools import partial
from typing import Any, NamedTuple, Protocol

import numpy as np

from arena.core.agent import Agent, SearchInfo
from arena.core.game import State
from arena.search.alphabeta.engines.table_values import EXACT, LOWER, UPPER
from arena.search.atomics import private_array
from arena.search.clock.compiled_deadline import deadline_ns
from arena.search.clock.deadline import Deadline
from arena.search.report import value_rows
from arena.search.values import HEURISTIC_UNITS, is_proven

BOUND_TEXT = {EXACT: "=", LOWER: ">=", UPPER: "<="}
"""A root value's bound flag (beside it in ``out[i, 2]``) as the reports show it."""
STATS_END = 1
"""Where each compiled engine keeps its deadline (ns) in its ``stats`` array."""


class Iteration(NamedTuple):
    """One completed depth."""

    value: float
    """For the player to move, in the units of :mod:`arena.search.values`."""
    move: int
    rows: list[tuple[int, float, str]]
    """Root moves ``(move, value, bound)`` best first (bound ``=``, ``>=`` or ``<=``)."""
    pv: list[int]
    horizon: bool
    """Whether any position was evaluated at the depth limit."""


class Deepening(Protocol):
    """A compiled search of one root position, one depth per call."""

    nodes: int
    """Nodes searched since the root was set (all depths)."""

    def iterate(self, depth: int, end_ns: int) -> Iteration | None:
        """Search to ``depth``; None when stopped by the deadline (or :meth:`stop`)."""
        ...

    def partial_best(self) -> int | None:
        """After a cut-short iteration: a root move searched completely that beat the
        previous depth's best (the previous best is searched first), else None."""
        ...

    def stop(self) -> None:
        """End the iteration under way at its next look at the clock, and start no
        other until the next root (safe from another thread)."""
        ...


class RootSearch:
    """What the compiled engines' :class:`Deepening` share: reading the root rows an
    iteration wrote, the best move of one cut short, :meth:`stop`, and the copies that
    Lazy SMP's helper threads search with (:meth:`helper`)."""

    stats: np.ndarray
    """The engine's counters and limits, its deadline at :data:`STATS_END`."""
    halted = False
    best_partial: int | None = None
    first: int = 0
    """The root move searched first (the previous depth's best)."""
    nodes: int = 0
    SCRATCH: tuple[str, ...] = ()
    """The arrays a search writes besides the table (its position, move lists, counters):
    each helper has its own."""

    def helper(self) -> RootSearch:
        """A copy that searches the same root with its own :data:`SCRATCH` arrays, each on
        cache lines of its own (:func:`~arena.search.atomics.private_array`: a counter
        written every node must not share a line with another thread's), and the same table
        (shared by reference: what one thread stores, the others find)."""
        twin = copy.copy(self)
        for name in self.SCRATCH:
            mine = getattr(self, name)
            theirs = private_array(mine.shape, mine.dtype, zero=False)
            theirs[...] = mine
            setattr(twin, name, theirs)
        return twin

    def move_of(self, cell: int) -> int:
        """The game's move for a root entry of the compiled search (the same by default)."""
        return cell

    def root_rows(self, out: np.ndarray, n: int, aborted: bool) -> list[tuple[int, float, int]]:
        """The rows ``(entry, value, bound)`` of the iteration that just ran, best first; none
        when it was cut short (``aborted``), and then :meth:`partial_best` is the best root
        move it searched completely."""
        rows = [(int(entry), float(v), int(b)) for entry, v, b in out[:n]]
        self.best_partial = None
        if aborted:
            if rows:
                self.best_partial = self.move_of(max(rows, key=lambda r: r[1])[0])
            return []
        rows.sort(key=lambda r: -r[1])
        return rows

    def partial_best(self) -> int | None:
        return self.best_partial

    def stop(self) -> None:
        self.halted = True
        self.stats[STATS_END] = 0  # a deadline long past: the compiled search ends at its next look


GRACE = 0.002
"""How long past the move's stop moment the main search waits for a helper thread."""


def helper_depth(index: int, last: int, main: int) -> int:
    """The depth helper ``index`` searches next, having completed ``last`` while the main
    search is at ``main``: the main search's depth (the first helper; a ply past it for
    every second one after), and never one it has completed already. A helper that
    finished its depth first goes on to the next at once, so the threads drift apart
    by themselves and what each stores is found by the others -- the way the strongest
    alpha-beta engines run Lazy SMP, every thread in an iterative-deepening loop of its
    own over the whole move. (Measured in docs/speed.md against a helper a ply or two
    ahead and one that skips odd depths, as Stockfish's helpers once did.)

    >>> [helper_depth(0, last, 5) for last in (0, 4, 5, 8)]
    [5, 5, 6, 9]
    >>> helper_depth(1, 0, 5)
    6
    """
    return max(last + 1, main + index % 2)


class LazySMP:
    """Lazy SMP: helper threads search the same root as the main search, each in an
    iterative-deepening loop of its own that runs over the whole move (never restarted
    when the main search moves on), at the main search's depth or past it
    (:func:`helper_depth`), through the shared transposition table: what a helper
    stores, the main search finds (the table's move first, and the values of positions
    it has not reached yet). The move played is that of the deepest iteration any thread
    completed, the main search's on a tie (:meth:`deepest`); the main search's time
    management ends every thread (:meth:`finish`). The helpers' nodes count in the total.

    A helper is an object with ``iterate(depth, end_ns)`` (a completed iteration, or None
    when stopped), ``stop()``, ``halted`` and ``nodes``: the engine's
    :meth:`RootSearch.helper` copies, or the Othello engine's own; their root is set by
    the engine before :meth:`begin`, and their compiled search releases the GIL
    (``nogil``).
    """

    def __init__(self, helpers: Sequence[Any]) -> None:
        self.helpers = list(helpers)
        self.pool = ThreadPoolExecutor(len(self.helpers), thread_name_prefix="arena-smp")
        # Start the threads now, off the clock (an executor starts them at its first calls).
        for future in [self.pool.submit(int) for _ in self.helpers]:
            future.result()
        self.running: list[Future[Any]] = []
        self.main_depth = 0
        """The depth the main search is at (the helpers keep up with it)."""
        self.done: list[tuple[int, Any] | None] = [None] * len(self.helpers)
        """Each helper's deepest completed iteration this move: ``(depth, result)``."""
        self.active = False
        """Between :meth:`begin` and :meth:`finish`."""
        self.final: Callable[[Any], bool] = lambda found: False
        """This move's test of a settled result (proven, or every line to the end)."""

    def ready(self) -> list[Any]:
        """The helpers, once every one has ended its last move's loop (to set their root)."""
        for future in self.running:
            future.result()
        self.running = []
        return self.helpers

    def begin(self, maxdepth: int, end_ns: int, final: Callable[[Any], bool]) -> None:
        """Start every helper's deepening loop (to ``maxdepth`` at most, stopping at
        ``end_ns`` or at a result that ``final`` says ends the search); nothing if they
        run already (an engine may start them before work of its own on one thread)."""
        if self.active:
            return
        self.ready()
        self.active = True
        self.main_depth = 1
        self.final = final
        for i, helper in enumerate(self.helpers):
            helper.halted = False
            self.done[i] = None
            self.running.append(self.pool.submit(self.deepen, i, maxdepth, end_ns, final))

    def deepen(self, index: int, maxdepth: int, end_ns: int, final: Callable[[Any], bool]) -> None:
        """Helper ``index``'s loop (on its thread): depth after depth until stopped."""
        helper = self.helpers[index]
        last = 0
        while not helper.halted:
            # At the last depth the helpers search it beside the main search.
            depth = min(helper_depth(index, last, self.main_depth), maxdepth)
            if depth <= last:
                return
            found = helper.iterate(depth, end_ns)
            if found is None:
                return
            self.done[index] = (depth, found)
            last = depth
            if final(found):
                return

    def finish(self, stop: float = float("inf")) -> None:
        """End the helpers' loops (each at its next look at the clock) and wait for them,
        past the ``time.perf_counter`` moment ``stop`` at most :data:`GRACE`: a helper the
        system paused finishes on its own, and :meth:`ready` waits for it before the next
        use (its nodes then count in the next report)."""
        self.active = False
        for helper in self.helpers:
            helper.stop()
        waiting = []
        for future in self.running:
            if stop == float("inf"):
                future.result()
                continue
            try:
                future.result(timeout=max(0.0, stop - time.perf_counter()) + GRACE)
            except TimeoutError:
                waiting.append(future)
        self.running = waiting

    def deepest(self, depth: int, settled: bool = False) -> tuple[int, Any] | None:
        """The helper iteration to play instead of the main search's (completed to
        ``depth``; ``settled``: its result is final), else None.

        A settled result is exact: only a deeper settled one replaces it (the same
        value, a longer line), never a helper's deeper iteration that only estimates (a
        thread's proof reaches the others through the table, so the main search can stop
        on it while a helper finishes a heuristic depth past it). Against an estimate, a
        helper's settled result comes first, at any depth; then the deepest helper
        iteration past ``depth``.
        """
        done = [found for found in self.done if found is not None]
        exact = [found for found in done if self.final(found[1])]
        if settled:  # only a deeper proof replaces the main search's
            deeper_exact = [found for found in exact if found[0] > depth]
            return max(deeper_exact, key=lambda found: found[0]) if deeper_exact else None
        if exact:
            return max(exact, key=lambda found: found[0])
        deeper = [found for found in done if found[0] > depth]
        return max(deeper, key=lambda found: found[0]) if deeper else None

    @property
    def nodes(self) -> int:
        return sum(helper.nodes for helper in self.helpers)


def deepen(
    state: State,
    search: Deepening,
    seconds: float | None,
    maxdepth: int,
    agent: Agent,
    fallback: int,
    engine: str = "compiled",
    start: float | None = None,
    smp: LazySMP | None = None,
) -> tuple[int, SearchInfo]:
    """Iterative deepening of ``search`` within ``seconds``: ``(move, SearchInfo)``.

    ``fallback`` is played if not even depth 1 completes. ``start``: the
    ``time.perf_counter()`` moment the move's time began (default: now), so that
    the work an engine did before deepening (loading the position, a solve that
    did not finish) counts against the same deadline. ``smp``: helper threads
    (their roots set already) that deepen beside the main search over the whole
    move; a deeper iteration one of them completed is the answer.
    """
    deadline = Deadline(seconds, start)
    end = deadline_ns(deadline.end)
    move = fallback
    info = SearchInfo(depth=0, engine=engine, units=HEURISTIC_UNITS.note)
    settled = False
    if smp is not None:
        smp.begin(maxdepth, end, final)
    try:
        for depth in range(1, maxdepth + 1):
            if smp is not None:
                smp.main_depth = depth
            found = search.iterate(depth, end)
            if found is None:
                better = search.partial_best()
                if better is not None and info.depth:
                    move = better
                break
            move = found.move
            info.depth, info.value = depth, found.value
            info.root = rows_of(state, found, depth)
            settled = final(found)  # (before a listener's stop, which may end the loop)
            if agent.listener is not None and agent.report(
                partial(
                    SearchInfo,
                    deadline.elapsed(),
                    depth,
                    search.nodes + (smp.nodes if smp is not None else 0),
                    found.value,
                    info.root,
                    engine=engine,
                    units=HEURISTIC_UNITS.note,
                ),
                force=True,
            ):
                break
            if settled:
                break
    finally:
        if smp is not None:
            smp.finish(deadline.end)
    deeper = smp.deepest(info.depth, settled) if smp is not None else None
    if deeper is not None:  # a helper completed a deeper iteration: its answer
        depth, found = deeper
        move = found.move
        info.depth, info.value = depth, found.value
        info.root = rows_of(state, found, depth)
    info.nodes = search.nodes + (smp.nodes if smp is not None else 0)
    info.seconds = deadline.finish(getattr(search, "longest", 0) / 1e9)
    return move, info


@contextmanager
def node_budget(holder: Any, nodes: int | None) -> Iterator[bool]:
    """Within the block, ``holder.budget`` (the most nodes its search visits in a move) is
    ``nodes``, and the block is told whether there is one: a move of ``Limit(nodes=N)``,
    which the engines search on one thread and without their timed parts. Afterwards the
    budget is gone again (None), whatever the block raised."""
    if nodes is None:
        yield False
        return
    holder.budget = nodes
    try:
        yield True
    finally:
        holder.budget = None


def final(found: Iteration) -> bool:
    """Whether deeper iterations cannot change ``found``: a proven value, or no line
    reached the horizon (every one ended the game)."""
    return is_proven(found.value) or not found.horizon


def rows_of(state: State, found: Iteration, depth: int) -> list[dict[str, Any]]:
    """The report's root rows of an iteration, its best move's row with the line."""
    rows = value_rows(state, found.rows, depth)
    if rows:
        rows[0]["pv"] = [state.game.format_move(m) for m in found.pv]
    return rows
