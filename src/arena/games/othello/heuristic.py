"""Othello on any even board: mobility, corners, stability and parity, weighted by phase.

Every feature is a difference "side to move minus opponent", so swapping the
colours of all discs together with the side to move negates the evaluation.
The sum is turned into Black's point of view at the end.

Features
--------
* **Mobility**: the placements each side has, as ``(m - o) / (m + o + 2)``.
  A side with few moves must soon give up corners or pass. The mover's
  placements are cached on the state by the rules; the opponent's are one more
  shift-fill (:meth:`Othello.placements`).
* **Potential mobility**: the empty cells next to an enemy disc, same ratio.
  They are tomorrow's moves; keeping one's own frontier small keeps the
  opponent short of them.
* **Corners**: owned corners. A corner disc can never be flipped and anchors
  its edges and diagonal.
* **X- and C-squares**: discs on the cell diagonally next to a corner (X) or
  beside it on an edge (C) while that corner is empty. They tend to give the
  corner away, X-squares most. They are the cells next to the four corners on
  every size (on 4x4 the X-squares are the centre).
* **Stability**: discs that can never be flipped, under-estimated cheaply:
  starting from owned corners, a disc is stable when in each of the four line
  directions it lies on the border or next to a stable disc of its own colour
  (a run through a stable disc can never be outflanked in that direction).
  This grows corner-anchored edges and the wedges behind them; it misses
  discs made stable by full lines only.
* **Parity**: +1 if the side to move would make the last move of the game
  were there no passes (an odd number of empties), -1 otherwise.
* **Discs**: the disc difference, which the game is scored on but a poor
  guide until late (fewer discs early usually means more mobility), so it
  counts only in the last quarter of the game, rising from 0 to 3 per disc.

Weights (per feature unit; per disc on the 8x8 scale for stable discs) depend
on the phase ``p``, the fraction of the start's empty cells now filled: each
is piecewise linear between its opening (p = 0), midgame (p = 0.5) and
endgame (p = 1) values.

==================  =======  =======  =======
feature             opening  midgame  endgame
==================  =======  =======  =======
mobility              60       50       20
potential mobility    60       40        0
corner                30       30       15
X-square             -15      -12       -3
C-square              -5       -5       -1
stable disc            2        4        5
parity                 0        3        8
==================  =======  =======  =======

Mobility and corners lead, as in most Othello programs (see e.g. the feature
study of Sannidhanam and Annamalai, "An analysis of heuristics in Othello",
2004). Per-disc weights are scaled by ``64 / cells`` so that the balance
between per-disc and per-board features stays put across sizes. The weights
were checked by seeded self-play on 6x6, 8x8 and 10x10 (alpha-beta depth 2-3,
random openings): doubling potential mobility won 54-61%; an edge-disc
term lost (24-45%); disc difference before the last quarter lost on 8x8; the
other changes tried (corner, X, C, stability and mobility weights) were
within noise. Under ``rule=nomove-ends`` a side without a placement ends the
game, so mobility weighs 1.5 times as much and, from the midgame on, discs
count at least 1.5 each (the count decides a game that may stop any time).

The raw sum is squashed into (-SCALE, SCALE) by ``SCALE * raw / (|raw| + 200)``,
which is monotone, so search picks the same moves as with the raw sum.
Terminal positions (which search scores itself) get ``SCALE`` times the result.

:func:`candidates` steers smart MCTS rollouts: a corner when one is legal,
otherwise no X- or C-square next to an empty corner if another move exists.

>>> import arena
>>> game = arena.load_game("othello:size=6")
>>> evaluate(game.initial_state())
0.0
>>> corner = game.state_from_discs("a1 b2 c3 c4", "d3 d4 e4", to_move=1)
>>> evaluate(corner) > 0  # Black holds a1
True

Tests: tests/games/test_othello_heuristic.py
"""

from __future__ import annotations

from typing import NamedTuple

from arena.core.evaluation import SCALE
from arena.games.othello.rules import BLACK, Othello, OthelloState

_SOFT = 200.0

# Phase anchors (opening, midgame, endgame) of each weight.
_MOBILITY = (60.0, 50.0, 20.0)
_POTENTIAL = (60.0, 40.0, 0.0)
_CORNER = (30.0, 30.0, 15.0)
_X_SQUARE = (-15.0, -12.0, -3.0)
_C_SQUARE = (-5.0, -5.0, -1.0)
_STABLE = (2.0, 4.0, 5.0)  # per disc on the 8x8 scale
_PARITY = (0.0, 3.0, 8.0)
_DISC = 3.0  # per disc on the 8x8 scale, at the end of the game
_DISC_FROM = 0.75  # the phase where the disc weight starts to rise from 0
# rule=nomove-ends: mobility counts more, and discs count from the midgame on.
_NOMOVE_MOBILITY = 1.5
_NOMOVE_DISC = 1.5


class _Board(NamedTuple):
    """Masks of one board size."""

    n: int
    cells: int
    full: int
    not_first: int  # every column but the first (may step to col - 1)
    not_last: int  # every column but the last (may step to col + 1)
    side_cols: int  # first and last column
    side_rows: int  # first and last row
    border: int
    corners: int
    near: tuple[tuple[int, int, int], ...]  # (corner, its X-square, its C-squares)
    per_disc: float  # 64 / cells


_BOARDS: dict[int, _Board] = {}


