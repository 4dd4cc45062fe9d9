"""A position as a network's input: planes over the board, and the game's action space.

Every encoding is relative to the player to move, so one network plays both sides:

====  ==========================================================================
0     the mover's stones (1.0 where the player to move has a stone or disc)
1     the opponent's stones
2     1.0 everywhere when the second player is to move (the side to move), else 0
3     1.0 everywhere: the board's extent, which zero padding at the edges hides
====  ==========================================================================

The planes are ``rows x cols`` with cell ``row * cols + col`` at ``[row, col]`` (Connect
Four counts rows from the bottom, as its ``stone`` does). A move's action index is the
move itself: Tic-tac-toe and Gomoku score their cells, Connect Four its columns, Othello
and Go their points and the pass (action ``size * size``). Go's planes show the stones
only: the search applies ko, superko and the end by two passes, and a network is for one
komi (the game's spec). Colosseum has no encoding yet.

>>> import arena
>>> game = arena.load_game("tictactoe")
>>> enc = encoding(game)
>>> (enc.channels, enc.rows, enc.cols, enc.actions)
(4, 3, 3, 9)
>>> x = encode(game.play_moves(game.parse_moves("b2")))   # X on the centre, O to move
>>> x[1].tolist(), float(x[2].min())
([[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 0.0]], 1.0)

Tests: tests/search/test_az.py
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from arena.core.errors import SpecError
from arena.core.game import Game, State

CHANNELS = 4
"""Input planes of every encoding (the table above)."""

ENCODED = ("tictactoe", "connect4", "gomoku", "othello", "go")
"""The games with an encoding."""


@dataclass(frozen=True)
class Encoding:
    """The shape of a game's network input and of its policy output."""

    channels: int
    rows: int
    cols: int
    actions: int


def encoding(game: Game) -> Encoding:
    """The input planes' shape and the number of actions for ``game`` (a
    :class:`~arena.core.errors.SpecError` for a game without an encoding)."""
    if game.name in ("tictactoe", "gomoku"):
        rows, cols = game.rows, game.cols  # type: ignore[attr-defined]
        return Encoding(CHANNELS, rows, cols, rows * cols)
    if game.name == "connect4":
        rows, cols = game.rows, game.cols  # type: ignore[attr-defined]
        return Encoding(CHANNELS, rows, cols, cols)
    if game.name in ("othello", "go"):
        size = game.size  # type: ignore[attr-defined]
        return Encoding(CHANNELS, size, size, size * size + 1)
    raise SpecError(
        f"az: no network encoding for {game.name} yet; games with one: {', '.join(ENCODED)}"
    )


def owner_function(state: State):  # type: ignore[no-untyped-def]
    """The state's ``cell -> 0 | 1 | None`` (who holds the cell)."""
    if state.game.name == "go":
        black, white = state.black, state.white  # type: ignore[attr-defined]
        return lambda cell: 0 if black >> cell & 1 else 1 if white >> cell & 1 else None
    return state.disc if state.game.name == "othello" else state.stone  # type: ignore[attr-defined]


def encode(state: State, out: np.ndarray | None = None) -> np.ndarray:
    """The ``(channels, rows, cols)`` float32 planes of ``state`` (written into ``out``
    when given, e.g. one row of a batch)."""
    enc = encoding(state.game)
    planes = np.zeros((enc.channels, enc.rows, enc.cols), np.float32) if out is None else out
    if out is not None:
        planes[:] = 0.0
    owner = owner_function(state)
    mover = state.to_move
    cols = enc.cols
    for cell in range(enc.rows * cols):
        who = owner(cell)
        if who is not None:
            planes[0 if who == mover else 1, cell // cols, cell % cols] = 1.0
    if mover == 1:
        planes[2] = 1.0
    planes[3] = 1.0
    return planes
