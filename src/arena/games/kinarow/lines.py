"""Counting k-windows on LineBoard bitboards, every window of a direction at once.

A *k-window* is k consecutive cells along one of the four line directions
that lies wholly on the board: the places where a winning line can be. In
the :class:`~arena.core.bitboard.LineBoard` layout a window is named by the bit
of its first cell ``p`` and the step ``d`` of its direction: its cells are
``p, p + d, ..., p + (k-1)d``. So "bit ``p`` of ``own >> (i*d)``" is the i-th
cell of the window starting at ``p``, and one shift per offset treats all
windows of a direction together:

* the windows with no enemy stone: an OR of k shifted enemy boards;
* the own stones per window, as a bit-sliced counter (``levels[b]`` holds
  bit ``b`` of every window's count), split at the end into "exactly j" masks;
* the winning cells: windows whose cells other than offset i are all own
  (ANDs of the shifted boards before and after i) and whose i-th is empty.

That is a few dozen big-int operations per direction instead of a Python
loop over hundreds of windows (572 on a 15x15 Gomoku board), about twice as
fast for the counts and several times for the winning cells.

The start masks (where a window fits) depend only on rows, cols and k, and
are built once per game spec in :func:`tables`.

>>> import arena
>>> game = arena.load_game("tictactoe")
>>> state = game.play_moves(game.parse_moves("a1 b2 b1"))  # X: a1 b1, O: b2
>>> x, o = state.bits
>>> found = scan(tables(game), x, o)
>>> found.counts[1:3], game.lines.cells_of_bits(found.wins)  # windows with 1, 2 X's
([1, 1], [2])

Tests: tests/games/test_kinarow_heuristics.py
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

from arena.core.bitboard import LineBoard


class LineGame(Protocol):
    """What this module needs of a k-in-a-row game."""

    spec: str
    rows: int
    cols: int
    k: int
    exact: bool
    lines: LineBoard


class Direction(NamedTuple):
    step: int  # bit distance between neighbouring cells of a line
    starts: int  # start bits of the k-windows that fit on the board


class Tables(NamedTuple):
    k: int
    full: int  # every cell of the board
    directions: tuple[Direction, ...]
    levels: int  # bits of the per-window stone counter (counts 0..k)


class Scan(NamedTuple):
    """One player's k-window profile."""

    counts: list[int]  # counts[j]: windows with exactly j own stones and no enemy stone
    wins: int  # empty cells that would complete a winning line now
    # (k+1)-windows with both ends empty and k-2 own stones and one empty cell between
    # (.XXX.. or .XX.X. for k=5): one move makes .XXXX., a four that cannot be blocked.
    open_threes: int


_VECTORS = ((0, 1), (1, 0), (1, 1), (1, -1))  # (row, col) steps; LineBoard.directions order
_TABLES: dict[str, Tables] = {}


def _starts(lines: LineBoard, length: int, dr: int, dc: int) -> int:
    """Bits of the cells where a line of ``length`` in direction (dr, dc) starts and fits."""
    bits = 0
    reach = length - 1
    for r in range(lines.rows):
        for c in range(lines.cols):
            if 0 <= r + reach * dr < lines.rows and 0 <= c + reach * dc < lines.cols:
                bits |= lines.cell_bit[lines.cell(r, c)]
    return bits


def tables(game: LineGame) -> Tables:
    """The window tables of ``game``, built on first use and cached by spec."""
    found = _TABLES.get(game.spec)
    if found is None:
        lines = game.lines
        directions = tuple(
            Direction(step, _starts(lines, game.k, dr, dc))
            for step, (dr, dc) in zip(lines.directions, _VECTORS, strict=True)
        )
        # Directions where no window fits (k longer than the board's side) cost nothing.
        directions = tuple(d for d in directions if d.starts)
        found = _TABLES[game.spec] = Tables(game.k, lines.full, directions, game.k.bit_length())
    return found


def _add(levels: list[int], bits: int) -> None:
    """Add one 0/1 per window to the bit-sliced counter (ripple carry)."""
    for b, level in enumerate(levels):
        levels[b] = level ^ bits
        bits &= level
        if not bits:
            return