def _board(n: int) -> _Board:
    found = _BOARDS.get(n)
    if found is None:

        def bit(row: int, col: int) -> int:
            return 1 << (row * n + col)

        cells = n * n
        full = (1 << cells) - 1
        first_col = sum(bit(r, 0) for r in range(n))
        last_col = sum(bit(r, n - 1) for r in range(n))
        side_rows = sum(bit(0, c) | bit(n - 1, c) for c in range(n))
        near = []
        for r, c, dr, dc in (
            (0, 0, 1, 1),
            (0, n - 1, 1, -1),
            (n - 1, 0, -1, 1),
            (n - 1, n - 1, -1, -1),
        ):
            near.append((bit(r, c), bit(r + dr, c + dc), bit(r + dr, c) | bit(r, c + dc)))
        found = _BOARDS[n] = _Board(
            n=n,
            cells=cells,
            full=full,
            not_first=full & ~first_col,
            not_last=full & ~last_col,
            side_cols=first_col | last_col,
            side_rows=side_rows,
            border=first_col | last_col | side_rows,
            corners=sum(corner for corner, _, _ in near),
            near=tuple(near),
            per_disc=64.0 / cells,
        )
    return found


def _neighbours(b: _Board, x: int) -> int:
    """Cells next to (king move from) some cell of ``x``."""
    sideways = ((x & b.not_last) << 1) | ((x & b.not_first) >> 1)
    row = x | sideways
    return (sideways | (row << b.n) | (row >> b.n)) & b.full


def _stable(b: _Board, own: int) -> int:
    """Discs of ``own`` that can never be flipped, grown from its corners."""
    stable = own & b.corners
    if not stable:
        return 0
    n, not_first, not_last = b.n, b.not_first, b.not_last
    while True:
        left = stable & not_first  # may step to col - 1
        right = stable & not_last  # may step to col + 1
        # In each direction the disc must lie on the border or next to a stable disc.
        grown = (
            own
            & (b.side_cols | (right << 1) | (left >> 1))
            & (b.side_rows | (stable << n) | (stable >> n))
            & (b.border | (right << (n + 1)) | (left >> (n + 1)))
            & (b.border | (left << (n - 1)) | (right >> (n - 1)))
        )
        grown |= stable
        if grown == stable:
            return stable
        stable = grown


def _weight(anchors: tuple[float, float, float], phase: float) -> float:
    opening, midgame, endgame = anchors
    if phase <= 0.5:
        return opening + (midgame - opening) * 2.0 * phase
    return midgame + (endgame - midgame) * (2.0 * phase - 1.0)


def _ratio(a: int, b: int) -> float:
    return (a - b) / (a + b + 2)


def evaluate(state: OthelloState) -> float:
    """How good the position is for Black (player 0), in [-SCALE, SCALE]."""
    if state.is_terminal():
        return SCALE * state.returns()[0]
    game: Othello = state.game
    b = _board(game.size)
    mover = state.to_move
    me, opp = (state.black, state.white) if mover == BLACK else (state.white, state.black)
    occupied = me | opp
    empty = b.full & ~occupied
    empties = empty.bit_count()
    phase = 1.0 - (empties / (b.cells - 4))
    if phase < 0.0:
        phase = 0.0

    my_moves = state.placements().bit_count()
    their_moves = game.placements(opp, me).bit_count()
    mobility = _weight(_MOBILITY, phase) * _ratio(my_moves, their_moves)
    potential = _ratio(
        (_neighbours(b, opp) & empty).bit_count(), (_neighbours(b, me) & empty).bit_count()
    )

    corners = (me & b.corners).bit_count() - (opp & b.corners).bit_count()
    x_squares = c_squares = 0
    for corner, x_bit, c_bits in b.near:
        if empty & corner:
            x_squares += (me & x_bit).bit_count() - (opp & x_bit).bit_count()
            c_squares += (me & c_bits).bit_count() - (opp & c_bits).bit_count()

    stable = _stable(b, me).bit_count() - _stable(b, opp).bit_count()
    discs = me.bit_count() - opp.bit_count()
    disc_weight = _DISC * max(0.0, (phase - _DISC_FROM) / (1.0 - _DISC_FROM))
    if not game.can_pass:
        # nomove-ends: the disc count may decide the game any time the opponent runs dry.
        mobility *= _NOMOVE_MOBILITY
        if phase >= 0.5:
            disc_weight = max(disc_weight, _NOMOVE_DISC)
    parity = 1 if empties % 2 else -1

    raw = (
        mobility
        + _weight(_POTENTIAL, phase) * potential
        + _weight(_CORNER, phase) * corners
        + _weight(_X_SQUARE, phase) * x_squares
        + _weight(_C_SQUARE, phase) * c_squares
        + b.per_disc * (_weight(_STABLE, phase) * stable + disc_weight * discs)
        + _weight(_PARITY, phase) * parity
    )
    value = SCALE * raw / (abs(raw) + _SOFT)
    return value if mover == BLACK else -value


def candidates(state: OthelloState, moves: tuple[int, ...]) -> tuple[int, ...]:
    """Moves for smart rollouts: a corner when one is legal, else no X- or C-square
    next to an empty corner (unless every move is one)."""
    b = _board(state.game.size)
    corners = tuple(m for m in moves if b.corners >> m & 1)
    if corners:
        return corners
    empty = b.full & ~(state.black | state.white)
    risky = 0
    for corner, x_bit, c_bits in b.near:
        if empty & corner:
            risky |= x_bit | c_bits
    if not risky:
        return moves
    safe = tuple(m for m in moves if not risky >> m & 1)
    return safe or moves
