"""Helpers shared by the command modules.

Tests: tests/cli/test_cli.py
"""

from __future__ import annotations

from typing import Any

from arena.core.game import State
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
