"""Per-game knowledge for search: evaluations and rollout hints.

Each game has a module here, named after it, that may define:

``evaluate(state) -> float``
    How good the (non-terminal) position is for the FIRST player (player 0),
    within ``[-SCALE, SCALE]``. Search agents score terminal states
    themselves, as wins and losses worth more than any evaluation.
``immediate_wins(state, player) -> list[int]``
    The moves that would win the game at once for ``player`` if it were
    ``player``'s turn (used to take wins and block losses in rollouts).
``candidates(state, moves) -> tuple[int, ...]``
    A subset of ``moves`` worth sampling in smart rollouts (never empty when
    ``moves`` is not): e.g. cells near stones in Gomoku and Go, or moves that
    do not wall yourself in at Colosseum.

>>> import arena
>>> from arena.heuristics import knowledge
>>> k = knowledge(arena.load_game("connect4"))
>>> k.evaluate(arena.load_game("connect4").initial_state())
0.0
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import import_module

from arena.game import Game, State

SCALE = 1000.0
"""Evaluations lie in [-SCALE, SCALE]; search values of won games lie beyond it."""

Evaluate = Callable[[State], float]


def utility(state: State) -> float:
    """The plain score: the game's margin for the first player (0 where it has none)."""
    margin = state.score()
    return 0.0 if margin is None else float(margin)


@dataclass(frozen=True)
class Knowledge:
    evaluate: Evaluate
    immediate_wins: Callable[[State, int], Sequence[int]] | None = None
    candidates: Callable[[State, tuple[int, ...]], tuple[int, ...]] | None = None


def preload() -> None:
    """Import every game's module now, so no search pays for an import on its clock."""
    from arena.games import NAMES

    for name in NAMES:
        import_module(f"arena.heuristics.{name}")


def knowledge(game: Game) -> Knowledge:
    """What the heuristics module of ``game`` provides."""
    module = import_module(f"arena.heuristics.{game.name}")
    return Knowledge(
        evaluate=module.evaluate,
        immediate_wins=getattr(module, "immediate_wins", None),
        candidates=getattr(module, "candidates", None),
    )
