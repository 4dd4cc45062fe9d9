"""What an evaluation is: a number for the first player, on one scale for every game.

Each game's heuristic (``arena.games.<game>.heuristic``) evaluates within
``[-SCALE, SCALE]``; search values of won games lie beyond it.

>>> import arena
>>> state = arena.load_game("othello:size=6").initial_state()
>>> utility(state)
0.0

Tests: tests/games/test_kinarow_heuristics.py
"""

from __future__ import annotations

from collections.abc import Callable

from arena.core.game import State

SCALE = 1000.0
"""Evaluations lie in [-SCALE, SCALE]; search values of won games lie beyond it."""

Evaluate = Callable[[State], float]


def utility(state: State) -> float:
    """The plain score: the game's margin for the first player (0 where it has none)."""
    margin = state.score()
    return 0.0 if margin is None else float(margin)
