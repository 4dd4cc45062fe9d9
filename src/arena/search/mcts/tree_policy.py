"""MCTS tree policies: which child to descend into (OpenSpiel's ``child_selection_fn``).

A policy is a small frozen value chosen once when the agent is built; the
search calls its ``select(node, rng)``, which returns the index of an added,
unproven child, or -1 when every added child is proven. Win rates are those
of the player who chooses at the node, so selection is always a max.

Tests: ``tests/search/test_mcts.py``.

>>> import random
>>> from arena.games import load_game
>>> from arena.search.mcts.tree import Node
>>> node = Node(load_game("tictactoe").initial_state())
>>> node.untried, node.visits[:2], node.wins[:2], node.total = [], [10, 2], [9.0, 1.0], 12
>>> node.children = [node] * 9  # only the statistics matter here
>>> node.visits[2:] = node.wins[2:] = [0] * 7
>>> UCT(c=0.0).select(node, random.Random(1)), UCT(c=5.0).select(node, random.Random(1))
(0, 1)
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Protocol

from arena.search.mcts.tree import Node


class TreePolicy(Protocol):
    def select(self, node: Node, rng: random.Random) -> int:
        """An added, unproven child of ``node``; -1 when there is none."""
        ...


@dataclass(frozen=True)
class UCT:
    """The unproven child maximising win rate + c * sqrt(ln N / n), ties broken at random.

    Ties are common while counts are small; taking the first would favour the
    first legal moves (the edge columns of Connect Four) over the rest.
    """

    c: float

    def select(self, node: Node, rng: random.Random) -> int:
        c = self.c
        log_total = math.log(node.total) if node.total > 1 else 0.0
        best, best_score, ties = -1, -1.0, 0
        for i, (n, w, p) in enumerate(zip(node.visits, node.wins, node.proven)):
            if p or not n:
                continue
            score = w / n + c * math.sqrt(log_total / n)
            if score > best_score:
                best, best_score, ties = i, score, 1
            elif score == best_score:
                ties += 1
                if rng.random() * ties < 1.0:  # reservoir sampling: each tie equally likely
                    best = i
        return best


@dataclass(frozen=True)
class EGreedy:
    """A random unproven child with probability eps, else the best win rate."""

    eps: float

    def select(self, node: Node, rng: random.Random) -> int:
        open_ = [i for i, (n, p) in enumerate(zip(node.visits, node.proven)) if n and not p]
        if not open_:
            return -1
        if rng.random() < self.eps:
            return rng.choice(open_)
        return max(open_, key=lambda i: node.wins[i] / node.visits[i])
