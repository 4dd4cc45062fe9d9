"""The reference MCTS tree: nodes with their children's statistics, and proof status.

Each node keeps its children's statistics in parallel lists (``moves``,
``visits``, ``wins``, ``children``, ``proven``), so the tree policy is a plain
function over those lists, as in mctx. Bookkeeping: a node's visits equal its
parent's count for it; the root's visits are the sum of its children's, and any
other node's are one more (its own first simulation, made when it was added).

Tests: ``tests/search/test_mcts.py``.

>>> Proof.WON.flipped(), Proof.DRAWN.flipped(), bool(Proof.UNKNOWN)
(<Proof.LOST: -1>, <Proof.DRAWN: 2>, False)
"""

from __future__ import annotations

import random
from enum import IntEnum

from arena.core.game import State


class Proof(IntEnum):
    """Proof status of a move for the player who chooses it (MCTS-Solver).

    The values are the ones the compiled search stores in its arrays; UNKNOWN
    is 0 so ``if proven[i]`` reads "is this child proven".
    """

    UNKNOWN = 0
    WON = 1
    LOST = -1
    DRAWN = 2

    def flipped(self) -> Proof:
        """The same result seen by the opponent."""
        return _FLIPPED[self]

    @staticmethod
    def of_return(mine: float) -> Proof:
        """The proof of a finished game worth ``mine`` to the player who chose the move."""
        return Proof.WON if mine > 0 else Proof.LOST if mine < 0 else Proof.DRAWN


_FLIPPED = {
    Proof.UNKNOWN: Proof.UNKNOWN,
    Proof.WON: Proof.LOST,
    Proof.LOST: Proof.WON,
    Proof.DRAWN: Proof.DRAWN,
}

REWARD = {1: 1.0, 0: 0.5, -1: 0.0}
"""A game's return for a player as a simulation reward: win 1, draw 1/2, loss 0."""


class Node:
    """A position in the tree and its children's statistics, in parallel lists."""

    __slots__ = ("children", "moves", "proven", "state", "total", "untried", "visits", "wins")

    def __init__(self, state: State) -> None:
        self.state = state
        self.moves = state.legal_moves()
        k = len(self.moves)
        self.visits = [0] * k
        self.wins = [0.0] * k
        self.children: list[Node | None] = [None] * k
        self.proven = [Proof.UNKNOWN] * k
        self.untried = list(range(k))
        self.total = 0

    def next_untried(self, rng: random.Random) -> int:
        """A random child not yet added, moved to the end of ``untried`` (O(1));
        it is popped once its simulation has finished."""
        untried = self.untried
        j = int(rng.random() * len(untried))
        untried[j], untried[-1] = untried[-1], untried[j]
        return untried[-1]


def prove(node: Node) -> Proof:
    """The proof status of ``node`` for the player who moves there, from its children.

    Won if one child is won; unknown while a child is untried or unproven;
    otherwise drawn if a child draws, else lost. (A finished game has no
    children: its proof comes from its returns, set when it was added.)
    """
    if Proof.WON in node.proven:
        return Proof.WON
    if node.untried or Proof.UNKNOWN in node.proven:
        return Proof.UNKNOWN
    return Proof.DRAWN if Proof.DRAWN in node.proven else Proof.LOST


def principal_variation(root: Node, length: int = 12) -> list[int]:
    """The most visited line from the root."""
    line, node = [], root
    while node is not None and len(line) < length and any(node.visits):
        i = max(range(len(node.moves)), key=lambda j: node.visits[j])
        line.append(node.moves[i])
        node = node.children[i]  # type: ignore[assignment]
    return line
