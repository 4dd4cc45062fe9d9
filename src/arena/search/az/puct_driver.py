"""The compiled PUCT driven from Python: its tree, its calls, tree reuse and root noise.

:class:`CompiledPUCT` is one network on one game, searched by the compiled
:mod:`arena.search.az.puct_kernel`; its :meth:`~CompiledPUCT.run` is
:func:`arena.search.az.puct.run` (the same arguments, the same visits), its
:meth:`~CompiledPUCT.reroot` is :func:`arena.search.az.puct.reroot`. Its
:class:`CompiledTree` keeps the readable :class:`~arena.search.az.puct.Tree`'s node arrays
under the same names, so :func:`~arena.search.az.puct.children`,
:func:`~arena.search.az.puct.scores`, :func:`~arena.search.az.puct.visit_counts`,
:func:`~arena.search.az.puct.choose_move` and :func:`~arena.search.az.puct.add_noise` read
it as they read the readable tree, and the agent's report is the same code. Instead of a
``State`` per node it keeps the root's position as the game's kernel writes it; the
walks replay their moves from there.

A search of ``sims`` simulations is one compiled call after the root's first expansion
(and the root's noise, drawn here with the caller's generator, as the readable search
draws it); a timed one checks its deadline in compiled code after every batch, and
``stop()`` (:meth:`CompiledPUCT.stop`, from any thread: the compiled code runs without
the GIL) ends it after the batch under way. With a listener the search returns every
:data:`SLICE` seconds for a live report.

A kept tree is compacted when it is rerooted (:func:`arena.search.az.puct.compact`): the
arrays hold the new root's subtree alone, so they stay the size of a move's search
instead of growing with every move of the game. When the compiled search runs out of
room, the driver grows the arrays (a doubling copy) and calls again, unless the grow may
not end before the deadline (:meth:`CompiledPUCT.can_grow`): the move then answers with
the tree it has rather than late.

>>> import arena
>>> from arena.search.az.network import random_network
>>> game = arena.load_game("tictactoe")
>>> engine = CompiledPUCT(random_network(game, filters=4, blocks=0, seed=1), game)
>>> tree = engine.new_tree(game.initial_state())
>>> engine.run(tree, 30, c_puct=1.5, batch=8)[0], int(tree.visits[tree.root])
(30, 30)

Tests: tests/search/test_az_compiled.py
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import numpy as np

from arena.core.errors import SpecError
from arena.core.game import Game, State
from arena.core.kernel import ONGOING, Kernel
from arena.games import load_kernel
from arena.search.az import puct_kernel as pk
from arena.search.az.kernel import prepare
from arena.search.az.network import Network
from arena.search.az.planes import encoding
from arena.search.az.puct import add_noise, compact
from arena.search.clock.compiled_deadline import NEVER, deadline_ns
from arena.search.clock.deadline import Deadline

FUNCTIONS = ("legal_moves", "play", "to_move", "outcome", "owners")
"""The game kernel's functions the compiled search calls, in its arguments' order."""

SLICE = 0.05
"""Seconds a search with a listener runs between two live reports."""

MOST_SIMULATIONS = 1 << 62
"""The budget of a search bounded by time alone."""

GROW_SECONDS = 4e-7
"""Seconds a node of room is taken to cost when the tree's arrays grow (nine new arrays
of the doubled length written, the old ones copied in) until a grow measures more: up to
3.9e-7 measured (0.26 to 0.52 million nodes in 57-194 ms, 1 to 2 million in 0.49-0.81 s,
on 2 cores at load 3.5, in a small share of them), much less on a quiet machine."""

MEASURED_GROW = 1 << 16
"""The fewest nodes a grow must reach to teach its cost (smaller ones sit in the
caches and say little about the next, larger one)."""

_FILLS = (
    ("parent", -1, np.int64), ("move", -1, np.int64), ("mover", 0, np.int8),
    ("first", -1, np.int64), ("count", 0, np.int64), ("visits", 0, np.int64),
    ("value_sum", 0.0, np.float64), ("prior", 0.0, np.float64), ("raw_value", 0.0, np.float64),
)  # fmt: skip


def game_kernel(game: Game) -> Kernel | None:
    """The game's compiled kernel if the compiled search can use it (it has ``owners``)."""
    kernel = load_kernel(game)
    if kernel is None or any(name not in kernel.functions for name in FUNCTIONS):
        return None
    return kernel


