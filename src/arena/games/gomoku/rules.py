"""Gomoku: five (k) in a row on a size x size board, placing anywhere.

``overline=win`` is freestyle Gomoku (six or more in a row also wins);
``overline=nowin`` counts only lines of exactly k. Notation as in Go: column
letters without I, row 1 at the bottom (``H8`` is the centre of 15x15).
Moves are cell indices ``row * size + col`` with row 0 at the top. Black
(player 0) starts.

>>> import arena
>>> game = arena.load_game("gomoku")
>>> state = game.play_moves(game.parse_moves("H8 A1 J8 A2 K8 A3 L8 A4 G8"))
>>> state.result_text()
'Black wins'
>>> six = "A8 A1 B8 A2 C8 A3 E8 A4 F8 B2 D8"
>>> arena.load_game("gomoku:overline=nowin").play_moves(game.parse_moves(six)).is_terminal()
False

Tests: tests/games/test_kinarow.py
"""

from __future__ import annotations

from arena.core.grid import Grid
from arena.core.spec import Param
from arena.games.kinarow.rules import PlaceAnywhereGame


class Gomoku(PlaceAnywhereGame):
    name = "gomoku"
    summary = "Gomoku: five in a row on a 15x15 board (freestyle, or exactly five)"
    params = (
        Param("size", int, 15, "board width and height", low=5, high=25),
        Param("k", int, 5, "stones in a line to win", low=3, high=25),
        Param(
            "overline", str, "win", "whether six or more in a row wins", choices=("win", "nowin")
        ),
    )
    player_names = ("Black", "White")
    notation = (
        "a point as in Go: its column letter (there is no I), then its row number counted "
        "from the bottom (H8 is the centre of 15x15)"
    )
    symbols = ("X", "O")

    def _setup(self, size: int, k: int, overline: str) -> None:
        self._geometry(size, size, k)
        self.exact = overline == "nowin"
        self.grid = Grid(size, size, skip_i=True, rows_from_bottom=True, upper=True)

    def format_move(self, move: int) -> str:
        return self.grid.format_cell(move)

    def parse_move(self, text: str) -> int:
        return self.grid.parse_cell(text)
