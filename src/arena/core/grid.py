"""Rectangular boards: cell indices, coordinate notation and text rendering.

Cells are numbered row by row from the top-left: ``index = row * cols + col``.
Notation follows each game's convention: a column letter then a row number,
with rows counted from the top (Tic-tac-toe, Othello) or from the bottom (Go,
Gomoku, where the letter I is skipped).

>>> g = Grid(9, 9, skip_i=True, rows_from_bottom=True, upper=True)
>>> g.format_cell(g.cell(0, 0)), g.format_cell(g.cell(8, 8))
('A9', 'J1')
>>> g.parse_cell("j1") == g.cell(8, 8)
True
>>> Grid(3, 3).format_cell(5)
'c2'

Tests: tests/core/test_game_api.py
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from arena.core.game import MoveSyntaxError
from arena.core.spec import is_digits

_LETTERS = "abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class Grid:
    rows: int
    cols: int
    skip_i: bool = False
    rows_from_bottom: bool = False
    upper: bool = False
    letters: str = field(init=False)

    def __post_init__(self) -> None:
        letters = _LETTERS.replace("i", "") if self.skip_i else _LETTERS
        if self.cols > len(letters):
            raise ValueError(f"at most {len(letters)} columns have letters")
        letters = letters[: self.cols]
        object.__setattr__(self, "letters", letters.upper() if self.upper else letters)

    @property
    def size(self) -> int:
        return self.rows * self.cols

    def cell(self, row: int, col: int) -> int:
        return row * self.cols + col

    def row_col(self, cell: int) -> tuple[int, int]:
        return divmod(cell, self.cols)

    def row_label(self, row: int) -> str:
        return str(self.rows - row if self.rows_from_bottom else row + 1)

    def format_cell(self, cell: int) -> str:
        row, col = divmod(cell, self.cols)
        return self.letters[col] + self.row_label(row)

    def parse_cell(self, text: str) -> int:
        """Parse ``d3``-style coordinates; raise MoveSyntaxError naming the valid range."""
        t = text.strip().lower()
        letters = self.letters.lower()
        first, last = self.letters[0], self.letters[-1]
        expected = f"a cell {first}1..{last}{self.rows}"
        if len(t) < 2 or t[0] not in letters or not is_digits(t[1:]):
            raise MoveSyntaxError(f"{text.strip()!r} is not {expected}")
        number = int(t[1:])
        if not 1 <= number <= self.rows:
            raise MoveSyntaxError(f"{text.strip()!r} is off the board: expected {expected}")
        row = self.rows - number if self.rows_from_bottom else number - 1
        return self.cell(row, letters.index(t[0]))

    def neighbours(self, cell: int) -> list[int]:
        """Orthogonal neighbours in the order up, right, down, left."""
        row, col = divmod(cell, self.cols)
        out = []
        if row > 0:
            out.append(cell - self.cols)
        if col < self.cols - 1:
            out.append(cell + 1)
        if row < self.rows - 1:
            out.append(cell + self.cols)
        if col > 0:
            out.append(cell - 1)
        return out

    def render(self, symbol: Callable[[int], str], width: int = 1) -> str:
        """The board with column letters above and below and row labels at both sides."""
        label_w = len(str(self.rows))
        pad = " " * (label_w + 1)
        head = pad + " ".join(c.rjust(width) for c in self.letters)
        lines = [head]
        for row in range(self.rows):
            label = self.row_label(row).rjust(label_w)
            cells = " ".join(symbol(self.cell(row, col)).rjust(width) for col in range(self.cols))
            lines.append(f"{label} {cells} {label}")
        lines.append(head)
        return "\n".join(lines)