class CompiledTree:
    """The node arrays of :class:`arena.search.az.puct.Tree` (grown by doubling), the root,
    and the root's position: its ``State`` and the kernel's array of it."""

    def __init__(self, state: State, position: np.ndarray, capacity: int = 1024) -> None:
        for name, fill, dtype in _FILLS:
            setattr(self, name, np.full(capacity, fill, dtype))
        self.parent: np.ndarray
        self.move: np.ndarray
        self.mover: np.ndarray
        self.first: np.ndarray
        self.count: np.ndarray
        self.visits: np.ndarray
        self.value_sum: np.ndarray
        self.prior: np.ndarray
        self.raw_value: np.ndarray
        self.size = 1
        self.root = 0
        self.state = state
        """The root's position."""
        self.position = position
        """The root's position as the game's kernel writes it."""
        self.root_prior: np.ndarray | None = None
        """The root children's priors with Dirichlet noise (None: without noise)."""

    def capacity_for(self, needed: int) -> int:
        """The arrays' length once they hold ``needed`` nodes (doubled when they grow)."""
        capacity = len(self.parent)
        return capacity if needed <= capacity else max(needed, 2 * capacity)

    def grow(self, needed: int) -> None:
        capacity = len(self.parent)
        new = self.capacity_for(needed)
        if new == capacity:
            return
        for name, fill, dtype in _FILLS:
            grown = np.full(new, fill, dtype)
            grown[:capacity] = getattr(self, name)
            setattr(self, name, grown)


