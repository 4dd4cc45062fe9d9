"""Gumbel root selection: the search of Gumbel MuZero over the PUCT tree's node arrays.

Danihelka, Guez, Schrittwieser and Silver, "Policy improvement by planning with Gumbel",
ICLR 2022 (https://openreview.net/forum?id=bERaNdoegnO). With a small budget, PUCT's
visit counts are a poor policy target and may not even improve on the prior; the paper's
search does, with as few as two simulations:

- **At the root**, draw a Gumbel variable ``g(a)`` per move and consider the ``m`` moves
  with the largest ``g(a) + logits(a)`` (sampling without replacement from the policy);
  share the ``n`` simulations among them by **Sequential Halving**: ``ceil(log2 m)``
  phases, each giving every move still considered ``max(1, n / (ceil(log2 m) * k))``
  more visits (k moves left) and then keeping the better half (at least two) by
  ``g + logits + sigma(q)``. :func:`halving_schedule` is the visit count a move must
  have to be walked into at each simulation; the walk takes the best-scored move with
  that count, which plays the phases out one simulation at a time (so leaves can be
  batched with virtual loss as PUCT's are).
- **The move played** is the best by ``g + logits + sigma(q)`` among the most visited.
- **The improved policy**, the policy target for self-play, is
  ``softmax(logits + sigma(completed q))`` over the root's moves (:func:`improved_policy`).
- **Below the root**, the walk is deterministic: the child maximising
  ``pi'(a) - N(a) / (1 + sum N)``, pi' the node's improved policy (the paper's section 5).

``completed q`` is each visited child's mean value and, for an unvisited one, the node's
mixed value ``(v + sum N * sum_visited(pi q) / sum_visited(pi)) / (1 + sum N)``, v the
network's value of the node; it is rescaled to [0, 1] over the node's children (min-max),
and ``sigma(q) = (c_visit + max N) * c_scale * q`` with ``c_visit = 50``, ``c_scale = 0.1``
(DeepMind's mctx library's defaults, so the two searches can be compared:
``arena bench az``).

>>> halving_schedule(4, 8)      # 4 moves once each, then the best 2 twice more each
(0, 0, 0, 0, 1, 1, 2, 2)

Tests: tests/search/test_az_gumbel.py
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from numba import njit

from arena.search.az import puct
from arena.search.clock.deadline import Deadline

C_VISIT = 50.0
"""sigma's visit offset (the paper's c_visit; mctx's ``maxvisit_init``)."""

C_SCALE = 0.1
"""sigma's scale for values rescaled to [0, 1] (mctx's ``value_scale``)."""

DEFAULT_CONSIDERED = 16
"""The moves sampled at the root (the paper's m; mctx's ``max_num_considered_actions``)."""


def halving_schedule(considered: int, simulations: int) -> tuple[int, ...]:
    """For each of ``simulations`` root simulations, the visit count a root move must have
    to be chosen: Sequential Halving over ``considered`` moves."""
    if considered <= 1:
        return tuple(range(simulations))
    phases = math.ceil(math.log2(considered))
    visits = [0] * considered
    schedule: list[int] = []
    left = considered
    while len(schedule) < simulations:
        rounds = max(1, int(simulations / (phases * left)))
        for _ in range(rounds):
            schedule.extend(visits[:left])
            for i in range(left):
                visits[i] += 1
        left = max(2, left // 2)
    return tuple(schedule[:simulations])


def log_priors(tree: puct.Tree, node: int) -> np.ndarray:
    """The logarithm of the node's children's priors (the policy's logits up to a constant)."""
    kids = puct.children(tree, node)
    return np.log(np.maximum(tree.prior[kids], 1e-30))


@njit(cache=True)
def sigma_completed(visits, value_sum, prior, raw):  # type: ignore[no-untyped-def]
    """``sigma(completed q)`` of one node's children from their arrays and the node's
    network value ``raw`` (compiled: every walk below a Gumbel root computes it)."""
    count = visits.shape[0]
    total = 0
    most = 0
    weighted = 0.0
    mass = 0.0
    for i in range(count):
        if visits[i] > 0:
            total += visits[i]
            most = max(most, visits[i])
            p = max(prior[i], 2.2250738585072014e-308)
            weighted += p * value_sum[i] / visits[i]
            mass += p
    mixed = raw if total == 0 else (raw + total * weighted / mass) / (total + 1)
    out = np.empty(count)
    for i in range(count):
        out[i] = value_sum[i] / visits[i] if visits[i] > 0 else mixed
    low, high = out.min(), out.max()
    scale = (C_VISIT + most) * C_SCALE / max(high - low, 1e-8)
    for i in range(count):
        out[i] = (out[i] - low) * scale
    return out


@njit(cache=True)
def interior_child(visits, value_sum, prior, raw):  # type: ignore[no-untyped-def]
    """The child index maximising ``pi'(a) - N(a) / (1 + sum N)``, pi' the improved policy
    (the first of equals)."""
    logits = np.log(np.maximum(prior, 1e-30)) + sigma_completed(visits, value_sum, prior, raw)
    policy = np.exp(logits - logits.max())
    policy /= policy.sum()
    total = visits.sum()
    best, choice = -np.inf, 0
    for i in range(visits.shape[0]):
        score = policy[i] - visits[i] / (1.0 + total)
        if score > best:
            best, choice = score, i
    return choice


def child_arrays(tree: puct.Tree, node: int) -> tuple[np.ndarray, ...]:
    """The node's children's visits, value sums and priors (views of the tree's arrays)."""
    span = slice(int(tree.first[node]), int(tree.first[node] + tree.count[node]))
    return tree.visits[span], tree.value_sum[span], tree.prior[span]


def completed_q(tree: puct.Tree, node: int) -> np.ndarray:
    """``sigma(completed q)`` of each of the node's children, for the node's player to move."""
    return sigma_completed(*child_arrays(tree, node), float(tree.raw_value[node]))


def softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max())
    return e / e.sum()


