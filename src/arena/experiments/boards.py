"""Where each game's moves land on its board, for figures drawn over the board.

:func:`board_view` gives a position's board as rows and columns (row 0 at the
top, as printed), the pieces on it, and the cell a move marks: the cell itself
in Tic-tac-toe, Othello, Gomoku and Go; the cell the stone drops to in Connect
Four; the destination cell of the walk in Colosseum Survival. Passes have no
cell (``None``).

>>> import arena
>>> game = arena.load_game("connect4")
>>> view = board_view(game.play_moves(game.parse_moves("44")))
>>> view.rows, view.cols, view.cell_of(3), view.pieces[5][3], view.pieces[4][3]
(6, 7, (3, 3), 'X', 'O')

Tests: tests/experiments/test_heatmap.py
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from arena.core.game import State

Cell = tuple[int, int]


@dataclass(frozen=True)
class BoardView:
    rows: int
    cols: int
    row_labels: list[str]
    """Top to bottom, in the game's notation."""
    col_labels: list[str]
    pieces: list[list[str]]
    """The symbol on each cell (``.`` for empty), ``pieces[row][col]``."""
    cell_of: Callable[[int], Cell | None]
    """The cell a move marks, or None for a pass."""
    walls: list[tuple[Cell, Cell]] = field(default_factory=list)
    """Wall segments between grid points (row, col) of cell corners (Colosseum)."""


def board_view(state: State) -> BoardView:
    game = state.game
    if game.name == "connect4":
        return _connect4(state)
    if game.name == "colosseum":
        return _colosseum(state)
    grid = game.grid  # type: ignore[attr-defined]
    rows, cols = grid.rows, grid.cols

    def cell_of(move: int) -> Cell | None:
        return grid.row_col(move) if move < rows * cols else None  # beyond the board: pass

    return BoardView(
        rows,
        cols,
        [grid.row_label(r) for r in range(rows)],
        list(grid.letters),
        _pieces(state, rows, cols, labelled=True),
        cell_of,
    )


def _pieces(state: State, rows: int, cols: int, labelled: bool) -> list[list[str]]:
    """The symbols of the board's rows as ``render`` prints them, under the column
    header: one token per cell, between the row labels when the board has them."""
    lines = state.render().splitlines()[1 : 1 + rows]
    pieces = [line.split()[1:-1] if labelled else line.split() for line in lines]
    if len(pieces) != rows or any(len(row) != cols for row in pieces):
        raise ValueError(f"{state.game.spec}: unexpected board text:\n{state.render()}")
    return pieces


def _connect4(state: State) -> BoardView:
    game = state.game
    rows, cols = game.rows, game.cols  # type: ignore[attr-defined]
    pieces = _pieces(state, rows, cols, labelled=False)

    def cell_of(move: int) -> Cell:
        empty = [r for r in range(rows) if pieces[r][move] == "."]
        return (max(empty) if empty else 0), move  # the lowest empty cell of the column

    return BoardView(
        rows,
        cols,
        [str(rows - r) for r in range(rows)],
        [str(c + 1) for c in range(cols)],
        pieces,
        cell_of,
    )


def _colosseum(state: State) -> BoardView:
    size = state.size  # type: ignore[attr-defined]
    stride = state.game.stride  # type: ignore[attr-defined]
    pieces = [["."] * size for _ in range(size)]
    for name, (r, c) in zip(state.game.player_names, state.positions):  # type: ignore[attr-defined]
        pieces[r][c] = name
    walls = []
    for r in range(size):
        for c in range(size):
            if state.has_wall(r, c, "u"):  # type: ignore[attr-defined]
                walls.append(((r, c), (r, c + 1)))
            if state.has_wall(r, c, "l"):  # type: ignore[attr-defined]
                walls.append(((r, c), (r + 1, c)))
            if r == size - 1 and state.has_wall(r, c, "d"):  # type: ignore[attr-defined]
                walls.append(((r + 1, c), (r + 1, c + 1)))
            if c == size - 1 and state.has_wall(r, c, "r"):  # type: ignore[attr-defined]
                walls.append(((r, c + 1), (r + 1, c + 1)))

    def cell_of(move: int) -> Cell:
        return divmod(move >> 2, stride)

    labels = [str(i) for i in range(size)]
    return BoardView(size, size, labels, labels, pieces, cell_of, walls)
