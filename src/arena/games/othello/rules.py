"""Othello (Reversi) on an even ``size`` x ``size`` board, 4..16.

Rules as implemented
--------------------
* The board starts with four discs in the centre: with ``h = size // 2`` and
  rows counted from the top, White on (h-1, h-1) and (h, h), Black on
  (h-1, h) and (h, h-1) -- d4/e5 White and d5/e4 Black on 8x8. Black
  (player 0) moves first.
* A move places a disc of the mover's colour on an empty cell so that, in at
  least one of the eight directions, a contiguous line of opponent discs is
  closed off by a disc of the mover's. Every such line, in every direction,
  is flipped. Lines do not wrap around the board edges.
* ``rule=standard``: a player with no placement must pass, and passing is then
  the only legal move; the game ends when neither player can place a disc
  (the board is full, one colour is gone, or simply no placement is left).
  ``rule=nomove-ends``: the game ends as soon as the player to move has no
  placement; there is no pass.
* The winner has more discs at the end; equal counts are a draw.
  :meth:`OthelloState.score` is Black's discs minus White's.

Moves and notation
------------------
A placement is the cell index ``row * size + col`` (rows from the top) and is
written ``d3``: column letter ``a..`` from the left, then the row number ``1..``
from the top. The pass is ``size * size`` and is written ``pass``.

Representation
--------------
A state is two bitboards in Python ints (bit ``row * size + col``), so a state
is small, immutable and cheap to hash. Placements are found with shift-and
fills in the eight directions: the opponent's discs are masked to the inner
columns for the six directions with a horizontal step, so a run never wraps
from one row's edge into the next row. Each fill stops as soon as its ray of
opponent discs ends, which is after one or two steps in most positions.

The random playout (:meth:`Othello.playout`) uses a flat list instead: one
entry per cell (+1 Black, -1 White, 0 empty, so the disc difference is the sum
of the list) and a frontier of the empty cells next to a disc, which holds every
legal placement. It draws frontier cells without replacement until one flips
something -- testing and flipping in the same walk along precomputed rays -- so
the move played is uniform over the legal placements without generating them
all. Measured on 8x8, this is over twice as fast as playing out with the
bitboards, which must generate every placement at every ply.

Tests: tests/games/test_othello.py
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from arena.core.bitboard import iter_bits
from arena.core.errors import IllegalMove, MoveSyntaxError, SpecError
from arena.core.game import Game, Returns, State, returns_of_margin
from arena.core.grid import Grid
from arena.core.hashing import hash_ints
from arena.core.spec import Param

BLACK, WHITE = 0, 1
_SYMBOLS = {BLACK: "X", WHITE: "O"}
_RULES = ("standard", "nomove-ends")
# (row step, col step) of the eight directions.
_STEPS = ((0, 1), (1, 0), (1, 1), (1, -1), (0, -1), (-1, 0), (-1, -1), (-1, 1))


class Othello(Game):
    """Othello on an even square board.

    >>> game = Othello()
    >>> state = game.initial_state()
    >>> [game.format_move(m) for m in state.legal_moves()]
    ['d3', 'c4', 'f5', 'e6']
    >>> state = state.play(game.parse_move("D3"))
    >>> print(state.render())
      a b c d e f g h
    1 . . . . . . . . 1
    2 . . . . . . . . 2
    3 . . . X . . . . 3
    4 . . . X X . . . 4
    5 . . . X O . . . 5
    6 . . . . . . . . 6
    7 . . . . . . . . 7
    8 . . . . . . . . 8
      a b c d e f g h
    X 4  O 1  White to move, last move d3
    >>> state.score(), [game.format_move(m) for m in state.legal_moves()]
    (3, ['c3', 'e3', 'c5'])
    >>> small = Othello(size=4)
    >>> small.spec, small.format_move(small.PASS), small.parse_move("pass")
    ('othello:size=4', 'pass', 16)
    >>> Othello(size=5)
    Traceback (most recent call last):
    ...
    arena.core.errors.SpecError: othello: size=5 must be even
    """

    name = "othello"
    summary = "Othello/Reversi: outflank and flip discs; most discs wins"
    params = (
        Param("size", int, 8, "board side (even)", low=4, high=16),
        Param(
            "rule",
            str,
            "standard",
            "standard: a player with no placement passes, the game ends when neither can "
            "place; nomove-ends: the game ends when the player to move cannot place",
            choices=_RULES,
        ),
    )
    player_names: ClassVar[tuple[str, str]] = ("Black", "White")
    notation = (
        "a square: its column letter, then its row number counted from the top (d3); "
        "'pass' when it is the only move"
    )

    size: int
    PASS: int

    def _setup(self, *, size: int, rule: str) -> None:
        if size % 2:
            raise SpecError(f"othello: size={size} must be even")
        n = size
        cells = n * n
        self.size = n
        self.PASS = cells
        self.can_pass = rule == "standard"
        self.grid = Grid(n, n)
        self._full = (1 << cells) - 1
        inner_cols = 0
        for row in range(n):
            inner_cols |= ((1 << (n - 2)) - 1) << (row * n + 1)
        # (shift, needs the inner-column mask) for the four directions that
        # raise the bit index and, by symmetry, lower it.
        self._shifts = ((1, True), (n, False), (n + 1, True), (n - 1, True))
        self._inner = inner_cols
        h = n // 2
        cell = self.grid.cell
        self._start = (
            (1 << cell(h - 1, h)) | (1 << cell(h, h - 1)),
            (1 << cell(h - 1, h - 1)) | (1 << cell(h, h)),
        )
        # For the playout: rays of at least two cells (a flip needs an
        # opponent disc and one of the mover's beyond it) and the neighbours
        # of each cell.
        rays: list[tuple[tuple[int, ...], ...]] = []
        neighbours: list[tuple[int, ...]] = []
        for c in range(cells):
            row, col = divmod(c, n)
            mine, near = [], []
            for dr, dc in _STEPS:
                ray = []
                r, k = row + dr, col + dc
                while 0 <= r < n and 0 <= k < n:
                    ray.append(cell(r, k))
                    r, k = r + dr, k + dc
                if ray:
                    near.append(ray[0])
                if len(ray) >= 2:
                    mine.append(tuple(ray))
            rays.append(tuple(mine))
            neighbours.append(tuple(near))
        self._rays = tuple(rays)
        self._neighbours = tuple(neighbours)

    def initial_state(self, seed: int | None = None) -> OthelloState:
        return OthelloState._make(self, self._start[BLACK], self._start[WHITE], BLACK, 0, -1)

    def state_from_discs(
        self, black: list[str] | str, white: list[str] | str, to_move: int = BLACK
    ) -> OthelloState:
        """A position with discs on the named cells (for tests and analysis).

        >>> game = Othello(size=4)
        >>> s = game.state_from_discs("a1 b1", "c1", to_move=WHITE)
        >>> [game.format_move(m) for m in s.legal_moves()]
        ['pass']
        """
        black_bits = self._bits(black)
        white_bits = self._bits(white)
        if black_bits & white_bits:
            raise ValueError("a cell cannot hold both colours")
        if to_move not in (BLACK, WHITE):
            raise ValueError("to_move must be 0 (Black) or 1 (White)")
        return OthelloState._make(self, black_bits, white_bits, to_move, 0, -1)

    def _bits(self, cells: list[str] | str) -> int:
        texts = cells.replace(",", " ").split() if isinstance(cells, str) else cells
        bits = 0
        for text in texts:
            bits |= 1 << self.grid.parse_cell(text)
        return bits

    def format_move(self, move: int) -> str:
        if move == self.PASS:
            return "pass"
        if isinstance(move, int) and 0 <= move < self.PASS:
            return self.grid.format_cell(move)
        return repr(move)

    def parse_move(self, text: str) -> int:
        t = text.strip().lower()
        if t == "pass":
            return self.PASS
        try:
            return self.grid.parse_cell(t)
        except MoveSyntaxError as err:
            raise MoveSyntaxError(f"{err}, or 'pass'") from None

    def placements(self, me: int, opp: int) -> int:
        """The bitboard of cells where the owner of ``me`` can place a disc."""
        empty = ~(me | opp) & self._full
        inner = opp & self._inner
        moves = 0
        for shift, masked in self._shifts:
            o = inner if masked else opp
            t = (me << shift) & o
            while t:
                t <<= shift
                moves |= t & empty
                t &= o
            t = (me >> shift) & o
            while t:
                t >>= shift
                moves |= t & empty
                t &= o
        return moves

    def flips(self, me: int, opp: int, cell: int) -> int:
        """The opponent discs flipped by placing on ``cell`` (0 when none)."""
        bit = 1 << cell
        inner = opp & self._inner
        flips = 0
        for shift, masked in self._shifts:
            o = inner if masked else opp
            run, t = 0, (bit << shift) & o
            while t:
                run |= t
                t <<= shift
                if t & me:
                    flips |= run
                    break
                t &= o
            run, t = 0, (bit >> shift) & o
            while t:
                run |= t
                t >>= shift
                if t & me:
                    flips |= run
                    break
                t &= o
        return flips

    def playout(self, state: State, rng: random.Random, moves: list[int] | None = None) -> Returns:
        """Random placements on a flat list with a frontier (see the module docstring).

        >>> game = Othello(size=6)
        >>> line = []
        >>> returns = game.playout(game.initial_state(), random.Random(3), line)
        >>> game.play_moves(line).returns() == returns
        True
        """
        assert isinstance(state, OthelloState)
        if state.is_terminal():
            return state.returns()
        cells = self.PASS
        board = [0] * cells
        for c in iter_bits(state._black):
            board[c] = 1
        for c in iter_bits(state._white):
            board[c] = -1
        neighbours, rays = self._neighbours, self._rays
        front = [c for c in range(cells) if not board[c] and any(board[x] for x in neighbours[c])]
        in_front = bytearray(cells)
        for c in front:
            in_front[c] = 1
        randrange = rng.randrange
        record = moves.append if moves is not None else None
        me = 1 if state._to_move == BLACK else -1
        while True:
            opp = -me
            n = len(front)
            k = 0
            while k < n:
                i = k + randrange(n - k)
                c = front[i]
                placed = False
                for ray in rays[c]:
                    # Most rays fail on their first cell; the walk re-reads it so that
                    # j counts the whole run of opponent discs.
                    if board[ray[0]] != opp:
                        continue
                    j = 0
                    for x in ray:
                        v = board[x]
                        if v == opp:
                            j += 1
                            continue
                        if v == me:
                            placed = True
                            for y in ray[:j]:
                                board[y] = me
                        break
                if placed:
                    break
                front[i] = front[k]
                front[k] = c
                k += 1
            else:
                if self.can_pass and _can_place(board, front, rays, opp, me):
                    if record is not None:
                        record(self.PASS)
                    me = opp
                    continue
                total = sum(board)
                return returns_of_margin(total)
            board[c] = me
            front[i] = front[-1]
            front.pop()
            for x in neighbours[c]:
                if not board[x] and not in_front[x]:
                    in_front[x] = 1
                    front.append(x)
            if record is not None:
                record(c)
            me = opp


def _can_place(
    board: list[int],
    front: list[int],
    rays: tuple[tuple[tuple[int, ...], ...], ...],
    me: int,
    opp: int,
) -> bool:
    """Whether ``me`` has a placement among the frontier cells (the playout's pass test)."""
    for c in front:
        for ray in rays[c]:
            if board[ray[0]] != opp:
                continue
            for x in ray[1:]:
                v = board[x]
                if v != opp:
                    if v == me:
                        return True
                    break
    return False


class OthelloState(State):
    """An Othello position: Black's and White's discs as bitboards and the side to move."""

    __slots__ = ("_black", "_last", "_moves", "_over", "_white")

    _game: Othello
    _black: int
    _white: int
    _last: int
    _moves: int
    _over: bool

    @classmethod
    def _make(
        cls, game: Othello, black: int, white: int, to_move: int, ply: int, last: int
    ) -> OthelloState:
        s = cls.__new__(cls)
        s._game, s._black, s._white = game, black, white
        s._to_move, s._ply, s._last = to_move, ply, last
        return s

    def _sides(self) -> tuple[int, int]:
        """(mover's discs, opponent's discs)."""
        if self._to_move == BLACK:
            return self._black, self._white
        return self._white, self._black

    @property
    def game(self) -> Othello:
        return self._game

    @property
    def black(self) -> int:
        """Black's discs as a bitboard (bit ``row * size + col``)."""
        return self._black

    @property
    def white(self) -> int:
        """White's discs as a bitboard."""
        return self._white

    def placements(self) -> int:
        """The cells where the side to move can place a disc, as a bitboard (computed
        once per state; :meth:`Othello.placements` answers for any two bitboards).

        >>> state = Othello(size=4).initial_state()
        >>> [state.game.format_move(m) for m in iter_bits(state.placements())]
        ['b1', 'a2', 'd3', 'c4']
        """
        try:
            return self._moves
        except AttributeError:
            me, opp = self._sides()
            moves = self._moves = self._game.placements(me, opp)
            return moves

    def is_terminal(self) -> bool:
        try:
            return self._over
        except AttributeError:
            game = self._game
            if self.placements():
                over = False
            elif not game.can_pass:
                over = True
            else:
                me, opp = self._sides()
                over = not game.placements(opp, me)
            self._over = over
            return over

    def legal_moves(self) -> tuple[int, ...]:
        moves = self.placements()
        if moves:
            return tuple(iter_bits(moves))
        return () if self.is_terminal() else (self._game.PASS,)

    def play(self, move: int) -> OthelloState:
        game = self._game
        if not isinstance(move, int) or isinstance(move, bool) or not 0 <= move <= game.PASS:
            raise IllegalMove(
                move, f"not a move: expected a cell 0..{game.PASS - 1} or pass ({game.PASS})"
            )
        text = game.format_move(move)
        if self.is_terminal():
            raise IllegalMove(move, "the game is over", text=text)
        moves = self.placements()
        me, opp = self._sides()
        if move == game.PASS:
            if not game.can_pass:
                raise IllegalMove(move, "there is no pass under rule=nomove-ends", text=text)
            if moves:
                raise IllegalMove(move, "a pass is legal only when no placement is", text=text)
            me_after, opp_after = me, opp
        else:
            if not moves >> move & 1:
                reason = "the cell is occupied" if (me | opp) >> move & 1 else "it flips no discs"
                raise IllegalMove(move, reason, text=text)
            flips = game.flips(me, opp, move)
            me_after, opp_after = me | flips | 1 << move, opp & ~flips
        if self._to_move == BLACK:
            return OthelloState._make(game, me_after, opp_after, WHITE, self._ply + 1, move)
        return OthelloState._make(game, opp_after, me_after, BLACK, self._ply + 1, move)

    def disc(self, cell: int) -> int | None:
        """Who owns the disc on ``cell``: 0 (Black), 1 (White) or None (empty)."""
        if self._black >> cell & 1:
            return BLACK
        return WHITE if self._white >> cell & 1 else None

    def discs(self) -> tuple[int, int]:
        """(Black's discs, White's discs)."""
        return self._black.bit_count(), self._white.bit_count()

    def score(self) -> int:
        black, white = self.discs()
        return black - white

    def returns(self) -> Returns:
        if not self.is_terminal():
            return (0, 0)
        return returns_of_margin(self.score())

    def _ident(self) -> tuple[Any, ...]:
        return (self._black, self._white, self._to_move)

    def _compute_key(self) -> int:
        return hash_ints(self._black, self._white, self._to_move)

    def render(self) -> str:
        game = self._game

        def symbol(cell: int) -> str:
            owner = self.disc(cell)
            return "." if owner is None else _SYMBOLS[owner]

        b, w = self.discs()
        status = self.result_text()
        if self._last >= 0:
            status += f", last move {game.format_move(self._last)}"
        return f"{game.grid.render(symbol)}\nX {b}  O {w}  {status}"
