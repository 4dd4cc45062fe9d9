"""The compiled MCTS on several threads: one shared tree, or one tree per thread.

``mcts:threads=N`` searches with N threads of compiled code at once (numba
functions declared ``nogil``, called from N Python threads: the standard way
to run numba code in parallel over shared arrays). Two ways:

- :class:`SharedTreeSearch` (``parallel=tree``): every thread works on one tree
  (:mod:`~arena.search.mcts.shared_tree`: a lock around the walk down and the credit
  back up, the simulation outside it, a virtual loss that spreads the threads
  over different lines). Each simulation benefits from all the others, as in
  the serial search.
- :class:`RootParallelSearch` (``parallel=root``): every thread grows a tree of
  its own (any compiled engine, MC-RAVE included) and the roots' visits and
  wins are added up. No thread ever waits for another, but the trees repeat
  each other's work near the root.

``parallel=auto`` picks, per game, the one measured stronger at equal time:
:data:`TREE_GAMES` (none, so far: ``docs/speed.md``, Threads). With ``threads=1``
the serial engine runs exactly as before (same seed, same moves, same visits).

:func:`~arena.search.threads.default_threads` is what ``threads`` means when
not given: the cores this process may use less the other work the machine runs,
and 1 in a game played beside others (``--jobs``).

Tests: ``tests/search/test_mcts_threads.py``.
"""

from __future__ import annotations

import math
import random
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from typing import Any

import numpy as np
from numba import config

from arena.core.game import State
from arena.core.kernel import Kernel
from arena.search.atomics import private_array
from arena.search.clock.deadline import Deadline
from arena.search.mcts import entry as me
from arena.search.mcts import kernel as mk
from arena.search.mcts import shared_tree as ms
from arena.search.mcts.driver import FastSearch, owned
from arena.search.mcts.options import MCTSOptions
from arena.search.mcts.rave_driver import engine as serial_engine
from arena.search.mcts.root import RootStats, Searched
from arena.search.mcts.tree import Proof
from arena.search.threads import default_threads

TREE_GAMES: frozenset[str] = frozenset()
"""Games whose ``parallel=auto`` is the shared tree: none. With the cores free, a tree per
thread searched 1.71-1.92x one thread's simulations a second on every game, the shared
tree 0.69-1.66x; and at the simulations each makes in equal time (fixed budgets in that
ratio, so the machine's load does not decide), the trees per thread scored 56% against
the shared tree on Othello, 62% on Gomoku and 50% on Go 9x9 over 40 games each. A
paused thread also holds no lock the other waits for. ``docs/speed.md`` (Threads) has
the figures."""

SHARED_BATCH_SECONDS = 0.002
"""A shared-tree batch's length: the threads start and join once per batch."""
HELPER_BATCH_SECONDS = 0.001
"""A helper's batch in a tree per thread: no listener reads it, and each batch takes the
GIL between two calls (a helper the system pauses while holding it keeps the answering
thread waiting), so it takes longer ones than the answering thread's
(:data:`~arena.search.mcts.driver.BATCH_SECONDS`); short enough that a stop() reaches
it within :data:`GRACE`."""
GRACE = 0.002
"""How long past its stop moment a timed search waits for a helper thread. A helper the
operating system has paused (a loaded machine) is left to finish on its own: the answer
goes without its last work, and the next search (or tree reuse) waits for it first."""


def joined(future: Future[Any], stop: float) -> tuple[bool, Any]:
    """``(True, result)`` of a helper's call, or ``(False, None)`` when it has not ended
    :data:`GRACE` after ``stop`` (a ``time.perf_counter`` moment; infinite: wait)."""
    if stop == float("inf"):
        return True, future.result()
    try:
        return True, future.result(timeout=max(0.0, stop - time.perf_counter()) + GRACE)
    except TimeoutError:
        return False, None


