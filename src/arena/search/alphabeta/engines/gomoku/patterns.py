"""Gomoku's line patterns: the shape of each cell's four lines in one look-up.

What a stone on an empty cell would make along one line depends only on the eight cells
around it on that line (four each side: a five through the cell lies within them). Each
of those cells is empty, Black's, White's or off the board, so the eight of them make a
16-bit *key* (2 bits a cell, :func:`key_of`), and a table read by the key gives the
*shape* a stone of either player there makes along that line (:data:`SHAPES`):

- ``FIVE``: five in a row through the cell (freestyle: a longer line wins too);
- ``F4`` an open four: two distinct cells then complete a five; ``B4`` a four: one does;
- ``F3``, ``B3``: a three, whose best next stone along the line makes an open four (an
  open three) or a four only; ``F2``/``B2`` and ``F1``/``B1`` likewise one step further
  back; ``DEAD``: no five can ever pass through the cell along this line.

The four shapes of a cell then give its *class* (:data:`CLASSES`) by one more look-up:
what the move makes over all its lines -- a five, an open or double four, a four-three, a
double three, a four or a three with support, and so on down to nothing. These are the
pattern codes of Gomoku engines (the idea is public and old; see Rapfi's and Yixin's
descriptions of their evaluations); the tables here are built by the readable recursion
below, from the definition of a five alone.

>>> shape_of("....x....")  # a lone stone in the open
'F1'
>>> shape_of("...xx.x..")  # x at the centre: a broken three, open
'F3'
>>> shape_of("o.xxx.x..")  # x at the centre makes x x x . x with room: a four
'B4'
>>> shape_of("..oxxxxo.")  # walled in on both sides, five cells short
'DEAD'

Tests: tests/search/test_gomoku_patterns.py
"""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np

SHAPES = ("DEAD", "B1", "F1", "B2", "F2", "B3", "F3", "B4", "F4", "FIVE")
"""The shapes of one line through a cell, weakest first (their codes: the index)."""
DEAD, B1, F1, B2, F2, B3, F3, B4, F4, FIVE = range(10)

CLASSES = (
    "NONE",
    "B2",
    "F2",
    "F2x2",
    "B3",
    "B3+",
    "F3",
    "F3+",
    "B4",
    "B4+",
    "F3x2",
    "B4F3",
    "F4",
    "FIVE",
)
"""What a stone on a cell makes over its four lines, weakest first (codes: the index):
``+`` a three or a four with a two or a three along another line; ``F3x2`` two open
threes; ``B4F3`` a four and an open three (or a three); ``F4`` an open four or two fours."""
(
    C_NONE,
    C_B2,
    C_F2,
    C_F2X2,
    C_B3,
    C_B3P,
    C_F3,
    C_F3P,
    C_B4,
    C_B4P,
    C_F3X2,
    C_B4F3,
    C_F4,
    C_FIVE,
) = range(14)

SIDE = 4
"""Cells each side of the centre that a five through it can reach."""
EMPTY, BLACK, WHITE, OFF = 0, 1, 2, 3
"""A neighbour's 2-bit state in a key (``BLACK``: player 0's stone)."""
KEYS = 4 ** (2 * SIDE)
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def _slots() -> list[int]:
    """Offsets along a line of the key's slots, slot 0 first."""
    return [d for d in range(-SIDE, SIDE + 1) if d != 0]


def slot(offset: int) -> int:
    """The key's slot of the neighbour ``offset`` cells along the line (not 0)."""
    return offset + SIDE if offset < 0 else offset + SIDE - 1


def _fives(line: tuple[int, ...], exact: bool = False) -> tuple[bool, set[int]]:
    """Whether the own stones (1) of ``line`` (9 cells: 0 empty, 1 own, 2 blocked; the
    centre own) make five through the centre, and the empty cells that would. ``exact``
    (``overline=nowin``): only a line of exactly five counts, so a five whose next cell
    on either side is own is none (the cells past the nine are taken as not own)."""
    wins: set[int] = set()
    for start in range(SIDE + 1):
        window = line[start : start + 5]
        if 2 in window:
            continue
        if exact and 1 in (line[start - 1] if start > 0 else 0, *line[start + 5 : start + 6]):
            continue  # filled, it would be six or more
        empty = [start + i for i, v in enumerate(window) if v == 0]
        if not empty:
            return True, wins
        if len(empty) == 1:
            wins.add(empty[0])
    return False, wins


@cache
def _shape(line: tuple[int, ...], exact: bool = False) -> int:
    five, wins = _fives(line, exact)
    if five:
        return FIVE
    if wins:
        return F4 if len(wins) >= 2 else B4
    best = DEAD
    for i, v in enumerate(line):
        if v == 0:
            best = max(best, _shape((*line[:i], 1, *line[i + 1 :]), exact))
    # One more stone along the line makes ``best``: this shape is two codes below it.
    return {F4: F3, B4: B3, F3: F2, B3: B2, F2: F1, B2: B1}.get(best, DEAD)


def shape_of(text: str, exact: bool = False) -> str:
    """The shape made by an own stone at the centre of nine cells written as ``text``
    (``x`` own, ``o`` the other's or off the board, ``.`` empty; the centre is ``x``);
    ``exact``: by the rule of exactly five (``overline=nowin``).

    >>> shape_of("x.xxxx..."), shape_of("x.xxxx...", exact=True)  # the left cell: six
    ('F4', 'B4')
    >>> shape_of("xxx.xx..."), shape_of("xxx.xx...", exact=True)  # its only five: six
    ('B4', 'B2')
    """
    if len(text) != 2 * SIDE + 1 or text[SIDE] != "x" or set(text) - set(".xo"):
        raise ValueError(f"shape_of: {text!r}: nine cells of '.', 'x', 'o', 'x' at the centre")
    return SHAPES[_shape(tuple({".": 0, "x": 1, "o": 2}[c] for c in text), exact)]


