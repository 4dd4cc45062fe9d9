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
"""A first guess at the cost of doubling the tree's arrays (then the slowest rate seen)."""
FIRST_BATCH = 4
"""Simulations in a timed search's first batch, before its speed is known."""


@cache
def _addresses(functions: tuple[tuple[str, Any], ...], simulation: str) -> np.ndarray:
    """The addresses of a kernel's functions as :func:`mcts_kernel.run` takes them."""
    return kf.addresses(dict(functions), (*mk.CALLED, simulation))


_PROOF = {int(p): p for p in Proof}


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
        self.buf = np.empty(kernel.max_moves, np.int64)
        self.path = np.empty(kernel.max_plies + 2, np.int64)
        self.report = np.zeros(mk.REPORT_SIZE, np.int64)
        self.sizes = np.zeros(2, np.int64)
        self._allocate(1 << 12, 1 << 14)
        self.grow_rate = GROW_SECONDS_PER_BYTE
        self.root_state: State | None = None
        self.root_s: np.ndarray | None = None
        self.root = 0
        self.root_moves: np.ndarray | None = None
        """The root's legal moves (listed when the search starts; None: not yet)."""

    def _allocate(self, nodes: int, edges: int) -> None:
        self.node = np.empty((nodes, mk.FIELDS), np.int64)
        self.wins = np.empty(nodes, np.float64)
        self.edge_move = np.empty(edges, np.int64)
        self.edge_child = np.empty(edges, np.int64)

    def _bytes(self) -> int:
        return self.node.nbytes + self.wins.nbytes + self.edge_move.nbytes + self.edge_child.nbytes

    def _grow(self) -> None:
        """Double whichever arrays are short of room for one more iteration."""
        used_nodes, used_edges = self.sizes
        room = self.kernel.max_moves + 1
        if used_nodes + room > len(self.node) // 2:
            self.node = np.concatenate([self.node, np.empty_like(self.node)])
            self.wins = np.concatenate([self.wins, np.empty_like(self.wins)])
        if used_edges + room > len(self.edge_move) // 2:
            self.edge_move = np.concatenate([self.edge_move, np.empty_like(self.edge_move)])
            self.edge_child = np.concatenate([self.edge_child, np.empty_like(self.edge_child)])

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
        self.root_s = self.kernel.encode(self.root_state)

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
        if self.root_state != state:
            self.root_state, self.root_s = state, self.kernel.encode(state)
            self.sizes[:] = 0
            self.root = mk.new_node(self.node, self.wins, self.sizes, ONGOING)
        k = self.kernel
        k.functions["seed"](self.rng.randrange(1 << 31))
        n_moves = k.functions["legal_moves"](k.params, self.root_s.copy(), self.buf)
        self.root_moves = self.buf[:n_moves].copy()
        self.report[mk.DEEPEST] = 0
        sims = 0
        if n_moves > 1:  # else nothing to decide
            sims = self._run(rollouts, deadline, progress)
        stats = self.root_stats()
        assert stats is not None
        pv = self._pv()
        return Searched(stats, sims, int(self.report[mk.DEEPEST]), pv, self.name)

    def _run(self, rollouts: float, deadline: Deadline, progress: Any = None) -> int:
        """Batches of simulations until the budget, the deadline or a proof stops them."""
        return self._batches(rollouts, deadline, progress, BATCH_SECONDS)

    def _batches(
        self, rollouts: float, deadline: Deadline, progress: Any, batch_seconds: float
    ) -> int:
        """:meth:`_run` with batches of about ``batch_seconds``."""
        timed = deadline.end != float("inf")
        batched = timed or progress is not None  # else one call does the whole budget
        left = int(min(rollouts, 1 << 62))
        batch = FIRST_BATCH if batched else left
        s, leaf = np.empty_like(self.root_s), np.empty_like(self.root_s)
        clock = time.perf_counter
        total = 0
        stop, longest_batch = batch_clock(self.report, deadline), 0.0
        while left > 0:
            start = clock()
            done = self._batch(s, leaf, min(batch, left))
            spent = clock() - start
            longest_batch = max(longest_batch, spent)
            total += done
            left -= done
            reason = self.report[mk.REASON]
            if reason == mk.FULL:
                # Doubling copies the whole tree (tens of ms for a big one): on the clock
                # only when the copy, at the slowest rate seen, ends before the deadline.
                cost = 2 * self.grow_rate * self._bytes()
                if timed and clock() + cost + deadline.longest >= stop:
                    break
                start = clock()
                self._grow()
                self.grow_rate = max(self.grow_rate, (clock() - start) / self._bytes())
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
