"""The compiled MCTS engine: :mod:`~arena.search.mcts.kernel` driven in short batches.

:class:`FastSearch` answers like the reference :class:`~arena.search.mcts.agent.TreeSearch`
(same options, same :class:`~arena.search.mcts.root.RootStats`), but its tree
is arrays and its iterations run in compiled code, over the game's kernel
(``games/<game>/kernel.py``).

The clock (:mod:`~arena.search.mcts.batch_clock`): simulations run in batches, each
sized from the speed measured so far to last about :data:`BATCH_SECONDS` (well
under a millisecond); the compiled code reads a monotonic clock every few
simulations and ends a batch when the search's stop moment passes (the
deadline less a reserve for the pauses this process has lately suffered,
:mod:`~arena.search.clock.pauses`), and Python checks between batches. A search with
only a simulation budget runs in one call.

The kernel's functions reach the compiled search as addresses looked up once
per kernel (:mod:`~arena.search.mcts.kernel_functions`), so a batch call costs
about two microseconds of Python.

The tree's arrays start small and grow when a batch finds them full
(:func:`grown`): to what the rest of the search will need at the rate it adds
nodes and edges (at least double, at most :data:`MOST_GROWTH` times), so a
search grows them once or twice, early, while they are small to copy, instead
of doubling a dozen times; only the part in use is copied, and the rest is
touched by the compiled code as it fills it. Every array a batch writes is the
engine's own to the cache line (:func:`~arena.search.atomics.private_array`),
so engines on several threads (:mod:`~arena.search.mcts.parallel`) never write
each other's lines.

Tests: ``tests/search/test_fast_mcts.py``.
"""

from __future__ import annotations

import random
import time
from functools import cache, partial
from typing import Any

import numpy as np
from numba import config

from arena.core.game import State
from arena.core.kernel import ONGOING, Kernel
from arena.search.atomics import private_array
from arena.search.clock.deadline import Deadline
from arena.search.clock.pauses import PAUSES
from arena.search.mcts import kernel as mk
from arena.search.mcts import kernel_functions as kf
from arena.search.mcts import root_arrays as ra
from arena.search.mcts.batch_clock import batch_clock, stop_between_batches
from arena.search.mcts.options import MCTSOptions
from arena.search.mcts.root import RootStats, Searched
from arena.search.mcts.tree import Proof

BATCH_SECONDS = 0.0003
"""The time one batch of simulations should take between two reads of the clock."""
GROW_SECONDS_PER_BYTE = 2e-9
"""A first guess at the cost of growing the tree's arrays, per byte of the old ones (then
the slowest rate seen)."""
MOST_GROWTH = 16
"""The largest factor one growth of the tree's arrays takes (an estimate made early in a long
search asks for address space long before it is used)."""
FIRST_BATCH = 4
"""Simulations in a timed search's first batch, before its speed is known."""


@cache
def _addresses(functions: tuple[tuple[str, Any], ...], simulation: str) -> np.ndarray:
    """The addresses of a kernel's functions as :func:`mcts_kernel.run` takes them."""
    return kf.addresses(dict(functions), (*mk.CALLED, simulation))


_PROOF = {int(p): p for p in Proof}


def grown(capacity: int, used: int, room: int, more: float) -> int:
    """The new length of an array with ``used`` of its ``capacity`` taken, ``room`` needed
    for the next iteration and about ``more`` expected by the end of the search: at least
    double, enough for the estimate and a quarter more, at most :data:`MOST_GROWTH` times.

    >>> grown(4096, 4090, 8, 0.0), grown(4096, 4090, 8, 20_000), grown(4096, 4090, 8, 1e12)
    (8192, 29098, 65536)
    """
    wanted = used + room + int(1.25 * more)
    return int(min(max(2 * capacity, wanted), MOST_GROWTH * capacity))


def resized(array: np.ndarray, length: int, used: int) -> np.ndarray:
    """``array`` with ``length`` rows, its first ``used`` kept (the others left as found)."""
    if length == len(array):
        return array
    new = private_array((length, *array.shape[1:]), array.dtype, zero=False)
    new[:used] = array[:used]
    return new  # type: ignore[no-any-return]


