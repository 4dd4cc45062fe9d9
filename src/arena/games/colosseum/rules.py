"""Colosseum Survival: walk, then wall off a side of your cell, until you are apart.

Rules as implemented
--------------------
* The board is ``size`` x ``size`` cells (M). Walls lie on cell *edges*; the
  outer border is always walled. A wall between two neighbouring cells is one
  wall: it is the ``d`` side of the upper cell and the ``u`` side of the lower
  one (``r`` of the left cell and ``l`` of the right one).
* Set-up (:meth:`Colosseum.initial_state`, drawn from ``seed``; ``seed=None``
  is seed 0, so the default start is always the same board): when ``size`` is
  not given, M is drawn uniformly from 6..12 (the course's range). Then
  ``walls`` pairs of distinct inner walls (default ``M // 2`` pairs) are drawn,
  each pair a wall and its mirror image through the board centre, and player
  A (0) gets a random cell and B (1) its mirror ``(M-1-r, M-1-c)``. The cells
  must differ (the centre cell of an odd board is redrawn) and the players
  must start connected; otherwise the whole set-up is drawn again from the
  same stream. ``setup=course`` draws the course simulator's boards instead:
  M from 6..11 (its ``np.random.randint(6, 12)`` excludes 12) and (M + 1) // 2
  wall pairs, so results compare with what students measured there (under the
  course's clock, 30 s for a player's first move and 2 s for each other:
  ``--time move:2,first:30``).
  ``size`` is 3..20; ``walls`` is at most a quarter of the inner
  edges, ``M * (M - 1) // 4`` pairs (7 when the size is drawn, for M = 6), so
  redraws stay rare. :meth:`Colosseum.position` builds any other position.
* A moves first; players alternate. A move walks 0..K steps, K = (M+1)//2,
  each step up, right, down or left, never through a wall and never onto the
  opponent's cell (cells may be revisited: only reaching the cell within K
  steps matters), then puts a wall on a free side of the destination cell.
* The game ends as soon as no path joins the two players (walls only; the
  players themselves do not block). Each then scores the size of its region,
  the cells it can reach; the larger region wins, equal regions draw.
  :meth:`ColosseumState.score` is A's region minus B's; before the end it is
  the Voronoi count: the cells A reaches in strictly fewer steps than B minus
  those B reaches first (which is the same count once the players are apart).
* A player to move always has a legal move: while the players are connected
  the mover's cell has an open side, and staying put to close it is a move.
  So there is no pass and no stalemate rule. Every move adds one inner wall,
  so a game lasts at most 2*M*(M-1) plies.

Moves and notation
------------------
A move is ``(r * W + c) * 4 + d`` for destination row ``r`` and column ``c``
(0-based, rows from the top) and side ``d`` in the order u=0, r=1, d=2, l=3.
W is the game's :attr:`~Colosseum.stride`: ``size`` when it is given, 12 (the
largest drawn size) when the size is drawn, so a move means the same on every
board of a game. It is written ``r,c,side``, e.g. ``2,3,u``: case-insensitive,
spaces around the commas allowed. :meth:`Colosseum.parse_moves` separates moves
by spaces: ``"2,3,u 4, 4, d"``.

Representation
--------------
A state holds the walls in one int with 4 bits per cell: bit ``4 * cell + d``
is the ``d`` side of ``cell = r * W + c``, set on both cells of every wall.
That bit index *is* the move, so the legal moves are the set bits of
``(reach * 15) & ~walls``, where ``reach`` has bit ``4 * cell`` for each cell
the mover reaches. ``reach`` comes from a bit-parallel BFS: each of at most K
rounds grows the set one step in four shifted copies, masked by the "open
side" bits of each direction -- a handful of int operations per round instead
of a Python loop over cells. The players are cell indices; a state's identity
(equality, key) is M, the walls, the players' cells and the side to move --
where the players started does not change the future, so it is not kept.

A new wall can only separate the players by cutting its two cells apart, and
it can only cut when both of its end points already touch a wall (the border
counts): round a free end the way stays open. When both ends touch, ``play``
runs two floods in lockstep from the cells either side of the wall. They
usually meet within a few rounds (no cut, so nothing else changed); otherwise
the first to stop growing is a closed region, and the players are apart
exactly when it holds one of them but not the other. Random playouts
(:meth:`Colosseum.playout`) do the same on local ints, updating the open-side
masks in place, and draw each move by rejection over the bit positions of the
legal-move int, which is uniform over the legal moves.

Tests: tests/games/test_colosseum.py
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from typing import Any

from arena.core.bitboard import iter_bits
from arena.core.errors import IllegalMove, MoveSyntaxError, SpecError
from arena.core.game import Game, Returns, State
from arena.core.hashing import hash_ints
from arena.core.spec import Param

SIDES = "urdl"
_SIDE_WORDS = ("up", "right", "down", "left")
_DRAWN_SIZES = (6, 12)  # the course's range, used when ``size`` is not given
_COURSE_SIZES = (6, 11)  # the simulator's: numpy's randint(6, 12) stops short of 12
_MOVE_RE = re.compile(r"(\d+)\s*,\s*(\d+)\s*,\s*([urdl])")
_FORMAT = "row,col,side like '2,3,u' (0-based row and column from the top left, side u r d l)"

Masks = Sequence[int]  # the open-side bits of u, r, d, l, each at bit 4 * cell


def _wall_limit(size: int) -> int:
    """At most a quarter of the inner edges start walled (as pairs), so a random
    set-up keeps the players connected with high probability and redraws are rare."""
    return size * (size - 1) // 4


def _grow(bits: int, masks: Masks, vshift: int) -> int:
    """``bits`` plus every cell one open step away."""
    up, right, down, left = masks
    return (
        bits
        | ((bits & up) >> vshift)
        | ((bits & right) << 4)
        | ((bits & down) << vshift)
        | ((bits & left) >> 4)
    )


def _flood(bits: int, masks: Masks, vshift: int) -> int:
    """The region (cells joined by open sides) of the cells in ``bits``."""
    while True:
        grown = _grow(bits, masks, vshift)
        if grown == bits:
            return bits
        bits = grown


def reach(me: int, them: int, masks: Masks, vshift: int, steps: int) -> int:
    """Cells reachable from ``me`` in at most ``steps`` steps without entering ``them``.

    Cells are bits ``4 * cell`` (``me`` and ``them`` one bit each, or ``them`` 0);
    ``masks`` are the open sides (:meth:`Board.masks`), ``vshift`` and ``steps``
    the board's :attr:`Board.vshift` and :attr:`Board.steps`. A move's destinations.

    >>> game = Colosseum(size=3)
    >>> state = game.position([(0, 0), (2, 2)], walls=["0,0,r"])
    >>> board = state.board()
    >>> a, b = (1 << 4 * cell for cell in state.player_cells)
    >>> cells = reach(a, b, board.masks(state.walls), board.vshift, board.steps)
    >>> sorted(divmod(bit // 4, game.stride) for bit in iter_bits(cells))
    [(0, 0), (1, 0), (1, 1), (2, 0)]
    """
    bits = me
    keep = ~them
    for _ in range(steps):
        grown = _grow(bits, masks, vshift) & keep
        if grown == bits:
            break
        bits = grown
    return bits


def _cut(a: int, b: int, masks: Masks, vshift: int) -> tuple[int, int] | None:
    """None when cells ``a`` and ``b`` are still joined, else ``(region, side)``:
    the region of ``a`` (side 0) or of ``b`` (side 1), whichever closed first."""
    while True:
        grown = _grow(a, masks, vshift)
        if grown & b:
            return None
        if grown == a:
            return a, 0
        a = grown
        grown = _grow(b, masks, vshift)
        if grown & a:
            return None
        if grown == b:
            return b, 1
        b = grown


def after_wall(
    mover: int, other_side: int, opponent: int, masks: Masks, vshift: int
) -> tuple[int, int] | None:
    """After a wall between the mover's cell and ``other_side``: None while the
    players stay joined, else the sizes of (mover's region, opponent's region).

    ``mover``, ``other_side`` and ``opponent`` are cell bits (``1 << 4 * cell``);
    ``masks`` are the open sides with the new wall already in place. Two floods
    run in lockstep from either side of the wall (see the module docstring).
    """
    cut = _cut(mover, other_side, masks, vshift)
    if cut is None:
        return None
    region, side = cut
    if side == 0:
        if region & opponent:
            return None
        return region.bit_count(), _flood(opponent, masks, vshift).bit_count()
    if not region & opponent:
        return None
    return _flood(mover, masks, vshift).bit_count(), region.bit_count()


def _side(side: int | str) -> int:
    """0..3 from a side given as a number or one of the letters ``urdl``."""
    d = SIDES.find(side.lower()) if isinstance(side, str) and len(side) == 1 else side
    if d not in range(4):
        raise ValueError(f"a side is one of u r d l or 0..3, not {side!r}")
    return d  # type: ignore[return-value]


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


class Board:
    """The geometry of one board size inside a game's move stride (shared by every
    state of that size: :meth:`ColosseumState.board`).

    Attributes: ``size`` (M), ``stride`` (W), ``steps`` (K), ``vshift`` (the bit
    distance between vertically adjacent cells, ``4 * W``), ``twin[d]`` (the bit
    offset from side ``d`` of a cell to the same wall seen from the neighbour),
    ``cells`` (bit ``4 * cell`` of every cell on the board), ``border`` (the
    outer walls), ``pairs`` (inner walls grouped with their mirror image) and
    ``ends[bit]`` (the sides touching either end point of side ``bit``).
    """

    def __init__(self, size: int, stride: int) -> None:
        self.size, self.stride = size, stride
        self.steps = (size + 1) // 2
        self.vshift = 4 * stride  # bits between vertically adjacent cells
        # Bit offset from a side to the same wall seen from the neighbour (u<->d, r<->l).
        self.twin = (2 - self.vshift, 6, self.vshift - 2, -6)
        on_board = [r * stride + c for r in range(size) for c in range(size)]
        self.cells = sum(1 << 4 * cell for cell in on_board)
        border = 0
        for r in range(size):
            border |= 1 << 4 * (r * stride) + 3 | 1 << 4 * (r * stride + size - 1) + 1
        for c in range(size):
            border |= 1 << 4 * c | 1 << 4 * ((size - 1) * stride + c) + 2
        self.border = border
        # Inner walls named by their r or d side, grouped with their mirror image.
        pairs = set()
        for cell in on_board:
            for side in (1, 2):
                bit = 4 * cell + side
                if not border >> bit & 1:
                    twin = bit + self.twin[side]
                    mirror = 4 * self.mirror(twin >> 2) + side
                    pairs.add((min(bit, mirror), max(bit, mirror)))
        self.pairs = sorted(pairs)
        # For each side, the sides meeting each of its two end points (its own wall
        # left out). A new wall with a free end cannot cut anything -- the path
        # around that end stays open -- so ``_cut`` runs only when both ends
        # touch a wall; in random games that skips most of the floods.
        self.ends = [(0, 0)] * (4 * stride * stride)
        for cell in on_board:
            r, c = divmod(cell, stride)
            corners = ((r, c, r, c + 1), (r, c + 1, r + 1, c + 1), (r + 1, c, r + 1, c + 1))
            for d, (r1, c1, r2, c2) in enumerate((*corners, (r, c, r + 1, c))):
                bit = 4 * cell + d
                own = ~(1 << bit | (0 if border >> bit & 1 else self.wall(bit)))
                self.ends[bit] = (self._corner(r1, c1) & own, self._corner(r2, c2) & own)

    def _corner(self, i: int, j: int) -> int:
        """The sides of the (up to four) cells that meet at grid point (i, j)."""
        bits = 0
        for r, c, sides in (
            (i - 1, j - 1, (1, 2)),
            (i - 1, j, (2, 3)),
            (i, j - 1, (0, 1)),
            (i, j, (0, 3)),
        ):
            if 0 <= r < self.size and 0 <= c < self.size:
                for d in sides:
                    bits |= 1 << 4 * (r * self.stride + c) + d
        return bits

    def may_cut(self, walls: int, bit: int) -> bool:
        """False when a wall on side ``bit`` surely leaves its two cells joined."""
        one, two = self.ends[bit]
        return bool(walls & one and walls & two)

    def mirror(self, cell: int) -> int:
        r, c = divmod(cell, self.stride)
        return (self.size - 1 - r) * self.stride + self.size - 1 - c

    def on_board(self, cell: int) -> bool:
        r, c = divmod(cell, self.stride)
        return r < self.size and c < self.size

    def wall(self, bit: int) -> int:
        """Both bits of the wall on side ``bit``."""
        return 1 << bit | 1 << bit + self.twin[bit & 3]

    def masks(self, walls: int) -> tuple[int, int, int, int]:
        """The open sides of the on-board cells, one int per direction at bit 4 * cell."""
        cells, free = self.cells, ~walls
        return (free & cells, free >> 1 & cells, free >> 2 & cells, free >> 3 & cells)


class Colosseum(Game):
    """Colosseum Survival (the McGill COMP 424 course game) on an M x M board.

    >>> game = Colosseum(size=3)
    >>> state = game.position([(0, 0), (2, 2)], walls=["0,0,r", "1,1,l"])
    >>> print(state.render())
       0   1   2
      +---+---+---+
    0 | A |       | 0
      +   +   +   +
    1 |   |       | 1
      +   +   +   +
    2 |         B | 2
      +---+---+---+
       0   1   2
    A to move (up to 2 steps)
    >>> [game.format_move(m) for m in state.legal_moves()]
    ['0,0,d', '1,0,u', '1,0,d', '2,0,u', '2,0,r']
    >>> state = state.play(game.parse_move("2, 0, U"))
    >>> state.render().splitlines()[-1]
    'B to move (up to 2 steps); last move 2,0,u'
    >>> state = game.play_moves(game.parse_moves("2,1,l"), state)
    >>> state.is_terminal(), state.regions, state.result_text()
    (True, (1, 6), 'B wins by 5')
    >>> Colosseum().initial_state(seed=7).size in range(6, 13)
    True
    """

    name = "colosseum"
    summary = (
        "Colosseum Survival: walk up to K steps, wall a side of your cell; biggest region wins"
    )
    params = (
        Param("size", int, None, "board side M", low=3, high=20, default_text="seeded 6..12"),
        Param("walls", int, None, "wall pairs drawn at the start", 0, 95, default_text="M//2"),
        Param(
            "setup",
            str,
            "arena",
            "arena: M drawn from 6..12, M//2 wall pairs; course: the simulator's boards, "
            "M from 6..11, (M+1)//2 pairs (the course's clock: --time move:2,first:30)",
            choices=("arena", "course"),
        ),
    )
    player_names = ("A", "B")
    marks = ("A", "B")
    notation = (
        "r,c,dir: walk to row r, column c (counted from 0 at the top left) and put a wall "
        "on side u, r, d or l of that cell"
    )

    def _setup(self, size: int | None, walls: int | None, setup: str = "arena") -> None:
        self.size = size
        self.setup = setup
        self.wall_pairs = walls
        #: The width W in the move encoding ``(r * W + c) * 4 + d``.
        self.stride: int = size if size is not None else _DRAWN_SIZES[1]
        smallest = size if size is not None else _DRAWN_SIZES[0]
        if walls is not None and walls > _wall_limit(smallest):
            board = f"size={size}" if size is not None else "a size drawn from 6..12"
            raise SpecError(
                f"colosseum: walls={walls} is too many for {board}: "
                f"at most {_wall_limit(smallest)} (a quarter of the inner edges)"
            )
        self._boards: dict[int, Board] = {}

    def _board(self, size: int) -> Board:
        board = self._boards.get(size)
        if board is None:
            board = self._boards[size] = Board(size, self.stride)
        return board

    def initial_state(self, seed: int | None = None) -> ColosseumState:
        rng = random.Random(0 if seed is None else seed)
        course = self.setup == "course"
        drawn = _COURSE_SIZES if course else _DRAWN_SIZES
        size = self.size if self.size is not None else rng.randint(*drawn)
        board = self._board(size)
        count = self.wall_pairs
        if count is None:
            count = min((size + 1) // 2, _wall_limit(size)) if course else size // 2
        while True:
            walls = board.border
            for pair in rng.sample(board.pairs, count):
                for bit in pair:
                    walls |= board.wall(bit)
            while True:
                start = rng.randrange(size) * self.stride + rng.randrange(size)
                if start != board.mirror(start):
                    break
            state = ColosseumState._build(self, board, walls, (start, board.mirror(start)))
            if not state.is_terminal():
                return state

    def position(
        self,
        players: Sequence[tuple[int, int]],
        walls: Iterable[str | tuple[int, int, int | str]] = (),
        to_move: int = 0,
        size: int | None = None,
        ply: int = 0,
    ) -> ColosseumState:
        """A hand-built position (for tests, puzzles and the course's board files).

        ``players`` are the (row, col) cells of A and B; ``walls`` are sides of
        cells, as ``"r,c,side"`` text or ``(row, col, side)`` with side a letter
        of ``urdl`` or 0..3. Each wall is set on both of its cells; the border
        is always walled (listing border sides is allowed). ``size`` defaults to
        the game's; a game with a drawn size needs it (3..12). The position is
        terminal at once when the players are already apart.
        """
        size = self.size if size is None else size
        limit = self.stride if self.size is None else self.size
        if size is None or not (3 <= size <= limit) or (self.size not in (None, size)):
            raise ValueError(f"position: size must be {self.size or 'given, 3..12'}, not {size}")
        board = self._board(size)
        bits = board.border
        for wall in walls:
            r, c, side = self._unpack(wall) if isinstance(wall, str) else wall
            d = _side(side)
            if not (0 <= r < size and 0 <= c < size):
                raise ValueError(f"position: no side {wall!r} on a {size}x{size} board")
            bit = 4 * (r * self.stride + c) + d
            bits |= 0 if board.border >> bit & 1 else board.wall(bit)
        cells = []
        for r, c in players:
            if not (0 <= r < size and 0 <= c < size):
                raise ValueError(f"position: cell {r},{c} is off the {size}x{size} board")
            cells.append(r * self.stride + c)
        if len(cells) != 2 or cells[0] == cells[1] or to_move not in (0, 1):
            raise ValueError("position: need two different cells and to_move 0 or 1")
        return ColosseumState._build(self, board, bits, (cells[0], cells[1]), to_move, ply)

    def format_move(self, move: int) -> str:
        if not isinstance(move, int) or not 0 <= move < 4 * self.stride**2:
            raise ValueError(f"{move!r} is not a colosseum move (0..{4 * self.stride**2 - 1})")
        r, c = divmod(move >> 2, self.stride)
        return f"{r},{c},{SIDES[move & 3]}"

    def _unpack(self, text: str) -> tuple[int, int, int]:
        match = _MOVE_RE.fullmatch(text.strip().lower())
        if match is None:
            raise MoveSyntaxError(f"{text.strip()!r} is not a move: expected {_FORMAT}")
        r, c = int(match[1]), int(match[2])
        if r >= self.stride or c >= self.stride:
            raise MoveSyntaxError(
                f"{text.strip()!r} is off the board: rows and columns are 0..{self.stride - 1}"
            )
        return r, c, SIDES.index(match[3])

    def parse_move(self, text: str) -> int:
        r, c, d = self._unpack(text)
        return (r * self.stride + c) * 4 + d

    def parse_moves(self, text: str | Iterable[str]) -> list[int]:
        """Moves separated by spaces (the commas belong to each move); a list's items are
        read the same way."""
        items = [text] if isinstance(text, str) else list(text)
        return [self.parse_move(t) for item in items for t in re.sub(r"\s*,\s*", ",", item).split()]

    def playout(self, state: State, rng: random.Random, moves: list[int] | None = None) -> Returns:
        assert isinstance(state, ColosseumState)
        if state._regions is not None:
            return state.returns()
        board = self._board(state._size)
        vshift, steps, twin, ends = board.vshift, board.steps, board.twin, board.ends
        walls = state._walls
        masks = list(board.masks(walls))
        cells = list(state._players)
        mover = state._to_move
        getrandbits = rng.getrandbits
        while True:
            me = 1 << 4 * cells[mover]
            them = 1 << 4 * cells[1 - mover]
            legal = (reach(me, them, masks, vshift, steps) * 15) & ~walls
            # Rejection over the bit span of ``legal``: every legal move has the same
            # chance per draw, so the pick is uniform; under 4 draws a move on average.
            low = (legal & -legal).bit_length() - 1
            legal >>= low
            width = (legal.bit_length() - 1).bit_length()
            while True:
                offset = getrandbits(width)
                if legal >> offset & 1:
                    break
            move = low + offset
            if moves is not None:
                moves.append(move)
            side = move & 3
            other = move + twin[side]
            walls |= 1 << move | 1 << other
            here = 1 << (move & ~3)
            there = 1 << (other & ~3)
            masks[side] ^= here
            masks[side ^ 2] ^= there
            cells[mover] = move >> 2
            one, two = ends[move]
            if walls & one and walls & two:
                apart = after_wall(here, there, them, masks, vshift)
                if apart is not None:
                    margin = _sign(apart[0] - apart[1]) * (1 if mover == 0 else -1)
                    return margin, -margin
            mover ^= 1


class ColosseumState(State):
    __slots__ = ("_last", "_players", "_regions", "_size", "_walls")

    _game: Colosseum
    _size: int
    _walls: int
    _players: tuple[int, int]
    _regions: tuple[int, int] | None
    _last: int

    @classmethod
    def _make(
        cls,
        game: Colosseum,
        size: int,
        walls: int,
        players: tuple[int, int],
        to_move: int,
        ply: int,
        regions: tuple[int, int] | None,
        last: int,
    ) -> ColosseumState:
        s = cls.__new__(cls)
        s._game, s._size, s._walls, s._players = game, size, walls, players
        s._to_move, s._ply, s._regions, s._last = to_move, ply, regions, last
        return s

    @classmethod
    def _build(
        cls,
        game: Colosseum,
        board: Board,
        walls: int,
        players: tuple[int, int],
        to_move: int = 0,
        ply: int = 0,
    ) -> ColosseumState:
        """A state from scratch: checks with a full flood whether the players are apart."""
        masks = board.masks(walls)
        a, b = (1 << 4 * cell for cell in players)
        region = _flood(a, masks, board.vshift)
        regions = None
        if not region & b:
            regions = (region.bit_count(), _flood(b, masks, board.vshift).bit_count())
        return cls._make(game, board.size, walls, players, to_move, ply, regions, -1)

    # -- public views ---------------------------------------------------------

    @property
    def size(self) -> int:
        """The board side M."""
        return self._size

    @property
    def max_steps(self) -> int:
        """K = (M + 1) // 2, the longest walk of a move."""
        return (self._size + 1) // 2

    @property
    def positions(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """The (row, col) cells of A and B."""
        stride = self._game.stride
        a, b = (divmod(cell, stride) for cell in self._players)
        return a, b

    def board(self) -> Board:
        """The geometry of this state's board size."""
        return self._game._board(self._size)

    @property
    def walls(self) -> int:
        """Every wall: bit ``4 * cell + d`` for side ``d`` (u r d l) of ``cell``,
        set on both cells of an inner wall (see the module docstring)."""
        return self._walls

    @property
    def player_cells(self) -> tuple[int, int]:
        """The cells of A and B as ``row * stride + col`` (:attr:`positions` as
        (row, col))."""
        return self._players

    def has_wall(self, row: int, col: int, side: int | str) -> bool:
        """Whether the ``side`` (0..3 or one of ``urdl``) of cell (row, col) is walled."""
        d = _side(side)
        return bool(self._walls >> 4 * (row * self._game.stride + col) + d & 1)

    # -- the game -------------------------------------------------------------

    def _reachable(self, board: Board, masks: Masks) -> int:
        me, them = self._players if self._to_move == 0 else self._players[::-1]
        return reach(1 << 4 * me, 1 << 4 * them, masks, board.vshift, board.steps)

    def legal_moves(self) -> tuple[int, ...]:
        if self._regions is not None:
            return ()
        board = self.board()
        reached = self._reachable(board, board.masks(self._walls))
        return tuple(iter_bits(reached * 15 & ~self._walls))

    def _why_illegal(self, move: Any, board: Board, masks: Masks) -> str | None:
        game = self._game
        if not isinstance(move, int) or isinstance(move, bool):
            return f"moves are ints, not {type(move).__name__}"
        if not 0 <= move < 4 * game.stride**2:
            return f"no such move: moves are 0..{4 * game.stride**2 - 1}"
        if self._regions is not None:
            return "the game is over"
        cell = move >> 2
        r, c = divmod(cell, game.stride)
        if not board.on_board(cell):
            return f"{r},{c} is off the {board.size}x{board.size} board"
        if cell == self._players[1 - self._to_move]:
            return f"{r},{c} is {game.player_names[1 - self._to_move]}'s cell"
        if not self._reachable(board, masks) >> 4 * cell & 1:
            here = "{},{}".format(*divmod(self._players[self._to_move], game.stride))
            return f"{r},{c} cannot be reached from {here} in at most {board.steps} steps"
        if self._walls >> move & 1:
            word = _SIDE_WORDS[move & 3]
            if board.border >> move & 1:
                return f"the {word} side of {r},{c} is the edge of the board"
            return f"the {word} side of {r},{c} has a wall already"
        return None

    def play(self, move: int) -> ColosseumState:
        board = self.board()
        masks = board.masks(self._walls)
        reason = self._why_illegal(move, board, masks)
        if reason is not None:
            try:
                text = self._game.format_move(move)
            except ValueError:
                text = repr(move)
            raise IllegalMove(move, reason, text)
        mover = self._to_move
        side = move & 3
        other = move + board.twin[side]
        walls = self._walls | 1 << move | 1 << other
        players = (move >> 2, self._players[1]) if mover == 0 else (self._players[0], move >> 2)
        apart = None
        if board.may_cut(walls, move):
            apart = after_wall(
                1 << (move & ~3),
                1 << (other & ~3),
                1 << 4 * self._players[1 - mover],
                board.masks(walls),
                board.vshift,
            )
        regions = apart if apart is None or mover == 0 else (apart[1], apart[0])
        return self._make(
            self._game, self._size, walls, players, 1 - mover, self._ply + 1, regions, move
        )

    def is_terminal(self) -> bool:
        return self._regions is not None

    @property
    def regions(self) -> tuple[int, int] | None:
        """The region sizes of A and B once they are apart, None before."""
        return self._regions

    def returns(self) -> Returns:
        if self._regions is None:
            return (0, 0)
        margin = _sign(self._regions[0] - self._regions[1])
        return margin, -margin

    def territory(self) -> tuple[int, int]:
        """Cells A reaches in strictly fewer steps than B, and the reverse (walls
        only). Once the players are apart these are their region sizes."""
        board = self.board()
        masks = board.masks(self._walls)
        a, b = (1 << 4 * cell for cell in self._players)
        counts = [1, 1]
        while True:
            grown_a = _grow(a, masks, board.vshift)
            grown_b = _grow(b, masks, board.vshift)
            if grown_a == a and grown_b == b:
                return counts[0], counts[1]
            counts[0] += (grown_a & ~a & ~grown_b).bit_count()
            counts[1] += (grown_b & ~b & ~grown_a).bit_count()
            a, b = grown_a, grown_b

    def score(self) -> float | None:
        a, b = self._regions if self._regions is not None else self.territory()
        return a - b

    def _ident(self) -> tuple[Any, ...]:
        return (self._size, self._walls, self._players, self._to_move)

    def _compute_key(self) -> int:
        return hash_ints(self._size, self._walls, *self._players, self._to_move)

    def render(self) -> str:
        """The board: ``|`` and ``---`` are walls (``#`` and ``===`` the last one
        placed), ``+`` the corners; row and column numbers on every side."""
        game, m = self._game, self._size
        names = game.player_names
        last = (
            {self._last, self._last + self.board().twin[self._last & 3]}
            if self._last >= 0
            else set()
        )
        cells = {cell: name for cell, name in zip(self._players, names, strict=True)}
        label = len(str(m - 1))
        pad = " " * (label + 1)
        head = pad + "".join(f"{c:^4}" for c in range(m)).rstrip()
        lines = [head]

        def edge(bit: int, wall: str, last_wall: str, open_: str) -> str:
            if bit in last:
                return last_wall
            return wall if self._walls >> bit & 1 else open_

        for r in range(m + 1):
            row, side = (r, 0) if r < m else (m - 1, 2)
            base = 4 * row * game.stride
            top = "".join("+" + edge(base + 4 * c + side, "---", "===", "   ") for c in range(m))
            lines.append(f"{pad}{top}+")
            if r == m:
                break
            body = ""
            for c in range(m):
                cell = row * game.stride + c
                body += edge(4 * cell + 3, "|", "#", " ") + f" {cells.get(cell, ' ')} "
            body += edge(4 * (row * game.stride + m - 1) + 1, "|", "#", " ")
            lines.append(f"{str(r).rjust(label)} {body} {r}")
        lines.append(head)
        if self._regions is None:
            status = f"{names[self._to_move]} to move (up to {self.max_steps} steps)"
        else:
            a, b = self._regions
            status = f"regions A {a}, B {b}: {self.result_text()}"
        if self._last >= 0:
            status += f"; last move {game.format_move(self._last)}"
        lines.append(status)
        return "\n".join(lines)
