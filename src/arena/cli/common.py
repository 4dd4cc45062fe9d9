"""Helpers shared by the command modules.

Tests: tests/cli/test_cli.py
"""

from __future__ import annotations

from pathlib import Path

from arena.core.errors import ArenaError
from arena.core.game import Game
from arena.formats.sgf import from_sgf
from arena.games import load_game


def add_game_argument(parser, help_text: str = "game spec, e.g. connect4 or go:size=5") -> None:  # type: ignore[no-untyped-def]
    parser.add_argument("game", metavar="GAME", help=help_text + " (see 'arena games')")


def add_start_arguments(parser) -> None:  # type: ignore[no-untyped-def]
    """``--moves`` and ``--sgf``: start from a position instead of the initial one."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--moves",
        default=None,
        metavar="MOVES",
        help="start after these moves, in the game's notation (e.g. '4453' or 'd3 c5')",
    )
    group.add_argument(
        "--sgf",
        default=None,
        metavar="FILE",
        help="start after the moves of this SGF game (Go, Othello, Gomoku)",
    )


def start_moves(game: Game, moves: str | None, sgf: str | None) -> tuple[int, ...]:
    """The moves ``--moves`` or ``--sgf`` name, checked to be legal in ``game``."""
    if sgf is not None:
        try:
            text = Path(sgf).read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            raise ArenaError(f"--sgf {sgf}: {exc.strerror or exc}") from None
        try:
            spec, notation = from_sgf(text)
        except ArenaError as exc:
            raise ArenaError(f"--sgf {sgf}: {exc}") from None
        if load_game(spec) != game:
            raise ArenaError(f"--sgf {sgf}: it holds a game of {spec}, not {game.spec}")
        found = game.parse_moves(notation)
        where = f"--sgf {sgf}"
    elif moves is not None:
        found = game.parse_moves(moves)
        where = "--moves"
    else:
        return ()
    state = game.initial_state()
    for number, move in enumerate(found, 1):
        try:
            state = state.play(move)
        except ArenaError as exc:
            raise ArenaError(f"{where}, move {number}: {exc}") from None
    if state.is_terminal():
        raise ArenaError(f"{where}: the game is over after these moves ({state.result_text()})")
    return tuple(found)
