"""The k-in-a-row family shared by Tic-tac-toe, Gomoku and Connect Four.

Positions are two bitboards in a :class:`~arena.core.bitboard.LineBoard` layout
(one padding column, so a run test is a few shifts per direction). Only the
player who just moved can have made a line, so ``play`` tests that player's
stones once and stores the outcome in the new state.

Random playouts use a padded mailbox list instead: placing a stone and
counting the run through it in four directions touches a few list cells,
which in Python is cheaper than whole-board shifts on every ply.

Tests: tests/games/test_kinarow.py
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from arena.core.bitboard import LineBoard
from arena.core.errors import IllegalMove, SpecError
from arena.core.game import Game, Returns, State
from arena.core.hashing import hash_ints

ONGOING, DRAW = -1, 2
_RETURNS: dict[int, Returns] = {ONGOING: (0, 0), 0: (1, -1), 1: (-1, 1), DRAW: (0, 0)}


class KInARowGame(Game):
    """A rows x cols board where k stones in a line (any direction) win."""

    symbols: ClassVar[tuple[str, str]] = ("X", "O")
    rows: int
    cols: int
    k: int
    exact: bool = False  # overline rule: only a line of exactly k wins

    def _geometry(self, rows: int, cols: int, k: int) -> None:
        if k > max(rows, cols):
            raise SpecError(f"{self.name}: k={k} cannot fit on a {rows}x{cols} board")
        self.rows, self.cols, self.k = rows, cols, k
        self.lines = LineBoard(rows, cols)
        self.cells = rows * cols
        # The mailbox for playouts: a border of sentinel cells (3) around the board.
        width = cols + 2
        self.mail_width = width
        self.mail_of_cell = [(r + 1) * width + c + 1 for r in range(rows) for c in range(cols)]
        self.cell_of_mail = {m: i for i, m in enumerate(self.mail_of_cell)}
        self.mail_dirs = (1, width, width + 1, width - 1)

    def initial_state(self, seed: int | None = None) -> KInARowState:
        return self.state_class._make(self, (0, 0), 0, 0, -1, ONGOING)

    state_class: ClassVar[type[KInARowState]]

    def _mailbox(self, state: KInARowState) -> list[int]:
        board = [3] * ((self.rows + 2) * self.mail_width)
        b0, b1 = state._bits
        for cell, bit in enumerate(self.lines.cell_bit):
            board[self.mail_of_cell[cell]] = 1 if b0 & bit else 2 if b1 & bit else 0
        return board

    def _wins_at(self, board: list[int], square: int, stone: int) -> bool:
        """Whether the stone just placed on ``square`` completes a winning line."""
        k, exact = self.k, self.exact
        for d in self.mail_dirs:
            count = 1
            s = square + d
            while board[s] == stone:
                count += 1
                s += d
            s = square - d
            while board[s] == stone:
                count += 1
                s -= d
            if count == k or (count > k and not exact):
                return True
        return False


class KInARowState(State):
    __slots__ = ("_bits", "_last", "_outcome")

    _game: KInARowGame
    _bits: tuple[int, int]
    _last: int
    _outcome: int

    @classmethod
    def _make(
        cls,
        game: KInARowGame,
        bits: tuple[int, int],
        to_move: int,
        ply: int,
        last: int,
        outcome: int,
    ) -> KInARowState:
        s = cls.__new__(cls)
        s._game, s._bits, s._to_move, s._ply, s._last, s._outcome = (
            game,
            bits,
            to_move,
            ply,
            last,
            outcome,
        )
        return s

    @property
    def game(self) -> KInARowGame:
        return self._game

    @property
    def bits(self) -> tuple[int, int]:
        """The first and the second player's stones, as bitboards in the game's
        :class:`~arena.core.bitboard.LineBoard` layout (``game.lines``).

        >>> import arena
        >>> game = arena.load_game("tictactoe")
        >>> x, o = game.play_moves(game.parse_moves("a1 b2 b1")).bits
        >>> game.lines.cells_of_bits(x), game.lines.cells_of_bits(o)
        ([0, 1], [4])
        """
        return self._bits

    def _bit_of(self, move: int) -> int:
        """The bit the move puts a stone on; raises IllegalMove when it cannot."""
        raise NotImplementedError

    def _cell_of_bit(self, bit: int) -> int:
        lines = self._game.lines
        index = bit.bit_length() - 1
        return index // lines.stride * lines.cols + index % lines.stride

    def play(self, move: int) -> KInARowState:
        game = self._game
        if self._outcome != ONGOING:
            raise IllegalMove(move, "the game is over", self._text(move))
        bit = self._bit_of(move)
        mover = self._to_move
        bits = self._bits
        mine = bits[mover] | bit
        new = (mine, bits[1]) if mover == 0 else (bits[0], mine)
        outcome = ONGOING
        # A line of k needs k stones of the mover: before that, skip the test.
        if self._ply >= 2 * game.k - 2 and (
            game.lines.has_exact_run(mine, game.k)
            if game.exact
            else game.lines.has_run(mine, game.k)
        ):
            outcome = mover
        elif self._ply + 1 == game.cells:
            outcome = DRAW
        return type(self)._make(game, new, 1 - mover, self._ply + 1, move, outcome)

    def _text(self, move: Any) -> str:
        try:
            return self._game.format_move(move)
        except (TypeError, ValueError, IndexError):
            return repr(move)

    def is_terminal(self) -> bool:
        return self._outcome != ONGOING

    def returns(self) -> Returns:
        return _RETURNS[self._outcome]

    def _ident(self) -> tuple[Any, ...]:
        return (self._bits, self._to_move)

    def _compute_key(self) -> int:
        return hash_ints(self._bits[0], self._bits[1], self._to_move)

    def _symbol(self, cell: int) -> str:
        bit = self._game.lines.cell_bit[cell]
        b0, b1 = self._bits
        symbols = self._game.symbols
        return symbols[0] if b0 & bit else symbols[1] if b1 & bit else "."

    def render(self) -> str:
        return self._game.grid.render(self._symbol)  # type: ignore[attr-defined]


class PlaceAnywhereState(KInARowState):
    """Tic-tac-toe and Gomoku: a move is any empty cell."""

    __slots__ = ()

    def legal_moves(self) -> tuple[int, ...]:
        if self._outcome != ONGOING:
            return ()
        occupied = self._bits[0] | self._bits[1]
        return tuple(c for c, bit in enumerate(self._game.lines.cell_bit) if not occupied & bit)

    def _bit_of(self, move: int) -> int:
        game = self._game
        if not isinstance(move, int) or not 0 <= move < game.cells:
            raise IllegalMove(move, f"not a cell of the {game.rows}x{game.cols} board", repr(move))
        bit = game.lines.cell_bit[move]
        if (self._bits[0] | self._bits[1]) & bit:
            raise IllegalMove(move, "the cell is occupied", game.format_move(move))
        return bit


class PlaceAnywhereGame(KInARowGame):
    state_class = PlaceAnywhereState

    def playout(self, state: State, rng: random.Random, moves: list[int] | None = None) -> Returns:
        assert isinstance(state, PlaceAnywhereState)
        if state._outcome != ONGOING:
            return state.returns()
        board = self._mailbox(state)
        empty = [m for m in self.mail_of_cell if board[m] == 0]
        n = len(empty)
        stone = state._to_move + 1
        rand = rng.random
        wins_at = self._wins_at
        cell_of = self.cell_of_mail
        # Stones already on the board cannot make a line before k of the mover's exist.
        while n:
            # Uniform over the empty cells: random() has 53 bits, far finer than n.
            i = int(rand() * n)
            square = empty[i]
            n -= 1
            empty[i] = empty[n]
            board[square] = stone
            if moves is not None:
                moves.append(cell_of[square])
            if wins_at(board, square, stone):
                return (1, -1) if stone == 1 else (-1, 1)
            stone = 3 - stone
        return (0, 0)
