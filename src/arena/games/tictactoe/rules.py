"""Tic-tac-toe, and any m,n,k-game: k in a row on an n-row, m-column board.

Notation: ``a1`` .. ``c3`` — the column letter left to right, the row number
top to bottom. Moves are cell indices ``row * m + col``. X (player 0) starts.

>>> import arena
>>> game = arena.load_game("tictactoe")
>>> state = game.play_moves(game.parse_moves("b2 a1 c1 a3 a2 c2 b1 b3 c3"))
>>> state.is_terminal(), state.result_text()
(True, 'draw')
>>> print(state.render())
  a b c
1 O X X 1
2 X X O 2
3 O O X 3
  a b c

Tests: tests/games/test_kinarow.py
"""

from __future__ import annotations

from arena.core.grid import Grid
from arena.core.spec import Param
from arena.games.kinarow.rules import PlaceAnywhereGame


class TicTacToe(PlaceAnywhereGame):
    name = "tictactoe"
    summary = "Tic-tac-toe, or any m,n,k-game (k in a row on an m-wide, n-high board)"
    params = (
        Param("m", int, 3, "columns", low=1, high=26),
        Param("n", int, 3, "rows", low=1, high=26),
        Param("k", int, 3, "stones in a line to win", low=1, high=26),
    )
    player_names = ("X", "O")
    notation = (
        "a cell: its column letter, then its row number counted from the top (b2 is the "
        "centre of 3x3)"
    )

    def _setup(self, m: int, n: int, k: int) -> None:
        self._geometry(n, m, k)
        self.grid = Grid(n, m)

    def format_move(self, move: int) -> str:
        return self.grid.format_cell(move)

    def parse_move(self, text: str) -> int:
        return self.grid.parse_cell(text)