def key_of(text: str) -> int:
    """The key of the eight neighbours in ``text`` (nine cells, the centre ignored:
    ``.`` empty, ``b`` Black, ``w`` White, ``#`` off the board).

    >>> key_of("....?...b") == BLACK << 2 * slot(4)
    True
    """
    states = {".": EMPTY, "b": BLACK, "w": WHITE, "#": OFF}
    key = 0
    for offset in _slots():
        key |= states[text[SIDE + offset]] << 2 * slot(offset)
    return key


def shape_table(exact: bool = False) -> np.ndarray:
    """``(2, KEYS)`` int8: the shape player 0 (Black) and player 1 make by a stone at the
    centre of each key's neighbours (``exact``: by the rule of exactly five)."""
    table = np.zeros((2, KEYS), np.int8)
    offsets = _slots()
    for key in range(KEYS):
        states = [(key >> 2 * slot(d)) & 3 for d in offsets]
        for p in (0, 1):
            own = BLACK if p == 0 else WHITE
            line = [1 if s == own else 0 if s == EMPTY else 2 for s in states]
            table[p, key] = _shape((*line[:SIDE], 1, *line[SIDE:]), exact)
    return table


def class_of(shapes: tuple[int, ...]) -> int:
    """The class of a cell from the shapes of its four lines.

    >>> CLASSES[class_of((B4, F3, B1, DEAD))], CLASSES[class_of((F3, F3, F2, B1))]
    ('B4F3', 'F3x2')
    """
    n = [shapes.count(s) for s in range(len(SHAPES))]
    support = n[B3] + n[F2] > 0  # a second line with a three's or an open two's promise
    if n[FIVE]:
        return C_FIVE
    if n[F4] or n[B4] >= 2:
        return C_F4
    if n[B4] and n[F3]:
        return C_B4F3
    if n[F3] >= 2:
        return C_F3X2
    if n[B4]:
        return C_B4P if support else C_B4
    if n[F3]:
        return C_F3P if support else C_F3
    if n[B3]:
        return C_B3P if n[B3] >= 2 or n[F2] else C_B3
    if n[F2]:
        return C_F2X2 if n[F2] >= 2 else C_F2
    return C_B2 if n[B2] else C_NONE


def class_table() -> np.ndarray:
    """``(10 ** 4,)`` int8: the class of the shapes ``s0 + 10 s1 + 100 s2 + 1000 s3``."""
    table = np.zeros(10**4, np.int8)
    for code in range(10**4):
        table[code] = class_of((code % 10, code // 10 % 10, code // 100 % 10, code // 1000))
    return table


COMBOS = tuple(itertools.combinations_with_replacement(range(len(SHAPES)), 4))
"""Every *combination* of four line shapes (a multiset, sorted weakest first): 715 of
them, all that a cell's four lines can tell an evaluation (their order does not matter).
A class is a coarser grouping of them (:func:`combo_classes`); an evaluation by
combination gives each its own weight, as the classical evaluations of Gomoku engines
give each cell's "pattern4" one."""


@cache
def combo_table() -> np.ndarray:
    """``(10 ** 4,)`` int64: the combination (:data:`COMBOS`) of the shapes
    ``s0 + 10 s1 + 100 s2 + 1000 s3``.

    >>> COMBOS[combo_table()[F3 + 10 * DEAD + 100 * B4 + 1000 * B1]] == (DEAD, B1, F3, B4)
    True
    """
    index = {combo: i for i, combo in enumerate(COMBOS)}
    table = np.zeros(10**4, np.int64)
    for code in range(10**4):
        digits = (code % 10, code // 10 % 10, code // 100 % 10, code // 1000)
        table[code] = index[tuple(sorted(digits))]
    return table


def combo_classes() -> np.ndarray:
    """``(len(COMBOS),)`` int64: each combination's class (:func:`class_of` depends on the
    shapes alone, not their order, so a class's weight spreads over its combinations
    exactly).

    >>> CLASSES[combo_classes()[COMBOS.index((DEAD, B1, F3, B4))]]
    'B4F3'
    """
    return np.array([class_of(combo) for combo in COMBOS], np.int64)


def neighbours(size: int) -> np.ndarray:
    """``(cells, 4, 2 SIDE)`` int64: each cell's neighbours along each direction, in
    slot order (-1: off the board)."""
    out = np.full((size * size, 4, 2 * SIDE), -1, np.int64)
    for r in range(size):
        for c in range(size):
            for d, (dr, dc) in enumerate(DIRECTIONS):
                for offset in _slots():
                    rr, cc = r + offset * dr, c + offset * dc
                    if 0 <= rr < size and 0 <= cc < size:
                        out[r * size + c, d, slot(offset)] = rr * size + cc
    return out


def keys(board: np.ndarray, nbr: np.ndarray) -> np.ndarray:
    """``(cells, 4)``: the keys of every cell of ``board`` (0 empty, 1 Black, 2 White)
    along each direction (``nbr``: :func:`neighbours`).

    >>> size = 15; board = np.zeros(size * size, np.int64); board[7 * 15 + 8] = 1
    >>> int(keys(board, neighbours(size))[7 * 15 + 7, 0]) == key_of("....?b...")
    True
    """
    padded = np.append(board, OFF)  # index -1: off the board
    states = padded[nbr]
    return (states << (2 * np.arange(2 * SIDE))).sum(axis=2)