def improved_policy(tree: puct.Tree, node: int | None = None) -> np.ndarray:
    """``softmax(logits + sigma(completed q))`` over the node's children (the root's by
    default, in the order of its legal moves): the search's policy target."""
    node = tree.root if node is None else node
    return softmax(log_priors(tree, node) + completed_q(tree, node))


class GumbelRoot:
    """One Gumbel search's root state: the Gumbel draws and the halving schedule; its
    :meth:`select` is the walk's choice of child (the tree's ``select``)."""

    def __init__(self, tree: puct.Tree, gumbel: np.ndarray, considered: int, budget: int) -> None:
        self.root = tree.root
        self.gumbel = np.asarray(gumbel, np.float64)
        self.schedule = halving_schedule(min(considered, len(self.gumbel)), budget)

    def root_scores(self, tree: puct.Tree) -> np.ndarray:
        """``g + logits + sigma(q)`` of each root move."""
        score = self.gumbel + log_priors(tree, self.root) + completed_q(tree, self.root)
        return np.maximum(score, -1e9)

    def scores(self, tree: puct.Tree, visits_wanted: int) -> np.ndarray:
        """:meth:`root_scores` of the root's moves with ``visits_wanted`` visits, -inf for
        the others."""
        kids = puct.children(tree, self.root)
        return np.where(tree.visits[kids] == visits_wanted, self.root_scores(tree), -np.inf)

    def select(self, tree: puct.Tree, node: int) -> int:
        if node == self.root:
            kids = puct.children(tree, node)
            done = int(tree.visits[kids].sum())
            wanted = (
                self.schedule[done] if done < len(self.schedule) else int(tree.visits[kids].max())
            )
            return int(kids[int(np.argmax(self.scores(tree, wanted)))])
        return int(tree.first[node]) + int(
            interior_child(*child_arrays(tree, node), float(tree.raw_value[node]))
        )

    def best_move(self, tree: puct.Tree) -> int:
        """The move to play: the best scored of the most visited root moves."""
        kids = puct.children(tree, self.root)
        index = int(np.argmax(self.scores(tree, int(tree.visits[kids].max()))))
        return int(tree.move[kids[index]])


def run(
    tree: puct.Tree,
    evaluate: puct.Evaluator,
    simulations: int,
    considered: int = DEFAULT_CONSIDERED,
    gumbel: np.ndarray | np.random.Generator | None = None,
    deadline: Deadline | None = None,
    batch: int = 1,
    progress: Callable[[int, int], bool] | None = None,
) -> tuple[GumbelRoot | None, int, int]:
    """A Gumbel search of ``tree`` (a fresh one: its root unexpanded) to ``simulations``
    root visits, the first expanding the root, or until the deadline. ``gumbel`` is the
    root moves' Gumbel draws (an array in the order of the root's legal moves), a generator
    to draw them from, or None for none (a deterministic search). Returns the search's
    :class:`GumbelRoot` (None when the root is terminal), the simulations run and the
    deepest leaf; ``progress`` as :func:`arena.search.az.puct.run`'s."""
    ran, depth = puct.run(tree, evaluate, 1, 0.0)
    root = tree.root
    kids = puct.children(tree, root)
    if len(kids) == 0:
        return None, ran, depth
    if isinstance(gumbel, np.random.Generator):
        gumbel = gumbel.gumbel(size=len(kids))
    elif gumbel is None:
        gumbel = np.zeros(len(kids))
    budget = max(0, int(simulations) - int(tree.visits[root]))
    search = GumbelRoot(tree, gumbel, considered, budget)
    tree.select = search.select
    try:
        more, deeper = puct.run(
            tree, evaluate, simulations, 0.0, deadline, batch=batch, progress=progress
        )
    finally:
        tree.select = None
    return search, ran + more, max(depth, deeper)