def owned(array: np.ndarray) -> np.ndarray:
    """A copy of ``array`` on cache lines of its own."""
    copy = private_array(array.shape, array.dtype, zero=False)
    copy[...] = array
    return copy  # type: ignore[no-any-return]


def simulation_of(options: MCTSOptions, kernel: Kernel) -> str:
    """The kernel function that plays the simulations: ``playout`` (uniform), ``rollout``
    (the cheap policy) or ``tactics`` (the game's tactical policy, its cheap one where it
    has none)."""
    if options.rollout == "tactics" and "tactics" in kernel.functions:
        return "tactics"
    return "rollout" if options.rollout in ("cheap", "tactics") else "playout"


class FastSearch:
    """The compiled engine for one game's kernel."""

    name = "fast"
    kind = "serial"
    """How its threads search (:mod:`~arena.search.mcts.parallel`: ``tree``, ``root``)."""
    threads = 1
    batch_seconds = BATCH_SECONDS
    """How long a batch should take (a helper thread of a tree per thread takes longer ones:
    :data:`~arena.search.mcts.parallel.HELPER_BATCH_SECONDS`)."""
    SIMULATIONS: tuple[str, ...] = ("playout", "rollout")
    """The simulations ``warm(everything=True)`` loads (those of ``rollout=random|cheap``)."""

    def __init__(self, options: MCTSOptions, kernel: Kernel, rng: random.Random) -> None:
        self.options, self.kernel, self.rng = options, kernel, rng
        simulation = simulation_of(options, kernel)
        if config.DISABLE_JIT:  # plain Python: the functions themselves
            self.run = partial(mk.search, *(kernel.functions[n] for n in mk.CALLED))
            self.functions: tuple[Any, ...] = (kernel.functions[simulation],)
        else:
            self.run = mk.run
            self.functions = (_addresses(tuple(sorted(kernel.functions.items())), simulation),)
        self.policy = mk.UCT if options.tree == "uct" else mk.EGREEDY
        self.buf = private_array(kernel.max_moves)
        self.path = private_array(kernel.max_plies + 2)
        self.report = private_array(mk.REPORT_SIZE)
        self.sizes = private_array(2)
        self._allocate(1 << 12, 1 << 14)
        self.grow_rate = GROW_SECONDS_PER_BYTE
        self.root_state: State | None = None
        self.root_s: np.ndarray | None = None
        self.root = 0
        self.root_moves: np.ndarray | None = None
        """The root's legal moves (listed when the search starts; None: not yet)."""
        self.kernel_seconds = 0.0
        """The seconds the last search spent inside compiled code (its batches as the
        compiled code timed them): the rest of a move is its fixed cost."""

    def _allocate(self, nodes: int, edges: int) -> None:
        self.node = private_array((nodes, mk.FIELDS), np.int64, zero=False)
        self.wins = private_array(nodes, np.float64, zero=False)
        self.edge_move = private_array(edges, np.int64, zero=False)
        self.edge_child = private_array(edges, np.int64, zero=False)

    def _bytes(self) -> int:
        return self.node.nbytes + self.wins.nbytes + self.edge_move.nbytes + self.edge_child.nbytes

    def _room(self, added: np.ndarray, more: float) -> tuple[int, int]:
        """The lengths the tree's arrays grow to (:func:`grown`) for a search that has
        ``added`` nodes and edges so far and ``more`` times as many still to add; an array
        with room for the next iteration keeps its length."""
        room = self.kernel.max_moves + 1
        lengths = []
        for used, capacity, new in zip(
            self.sizes.tolist(), (len(self.node), len(self.edge_move)), added.tolist()
        ):
            short = used + room > capacity
            lengths.append(grown(capacity, used, room, new * more) if short else capacity)
        return lengths[0], lengths[1]

    def _grow(self, nodes: int, edges: int) -> None:
        """The tree's arrays at ``nodes`` and ``edges`` rows (the parts in use copied)."""
        used_nodes, used_edges = self.sizes.tolist()
        self.node = resized(self.node, nodes, used_nodes)
        self.wins = resized(self.wins, nodes, used_nodes)
        self.edge_move = resized(self.edge_move, edges, used_edges)
        self.edge_child = resized(self.edge_child, edges, used_edges)

    def warm(self, state: State, everything: bool = True) -> None:
        """Compile (or load from the disk cache) everything a search of ``state`` runs: for
        both simulations (``playout`` and ``rollout``) and tree reuse, or with
        ``everything=False`` only what this engine's options use."""
        if not config.DISABLE_JIT and everything:
            for simulation in self.SIMULATIONS:
                if simulation in self.kernel.functions:
                    self._load(simulation)
        self.search(state, 2, Deadline(None))
        if everything or self.options.reuse:
            self._compact(self.root)
        self.reset()

    def _load(self, simulation: str) -> None:
        """Compile (or load) the search with ``simulation`` as its simulation."""
        _addresses(tuple(sorted(self.kernel.functions.items())), simulation)

    def reset(self) -> None:
        self.root_state = None
        self.root_moves = None

    def observe(self, state: State, move: int) -> None:
        """Keep the subtree of ``move`` (reuse=1), copied to the front of new arrays."""
        self.root_moves = None
        if not self.options.reuse or self.root_state != state:
            self.root_state = None
            return
        child = self._child(self.root, move)
        if child < 0:
            self.root_state = None
            return
        self.sizes[:] = self._compact(child)
        self.root = 0
        self.root_state = state.play(move)
        self.root_s = owned(self.kernel.encode(self.root_state))

    def _compact(self, child: int) -> tuple[int, int]:
        """Copy the subtree of ``child`` to the front of new arrays; return its sizes."""
        nodes, edges, _ = self._copy_subtree(child)
        return nodes, edges

    def _copy_subtree(self, child: int) -> tuple[int, int, np.ndarray]:
        """:meth:`_compact`'s copy, with ``origin``: the old index of each kept edge."""
        old = (self.node, self.wins, self.edge_move, self.edge_child)
        self._allocate(len(self.node), len(self.edge_move))
        origin = np.empty(len(self.edge_move), np.int64)
        nodes, edges = mk.compact(
            *old, child, self.node, self.wins, self.edge_move, self.edge_child, origin
        )
        return int(nodes), int(edges), origin

    def _child(self, x: int, move: int) -> int:
        first, tried = self.node[x, mk.FIRST], self.node[x, mk.TRIED]
        if first < 0:
            return -1
        for e in range(first, first + tried):
            if self.edge_move[e] == move:
                return int(self.edge_child[e])
        return -1

    def snapshot(self, simulations: int) -> Searched:
        """The search so far (for a listener)."""
        stats = self.root_stats()
        assert stats is not None
        return Searched(stats, simulations, int(self.report[mk.DEEPEST]), self._pv(), self.name)

    def search(
        self, state: State, rollouts: float, deadline: Deadline, progress: Any = None
    ) -> Searched:
        sims = self.simulate(state, rollouts, deadline, progress)
        stats = self.root_stats()
        assert stats is not None
        pv = self._pv()
        return Searched(stats, sims, int(self.report[mk.DEEPEST]), pv, self.name)

    def simulate(
        self, state: State, rollouts: float, deadline: Deadline, progress: Any = None
    ) -> int:
        """:meth:`search` without its report: the simulations run (what a helper thread
        does; the thread that adds the trees up reads their roots, after the deadline)."""
        if self.root_state != state:
            self.root_state, self.root_s = state, owned(self.kernel.encode(state))
            self.sizes[:] = 0
            self.root = mk.new_node(self.node, self.wins, self.sizes, ONGOING)
        k = self.kernel
        k.functions["seed"](self.rng.randrange(1 << 31))
        n_moves = k.functions["legal_moves"](k.params, self.root_s.copy(), self.buf)
        self.root_moves = self.buf[:n_moves].copy()
        self.report[mk.DEEPEST] = 0
        self.kernel_seconds = 0.0
        sims = 0
        if n_moves > 1:  # else nothing to decide
            sims = self._run(rollouts, deadline, progress)
        return sims

    def _run(self, rollouts: float, deadline: Deadline, progress: Any = None) -> int:
        """Batches of simulations until the budget, the deadline or a proof stops them."""
        return self._batches(rollouts, deadline, progress, self.batch_seconds)

    def _batches(
        self, rollouts: float, deadline: Deadline, progress: Any, batch_seconds: float
    ) -> int:
        """:meth:`_run` with batches of about ``batch_seconds``."""
        timed = deadline.end != float("inf")
        batched = timed or progress is not None  # else one call does the whole budget
        left = int(min(rollouts, 1 << 62))
        budgeted = left < 1 << 62
        batch = FIRST_BATCH if batched else left
        s, leaf = owned(self.root_s), owned(self.root_s)
        clock = time.perf_counter
        total = 0
        stop, longest_batch = batch_clock(self.report, deadline), 0.0
        began, sizes_then = clock(), self.sizes.copy()
        while left > 0:
            self.report[mk.SPENT] = 0
            start = clock()
            done = self._batch(s, leaf, min(batch, left))
            spent = clock() - start
            self.kernel_seconds += self.report[mk.SPENT] * 1e-9
            longest_batch = max(longest_batch, spent)
            total += done
            left -= done
            reason = self.report[mk.REASON]
            if reason == mk.FULL:
                # Growing copies the tree (tens of ms for a big one): on the clock only
                # when the copy, at the slowest rate seen, ends before the deadline.
                now, old = clock(), self._bytes()
                if timed and now + self.grow_rate * old + deadline.longest >= stop:
                    break
                # What the rest of the search adds, as a multiple of what it added so far.
                more = float(left) / max(total, 1) if budgeted else 0.0
                if timed:
                    by_time = (stop - now) / max(now - began, 1e-4)
                    more = min(more, by_time) if budgeted else by_time
                added = self.sizes - sizes_then
                try:
                    self._grow(*self._room(added, more))
                except MemoryError:  # no room for the estimate: the least growth, or stop
                    try:
                        self._grow(*self._room(added, 0.0))
                    except MemoryError:
                        break
                self.grow_rate = max(self.grow_rate, (clock() - now) / old)
            elif reason != mk.BUDGET:
                break  # the root is proven, or nothing is left to sample
            if progress is not None and progress(total):
                break
            if batched:
                if stop_between_batches(deadline, stop):
                    break
                if done:
                    batch = max(1, int(done * batch_seconds / max(spent, 1e-7)))
        if timed:
            PAUSES.seen(longest_batch)
        return total

    def _batch(self, s: np.ndarray, leaf: np.ndarray, sims: int) -> int:
        """One call of the compiled search: up to ``sims`` simulations."""
        o, k = self.options, self.kernel
        done = self.run(
            *self.functions,
            k.params, self.root_s, s, leaf, self.buf,
            self.node, self.wins, self.edge_move, self.edge_child, self.sizes, self.path,
            self.root, sims, self.policy, float(o.c), float(o.eps),
            bool(o.expand_all), bool(o.solver),
            self.report,
        )  # fmt: skip
        return int(done)

    def root_stats(self) -> RootStats | None:
        """The root's moves in legal-move order with their statistics (read in one compiled
        call, :mod:`~arena.search.mcts.root_arrays`: this runs on the clock)."""
        if self.root_state is None or self.root_s is None:
            return None
        moves = self.root_moves
        if moves is None:
            k = self.kernel
            n = k.functions["legal_moves"](k.params, self.root_s.copy(), self.buf)
            moves = self.root_moves = self.buf[:n].copy()
        n = len(moves)
        visits = np.zeros(n, np.int64)
        wins = np.zeros(n, np.float64)
        proven = np.zeros(n, np.int64)
        at_once = ra.root_children(
            self.node, self.wins, self.edge_move, self.edge_child, self.root,
            moves, visits, wins, proven,
        )  # fmt: skip
        return RootStats(
            moves.tolist(),
            visits.tolist(),
            wins.tolist(),
            [_PROOF[q] for q in proven.tolist()] if proven.any() else [Proof.UNKNOWN] * n,
            int(self.node[self.root, mk.VISITS]),
            int(moves[at_once]) if at_once >= 0 else None,
        )

    def _pv(self, length: int = 12) -> list[int]:
        """The most visited line from the root."""
        line = np.empty(length, np.int64)
        n = ra.principal_line(self.node, self.edge_move, self.edge_child, self.root, line)
        return line[:n].tolist()  # type: ignore[no-any-return]
