"""Helpers shared by the command modules.

Tests: tests/cli/test_cli.py
"""

from __future__ import annotations


def add_game_argument(parser, help_text: str = "game spec, e.g. connect4 or go:size=5") -> None:  # type: ignore[no-untyped-def]
    parser.add_argument("game", metavar="GAME", help=help_text + " (see 'arena games')")
