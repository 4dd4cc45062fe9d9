"""Position strings: a whole position as one line of text, for games that have one.

Tests: tests/cli/test_solve.py

Othello uses the format of the FFO endgame test suite: one character per cell,
row by row from a1 (a1..h1, then a2..h2, ...), ``X`` for Black, ``O`` for White
and ``-`` for an empty cell, then whitespace and the side to move (``X`` or
``O``). Any board size works (``size * size`` characters). Anything after the
side to move is ignored, so lines of a test suite (``... X +38 a2 FFO#40``)
parse as they are.

>>> import arena
>>> game = arena.load_game("othello")
>>> text = format_position(game.initial_state())
>>> text
'---------------------------OX------XO--------------------------- X'
>>> parse_position(game, text) == game.initial_state()
True
>>> parse_position(game, "XO X")
Traceback (most recent call last):
...
arena.formats.position.PositionError: an othello position has 64 cells (X, O or -), not 2
>>> parse_position(arena.load_game("connect4"), "x")
Traceback (most recent call last):
...
arena.formats.position.PositionError: connect4 has no position string (only othello has one)
"""

from __future__ import annotations

from arena.core.errors import ArenaError
from arena.core.game import Game, State

GAMES = ("othello",)
"""The games that have a position string."""

_SYMBOLS = {"X": 0, "O": 1, "-": None}


class PositionError(ArenaError):
    """Text that is not a position string of the game."""


def has_position(game: Game) -> bool:
    """Whether the game has a position string."""
    return game.name in GAMES


def _require(game: Game) -> None:
    if not has_position(game):
        raise PositionError(f"{game.name} has no position string (only {', '.join(GAMES)} has one)")


def parse_position(game: Game, text: str) -> State:
    """The state a position string describes (ply 0: its history is unknown)."""
    _require(game)
    size: int = game.size  # type: ignore[attr-defined]
    fields = text.split()
    cells = fields[0] if fields else ""
    if len(cells) != size * size or any(ch.upper() not in _SYMBOLS for ch in cells):
        raise PositionError(
            f"an {game.name} position has {size * size} cells (X, O or -), not {len(cells)}"
            if len(cells) != size * size
            else f"a cell must be X, O or -: {cells!r}"
        )
    if len(fields) < 2 or fields[1].upper() not in ("X", "O"):
        raise PositionError("the cells must be followed by the side to move, X or O")
    owners: list[list[str]] = [[], []]
    for cell, ch in enumerate(cells):
        owner = _SYMBOLS[ch.upper()]
        if owner is not None:
            owners[owner].append(game.format_move(cell))
    return game.state_from_discs(  # type: ignore[attr-defined,no-any-return]
        owners[0], owners[1], to_move=_SYMBOLS[fields[1].upper()]
    )


def format_position(state: State) -> str:
    """The position string of a state."""
    game = state.game
    _require(game)
    size: int = game.size  # type: ignore[attr-defined]
    symbols = "XO"
    cells = "".join(
        "-" if (owner := state.disc(cell)) is None else symbols[owner]  # type: ignore[attr-defined]
        for cell in range(size * size)
    )
    return f"{cells} {symbols[state.to_move]}"
