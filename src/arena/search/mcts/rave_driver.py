"""The compiled MC-RAVE engine: :class:`FastSearch` over :mod:`~arena.search.mcts.rave`.

``mcts:rave=K`` (and ``bias=``, ``prior=``, ``widen=``) runs this engine: the same driver
as the plain compiled search (batches on the clock, tree reuse, growing
arrays), with two more arrays per edge for the AMAF statistics and the
kernel's ``trace`` and ``prior`` (:data:`arena.core.kernel.OPTIONAL`) passed
to the compiled search. A game whose kernel has no ``trace`` has no RAVE
(:func:`engine` says so); one without ``prior`` runs with no knowledge.

RAVE runs in the compiled engine only: ``engine=python`` with ``rave=`` is a
spec error.

Tests: ``tests/search/test_mcts_rave.py``.
"""

from __future__ import annotations

import random
from functools import cache, partial
from typing import Any

import numpy as np
from numba import config

from arena.core.errors import SpecError
from arena.core.kernel import Kernel
from arena.search.atomics import private_array
from arena.search.mcts import entry as me
from arena.search.mcts import kernel_functions as kf
from arena.search.mcts import rave as mr
from arena.search.mcts.driver import FastSearch, resized, simulation_of
from arena.search.mcts.options import MCTSOptions


@cache
def _rave_addresses(functions: tuple[tuple[str, Any], ...], simulation: str) -> np.ndarray:
    """The addresses :func:`mcts_rave.run` takes: the kernel's, then ``trace`` and ``prior``
    (the no-op ones where the kernel has none)."""
    named = dict(functions)
    named.setdefault("trace", mr.no_trace)
    named.setdefault("prior", mr.no_prior)
    return kf.addresses(named, (*mr.CALLED, simulation, "trace", "prior"))


class RaveSearch(FastSearch):
    """The compiled engine with MC-RAVE (and priors) for one game's kernel."""

    SIMULATIONS = ("playout", "rollout", "tactics")

    def __init__(self, options: MCTSOptions, kernel: Kernel, rng: random.Random) -> None:
        super().__init__(options, kernel, rng)
        simulation = simulation_of(options, kernel)
        f = kernel.functions
        if config.DISABLE_JIT:
            called = (f[n] for n in (*mr.CALLED, simulation))
            extra = (f.get("trace", mr.no_trace), f.get("prior", mr.no_prior))
            self.run = partial(mr.search, *called, *extra)
            self.functions = ()
        else:
            self.run = mr.run
            self.functions = (_rave_addresses(tuple(sorted(f.items())), simulation),)
        bound = kernel.max_moves + 1
        self.moves = private_array(kernel.max_plies + 2)
        self.traced = private_array(kernel.max_plies + kernel.max_moves + 1)
        self.marks = private_array(bound + 1)  # [0]: the simulation stamp
        self.scores = private_array(bound)

    def _allocate(self, nodes: int, edges: int) -> None:
        super()._allocate(nodes, edges)
        self.amaf_n = private_array(edges, np.float64, zero=False)
        self.amaf_w = private_array(edges, np.float64, zero=False)

    def _bytes(self) -> int:
        return super()._bytes() + self.amaf_n.nbytes + self.amaf_w.nbytes

    def _grow(self, nodes: int, edges: int) -> None:
        super()._grow(nodes, edges)
        used = int(self.sizes[1])
        self.amaf_n = resized(self.amaf_n, edges, used)
        self.amaf_w = resized(self.amaf_w, edges, used)

    def _load(self, simulation: str) -> None:
        _rave_addresses(tuple(sorted(self.kernel.functions.items())), simulation)

    def _compact(self, child: int) -> tuple[int, int]:
        amaf_n, amaf_w = self.amaf_n, self.amaf_w
        nodes, edges, origin = self._copy_subtree(child)
        kept = origin[:edges]  # each kept edge's AMAF values come along with it
        self.amaf_n[:edges], self.amaf_w[:edges] = amaf_n[kept], amaf_w[kept]
        return nodes, edges

    def _batch(self, s: np.ndarray, leaf: np.ndarray, sims: int, flags: int = 0) -> int:
        o, k = self.options, self.kernel
        if flags & ~me.READ:  # seed, a new tree, the root's moves
            self._entry(0, flags & ~me.READ)
        done = self.run(
            *self.functions,
            k.params, self.root_s, s, leaf, self.buf,
            self.node, self.wins, self.edge_move, self.edge_child, self.amaf_n, self.amaf_w,
            self.sizes, self.path, self.moves, self.traced, self.marks, self.scores,
            self.root, sims, float(o.c), float(o.rave), float(o.bias), float(o.prior),
            float(o.widen), bool(o.solver), self.report,
        )  # fmt: skip
        if flags & me.READ:
            self._entry(0, me.READ)
        return int(done)


def engine(options: MCTSOptions, kernel: Kernel, rng: random.Random) -> FastSearch:
    """The compiled engine the options ask for: :class:`RaveSearch` with ``rave=``, else
    :class:`FastSearch`; a spec error for RAVE on a game whose kernel lists no moves."""
    if not options.rave:
        return FastSearch(options, kernel, rng)
    if "trace" not in kernel.functions:
        game = kernel.name.split(":")[0]
        raise SpecError(
            f"mcts: rave= needs a game whose simulations' moves count as played anywhere "
            f"(go, gomoku, tictactoe); {game} has none"
        )
    return RaveSearch(options, kernel, rng)