def _split(levels: list[int], mask: int) -> list[int]:
    """``out[j]``: the bits of ``mask`` whose counter reads exactly j (j < 2**len(levels))."""
    out = [mask]
    for level in reversed(levels):  # most significant first, so index = count
        out = [part for m in out for part in (m & ~level, m & level)]
    return out


def _exactly(levels: list[int], j: int, mask: int) -> int:
    """The bits of ``mask`` whose counter reads j (one mask: cheaper than a split)."""
    for b, level in enumerate(levels):
        mask &= level if j >> b & 1 else ~level
    return mask


def scan(t: Tables, own: int, opp: int, exact: bool = False, shapes: bool = False) -> Scan:
    """Count ``own``'s enemy-free k-windows by stones and find its winning cells.

    With ``exact`` only lines of exactly k win (a stone next to the window
    would make an overline). With ``shapes`` also count open threes;
    otherwise ``open_threes`` is 0.
    """
    k = t.k
    counts = [0] * (k + 1)
    open_threes = 0
    empty = t.full & ~(own | opp)
    for step, starts in t.directions:
        levels = [0] * t.levels
        blocked = 0
        for i in range(k):
            shift = i * step
            if shapes and i == k - 1 >= 1:
                # The k-1 cells seen so far, read one cell later, are the middle of the
                # (k+1)-window at each start. Both ends empty is what makes a shape open
                # rather than closed. The far end needs no fit mask: off the board it is
                # a padding bit or lies past the top row, never in `empty`.
                ends = starts & empty & (empty >> (k * step)) & ~(blocked >> step)
                if ends:
                    middle = _exactly(levels, k - 2, ends << step) >> step
                    open_threes += (ends & middle).bit_count()
            blocked |= opp >> shift
            _add(levels, own >> shift)
        by_count = _split(levels, starts & ~blocked)
        for j in range(1, k):
            counts[j] += by_count[j].bit_count()
    return Scan(counts, _wins(t, own, empty, exact), open_threes)


def _wins(t: Tables, own: int, empty: int, exact: bool) -> int:
    """Empty cells that complete a window whose other k-1 cells are all ``own``."""
    k = t.k
    wins = 0
    for step, starts in t.directions:
        shifted = [own >> (i * step) for i in range(k)]
        if exact:
            # An own stone just before or after the window would make the line longer than k.
            starts &= ~(own << step) & ~(own >> (k * step))
        # after[i]: windows whose cells past offset i are all own; `before` the same up to i.
        after = [0] * k
        for i in range(k - 1, -1, -1):
            after[i] = starts
            starts &= shifted[i]
        before = -1
        for i in range(k):
            gap = before & after[i]  # every cell but the i-th is own
            if gap:
                wins |= (gap & (empty >> (i * step))) << (i * step)
            before &= shifted[i]
            if not before:
                break
    return wins


def win_cells(game: LineGame, own: int, opp: int) -> int:
    """Bits of the empty cells where ``own`` would complete a winning line."""
    t = tables(game)
    return _wins(t, own, t.full & ~(own | opp), game.exact)


# Value bands shared by the k-in-a-row evaluations (SCALE is 1000): a static
# judgement never reaches a verdict, so search prefers a seen win to any hunch.
WIN_NOW = 990.0  # the game ends within two plies whatever the defender does
WIN_SOON = 950.0  # a forcing sequence the evaluation recognises (a few plies)
STATIC = 900.0  # static scores lie strictly inside (-STATIC, STATIC)


def squash(raw: float, soft: float) -> float:
    """Map a raw score into (-STATIC, STATIC): monotone, odd, about linear below ``soft``."""
    return STATIC * raw / (abs(raw) + soft)


def forced(mover_wins: int, other_wins: int) -> float:
    """The verdict of the threats alone, for the side to move (0.0: none).

    The mover completes a line if it has a winning cell; otherwise it can
    block one enemy winning cell per move, so two of them lose.
    """
    if mover_wins:
        return WIN_NOW
    if other_wins & (other_wins - 1):  # more than one bit set
        return -WIN_NOW
    return 0.0