class _Pool:
    """Worker threads for the helpers of one engine (the calling thread is the first)."""

    def __init__(self, helpers: int) -> None:
        self.executor = ThreadPoolExecutor(helpers, thread_name_prefix="arena-search")
        # Start the threads now, off the clock (an executor starts them at its first calls).
        for future in [self.executor.submit(int) for _ in range(helpers)]:
            future.result()

    def start(self, calls: list[Any]) -> list[Future[Any]]:
        return [self.executor.submit(call) for call in calls]


class SharedTreeSearch(FastSearch):
    """The compiled engine with ``threads`` threads on one tree (tree parallelism)."""

    kind = "tree"
    batch_seconds = SHARED_BATCH_SECONDS

    def __init__(
        self, options: MCTSOptions, kernel: Kernel, rng: random.Random, threads: int
    ) -> None:
        super().__init__(options, kernel, rng)
        self.threads = threads
        self.shared = ms.search if config.DISABLE_JIT else ms.run
        width = kernel.max_moves
        # Each thread's arrays (and the shared control) on cache lines of their own.
        self.scratch = [
            (
                private_array(width),  # buf
                private_array(2 * width),  # added edges, then their results
                private_array(kernel.max_plies + 2),  # path
                private_array(mk.REPORT_SIZE),
            )
            for _ in range(threads)
        ]
        self.positions: list[tuple[np.ndarray, np.ndarray]] = []
        """The helpers' positions (``s`` and ``leaf``; the first thread's are the driver's)."""
        self.control = private_array(ms.CONTROL_SIZE)
        self.pool = _Pool(threads - 1)
        self.seeded = False
        self.shares = [0] * threads
        """The simulations each thread did in the last search."""
        self.stragglers: list[Future[Any]] = []
        """Helpers a timed search did not wait for (see :data:`GRACE`)."""
        self.deadline = Deadline(None)

    def settle(self) -> None:
        """Wait for the helpers a search left running (told to stop: they end at once)."""
        for future in self.stragglers:
            future.result()
        self.stragglers = []

    def search(
        self, state: State, rollouts: float, deadline: Deadline, progress: Any = None
    ) -> Searched:
        self.settle()
        self.seeded = False  # each thread's generator is seeded from the agent's at a search
        self.shares = [0] * self.threads
        self.deadline = deadline
        return super().search(state, rollouts, deadline, progress)

    def observe(self, state: State, move: int) -> None:
        self.settle()
        super().observe(state, move)

    def reset(self) -> None:
        self.settle()
        super().reset()

    def _batch(self, s: np.ndarray, leaf: np.ndarray, sims: int, flags: int = 0) -> int:
        """One batch on every thread: ``sims`` simulations shared out (the root opened and
        read as ``flags`` say, by the serial engine's compiled entry)."""
        if flags & ~me.READ:  # seed, a new tree, the root's moves
            self._entry(0, flags & ~me.READ)
        done = self._shared_batch(s, leaf, sims)
        if flags & me.READ:
            self._entry(0, me.READ)
        return done

    def _shared_batch(self, s: np.ndarray, leaf: np.ndarray, sims: int) -> int:
        if self.options.solver and ms.root_proven(self.node, self.edge_child, self.root):
            self.report[mk.DONE], self.report[mk.REASON] = 0, mk.PROVEN
            return 0
        control = self.control
        control[:] = (0, sims, mk.BUDGET, self.report[mk.UNTIL])
        seeds = [self.rng.randrange(1 << 31) if not self.seeded else -1 for _ in self.scratch]
        self.seeded = True
        calls = [self._worker(i, seeds[i], s, leaf) for i in range(self.threads)]
        started = time.perf_counter()
        running = self.pool.start(calls[1:])
        done = calls[0]()
        late = False
        for i, future in enumerate(running, 1):
            ended, helped = joined(future, self.deadline.end)
            if ended:
                done += helped
                self.shares[i] += helped
            else:  # paused by the system: stop it, answer without it (its tree stays valid)
                control[ms.HALT] = mk.TIME
                self.stragglers.append(future)
                late = True
        self.shares[0] += int(self.scratch[0][3][mk.DONE])
        reports = [scratch[3] for scratch in self.scratch]
        self.report[mk.DEEPEST] = max(self.report[mk.DEEPEST], *(r[mk.DEEPEST] for r in reports))
        reason = int(control[ms.HALT])
        if reason == mk.BUDGET and any(r[mk.REASON] == mk.TIME for r in reports):
            reason = mk.TIME
        if late:
            reason = mk.TIME
        self.report[mk.REASON] = reason
        self.report[mk.DONE] = done
        # The threads' time in compiled code, as one batch's (their hand-over included).
        self.report[mk.SPENT] += int((time.perf_counter() - started) * 1e9)
        return done

    def _worker(self, i: int, seed: int, s: np.ndarray, leaf: np.ndarray) -> Any:
        o, k = self.options, self.kernel
        buf, added, path, report = self.scratch[i]
        if i:  # the helpers' own positions, made once
            while len(self.positions) < i:
                self.positions.append((owned(s), owned(leaf)))
            s, leaf = self.positions[i - 1]
        report[mk.DEEPEST] = 0
        functions = self.functions if not config.DISABLE_JIT else ()
        simulation = () if not config.DISABLE_JIT else self.plain

        def call() -> int:
            done = self.shared(
                *functions, *simulation,
                k.params, self.root_s, s, leaf, buf, added,
                self.node, self.wins, self.edge_move, self.edge_child, self.sizes, path,
                self.root, self.policy, float(o.c), float(o.eps),
                bool(o.expand_all), bool(o.solver), seed, self.control, report,
            )  # fmt: skip
            return int(done)

        return call

    @property
    def plain(self) -> tuple[Any, ...]:
        """The kernel's functions themselves (``NUMBA_DISABLE_JIT``)."""
        f = self.kernel.functions
        return (*(f[n] for n in mk.CALLED), self.functions[0])