class CompiledPUCT:
    """PUCT over one network on one game, in compiled code (a one-line
    :class:`~arena.core.errors.SpecError` for a game whose kernel cannot serve it)."""

    def __init__(self, network: Network, game: Game) -> None:
        kernel = game_kernel(game)
        if kernel is None:
            raise SpecError(f"az: no compiled search for {game.name}; use engine=python")
        self.game = game
        self.kernel = kernel
        self.functions = tuple(kernel.functions[name] for name in FUNCTIONS)
        self.weights = tuple(np.ascontiguousarray(w) for w in prepare(network.arrays()))
        self.encoding = encoding(game)
        self.halt = np.zeros(1, np.int64)
        """Set to 1 (:meth:`stop`) to end the search under way after its batch."""
        self.work: dict[int, tuple[np.ndarray, ...]] = {}
        self.s = np.zeros_like(kernel.encode(game.initial_state()))
        self.cells = np.zeros(self.encoding.rows * self.encoding.cols, np.int64)
        self.grow_cost = GROW_SECONDS
        """Seconds a node of room is expected to cost when the arrays grow
        (:data:`GROW_SECONDS`, or more when the last large grow measured more)."""

    def new_tree(self, state: State) -> CompiledTree:
        """A tree of ``state`` alone."""
        return CompiledTree(state, self.kernel.encode(state))

    def stop(self) -> None:
        """End the search under way after the batch it is in (safe from another thread)."""
        self.halt[0] = 1

    def batch_arrays(self, batch: int) -> tuple[np.ndarray, ...]:
        """The scratch arrays of batches of ``batch`` walks (made once per size)."""
        if batch not in self.work:
            enc, k = self.encoding, self.kernel
            self.work[batch] = (
                np.zeros((batch, k.max_plies + 2), np.int64),  # paths
                np.zeros(batch, np.int64),  # lengths
                np.zeros(batch, np.int64),  # players
                np.zeros(batch, np.int64),  # rows
                np.zeros(batch, np.float64),  # results
                np.zeros(batch, np.int64),  # leaves
                np.zeros((batch, k.max_moves), np.int64),  # moves
                np.zeros(batch, np.int64),  # counts
                np.zeros((batch, enc.rows, enc.cols, enc.channels), np.float32),  # planes
                np.zeros((batch, enc.actions), np.float32),  # logits
                np.zeros(batch, np.float32),  # values
            )
        return self.work[batch]

    def call(
        self, tree: CompiledTree, sims: int, c_puct: float, batch: int, opening: bool,
        clock: np.ndarray, meta: np.ndarray,
    ) -> int:  # fmt: skip
        """One compiled call (the simulations it ran; ``meta`` says why it stopped)."""
        prior = tree.root_prior
        noisy = prior is not None
        return int(
            pk.compiled("search")(
                *self.functions,
                self.kernel.params, tree.position, self.s, self.cells,
                tree.parent, tree.move, tree.mover, tree.first, tree.count, tree.visits,
                tree.value_sum, tree.prior, tree.raw_value,
                prior if noisy else np.zeros(0), int(noisy),
                *self.weights,
                float(c_puct), sims, batch, int(opening), clock, self.halt, meta,
                *self.batch_arrays(1 if opening else batch),
            )
        )  # fmt: skip

    def run(
        self,
        tree: CompiledTree,
        simulations: float,
        c_puct: float,
        deadline: Deadline | None = None,
        noise: tuple[float, float, np.random.Generator] | None = None,
        batch: int = 1,
        progress: Callable[[int, int], bool] | None = None,
    ) -> tuple[int, int]:
        """:func:`arena.search.az.puct.run` in compiled code (the same arguments, the same
        visits); returns the simulations run and the deepest leaf."""
        sims = MOST_SIMULATIONS if math.isinf(simulations) else math.ceil(simulations)
        meta = np.zeros(pk.META, np.int64)
        clock = np.zeros(pk.CLOCK, np.int64)
        end = deadline.end if deadline is not None else math.inf
        clock[pk.END] = 1 if end == -math.inf else deadline_ns(end) if end != math.inf else NEVER
        clock[pk.LAST] = time.monotonic_ns()
        ran = 0
        root = tree.root
        outcome = self.functions[3]
        if tree.first[root] < 0 and outcome(self.kernel.params, tree.position) == ONGOING:
            ran += self.step(tree, 1, c_puct, 1, True, clock, meta)
        if noise is not None:
            add_noise(tree, *noise)  # type: ignore[arg-type]
        else:
            tree.root_prior = None
        while True:
            clock[pk.SLICE] = time.monotonic_ns() + int(SLICE * 1e9) if progress else 0
            ran += self.step(tree, sims, c_puct, batch, False, clock, meta)
            status = meta[pk.STATUS]
            if status == pk.FULL:
                if deadline is not None and not self.can_grow(tree, batch, deadline):
                    break  # a grow that would end past the deadline: answer now
                continue
            if status != pk.SLICED or (deadline is not None and deadline.end == -math.inf):
                break
            if progress is not None and progress(ran, int(meta[pk.DEPTH])):
                break
        return ran, int(meta[pk.DEPTH])

    def step(
        self, tree: CompiledTree, sims: int, c_puct: float, batch: int, opening: bool,
        clock: np.ndarray, meta: np.ndarray,
    ) -> int:  # fmt: skip
        """One call with room for a batch (the tree grown first when it needs it)."""
        needed = self.room(tree, batch)
        if tree.capacity_for(needed) > len(tree.parent):
            began = time.perf_counter()
            tree.grow(needed)
            spent = time.perf_counter() - began
            if len(tree.parent) >= MEASURED_GROW:
                self.grow_cost = max(GROW_SECONDS, spent / len(tree.parent))
            # A grow is judged before it begins (can_grow) or precedes the move's search:
            # no stretch of search work for the deadline to keep in reserve after it.
            clock[pk.LAST] = time.monotonic_ns()
        meta[pk.SIZE], meta[pk.ROOT] = tree.size, tree.root
        done = self.call(tree, sims, c_puct, batch, opening, clock, meta)
        tree.size = int(meta[pk.SIZE])
        return done

    def room(self, tree: CompiledTree, batch: int) -> int:
        """The nodes a call of batches of ``batch`` needs room for (the compiled search
        stops, :data:`~arena.search.az.puct_kernel.FULL`, when one more may not fit)."""
        return tree.size + (batch + 1) * self.kernel.max_moves

    def can_grow(self, tree: CompiledTree, batch: int, deadline: Deadline) -> bool:
        """Whether the arrays can grow for another batch before ``deadline`` ends, at the
        cost a node of room is expected to take (:attr:`grow_cost`). A kept tree holds
        only its root's subtree (:meth:`reroot`), so the arrays soon hold a move's search
        and a grow is rare, but a late one cost a 1 s move up to 0.2 s (docs/az.md)."""
        new = tree.capacity_for(self.room(tree, batch))
        return time.perf_counter() + self.grow_cost * new < deadline.end

    def reroot(self, tree: CompiledTree, state: State) -> bool:
        """Make the node of ``state`` the root if it is a child or grandchild of the root
        that the search has reached, the tree compacted to its subtree, as
        :func:`arena.search.az.puct.reroot`; False when it is not there. The compiled
        code finds the nodes of the same board and player to move; the positions are then
        compared in full."""
        f = dict(zip(FUNCTIONS, self.functions, strict=True))
        p = self.kernel.params
        target = np.zeros_like(self.cells)
        f["owners"](p, self.kernel.encode(state), target)
        most = self.kernel.max_moves
        found = np.zeros(most * (most + 1), np.int64)  # children and grandchildren at most
        n = pk.compiled("root_candidates")(
            f["play"], f["to_move"], f["owners"], p, tree.position, self.s.copy(), self.s.copy(),
            self.cells, target, state.to_move, tree.first, tree.count, tree.visits, tree.move,
            tree.root, found,
        )  # fmt: skip
        for node in found[:n].tolist():
            line = [int(tree.move[node])]
            if tree.parent[node] != tree.root:
                line.insert(0, int(tree.move[tree.parent[node]]))
            reached = tree.state
            for move in line:
                reached = reached.play(move)
            if reached == state:
                position = tree.position.copy()
                for move in line:
                    f["play"](p, position, move)
                tree.root, tree.state, tree.position = node, state, position
                tree.root_prior = None
                compact(tree)
                return True
        return False
