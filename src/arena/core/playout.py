"""Random playouts: finish a game with uniformly random legal moves.

>>> import random, arena
>>> game = arena.load_game("tictactoe")
>>> r0, r1 = random_playout(game.initial_state(), random.Random(1))
>>> r0 + r1
0

Tests: tests/core/test_game_api.py
"""

from __future__ import annotations

import random

from arena.core.game import Returns, State


def random_playout(state: State, rng: random.Random, moves: list[int] | None = None) -> Returns:
    """The returns at the end of a uniformly random continuation of ``state``.

    Each game supplies its own fast simulation (``Game.playout``); when
    ``moves`` is a list, the moves played are appended to it.
    """
    return state.game.playout(state, rng, moves)