class RootParallelSearch:
    """``threads`` compiled engines, one tree each, searched at once; their roots added up."""

    kind = "root"

    def __init__(
        self, options: MCTSOptions, kernel: Kernel, rng: random.Random, threads: int
    ) -> None:
        self.threads = threads
        self.name = "fast"
        self.rng = rng
        self.kernel = kernel
        """The kernel every tree searches with (one params array: one komi for all)."""
        # Each tree draws from its own generator, seeded from the agent's.
        self.engines = [serial_engine(options, kernel, rng)] + [
            serial_engine(options, kernel, random.Random(rng.randrange(1 << 31)))
            for _ in range(threads - 1)
        ]
        for helper in self.engines[1:]:
            helper.batch_seconds = HELPER_BATCH_SECONDS
        self.pool = _Pool(threads - 1)
        self.searched: list[tuple[int, int]] = []
        """Simulations and depth of each tree the last search added up."""
        self.first: Searched | None = None
        self.merged = list(self.engines)
        """The engines whose trees the last search added up (a helper the system paused
        past the deadline is left out, :data:`GRACE`)."""
        self.stragglers: list[Future[Any]] = []

    def settle(self) -> None:
        """Wait for the helpers a search left running (told to stop: they end at once)."""
        for future in self.stragglers:
            future.result()
        self.stragglers = []
        self.merged = list(self.engines)

    def warm(self, state: State, everything: bool = True) -> None:
        self.engines[0].warm(state, everything)

    def reset(self) -> None:
        self.settle()
        for engine in self.engines:
            engine.reset()

    def observe(self, state: State, move: int) -> None:
        self.settle()
        for engine in self.engines:
            engine.observe(state, move)

    def search(
        self, state: State, rollouts: float, deadline: Deadline, progress: Any = None
    ) -> Searched:
        self.settle()
        first, helpers = self.engines[0], self.engines[1:]
        share = rollouts if math.isinf(rollouts) else max(1, int(rollouts) // self.threads)
        # The helpers keep their own copy of the deadline (a Deadline records its units).
        copies = [Deadline(None) for _ in helpers]
        for copy in copies:
            copy.start, copy.end, copy.last = deadline.start, deadline.end, deadline.last
        # A helper only simulates: its Python after the deadline (the root's statistics, the
        # best line) would compete for the GIL with the answer's; the merge reads its root.
        running = self.pool.start(
            [
                (lambda e=engine, d=copy: e.simulate(state, share, d))
                for engine, copy in zip(helpers, copies, strict=True)
            ]
        )
        rest = rollouts if math.isinf(rollouts) else int(rollouts) - share * len(helpers)

        told: list[bool] = []  # a listener stopped the search

        def everyone(simulations: int) -> bool:
            told.append(progress is not None and progress(simulations * self.threads))
            return told[-1]

        shared = False  # the first tree did its share of a budget: the helpers do theirs
        try:
            found = first.search(state, rest, deadline, everyone if progress else None)
            shared = found.simulations >= rest and not any(told)
        finally:
            # Stopped early (the clock, stop(), a listener, a proof, an error): the helpers
            # end too, at their batch under way (a fraction of a ms).
            if deadline.end != float("inf") and not shared:
                for copy in copies:
                    copy.stop()
        self.first, self.merged = found, [first]
        self.searched = [(found.simulations, found.depth)]
        for engine, future in zip(helpers, running, strict=True):
            ended, helped = joined(future, deadline.end)
            if ended:
                self.searched.append((helped, int(engine.report[mk.DEEPEST])))
                self.merged.append(engine)
            else:
                self.stragglers.append(future)
        return self._merged()

    def _merged(self) -> Searched:
        stats = self.root_stats()
        assert stats is not None and self.first is not None
        return Searched(
            stats,
            sum(sims for sims, _ in self.searched),
            max(depth for _, depth in self.searched),
            self.first.pv,
            self.name,
        )

    def snapshot(self, simulations: int) -> Searched:
        found = self.engines[0].snapshot(simulations)
        return Searched(found.stats, simulations, found.depth, found.pv, self.name)

    def root_stats(self) -> RootStats | None:
        """Every tree's root added up (moves in legal order in each)."""
        all_stats = [engine.root_stats() for engine in self.merged]
        if any(stats is None for stats in all_stats):
            return all_stats[0]
        first = all_stats[0]
        assert first is not None
        visits = np.sum([s.visits for s in all_stats], axis=0)  # type: ignore[union-attr]
        wins = np.sum([s.wins for s in all_stats], axis=0)  # type: ignore[union-attr]
        proven = list(first.proven)
        for stats in all_stats[1:]:
            assert stats is not None
            for i, q in enumerate(stats.proven):
                if q != Proof.UNKNOWN:
                    proven[i] = q  # a proof is exact: every tree that has one agrees
        at_once = next((s.wins_at_once for s in all_stats if s and s.wins_at_once), None)
        return RootStats(
            first.moves,
            visits.tolist(),
            wins.tolist(),
            proven,
            sum(s.total for s in all_stats if s),
            at_once,
        )


def resolved(options: MCTSOptions, kernel: Kernel) -> MCTSOptions:
    """``options`` with ``threads`` a number (:func:`default_threads` when not given) and
    ``parallel`` the kind that runs (``tree`` or ``root``; RAVE grows a tree per thread)."""
    # A seeded search is reproducible: one thread unless threads= says otherwise.
    threads = options.threads or (1 if options.seed is not None else default_threads())
    parallel = options.parallel
    if parallel == "auto":
        parallel = "tree" if kernel.name.split(":")[0] in TREE_GAMES else "root"
    if options.rave:
        parallel = "root"
    return replace(options, threads=threads, parallel=parallel)


def kind(options: MCTSOptions) -> str:
    """Which compiled search resolved ``options`` run: ``serial``, ``tree`` or ``root``."""
    return "serial" if (options.threads or 1) <= 1 else options.parallel


def engine(options: MCTSOptions, kernel: Kernel, rng: random.Random) -> Any:
    """The compiled engine for ``options``: the serial one with one thread, else the shared
    tree or one tree per thread (``parallel``)."""
    options = resolved(options, kernel)
    threads = options.threads or 1
    if kind(options) == "serial":
        return serial_engine(options, kernel, rng)
    if kind(options) == "tree":
        return SharedTreeSearch(options, kernel, rng, threads)
    return RootParallelSearch(options, kernel, rng, threads)
