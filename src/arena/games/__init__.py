"""The games arena knows, by spec name, in the order ``arena games`` lists them.

Modules are imported on first use, so loading one game does not import all six.
"""

from __future__ import annotations

from importlib import import_module

from arena.game import Game

_WHERE = {
    "tictactoe": "arena.games.tictactoe:TicTacToe",
    "connect4": "arena.games.connect4:ConnectFour",
    "othello": "arena.games.othello:Othello",
    "gomoku": "arena.games.gomoku:Gomoku",
    "go": "arena.games.go:Go",
    "colosseum": "arena.games.colosseum:Colosseum",
}

NAMES: tuple[str, ...] = tuple(_WHERE)


def game_class(name: str) -> type[Game]:
    """The Game subclass registered as ``name`` (KeyError when unknown)."""
    module, _, cls = _WHERE[name].partition(":")
    return getattr(import_module(module), cls)  # type: ignore[no-any-return]


def all_games() -> dict[str, type[Game]]:
    return {name: game_class(name) for name in NAMES}
