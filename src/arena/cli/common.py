"""Helpers shared by the command modules.

Tests: tests/cli/test_cli.py
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from arena.core.errors import ArenaError
from arena.core.game import Game, State, position
from arena.formats.position import parse_position
from arena.formats.sgf import from_sgf
from arena.games import load_game
from arena.search.report import format_search


def add_game_argument(parser, help_text: str = "game spec, e.g. connect4 or go:size=5") -> None:  # type: ignore[no-untyped-def]
    parser.add_argument("game", metavar="GAME", help=help_text + " (see 'arena games')")


def move_line(state: State, move: int, seconds: float, who: str) -> str:
    """One move as ``arena play`` prints it: ply, player, move, time."""
    return (
        f"{state.ply + 1:>3}. {who:<8} {state.game.format_move(move):<8} {seconds * 1000:8.1f} ms"
    )


def search_table(info: Any, rows: int = 5) -> str:
    """The search behind a move (``--show-search``), or why there is none."""
    if info is None or not getattr(info, "root", None):
        return "    (no search reported)"
    return format_search(info, rows)


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


def add_position_option(parser) -> None:  # type: ignore[no-untyped-def]
    parser.add_argument(
        "--position",
        metavar="TEXT",
        default=None,
        help="start from this position string instead of the initial position (Othello: "
        "64 cells a1..h8 row by row, X O or -, then the side to move, as in the FFO suite)",
    )


def position_from(
    game: Game, moves: list[str], seed: int | None = None, text: str | None = None
) -> State:
    """:func:`~arena.core.game.position` from the initial state, or from the
    position string ``text`` (``--position``) when there is one."""
    if text is None:
        return position(game, moves, seed)
    state = parse_position(game, text)
    for number, move in enumerate(game.parse_moves(list(moves)), 1):
        try:
            state = state.play(move)
        except ArenaError as exc:
            raise ArenaError(f"move {number}: {exc}") from None
    return state
