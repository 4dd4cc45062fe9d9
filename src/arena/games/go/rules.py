"""Go on a size x size board with area (Tromp-Taylor) scoring.

Rules as implemented
--------------------
* Black (player 0) moves first; a move places a stone on an empty point or
  passes. After a stone is placed, opponent groups left without liberties are
  removed; then the mover's own group must have a liberty: suicide is illegal,
  also for groups of several stones.
* ``ko=positional`` (the default): a stone may not recreate any earlier board
  position of the game (positional superko; the side to move is not part of
  it). ``ko=simple``: a stone may not recreate the position just before the
  opponent's last move, i.e. no immediate single-stone recapture. A pass is
  always legal while the game goes on.
* The game ends after two passes in a row, or after ``maxlen`` plies (passes
  included; default ``2 * size**2``, as in OpenSpiel).
* Score (Tromp-Taylor area): stones plus empty regions that reach stones of
  one colour only; ``score() = Black area - White area - komi``, its sign gives
  the returns. A zero margin (integral komi) is a draw.
* ``handicap=N`` (2..9; 0 for none): the game starts with N black stones on the
  fixed points GTP's ``fixed_handicap`` names (:func:`handicap_points`) and
  White to move. Komi stays what ``komi`` says (handicap games usually give
  ``komi=0.5``); the handicap stones count in the area like any other.
  :meth:`Go.handicap_state` starts from stones placed anywhere (GTP's free
  handicap). A handicap start has ply 1, so the player to move is still
  ``ply & 1``; ``maxlen`` counts that ply.

Moves and notation
------------------
A point is ``row * size + col`` with row 0 the TOP row; ``size * size`` is the
pass. Notation is GTP: column letters without I, row 1 at the bottom, and
``pass`` (``D4``, ``J9``, ``pass``). Legal moves come in point order, then
the pass.

Representation
--------------
A state keeps one bitboard (Python int, bit = point) per colour. Groups and
liberties come from whole-board bit dilation, so a state never has to keep
group tables consistent, and copying a state is copying two ints.

For superko a state keeps every earlier board exactly (``black | white << n``,
so repetition checks cannot be fooled by hash collisions) in two parts: a
frozenset of the boards before the last capture and a tuple of the boards
since. A stone that captures nothing adds one stone to the board, and the
stone count only grows between captures, so such a move can never repeat a
board of the current run: it is checked against the frozenset alone, and the
frozenset is rebuilt only when a capture starts a new run.

The random playout (:meth:`Go.playout`) is a separate mutable simulation, as
rebuilding bitboard groups at every ply would be several times slower: a list
board, one stone list and one liberty set per group shared by all its stones
(the smaller group is relabelled into the larger on contact), a list of the
empty points, and a set of board codes for superko. A move is drawn uniformly
from the untried empty points plus the pass; a drawn point that turns out
illegal is moved out of the draw, so the move played is uniform over the legal
moves, and the pass (always legal) bounds the tries.

Equality and keys
-----------------
A state is identified by the board, the ply (the length cap makes it matter),
the passes in a row and, under ``ko=simple``, the ko point. The superko history
is deliberately left out, so lines that transpose into the same position are
equal states with equal keys, as transposition tables want. Two such states
can differ in which moves positional superko forbids (now or later): the
graph-history interaction that engines using superko accept. ``legal_moves``
and ``play`` always use the state's own history.

Tests: tests/games/test_go.py, tests/search/test_dynkomi.py
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from typing import Any

from arena.core.bitboard import iter_bits
from arena.core.errors import IllegalMove, MoveSyntaxError, SpecError
from arena.core.game import Game, Returns, State, margin_text, returns_of_margin
from arena.core.grid import Grid
from arena.core.hashing import hash_ints
from arena.core.spec import Param


class Go(Game):
    """Go with area scoring, komi and a choice of ko rule.

    >>> import arena
    >>> game = arena.load_game("go:size=5")
    >>> s = game.initial_state()
    >>> len(s.legal_moves()), game.format_move(s.legal_moves()[-1])
    (26, 'pass')
    >>> s = game.play_moves(game.parse_moves("c3 pass"))
    >>> s.score()  # Black's stone reaches every empty point; komi 7.5
    17.5
    >>> s = s.play(game.parse_move("pass"))
    >>> s.is_terminal(), s.returns(), s.result_text()
    (True, (1, -1), 'Black wins by 17.5: B 25, W 0 + 7.5 komi')
    >>> print(game.play_moves(game.parse_moves("c3 d3")).render())
      A B C D E
    5 . . . . . 5
    4 . . . . . 4
    3 . . X O . 3
    2 . . . . . 2
    1 . . . . . 1
      A B C D E
    last move: D3 (White)
    """

    name = "go"
    summary = "Go with area (Tromp-Taylor) scoring, komi and simple ko or positional superko"
    params = (
        Param("size", int, 9, "board size (points per side)", low=5, high=19),
        Param("komi", float, 7.5, "points added to White's area", low=-400.0, high=400.0),
        Param("ko", str, "positional", "ko rule", choices=("simple", "positional")),
        Param("maxlen", int, 0, "plies before the game is scored (0: 2*size^2)", low=0, high=10**6),
        Param("handicap", int, 0, "black stones on the fixed handicap points, White moves first "
              "(2..9; 0: none)", low=0, high=9),
    )  # fmt: skip
    player_names = ("Black", "White")
    notation = (
        "a point: its column letter (there is no I), then its row number counted from the "
        "bottom (D4); or 'pass'"
    )

    def _setup(  # type: ignore[override]
        self, size: int, komi: float, ko: str, maxlen: int, handicap: int
    ) -> None:
        if not math.isfinite(komi):
            raise SpecError(f"go: komi={komi} is not a finite number")
        try:
            fixed = handicap_points(size, handicap) if handicap else ()
        except ValueError as err:
            raise SpecError(f"go: handicap={handicap}: {err}") from None
        n = size * size
        self.size = size
        self.komi = komi
        self.superko = ko == "positional"
        self.maxlen = maxlen or 2 * n
        self.points = n
        self.pass_move = n
        self.grid = Grid(size, size, skip_i=True, rows_from_bottom=True, upper=True)
        #: Every point of the board, as a bitboard.
        self.full = (1 << n) - 1
        first_col = sum(1 << (row * size) for row in range(size))
        #: Every point but the first (leftmost) column: where ``x << 1`` may land.
        self.not_first_col = self.full & ~first_col
        #: Every point but the last column: where ``x >> 1`` may land.
        self.not_last_col = self.full & ~(first_col << (size - 1))
        self._neighbours = tuple(tuple(self.grid.neighbours(p)) for p in range(n))
        # Board codes ``black | white << n`` of single stones, indexed [colour][point].
        self._stone_code = (
            tuple(1 << p for p in range(n)),
            tuple(1 << (p + n) for p in range(n)),
        )
        self._initial = GoState._make(self, 0, 0, 0, 0, -1, frozenset(), (0,), -1)
        if fixed:
            self._initial = self.handicap_state(fixed)

    def initial_state(self, seed: int | None = None) -> GoState:
        return self._initial

    def handicap_state(self, points: tuple[int, ...] | list[int]) -> GoState:
        """The empty board with black stones on ``points`` and White to move (a free
        handicap: GTP's ``set_free_handicap``); ply 1, no move before it.

        >>> game = Go(size=9)
        >>> state = game.handicap_state([game.parse_move(v) for v in ("C3", "G7")])
        >>> state.to_move, state.black.bit_count(), state.ply
        (1, 2, 1)
        """
        black = 0
        for p in points:
            if not isinstance(p, int) or not 0 <= p < self.points:
                raise ValueError(f"{p!r} is not a point of {self.spec}")
            if black >> p & 1:
                raise ValueError(f"{self.format_move(p)} is named twice")
            black |= 1 << p
        if not 2 <= black.bit_count() < self.points:
            raise ValueError(f"a handicap is 2..{self.points - 1} stones, not {len(points)}")
        return GoState._make(self, 1, black, 0, 0, -1, frozenset(), (black,), -1)

    @property
    def handicap_stones(self) -> tuple[int, ...]:
        """The black stones of the initial position (the handicap; empty without one)."""
        return tuple(iter_bits(self._initial.black))

    def format_move(self, move: int) -> str:
        if move == self.pass_move:
            return "pass"
        if isinstance(move, int) and 0 <= move < self.points:
            return self.grid.format_cell(move)
        raise ValueError(f"{move!r} is not a move of {self.spec} (0..{self.pass_move})")

    def parse_move(self, text: str) -> int:
        if text.strip().lower() == "pass":
            return self.pass_move
        try:
            return self.grid.parse_cell(text)
        except MoveSyntaxError as err:
            raise MoveSyntaxError(f"{err} (columns skip I) or 'pass'") from None

    # --- whole-board bit operations (public: heuristics and tools use them) -----
    # A set of points is a bitboard: bit ``p`` for point ``p``, as in GoState.black.

    def adjacent(self, x: int) -> int:
        """Points orthogonally next to a point of ``x`` (may include ``x`` itself).

        >>> game = Go(size=5)
        >>> [game.format_move(p) for p in iter_bits(game.adjacent(1 << game.parse_move("a1")))]
        ['A2', 'B1']
        """
        return (
            ((x << 1) & self.not_first_col)
            | ((x >> 1) & self.not_last_col)
            | ((x << self.size) & self.full)
            | (x >> self.size)
        )

    def flood(self, seed: int, within: int) -> int:
        """The connected part of ``within`` that contains ``seed`` (a group from one of
        its stones, or an empty region from one of its points)."""
        while True:
            grown = seed | (self.adjacent(seed) & within)
            if grown == seed:
                return seed
            seed = grown

    def groups(self, stones: int) -> Iterator[int]:
        """The connected components of ``stones`` (stone groups or empty regions).

        >>> game = Go(size=5)
        >>> state = game.play_moves(game.parse_moves("a1 e5 b1 pass d1"))
        >>> [g.bit_count() for g in game.groups(state.black)]  # A1-B1 and D1
        [2, 1]
        >>> libs = game.adjacent(1 << game.parse_move("d1")) & ~(state.black | state.white)
        >>> libs.bit_count()  # the liberties of D1
        3
        """
        while stones:
            group = self.flood(stones & -stones, stones)
            stones ^= group
            yield group

    def area_margin(self, black: int, white: int) -> int:
        """Tromp-Taylor Black area minus White area, before komi."""
        areas = self.areas(black, white)
        return areas[0] - areas[1]

    def areas(self, black: int, white: int) -> tuple[int, int]:
        """Tromp-Taylor areas ``(Black, White)``: each colour's stones and the empty
        regions that border only that colour."""
        counts = [black.bit_count(), white.bit_count()]
        for region in self.groups(self.full & ~(black | white)):
            border = self.adjacent(region)
            if border & black and not border & white:
                counts[0] += region.bit_count()
            elif border & white and not border & black:
                counts[1] += region.bit_count()
        return counts[0], counts[1]

    # --- fast random playout --------------------------------------------------

    def playout(self, state: State, rng: random.Random, moves: list[int] | None = None) -> Returns:
        assert isinstance(state, GoState)
        if state.is_terminal():
            return state.returns()
        n = self.points
        nbrs, maxlen, superko = self._neighbours, self.maxlen, self.superko
        board, group_of, libs_of, empties, where = self._playout_board(state)
        seen = set(state._past).union(state._run) if superko else set()
        code = state._black | state._white << n
        stone_code = (None, *self._stone_code)
        getrandbits = rng.getrandbits
        record = moves.append if moves is not None else None
        colour = state._to_move + 1
        ply, passes, ko = state._ply, state._passes, state._ko

        while passes < 2 and ply < maxlen:
            other = 3 - colour
            mine_code, their_code = stone_code[colour], stone_code[other]
            # Uniform over the legal moves: draw from the untried empty points
            # plus the pass, and move an illegal point out of the draw.
            untried = len(empties)
            while True:
                bits = untried.bit_length()
                r = getrandbits(bits)
                while r > untried:
                    r = getrandbits(bits)
                if r == untried:
                    p = n
                    break
                p = empties[r]
                free = False
                captured: list[list[int]] | None = None
                for q in nbrs[p]:
                    v = board[q]
                    if v == 0:
                        free = True
                    elif v == colour:
                        if not free and len(libs_of[q]) > 1:
                            free = True
                    elif len(libs_of[q]) == 1:
                        if captured is None:
                            captured = [group_of[q]]
                        elif group_of[q] not in captured:
                            captured.append(group_of[q])
                new_code = code | mine_code[p]
                if captured is None:
                    if free and not (superko and new_code in seen):
                        break
                elif p != ko:  # (simple ko: only a capture can retake)
                    for stones in captured:
                        for s in stones:
                            new_code ^= their_code[s]
                    if not (superko and new_code in seen):
                        break
                untried -= 1
                last = empties[untried]
                empties[r] = last
                where[last] = r
                empties[untried] = p
                where[p] = untried

            ply += 1
            if record is not None:
                record(p)
            if p == n:
                passes += 1
                ko = -1
            else:
                passes = 0
                code = new_code
                if superko:
                    seen.add(code)
                ko = self._place(p, colour, captured, board, group_of, libs_of, empties, where)
            colour = other

        black = code & self.full
        margin = self.area_margin(black, code >> n) - self.komi
        return returns_of_margin(margin)

    def _playout_board(
        self, state: GoState
    ) -> tuple[list[int], list[list[int]], list[set[int]], list[int], list[int]]:
        """The mutable playout structures for ``state``: the board (0 empty, 1 Black,
        2 White), each stone's group (stone list) and liberty set, shared by the
        whole group, and the empty points with each one's index in that list."""
        n = self.points
        board = [0] * n
        # Placeholders: the group tables are only read at stones.
        group_of: list[list[int]] = [[]] * n
        libs_of: list[set[int]] = [set()] * n
        empty = self.full & ~(state._black | state._white)
        for colour, stones_bits in ((1, state._black), (2, state._white)):
            for group in self.groups(stones_bits):
                stones = list(iter_bits(group))
                libs = set(iter_bits(self.adjacent(group) & empty))
                for p in stones:
                    board[p] = colour
                    group_of[p] = stones
                    libs_of[p] = libs
        empties = list(iter_bits(empty))
        where = [0] * n
        for i, p in enumerate(empties):
            where[p] = i
        return board, group_of, libs_of, empties, where

    def _place(
        self,
        p: int,
        colour: int,
        captured: list[list[int]] | None,
        board: list[int],
        group_of: list[list[int]],
        libs_of: list[set[int]],
        empties: list[int],
        where: list[int],
    ) -> int:
        """Put a legal stone on the playout board; return the new simple-ko point or -1."""
        nbrs = self._neighbours
        board[p] = colour
        last = empties.pop()
        if last != p:
            i = where[p]
            empties[i] = last
            where[last] = i
        stones: list[int] | None = None
        libs: set[int] = set()
        for q in nbrs[p]:
            v = board[q]
            if v == 0:
                continue
            theirs = libs_of[q]
            theirs.discard(p)
            if v == colour:
                group = group_of[q]
                if stones is None:
                    stones, libs = group, theirs
                elif group is not stones:
                    if len(group) > len(stones):  # relabel the smaller group
                        group, stones, theirs, libs = stones, group, libs, theirs
                    for s in group:
                        group_of[s] = stones
                        libs_of[s] = libs
                    stones.extend(group)
                    libs |= theirs
        if stones is None:
            stones = [p]
        else:
            stones.append(p)
        group_of[p] = stones
        libs_of[p] = libs
        for q in nbrs[p]:
            if board[q] == 0:
                libs.add(q)
        if captured is None:
            return -1
        for group in captured:
            for s in group:
                board[s] = 0
                where[s] = len(empties)
                empties.append(s)
                for q in nbrs[s]:
                    if board[q] == colour:
                        libs_of[q].add(s)
        single = len(captured) == 1 and len(captured[0]) == 1
        if single and not self.superko and len(stones) == 1 and len(libs) == 1:
            return captured[0][0]
        return -1


def handicap_points(size: int, stones: int) -> tuple[int, ...]:
    """The fixed handicap points of GTP's ``fixed_handicap`` (spec 4.1.1): the corners on
    the 3-3 points (4-4 from 13x13), then the sides' and the centre's middle points.
    Boards of 7x7 and even sizes have at most 4, odd sizes from 9x9 at most 9; below
    7x7 none. Points are ``row * size + col`` with row 0 the top row.

    >>> game = Go(size=19)
    >>> [game.format_move(p) for p in handicap_points(19, 5)]
    ['D4', 'Q16', 'D16', 'Q4', 'K10']
    >>> handicap_points(8, 5)
    Traceback (most recent call last):
    ...
    ValueError: 8x8 takes 2..4 fixed handicap stones, not 5
    """
    most = 0 if size < 7 else 4 if size == 7 or size % 2 == 0 else 9
    if not 2 <= stones <= most:
        if most == 0:
            raise ValueError(f"{size}x{size} takes no fixed handicap (7x7 and up do)")
        raise ValueError(f"{size}x{size} takes 2..{most} fixed handicap stones, not {stones}")
    near, far = (2, size - 3) if size < 13 else (3, size - 4)
    mid = size // 2

    def point(col: int, row_from_bottom: int) -> int:
        return (size - 1 - row_from_bottom) * size + col

    corners = [point(near, near), point(far, far), point(near, far), point(far, near)]
    sides = [point(near, mid), point(far, mid), point(mid, near), point(mid, far)]
    centre = [point(mid, mid)]
    layout = {
        2: corners[:2],
        3: corners[:3],
        4: corners,
        5: corners + centre,
        6: corners + sides[:2],
        7: corners + sides[:2] + centre,
        8: corners + sides,
        9: corners + sides + centre,
    }
    return tuple(layout[stones])


class GoState(State):
    __slots__ = ("_black", "_ko", "_last", "_passes", "_past", "_run", "_white")

    _game: Go
    _black: int
    _white: int
    _passes: int  # passes in a row just before this position (0 or 1 while live)
    _ko: int  # simple ko: the point the side to move may not retake, else -1
    _past: frozenset[int]  # superko: board codes from before the last capture
    _run: tuple[int, ...]  # superko: board codes since the last capture (this one last)
    _last: int  # the last move, -1 at the start (only for render)

    @classmethod
    def _make(
        cls,
        game: Go,
        ply: int,
        black: int,
        white: int,
        passes: int,
        ko: int,
        past: frozenset[int],
        run: tuple[int, ...],
        last: int,
    ) -> GoState:
        s = cls.__new__(cls)
        s._game = game
        s._ply = ply
        s._to_move = ply & 1
        s._black = black
        s._white = white
        s._passes = passes
        s._ko = ko
        s._past = past
        s._run = run
        s._last = last
        return s

    # --- public views (bitboards: bit ``p`` for point ``p``) ------------------

    @property
    def game(self) -> Go:
        return self._game

    @property
    def black(self) -> int:
        """Black's stones."""
        return self._black

    @property
    def white(self) -> int:
        """White's stones."""
        return self._white

    @property
    def ko(self) -> int:
        """Under ``ko=simple``, the point the side to move may not retake now; else -1."""
        return self._ko

    @property
    def handicap(self) -> int:
        """The black stones the game started with (a handicap; 0 in an even game).

        Read from the game's first board: positional superko keeps every board, and the
        first is the one with black stones only and the fewest of them (a later board
        without white stones has every stone it had, and more). Under ``ko=simple`` no
        boards are kept, so it is the game's own ``handicap=N``.

        >>> game = Go(size=9)
        >>> free = game.handicap_state([game.parse_move(v) for v in ("C3", "G7", "C7")])
        >>> free.handicap, free.play(game.parse_move("E5")).handicap, game.initial_state().handicap
        (3, 3, 0)
        >>> Go(size=9, handicap=2, ko="simple").initial_state().play(40).handicap
        2
        """
        if not self._game.superko:
            return len(self._game.handicap_stones)
        n = self._game.points
        boards = (code for code in (*self._past, *self._run) if not code >> n)
        return min((code.bit_count() for code in boards), default=0)

    # --- rules ----------------------------------------------------------------

    def is_terminal(self) -> bool:
        return self._passes >= 2 or self._ply >= self._game.maxlen

    def expected_plies_left(self) -> float:
        """One ply for each empty point: the board fills up to its eyes, and captures give
        points back. A guess for the clock (``time_management``), on the long side:
        19x19 games between programs last 250-550 plies.

        >>> game = Go(size=9)
        >>> start = game.initial_state()
        >>> start.expected_plies_left(), game.play_moves([40, 30]).expected_plies_left()
        (81.0, 79.0)
        """
        return float(self._game.points - (self._black | self._white).bit_count())

    def legal_moves(self) -> tuple[int, ...]:
        if self.is_terminal():
            return ()
        game = self._game
        own, opp = (self._black, self._white) if self._to_move == 0 else (self._white, self._black)
        empty = game.full & ~(own | opp)
        adjacent = game.adjacent
        legal = empty & adjacent(empty)
        for group in game.groups(own):
            libs = adjacent(group) & empty
            if libs & (libs - 1):  # two or more: one stays after the move
                legal |= libs
        captures: dict[int, int] = {}
        for group in game.groups(opp):
            libs = adjacent(group) & empty
            if libs and not libs & (libs - 1):
                legal |= libs
                point = libs.bit_length() - 1
                captures[point] = captures.get(point, 0) | group
        if game.superko:
            if self._past or captures:
                legal = self._drop_repeats(legal, captures)
        elif self._ko >= 0:
            legal &= ~(1 << self._ko)
        return (*iter_bits(legal), game.pass_move)

    def _drop_repeats(self, legal: int, captures: dict[int, int]) -> int:
        game = self._game
        code = self.code()
        mine = game._stone_code[self._to_move]
        shift = game.points if self._to_move == 0 else 0
        for p in iter_bits(legal):
            captured = captures.get(p, 0)
            new_code = (code | mine[p]) & ~(captured << shift)
            if self._repeats(new_code, bool(captured)):
                legal ^= 1 << p
        return legal

    def _repeats(self, new_code: int, captures: bool) -> bool:
        # Without a capture the stone count is higher than in any board of the run.
        return new_code in self._past or (captures and new_code in self._run)

    def code(self) -> int:
        """The board as one int: Black's bits, then White's shifted by size*size."""
        return self._black | self._white << self._game.points

    @property
    def passes(self) -> int:
        """Passes in a row just before this position (0 or 1 while the game goes on)."""
        return self._passes

    @property
    def ko_point(self) -> int:
        """Simple ko: the point the side to move may not retake, else -1."""
        return self._ko

    @property
    def last_move(self) -> int:
        """The move that led here, -1 at the start."""
        return self._last

    def earlier_boards(self) -> tuple[int, ...]:
        """Positional superko: the codes (:meth:`code`) of every board of the game so
        far, this one included; empty under ``ko=simple``. The boards from before
        the last capture come first in no order, then those since it in order:
        ``earlier_boards()[-run:]`` with ``run = self.run_length()``."""
        return (*self._past, *self._run) if self._game.superko else ()

    def run_length(self) -> int:
        """Positional superko: how many boards since the last capture, this one included."""
        return len(self._run) if self._game.superko else 0

    def play(self, move: int) -> GoState:
        game = self._game
        if not isinstance(move, int) or isinstance(move, bool) or not 0 <= move <= game.pass_move:
            raise IllegalMove(
                move,
                f"not a move: expected a point 0..{game.points - 1} or pass ({game.pass_move})",
            )
        p = move
        if self.is_terminal():
            raise self._illegal(p, "the game is over")
        ply = self._ply + 1
        if p == game.pass_move:
            return GoState._make(
                game, ply, self._black, self._white, self._passes + 1, -1,
                self._past, self._run, p,
            )  # fmt: skip
        bit = 1 << p
        mover = self._to_move
        own, opp = (self._black, self._white) if mover == 0 else (self._white, self._black)
        if (own | opp) & bit:
            raise self._illegal(p, "the point is occupied")
        own |= bit
        empty = game.full & ~(own | opp)
        captured = checked = 0
        for q in iter_bits(game.adjacent(bit) & opp):
            if not checked >> q & 1:
                group = game.flood(1 << q, opp)
                checked |= group
                if not game.adjacent(group) & empty:
                    captured |= group
        opp ^= captured
        group = game.flood(bit, own)
        libs = game.adjacent(group) & (empty | captured)
        if not libs:
            raise self._illegal(p, "suicide is not allowed")
        if p == self._ko:
            raise self._illegal(p, "ko: the stone cannot be retaken at once")
        black, white = (own, opp) if mover == 0 else (opp, own)
        ko, past, run = -1, self._past, self._run
        if game.superko:
            new_code = black | white << game.points
            if self._repeats(new_code, bool(captured)):
                raise self._illegal(p, "positional superko: the board would repeat")
            past, run = (past.union(run), (new_code,)) if captured else (past, (*run, new_code))
        elif group == bit and libs == captured and captured.bit_count() == 1:
            # A lone stone that took one stone and has no other liberty: the ko shape.
            ko = captured.bit_length() - 1
        return GoState._make(game, ply, black, white, 0, ko, past, run, p)

    def _illegal(self, move: int, reason: str) -> IllegalMove:
        return IllegalMove(move, reason, text=self._game.format_move(move))

    def score(self) -> float:
        """Black's area minus White's area minus komi (the current count while live)."""
        return self._game.area_margin(self._black, self._white) - self._game.komi

    def score_detail(self) -> str:
        """The area count: ``B 12, W 12 + 7.5 komi``.

        >>> import arena
        >>> game = arena.load_game("go:size=5")
        >>> game.play_moves(game.parse_moves("C3 pass pass")).result_text()
        'Black wins by 17.5: B 25, W 0 + 7.5 komi'
        """
        black, white = self._game.areas(self._black, self._white)
        komi = self._game.komi
        sign = "-" if komi < 0 else "+"
        tail = f" {sign} {margin_text(abs(komi))} komi" if komi else ""
        return f"B {black}, W {white}{tail}"

    def returns(self) -> Returns:
        if not self.is_terminal():
            return (0, 0)
        return returns_of_margin(self.score())

    # --- identity -------------------------------------------------------------

    def _ident(self) -> tuple[Any, ...]:
        # The superko history is left out on purpose: see "Equality" in the module docstring.
        return (self._black, self._white, self._ply, self._passes, self._ko)

    def _compute_key(self) -> int:
        return hash_ints(self._black, self._white, self._ply, self._passes, self._ko + 1)

    def render(self) -> str:
        game = self._game
        black, white = self._black, self._white

        def symbol(p: int) -> str:
            return "X" if black >> p & 1 else "O" if white >> p & 1 else "."

        text = game.grid.render(symbol)
        if self._last >= 0:
            mover = game.player_names[1 - self._to_move]
            text += f"\nlast move: {game.format_move(self._last)} ({mover})"
        return text
