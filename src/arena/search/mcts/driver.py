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
from numba import config, typeof

from arena.core.game import State
from arena.core.kernel import Kernel
from arena.search.atomics import LINE, private_array
from arena.search.clock.deadline import Deadline
from arena.search.clock.pauses import PAUSES
from arena.search.mcts import entry as me
from arena.search.mcts import kernel as mk
from arena.search.mcts import kernel_functions as kf
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
PV_LENGTH = 12
"""The longest principal variation a search reports."""
INF = float("inf")
LOGS = 1 << 15
"""Visit counts whose logs an engine remembers (256 KB)."""


@cache
def _addresses(functions: tuple[tuple[str, Any], ...], simulation: str) -> np.ndarray:
    """The addresses of a kernel's functions as :func:`mcts_kernel.run` takes them, then
    ``decode``'s as :func:`~arena.search.mcts.entry.run` takes it (zeros where the kernel has
    none)."""
    found = dict(functions)
    called = kf.addresses(found, (*mk.CALLED, simulation))
    decode = kf.addresses(found, ("decode",)) if "decode" in found else np.zeros(2, np.int64)
    return np.concatenate([called, decode])


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


def sections(*lengths: int) -> tuple[np.ndarray, list[np.ndarray]]:
    """One int64 array on cache lines of its own holding sections of ``lengths``, each
    starting on a line of its own: the block and the sections (views of it). A move reads the
    block with one ``tolist`` where it read each section with a slice and a ``tolist``.

    >>> block, (a, b) = sections(3, 20)
    >>> block.shape, a.shape, b.shape, b.ctypes.data - a.ctypes.data
    ((48,), (3,), (20,), 128)
    """
    per_line = LINE // 8
    starts, at = [], 0
    for length in lengths:
        starts.append(at)
        at += -(-length // per_line) * per_line
    block = private_array(at)
    return block, [block[start : start + n] for start, n in zip(starts, lengths)]


def next_seed(rng: random.Random) -> int:
    """``rng.randrange(1 << 31)``, drawn as it draws it (the same seeds) in fewer Python
    steps: rejection sampling of 32 random bits.

    >>> a, b = random.Random(7), random.Random(7)
    >>> [next_seed(a) for _ in range(300)] == [b.randrange(1 << 31) for _ in range(300)]
    True
    """
    draw = rng.getrandbits
    r = draw(32)
    while r >= 1 << 31:
        r = draw(32)
    return r


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


def compiled_entry(dispatcher: Any, args: tuple[Any, ...]) -> Any:
    """The compiled code ``dispatcher`` runs for ``args`` (it has run them once), called
    directly: numba's dispatch types each of a call's 27 arguments to pick the code, 10 µs of
    a move once the caches are cold, for an engine whose arguments keep their types (arrays
    of fixed types, Python ints, floats and bools). The dispatcher where it has no such code.
    """
    compiled = dispatcher.overloads.get(tuple(typeof(a) for a in args))
    return dispatcher if compiled is None else compiled.entry_point


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
            called = (*(kernel.functions[n] for n in mk.CALLED), kernel.functions[simulation])
            self.run = partial(mk.search, *called[:-1])
            self.functions: tuple[Any, ...] = called[-1:]
            self.entry = partial(me.move, *called, kernel.functions.get("decode"))
            self.entry_functions: tuple[Any, ...] = ()
        else:
            self.run = mk.run
            self.functions = (_addresses(tuple(sorted(kernel.functions.items())), simulation),)
            self.entry, self.entry_functions = me.run, self.functions
        """``entry``: a whole move in one compiled call (:mod:`~arena.search.mcts.entry`);
        ``run``: the search alone, for engines with compiled searches of their own."""
        self.policy = mk.UCT if options.tree == "uct" else mk.EGREEDY
        self.c, self.eps = float(options.c), float(options.eps)
        self.expand_all, self.solver = bool(options.expand_all), bool(options.solver)
        self.buf = private_array(kernel.max_moves)
        self.path = private_array(kernel.max_plies + 2)
        self.report = private_array(me.REPORT_SIZE)
        self.sizes = private_array(2)
        # What a move reads from its root, allocated once (a move allocates no arrays); the
        # int64 parts in one block, read with one ``tolist``.
        m = kernel.max_moves
        self.root_block, parts = sections(m, m, m, PV_LENGTH)
        self.root_moves, self.root_visits, self.root_proven, self.root_line = parts
        self._at = [int(a.ctypes.data - self.root_block.ctypes.data) // 8 for a in parts]
        """Where each section starts in the block."""
        self.root_won = private_array(m, np.float64)
        self.logs = private_array(LOGS, np.float64)
        """The logs of visit counts the search has taken (0.0: not yet; :func:`~arena.search.
        mcts.kernel.log_of`), kept from move to move."""
        self.read_report: list[int] | None = None
        """The report as the last call that read the root left it (a list), None when a
        later call changed it."""
        self.s = self.leaf = np.empty(0, np.int64)
        """The positions a batch plays on (sized by the first position encoded)."""
        self.seed = 0
        """The seed of the search under way (drawn from ``rng`` as it starts)."""
        self.words = (0, 0, 0, 0)
        """The root position as ``Kernel.words`` gave it, for the compiled call that writes
        it into ``root_s`` (:data:`~arena.search.mcts.entry.DECODE`)."""
        self._allocate(1 << 12, 1 << 14)
        self.grow_rate = GROW_SECONDS_PER_BYTE
        self.root_state: State | None = None
        self.root_s: np.ndarray | None = None
        self.root = 0
        self.listed = False
        """Whether ``moves`` holds the root's legal moves (listed as a search starts)."""
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

    def _room(self, added: list[int], more: float) -> tuple[int, int]:
        """The lengths the tree's arrays grow to (:func:`grown`) for a search that has
        ``added`` nodes and edges so far and ``more`` times as many still to add; an array
        with room for the next iteration keeps its length."""
        room = self.kernel.max_moves + 1
        lengths = []
        for used, capacity, new in zip(
            self.sizes.tolist(), (len(self.node), len(self.edge_move)), added
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
        self.listed = False

    def observe(self, state: State, move: int) -> None:
        """Keep the subtree of ``move`` (reuse=1), copied to the front of new arrays."""
        self.listed = False
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
        self.root_s = self._encoded(self.root_state)

    def _encoded(self, state: State) -> np.ndarray:
        """``state`` encoded into the engine's root array, which is made once, on cache lines
        of its own (:func:`owned`), and written over by each new root: a fresh array (the
        allocation alone cost 150-300 µs of a move once a collection or the opponent's move
        had left the caches cold) only when a position's length changes."""
        encoded = self.kernel.encode(state)
        root_s = self.root_s
        if root_s is None or root_s.shape != encoded.shape:
            return owned(encoded)
        root_s[:] = encoded
        return root_s

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
        self._read()
        return self._searched(simulations)

    def search(
        self, state: State, rollouts: float, deadline: Deadline, progress: Any = None
    ) -> Searched:
        return self._searched(self._simulate(state, rollouts, deadline, progress, True))

    def simulate(
        self, state: State, rollouts: float, deadline: Deadline, progress: Any = None
    ) -> int:
        """:meth:`search` without its report: the simulations run (what a helper thread
        does; the thread that adds the trees up reads their roots, after the deadline)."""
        return self._simulate(state, rollouts, deadline, progress, False)

    def _simulate(
        self, state: State, rollouts: float, deadline: Deadline, progress: Any, reads: bool
    ) -> int:
        flags = me.OPEN
        known = self.root_state
        if known is None or (known is not state and known != state):
            words = self.kernel.words
            if words is not None and self.root_s is not None:
                # The compiled call writes the root from four words (cheaper than numpy).
                self.words = words(state)
                self.root_state, self.root = state, 0
                flags |= me.DECODE
            else:
                root_s = self._encoded(state)
                self.root_state, self.root_s, self.root = state, root_s, 0
                if self.s.shape != root_s.shape:
                    self.s, self.leaf = owned(root_s), owned(root_s)
            flags |= me.FRESH
        self.seed = next_seed(self.rng)
        self.kernel_seconds = 0.0
        # The first batch opens the root (seed, a new tree, its moves); the last reads it.
        if deadline.end == INF and progress is None and rollouts >= 1:
            return self._budget(int(min(rollouts, 1 << 62)), flags, reads)
        return self._run(rollouts, deadline, progress, flags, reads)

    def _searched(self, sims: int) -> Searched:
        """What the search found, as the last read of the root left it in the arrays."""
        report = self.read_report or self.report.tolist()
        block = self.root_block.tolist()
        line = self._at[3]
        return Searched(
            self._stats(report, block),
            sims,
            report[mk.DEEPEST],
            block[line : line + report[me.PV_LENGTH]],
            self.name,
        )

    def _stats(self, report: list[int] | None = None, block: list[int] | None = None) -> RootStats:
        """The root's statistics as the last read of it left them (``report`` and ``block``:
        the report and the root's block already read as lists)."""
        if report is None:
            report = self.report.tolist()
        if block is None:
            block = self.root_block.tolist()
        n, at_once = report[me.NMOVES], report[me.AT_ONCE]
        moves_at, visits_at, proven_at, _ = self._at
        moves, proven = block[moves_at : moves_at + n], block[proven_at : proven_at + n]
        return RootStats(
            moves,
            block[visits_at : visits_at + n],
            self.root_won.tolist()[:n],
            [_PROOF[q] for q in proven] if any(proven) else [Proof.UNKNOWN] * n,
            report[me.ROOT_VISITS],
            moves[at_once] if at_once >= 0 else None,
        )

    def _run(
        self,
        rollouts: float,
        deadline: Deadline,
        progress: Any = None,
        flags: int = 0,
        reads: bool = True,
    ) -> int:
        """Batches of simulations until the budget, the deadline or a proof stops them, the
        first opening the root with ``flags``; the root read after them when ``reads``."""
        return self._batches(rollouts, deadline, progress, self.batch_seconds, flags, reads)

    def _batches(
        self,
        rollouts: float,
        deadline: Deadline,
        progress: Any,
        batch_seconds: float,
        flags: int = 0,
        reads: bool = True,
    ) -> int:
        """:meth:`_run` with batches of about ``batch_seconds``."""
        self.read_report = None
        timed = deadline.end != INF
        if not timed and progress is None and rollouts >= 1:
            return self._budget(int(min(rollouts, 1 << 62)), flags, reads)
        batched = timed or progress is not None  # else one call does the whole budget
        left = int(min(rollouts, 1 << 62))
        budgeted = left < 1 << 62
        batch = FIRST_BATCH if batched else left
        s, leaf, report = self.s, self.leaf, self.report
        clock = time.perf_counter
        total = 0
        stop, longest_batch = batch_clock(report, deadline), 0.0
        # What the tree holds as the search starts (a new tree: nothing).
        began, sizes_then = clock(), [0, 0] if flags & me.FRESH else self.sizes.tolist()
        read = False
        while left > 0:
            if reads and batch >= left:  # the batch that may end the search reads the root
                flags |= me.READ
            report[mk.SPENT] = 0
            start = clock()
            done = self._batch(s, leaf, min(batch, left), flags)
            spent = clock() - start
            # The report read once, as Python ints: a numpy scalar for each field read costs
            # more, on a move's cold caches.
            found = report.tolist()
            self.kernel_seconds += found[mk.SPENT] * 1e-9
            longest_batch = max(longest_batch, spent)
            read, flags = bool(flags & me.READ), 0
            total += done
            left -= done
            if found[me.NMOVES] <= 1:
                break  # one legal move (or none): nothing to decide
            reason = found[mk.REASON]
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
                added = [now - then for now, then in zip(self.sizes.tolist(), sizes_then)]
                if not self._grow_or_least(added, more):
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
        # No batch ran (a budget of none): open the root now; stopped by the clock, a proof
        # or a listener: read it now.
        if flags or (reads and not read):
            report[mk.SPENT] = 0
            self._entry(0, flags | (me.READ if reads else 0))
            self.kernel_seconds += int(report[mk.SPENT]) * 1e-9
        return total

    def _grow_or_least(self, added: list[int], more: float) -> bool:
        """Grow the full arrays for ``more`` times what the search ``added`` so far; with no
        room for that, by the least; False when not even that fits (the search stops)."""
        try:
            self._grow(*self._room(added, more))
        except MemoryError:
            try:
                self._grow(*self._room(added, 0.0))
            except MemoryError:
                return False
        return True

    def _budget(self, left: int, flags: int, reads: bool) -> int:
        """A search of ``left`` simulations with no clock and nobody watching: one compiled
        call that opens the root, searches and reads it (:data:`~arena.search.mcts.entry.START`
        sets the batch's clock there), more only when the tree's arrays fill up and grow
        between calls. What a move of a simulation budget pays in Python is this and the
        agent's few steps: each numpy call or Python step costs microseconds once a
        collection or the opponent's move has left the caches cold."""
        total = 0
        flags |= me.START | (me.READ if reads else 0)
        sizes_then = [0, 0] if flags & me.FRESH else self.sizes.tolist()
        while True:
            done = self._batch(self.s, self.leaf, left, flags)
            found = self.report.tolist()
            self.kernel_seconds += found[mk.SPENT] * 1e-9
            total += done
            left -= done
            if left <= 0 or found[me.NMOVES] <= 1 or found[mk.REASON] != mk.FULL:
                break
            # The arrays are full: grow them to what the rest of the budget needs, at the
            # rate this search has added nodes and edges so far.
            now, old = time.perf_counter(), self._bytes()
            added = [now - then for now, then in zip(self.sizes.tolist(), sizes_then)]
            more = float(left) / max(total, 1)
            if not self._grow_or_least(added, more):
                break  # (the call that filled them read the root)
            self.grow_rate = max(self.grow_rate, (time.perf_counter() - now) / old)
            flags = me.START | (me.READ if reads else 0)
        self.read_report = found if reads else None
        return total

    def _batch(self, s: np.ndarray, leaf: np.ndarray, sims: int, flags: int = 0) -> int:
        """One compiled call: up to ``sims`` simulations, opening and reading the root as
        ``flags`` say (:mod:`~arena.search.mcts.entry`)."""
        return self._entry(sims, flags, s, leaf)

    def _entry(
        self, sims: int, flags: int, s: np.ndarray | None = None, leaf: np.ndarray | None = None
    ) -> int:
        """One call of :func:`arena.search.mcts.entry.run`."""
        if flags & me.LIST:
            self.listed = True
        args = (
            *self.entry_functions,
            self.kernel.params, self.root_s, self.s if s is None else s,
            self.leaf if leaf is None else leaf, self.buf,
            self.node, self.wins, self.edge_move, self.edge_child, self.sizes, self.path,
            self.root, sims, self.policy, self.c, self.eps, self.expand_all, self.solver,
            self.report, self.seed, flags, 0, *self.words,
            self.root_moves, self.root_visits, self.root_won, self.root_proven, self.root_line,
            self.logs,
        )  # fmt: skip
        entry = self.entry
        done = entry(*args)
        if entry is me.run:
            self.entry = compiled_entry(me.run, args)
        return int(done)

    def _read(self) -> None:
        """Read the root into the arrays (listing its moves first after ``observe``)."""
        self.read_report = None
        self._entry(0, me.READ if self.listed else me.LIST | me.READ)

    def root_stats(self) -> RootStats | None:
        """The root's moves in legal-move order with their statistics (read in one compiled
        call, :mod:`~arena.search.mcts.entry`)."""
        if self.root_state is None or self.root_s is None:
            return None
        self._read()
        return self._stats()
