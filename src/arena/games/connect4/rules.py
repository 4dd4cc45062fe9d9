"""Connect Four on any board: drop stones into columns, k in a line wins.

Moves are column indices (0-based ints); the notation is the 1-based column
number, so ``4453`` is a sequence of four moves on boards of up to nine
columns (use spaces between numbers on wider boards). Stone bits use the
:class:`~arena.core.bitboard.LineBoard` layout with row 0 at the bottom, so the
cell a stone drops to is the lowest free bit of its column.

>>> import arena
>>> game = arena.load_game("connect4")
>>> state = game.play_moves(game.parse_moves("4455667"))
>>> state.result_text()
'Red wins'
>>> print(state.render())
 1 2 3 4 5 6 7
 . . . . . . .
 . . . . . . .
 . . . . . . .
 . . . . . . .
 . . . O O O .
 . . . X X X X
 1 2 3 4 5 6 7

Tests: tests/games/test_kinarow.py
"""

from __future__ import annotations

import random

from arena.core.game import IllegalMove, MoveSyntaxError, Returns, State
from arena.core.spec import Param, is_digits
from arena.games.kinarow.rules import ONGOING, KInARowGame, KInARowState


class ConnectFourState(KInARowState):
    __slots__ = ()
    _game: ConnectFour

    def legal_moves(self) -> tuple[int, ...]:
        if self._outcome != ONGOING:
            return ()
        occupied = self._bits[0] | self._bits[1]
        return tuple(c for c, top in enumerate(self._game.top_bit) if not occupied & top)

    def _bit_of(self, move: int) -> int:
        game = self._game
        if not isinstance(move, int) or not 0 <= move < game.cols:
            raise IllegalMove(move, f"no such column (1..{game.cols})", repr(move))
        free = game.column_mask[move] & ~(self._bits[0] | self._bits[1])
        if not free:
            raise IllegalMove(move, "the column is full", game.format_move(move))
        return free & -free

    def _symbol(self, cell: int) -> str:
        # Cells render top row first; bits count rows from the bottom.
        game = self._game
        row, col = divmod(cell, game.cols)
        return super()._symbol((game.rows - 1 - row) * game.cols + col)

    def render(self) -> str:
        game = self._game
        head = " " + " ".join(str(c + 1).rjust(game.label_width) for c in range(game.cols))
        rows = [
            " "
            + " ".join(
                self._symbol(r * game.cols + c).rjust(game.label_width) for c in range(game.cols)
            )
            for r in range(game.rows)
        ]
        return "\n".join([head, *rows, head])


class ConnectFour(KInARowGame):
    name = "connect4"
    summary = "Connect Four: drop stones into columns, four (k) in a line wins"
    params = (
        Param("rows", int, 6, "board rows", low=4, high=20),
        Param("cols", int, 7, "board columns", low=4, high=20),
        Param("k", int, 4, "stones in a line to win", low=3, high=20),
    )
    player_names = ("Red", "Yellow")
    notation = "a column number, 1 at the left (a stone falls to the lowest free cell)"
    state_class = ConnectFourState

    def _setup(self, rows: int, cols: int, k: int) -> None:
        self._geometry(rows, cols, k)
        bit = self.lines.cell_bit
        self.column_mask = [sum(bit[r * cols + c] for r in range(rows)) for c in range(cols)]
        self.top_bit = [bit[(rows - 1) * cols + c] for c in range(cols)]
        self.label_width = len(str(cols))

    def format_move(self, move: int) -> str:
        if not isinstance(move, int) or not 0 <= move < self.cols:
            raise ValueError(f"no column {move!r}")
        return str(move + 1)

    def parse_move(self, text: str) -> int:
        t = text.strip()
        if not is_digits(t) or not 1 <= int(t) <= self.cols:
            raise MoveSyntaxError(f"{t!r} is not a column number 1..{self.cols}")
        return int(t) - 1

    def unpack(self, word: str) -> list[str]:
        """Packed digits (``4453``) are columns on boards of <= 9 columns."""
        return list(word) if self.cols <= 9 and is_digits(word) else [word]

    def playout(self, state: State, rng: random.Random, moves: list[int] | None = None) -> Returns:
        assert isinstance(state, ConnectFourState)
        if state._outcome != ONGOING:
            return state.returns()
        board = self._mailbox(state)
        width = self.mail_width
        # Mailbox row r + 1 holds bitboard row r (row 0 at the bottom), so a column
        # fills upward in steps of +width until it meets the sentinel row above the top.
        next_square = []
        for c in range(self.cols):
            square = width + c + 1
            while board[square] in (1, 2):
                square += width
            next_square.append(square)
        open_cols = [c for c in range(self.cols) if board[next_square[c]] == 0]
        n = len(open_cols)
        stone = state._to_move + 1
        rand = rng.random
        wins_at = self._wins_at
        while n:
            i = int(rand() * n)
            col = open_cols[i]
            square = next_square[col]
            board[square] = stone
            if moves is not None:
                moves.append(col)
            if wins_at(board, square, stone):
                return (1, -1) if stone == 1 else (-1, 1)
            square += width
            next_square[col] = square
            if board[square] == 3:  # the column is full
                n -= 1
                open_cols[i] = open_cols[n]
            stone = 3 - stone
        return (0, 0)
