"""Helpers shared by the command modules."""

from __future__ import annotations

from collections.abc import Sequence

from arena.core.errors import ArenaError
from arena.core.game import Game, State
from arena.formats.position import parse_position


def position(
    game: Game, moves: Sequence[str], seed: int | None = None, start: str | None = None
) -> State:
    """The state after ``moves`` (notation tokens) from the initial state, or from
    the position string ``start``; an error names the move that failed by its
    number in the sequence."""
    state = game.initial_state(seed) if start is None else parse_position(game, start)
    for number, move in enumerate(game.parse_moves(list(moves)), 1):
        try:
            state = state.play(move)
        except ArenaError as exc:
            raise ArenaError(f"move {number}: {exc}") from None
    return state


def add_game_argument(parser, help_text: str = "game spec, e.g. connect4 or go:size=5") -> None:  # type: ignore[no-untyped-def]
    parser.add_argument("game", metavar="GAME", help=help_text + " (see 'arena games')")


def add_position_option(parser) -> None:  # type: ignore[no-untyped-def]
    parser.add_argument(
        "--position",
        metavar="TEXT",
        default=None,
        help="start from this position string instead of the initial position (Othello: "
        "64 cells a1..h8 row by row, X O or -, then the side to move, as in the FFO suite)",
    )
