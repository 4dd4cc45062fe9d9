"""A position given as moves in the game's notation from the initial state, as the
commands and experiments take it (tests in ``tests/cli/test_cli.py``).

>>> import arena
>>> position(arena.load_game("tictactoe"), ["b2", "a1"]).ply
2
>>> position(arena.load_game("tictactoe"), ["b2", "b2"])
Traceback (most recent call last):
...
arena.core.errors.ArenaError: move 2: illegal move b2: the cell is occupied
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.core.errors import ArenaError
from arena.core.game import Game, State


def position(game: Game, moves: Sequence[str], seed: int | None = None) -> State:
    """The state after ``moves`` (notation tokens) from the initial state;
    an error names the move that failed by its number in the sequence."""
    state = game.initial_state(seed)
    for number, move in enumerate(game.parse_moves(list(moves)), 1):
        try:
            state = state.play(move)
        except ArenaError as exc:
            raise ArenaError(f"move {number}: {exc}") from None
    return state
