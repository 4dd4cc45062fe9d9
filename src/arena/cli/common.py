"""Helpers shared by the command modules."""

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


def add_game_argument(parser, help_text: str = "game spec, e.g. connect4 or go:size=5") -> None:  # type: ignore[no-untyped-def]
    parser.add_argument("game", metavar="GAME", help=help_text + " (see 'arena games')")
