"""The compiled Othello evaluation of the ``ids`` engine: classic features, weighted by phase.

Boards are the solver's bitboards (:mod:`arena.solvers.othello.board`: bit
``row * 8 + col``, smaller boards in the top-left corner). Every feature is
"side to move minus opponent", so the value is the mover's:

* **mobility**: placements, a legal corner counting twice, as the ratio
  ``(m - o) / (m + o + 2)`` (a side short of moves must soon give something up);
* **potential mobility**: empty cells next to an enemy disc, the same ratio
  (tomorrow's moves; a small frontier of one's own keeps the opponent short);
* **corners** owned; **X-squares** (diagonally next to a corner) and
  **C-squares** (beside it on an edge) held while that corner is empty, which
  tend to give it away;
* **stable discs**, grown from the corners: a disc is stable when in each of
  the four line directions it lies on the border or next to a stable disc of
  its own colour (an under-estimate that misses discs fixed by full lines);
* **edge discs** that are not stable (often a liability, a target for wedges);
* **parity**: +1 when the mover would make the last move were there no passes;
* **discs**: the count, which decides the game but misleads until late;
* on 8x8, **patterns**: a fitted value for each configuration of each instance of
  Buro's Logistello families (1997; :data:`LOGISTELLO`): each edge with its two
  X-squares (3^10 configurations), the 3x3 and the 2x5 blocks at each corner, the
  second, third and fourth lines, and the diagonals of 4 to 8 cells; 46 instances, read
  from the board's eight images under its symmetries (:func:`patterns_value`), so each
  family has one table.

The features are those of most hand-written Othello evaluations (Rosenbloom's
IAGO, 1982; the study of Sannidhanam and Annamalai, "An analysis of heuristics
in Othello", 2004). A pattern file (:func:`load_patterns`, the shipped one
:data:`PATTERNS_FILE`) holds each pattern value and each feature's weight at five
phases, from the opening to the end; :func:`weights` interpolates them by the number
of empty cells into the table the compiled code reads (int16, :data:`FIXED`). Smaller
boards get the features alone, with :data:`ANCHORS`, per-disc weights on the 8x8 scale
(times ``64 / cells``).

The weights are fitted, not chosen: least squares of the final disc difference on the
features and patterns (``scripts/fit_othello_weights.py``), over 3.36 million positions
of 60,000 games the engine played against itself at depth 4 (6 from 20 empty cells),
the last 14 empty cells solved exactly; on 168,000 positions of held-out games R^2 is
0.524, against 0.477 for the edges and corner blocks before them. Each fit was kept
only because it won matches with random 4-ply openings, colours swapped: the first fit
(features only) against :data:`HAND_ANCHORS` 36-3-21 (62.5%, 0.05 s a move), the second
(with the edge table) against the first 35-2-23 (60.0%, 0.05 s), the third (with the
corner blocks) against the second 31-2-27 and 31-5-24 (54.6% over 120 games at 0.05 s
and 0.1 s), Logistello's families against the third 60-4-17 (76.5%, an SPRT's H1 at
0.1 s; docs/strength.md). :data:`ANCHORS` are the third fit's features' weights, which a
file from before the families (edges and corner blocks alone) is read with.

The search has the evaluation compiled into it: an edit of this file alone reaches it
because the compiled cache is a directory per version of the sources
(:mod:`arena.core.numba_dir`).

``kind`` 1 (``UTILITY``) is the plain disc difference instead, the ``utility``
evaluation of the readable search, so the two can be checked move for move.

Tests: tests/search/test_engine_othello.py, tests/search/test_othello_patterns.py
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

import numpy as np
from numba import njit

from arena.core.arrays_file import read_arrays
from arena.solvers.bits import popcount
from arena.solvers.othello.board import board_mask, moves

HEURISTIC, UTILITY = 0, 1

MOBILITY, POTENTIAL, CORNER, X_SQUARE, C_SQUARE, STABLE, EDGE, PARITY, DISCS = range(9)
FEATURES = 9

ANCHORS = np.array(
    [
        # phase 0 (opening), 1/4, 1/2 (midgame), 3/4, 1 (end)
        [19.6, 38.7, 124.5, 167.2, 56.8],  # mobility (ratio)
        [7.2, 106.9, 27.2, -106.6, -19.1],  # potential mobility (ratio)
        [199.5, 66.7, 23.0, 8.9, -1.2],  # corner
        [-47.2, -63.0, -33.8, -11.1, 2.0],  # X-square next to an empty corner
        [-26.4, -22.5, -10.4, -12.6, -0.6],  # C-square next to an empty corner
        [-10.4, 6.7, 4.6, 4.1, 1.7],  # stable disc (per disc)
        [11.5, -3.3, -4.8, -4.8, -5.0],  # unstable edge disc (per disc)
        [-8.2, -2.3, -0.3, 1.2, 9.4],  # parity
        [0.2, -3.2, -2.8, -0.7, 3.0],  # disc (per disc)
    ]
)
"""Weights per feature unit at five phases, fitted to game results with the edges and
corner blocks (see the module): four times the expected final disc difference, so a raw
value of 4 is about a disc. Smaller boards play them, and 8x8 with a pattern file from
before the families; the shipped file carries its own."""
PATTERNS_FILE = Path(__file__).with_name("patterns.npz")
"""The shipped pattern file (:func:`load_patterns`): Logistello's families and the
features' weights fitted with them."""
HAND_ANCHORS = np.array(
    [
        [60.0, 55.0, 50.0, 35.0, 20.0],  # mobility (ratio)
        [60.0, 50.0, 40.0, 20.0, 0.0],  # potential mobility (ratio)
        [30.0, 30.0, 30.0, 22.5, 15.0],  # corner
        [-15.0, -13.5, -12.0, -7.5, -3.0],  # X-square next to an empty corner
        [-5.0, -5.0, -5.0, -3.0, -1.0],  # C-square next to an empty corner
        [2.0, 3.0, 4.0, 4.5, 5.0],  # stable disc (per disc)
        [0.0, 0.0, 0.0, 0.0, 0.0],  # unstable edge disc (per disc)
        [0.0, 1.5, 3.0, 5.5, 8.0],  # parity
        [0.0, 0.0, 0.0, 0.0, 3.0],  # disc (per disc), from three quarters of the game on
    ]
)
"""The readable heuristic's weights (:mod:`arena.games.othello.heuristic`), by hand."""
PER_DISC = (STABLE, EDGE, DISCS)

# Masks of one board size, in the array ``masks`` (read as uint64).
BOARD, CORNERS, SIDE_COLS, SIDE_ROWS, BORDER, NOT_FIRST, NOT_LAST, NEAR = range(8)
MASKS = NEAR + 12  # then per corner: the corner, its X-square, its C-squares
LAYOUT = MASKS
"""After the masks: the pattern layout, the number of pattern families the weight
table holds, then for each family of :data:`FAMILY_CELLS` its first column plus one
(0: not in the table; see :func:`masks`)."""


def masks(size: int, families: tuple[int, ...] = ()) -> np.ndarray:
    """The masks the compiled evaluation needs for a ``size`` x ``size`` board, then the
    layout of the weight table's patterns: ``families`` (of :data:`FAMILY_CELLS`) in
    order, each family's values in ``3 ** cells`` columns after the features'.

    >>> m = masks(8, (LINE1, BLOCK3))
    >>> [int(x) for x in m[LAYOUT : LAYOUT + 4]]   # two families: edges at column 9, ...
    [2, 10, 6571, 0]
    """

    def bit(row: int, col: int) -> int:
        return 1 << (row * 8 + col)

    n = size
    out = [0] * MASKS
    out[BOARD] = board_mask(n)
    first = sum(bit(r, 0) for r in range(n))
    last = sum(bit(r, n - 1) for r in range(n))
    rows = sum(bit(0, c) | bit(n - 1, c) for c in range(n))
    out[SIDE_COLS] = first | last
    out[SIDE_ROWS] = rows
    out[BORDER] = first | last | rows
    out[NOT_FIRST] = ((1 << 64) - 1) & ~sum(bit(r, 0) for r in range(8))
    out[NOT_LAST] = ((1 << 64) - 1) & ~sum(bit(r, n - 1) for r in range(8))
    corners = 0
    for i, (r, c, dr, dc) in enumerate(
        ((0, 0, 1, 1), (0, n - 1, 1, -1), (n - 1, 0, -1, 1), (n - 1, n - 1, -1, -1))
    ):
        out[NEAR + 3 * i] = bit(r, c)
        out[NEAR + 3 * i + 1] = bit(r + dr, c + dc)
        out[NEAR + 3 * i + 2] = bit(r + dr, c) | bit(r, c + dc)
        corners |= bit(r, c)
    out[CORNERS] = corners
    out += [len(families)] + [0] * len(FAMILY_CELLS)
    column = FEATURES
    for family in families:
        out[LAYOUT + 1 + family] = column + 1
        column += 3 ** len(FAMILY_CELLS[family])
    return np.array(out, dtype=np.uint64)


def weight_table(size: int, anchors: np.ndarray = ANCHORS) -> np.ndarray:
    """``table[empties, feature]``: each weight at each number of empty cells.

    ``anchors[feature]`` holds the weight at evenly spaced phases from the
    opening (no disc played) to the end (no empty cell), linear in between.

    >>> t = weight_table(8, HAND_ANCHORS)
    >>> float(t[60, MOBILITY]), float(t[0, MOBILITY])
    (60.0, 20.0)
    >>> float(t[20, DISCS]), float(t[0, DISCS])   # discs count only late
    (0.0, 3.0)
    """
    cells = size * size
    table = phase_rows(anchors, cells)
    for f in PER_DISC:
        table[:, f] *= 64.0 / cells
    return table


def phase_rows(anchors: np.ndarray, cells: int = 64) -> np.ndarray:
    """``table[empties, k]``: ``anchors[k]``'s values at evenly spaced phases (from no disc
    played to no empty cell), linear in between, at each number of empty cells."""
    points = anchors.shape[1] - 1
    phase = np.clip(1.0 - np.arange(65) / (cells - 4), 0.0, 1.0) * points
    k = np.minimum(phase.astype(np.int64), points - 1)
    share = (phase - k)[:, None]
    return anchors[:, k].T * (1.0 - share) + anchors[:, k + 1].T * share


class Patterns(NamedTuple):
    """A pattern file's contents (:func:`load_patterns`)."""

    families: tuple[int, ...]
    """The families, in the order of their rows."""
    values: np.ndarray
    """``values[row, phase]``: each configuration's value (raw units, 4 a disc) at evenly
    spaced phases; each family's ``3 ** cells`` rows in turn."""
    anchors: np.ndarray | None
    """The features' weights fitted with them (None: :data:`ANCHORS`)."""


def load_patterns(path: Path | None = None) -> Patterns:
    """The pattern values of a file of ``scripts/fit_othello_weights.py`` (default: the
    shipped :data:`PATTERNS_FILE`). A file holds ``families``, ``values`` (int16, times
    ``scale``) and the features' ``anchors``; files from before the families hold
    ``edges`` and ``corners`` (:data:`LINE1` and :data:`BLOCK3`, fitted with
    :data:`ANCHORS`). A bad file raises a one-line :class:`ValueError`.

    >>> load_patterns().families == LOGISTELLO
    True
    """
    where = path or PATTERNS_FILE
    data = read_arrays(where, "an Othello pattern file")
    needed = ("families", "values") if "families" in data else ("edges", "corners")
    missing = [key for key in (*needed, "scale") if key not in data]
    if missing:
        raise ValueError(f"{where}: not an Othello pattern file (no '{missing[0]}')")
    if "families" in data:
        families = tuple(int(f) for f in data["families"])
        values = data["values"]
    else:
        families = (LINE1, BLOCK3)
        values = np.vstack([data["edges"], data["corners"]])
    scale = float(data["scale"])
    anchors = np.array(data["anchors"], dtype=np.float64) if "anchors" in data else None
    if any(not 0 <= f < len(FAMILY_CELLS) for f in families):
        raise ValueError(f"{where}: unknown pattern family in {list(families)}")
    rows = sum(3 ** len(FAMILY_CELLS[f]) for f in families)
    if values.ndim != 2 or values.shape[0] != rows or values.shape[1] < 2:
        raise ValueError(f"{where}: values have shape {values.shape}, not ({rows}, phases)")
    if anchors is not None and (anchors.ndim != 2 or anchors.shape[0] != FEATURES):
        raise ValueError(f"{where}: anchors have shape {anchors.shape}, not ({FEATURES}, phases)")
    values = values.astype(np.float64) / scale
    if not (np.isfinite(values).all() and (anchors is None or np.isfinite(anchors).all())):
        raise ValueError(f"{where}: values that are not finite")
    return Patterns(families, values, anchors)


@lru_cache(maxsize=4)
def weights(size: int, path: Path | None = None) -> tuple[np.ndarray, tuple[int, ...]]:
    """The engine's weight table ``[empties, column]`` (the features', then on 8x8 the
    patterns' of ``path``, default the shipped ones) and its pattern families, for
    :func:`masks`. Smaller boards get the features alone. Made once per process (22 MB,
    a few tenths of a second) and shared by every engine, so read-only.

    >>> table, families = weights(6)
    >>> table.shape, families
    ((65, 9), ())
    """
    if size != 8:  # the patterns are fitted to 8x8 games
        return _fixed(weight_table(size)), ()
    patterns = load_patterns(path)
    anchors = ANCHORS if patterns.anchors is None else patterns.anchors
    table = np.hstack([weight_table(8, anchors), phase_rows(patterns.values)])
    return _fixed(table), patterns.families


FIXED = 32
"""The engine's weight table holds raw values times FIXED as int16: half the bytes of
float32, so more of a phase's row (hundreds of kilobytes with Logistello's families)
stays in the core's cache, read at random by every evaluation."""


def _fixed(table: np.ndarray) -> np.ndarray:
    out = np.round(np.clip(table * FIXED, -32767, 32767)).astype(np.int16)
    out.setflags(write=False)
    return out


# The pattern families: sets of cells whose every configuration (each cell empty, the
# mover's or the opponent's) has a fitted value, as in Buro's Logistello (1997). A family
# is given by its cells near the top-left corner, in reading order; its other instances
# are the same cells read in the images of the board under its eight symmetries.
LINE1, BLOCK3, LINE1_X, BLOCK2X5, LINE2, LINE3, LINE4, DIAG8, DIAG7, DIAG6, DIAG5, DIAG4 = range(12)
FAMILY_CELLS: tuple[tuple[tuple[int, int], ...], ...] = (
    tuple((0, c) for c in range(8)),  # an edge
    tuple((i, j) for i in range(3) for j in range(3)),  # the 3x3 block at a corner
    (*((0, c) for c in range(8)), (1, 1), (1, 6)),  # an edge and its X-squares
    tuple((i, j) for i in range(2) for j in range(5)),  # 2x5 at a corner
    tuple((1, c) for c in range(8)),  # the second line
    tuple((2, c) for c in range(8)),  # the third
    tuple((3, c) for c in range(8)),  # the fourth
    tuple((i, i) for i in range(8)),  # a main diagonal
    tuple((i, i + 1) for i in range(7)),  # the diagonals of 7 cells ...
    tuple((i, i + 2) for i in range(6)),
    tuple((i, i + 3) for i in range(5)),
    tuple((i, i + 4) for i in range(4)),  # ... down to 4
)
"""Each family's cells ``(row, col)`` in reading order: cell ``k`` is base-3 digit ``k`` of
a configuration's index (0 empty, 1 the mover's, 2 the opponent's)."""
FAMILY_NAMES = (
    "line1",
    "block3",
    "line1_x",
    "block2x5",
    "line2",
    "line3",
    "line4",
    "diag8",
    "diag7",
    "diag6",
    "diag5",
    "diag4",
)
LOGISTELLO = (LINE1_X, BLOCK3, BLOCK2X5, LINE2, LINE3, LINE4, DIAG8, DIAG7, DIAG6, DIAG5, DIAG4)
"""Logistello's families (its edge family carries the X-squares)."""


def symmetry(g: int, row: int, col: int) -> tuple[int, int]:
    """Where cell ``(row, col)`` lands in the board's image ``g`` (0-7): mirrored left to
    right if ``g & 1``, top to bottom if ``g & 2``, then transposed if ``g & 4``.

    >>> symmetry(1, 0, 0), symmetry(2, 0, 0), symmetry(4, 0, 7), symmetry(7, 0, 0)
    ((0, 7), (7, 0), (7, 0), (7, 7))
    """
    if g & 1:
        col = 7 - col
    if g & 2:
        row = 7 - row
    if g & 4:
        row, col = col, row
    return row, col


def _inverse(g: int, row: int, col: int) -> tuple[int, int]:
    # The cell of the board read at (row, col) of image g.
    if g & 4:
        row, col = col, row
    if g & 2:
        row = 7 - row
    if g & 1:
        col = 7 - col
    return row, col


def _images() -> np.ndarray:
    # IMAGES[family]: the images whose reading of the family's cells covers a new set of
    # board cells (-1 after the last): one per instance of the family.
    out = np.full((len(FAMILY_CELLS), 8), -1, dtype=np.int64)
    for family, cells in enumerate(FAMILY_CELLS):
        seen: list[frozenset[tuple[int, int]]] = []
        for g in range(8):
            board_cells = frozenset(_inverse(g, r, c) for r, c in cells)
            if board_cells not in seen:
                out[family, len(seen)] = g
                seen.append(board_cells)
    return out


IMAGES = _images()
"""``IMAGES[family]``: the board images (:func:`symmetry`) in which the family's cells
are read, one per instance (4 for an edge, 8 for the 2x5 block, 2 for the main
diagonals), -1 after the last."""


def instances(family: int) -> list[tuple[tuple[int, int], ...]]:
    """The board cells of each instance of ``family``, in reading order.

    >>> [cells[:2] for cells in instances(LINE1)]   # top, bottom, left, right
    [((0, 0), (0, 1)), ((7, 0), (7, 1)), ((0, 0), (1, 0)), ((0, 7), (1, 7))]
    >>> len(instances(BLOCK2X5)), len(instances(DIAG8))
    (8, 2)
    """
    return [
        tuple(_inverse(int(g), r, c) for r, c in FAMILY_CELLS[family])
        for g in IMAGES[family]
        if g >= 0
    ]


def pattern_index(me: int, opp: int, cells: tuple[tuple[int, int], ...]) -> int:
    """The readable configuration index of ``cells`` (the reference of the compiled
    reading, :func:`family_value`).

    >>> pattern_index(0b10, 0b1, ((0, 0), (0, 1)))   # opponent's, mover's
    5
    """
    index = 0
    for k, (r, c) in enumerate(cells):
        bit = 1 << (r * 8 + c)
        index += 3**k * (1 if me & bit else 2 if opp & bit else 0)
    return index


def _ternary() -> np.ndarray:
    # TERNARY[b]: the sum of 3**i over the set bits i of b (10 bits: the widest family).
    return np.array([sum(3**i for i in range(10) if b >> i & 1) for b in range(1024)], np.int64)


TERNARY = _ternary()
COLUMN = np.uint64(0x0101010101010101)
DIAGONALS = np.array(
    [sum(1 << (9 * i + s) for i in range(8 - s)) for s in range(5)], dtype=np.uint64
)
"""``DIAGONALS[s]``: the cells ``(i, i + s)``, the diagonal families' cells."""


@njit(cache=True)
def mirror(x: np.uint64) -> np.uint64:
    """``x`` mirrored left to right (column c to 7 - c)."""
    k1, k2, k4 = (
        np.uint64(0x5555555555555555),
        np.uint64(0x3333333333333333),
        np.uint64(0x0F0F0F0F0F0F0F0F),
    )
    x = ((x >> np.uint64(1)) & k1) | ((x & k1) << np.uint64(1))
    x = ((x >> np.uint64(2)) & k2) | ((x & k2) << np.uint64(2))
    return ((x >> np.uint64(4)) & k4) | ((x & k4) << np.uint64(4))


@njit(cache=True)
def flip(x: np.uint64) -> np.uint64:
    """``x`` flipped top to bottom (row r to 7 - r)."""
    k1, k2 = np.uint64(0x00FF00FF00FF00FF), np.uint64(0x0000FFFF0000FFFF)
    x = ((x >> np.uint64(8)) & k1) | ((x & k1) << np.uint64(8))
    x = ((x >> np.uint64(16)) & k2) | ((x & k2) << np.uint64(16))
    return (x >> np.uint64(32)) | (x << np.uint64(32))


@njit(cache=True)
def transpose(x: np.uint64) -> np.uint64:
    """``x`` transposed (cell (r, c) to (c, r)), by three exchanges of blocks."""
    k1, k2, k4 = (
        np.uint64(0x5500550055005500),
        np.uint64(0x3333000033330000),
        np.uint64(0x0F0F0F0F00000000),
    )
    t = k4 & (x ^ (x << np.uint64(28)))
    x ^= t ^ (t >> np.uint64(28))
    t = k2 & (x ^ (x << np.uint64(14)))
    x ^= t ^ (t >> np.uint64(14))
    t = k1 & (x ^ (x << np.uint64(7)))
    return x ^ (t ^ (t >> np.uint64(7)))


@njit(cache=True)
def image(x: np.uint64, g: int) -> np.uint64:
    """The board's image ``g`` (:func:`symmetry`)."""
    if g & 1:
        x = mirror(x)
    if g & 2:
        x = flip(x)
    if g & 4:
        x = transpose(x)
    return x


@njit(cache=True, inline="always")
def family_bits(y: np.uint64, family: int) -> int:
    """The family's cells of image ``y`` as bits in reading order (bit k: cell k)."""
    if family == LINE1:
        return np.int64(y & np.uint64(0xFF))
    if family == BLOCK3:
        return np.int64(
            (y & np.uint64(7))
            | ((y >> np.uint64(5)) & np.uint64(0x38))
            | ((y >> np.uint64(10)) & np.uint64(0x1C0))
        )
    if family == LINE1_X:
        return np.int64(
            (y & np.uint64(0xFF))
            | ((y >> np.uint64(1)) & np.uint64(0x100))
            | ((y >> np.uint64(5)) & np.uint64(0x200))
        )
    if family == BLOCK2X5:
        return np.int64((y & np.uint64(0x1F)) | ((y >> np.uint64(3)) & np.uint64(0x3E0)))
    if family <= LINE4:
        return np.int64((y >> np.uint64(8 * (family - LINE2 + 1))) & np.uint64(0xFF))
    # A diagonal: its cells (i, i + s) are on distinct columns, so one multiplication
    # gathers them into the top byte by column, without carries.
    s = family - DIAG8
    return np.int64(((y & DIAGONALS[s]) * COLUMN) >> np.uint64(56 + s))


@njit(cache=True)
def family_value(me: np.uint64, opp: np.uint64, family: int) -> int:
    """The configuration index of the family's cells in the (image) boards."""
    return TERNARY[family_bits(me, family)] + 2 * TERNARY[family_bits(opp, family)]


@njit(cache=True, inline="always")
def _at(y: np.uint64, z: np.uint64, family: int, row: np.ndarray, column: int) -> int:
    # The value of the family's configuration in images y (mover) and z (opponent);
    # inlined with the family a constant, so its reading is a few shifts.
    return np.int64(
        row[column + TERNARY[family_bits(y, family)] + 2 * TERNARY[family_bits(z, family)]]
    )


@njit(cache=True)
def patterns_value(me: np.uint64, opp: np.uint64, m: np.ndarray, row: np.ndarray) -> int:
    """The sum of the fitted values of every instance of the layout's families
    (``m[LAYOUT:]``, :func:`masks`) in the weight row of the position's phase (times
    :data:`FIXED`). Written out family by family, image by image (the images of
    :data:`IMAGES`; the tests check the sum against a readable loop over every instance's
    cells), so that no reading branches."""
    if m[LAYOUT] == 0:
        return 0
    # The board's eight images, each made once.
    m0, o0 = me, opp
    m1, o1 = mirror(me), mirror(opp)
    m2, o2 = flip(me), flip(opp)
    m3, o3 = flip(m1), flip(o1)
    m4, o4 = transpose(me), transpose(opp)
    m5, o5 = transpose(m1), transpose(o1)
    m6, o6 = transpose(m2), transpose(o2)
    m7, o7 = transpose(m3), transpose(o3)
    total = 0
    c = np.int64(m[LAYOUT + 1 + LINE1]) - 1
    if c >= 0:
        total += (
            _at(m0, o0, LINE1, row, c)
            + _at(m2, o2, LINE1, row, c)
            + _at(m4, o4, LINE1, row, c)
            + _at(m5, o5, LINE1, row, c)
        )
    c = np.int64(m[LAYOUT + 1 + BLOCK3]) - 1
    if c >= 0:
        total += (
            _at(m0, o0, BLOCK3, row, c)
            + _at(m1, o1, BLOCK3, row, c)
            + _at(m2, o2, BLOCK3, row, c)
            + _at(m3, o3, BLOCK3, row, c)
        )
    c = np.int64(m[LAYOUT + 1 + LINE1_X]) - 1
    if c >= 0:
        total += (
            _at(m0, o0, LINE1_X, row, c)
            + _at(m2, o2, LINE1_X, row, c)
            + _at(m4, o4, LINE1_X, row, c)
            + _at(m5, o5, LINE1_X, row, c)
        )
    c = np.int64(m[LAYOUT + 1 + BLOCK2X5]) - 1
    if c >= 0:
        total += (
            _at(m0, o0, BLOCK2X5, row, c)
            + _at(m1, o1, BLOCK2X5, row, c)
            + _at(m2, o2, BLOCK2X5, row, c)
            + _at(m3, o3, BLOCK2X5, row, c)
            + _at(m4, o4, BLOCK2X5, row, c)
            + _at(m5, o5, BLOCK2X5, row, c)
            + _at(m6, o6, BLOCK2X5, row, c)
            + _at(m7, o7, BLOCK2X5, row, c)
        )
    c = np.int64(m[LAYOUT + 1 + LINE2]) - 1
    if c >= 0:
        total += (
            _at(m0, o0, LINE2, row, c)
            + _at(m2, o2, LINE2, row, c)
            + _at(m4, o4, LINE2, row, c)
            + _at(m5, o5, LINE2, row, c)
        )
    c = np.int64(m[LAYOUT + 1 + LINE3]) - 1
    if c >= 0:
        total += (
            _at(m0, o0, LINE3, row, c)
            + _at(m2, o2, LINE3, row, c)
            + _at(m4, o4, LINE3, row, c)
            + _at(m5, o5, LINE3, row, c)
        )
    c = np.int64(m[LAYOUT + 1 + LINE4]) - 1
    if c >= 0:
        total += (
            _at(m0, o0, LINE4, row, c)
            + _at(m2, o2, LINE4, row, c)
            + _at(m4, o4, LINE4, row, c)
            + _at(m5, o5, LINE4, row, c)
        )
    c = np.int64(m[LAYOUT + 1 + DIAG8]) - 1
    if c >= 0:
        total += _at(m0, o0, DIAG8, row, c) + _at(m1, o1, DIAG8, row, c)
    c = np.int64(m[LAYOUT + 1 + DIAG7]) - 1
    if c >= 0:
        total += (
            _at(m0, o0, DIAG7, row, c)
            + _at(m1, o1, DIAG7, row, c)
            + _at(m2, o2, DIAG7, row, c)
            + _at(m3, o3, DIAG7, row, c)
        )
    c = np.int64(m[LAYOUT + 1 + DIAG6]) - 1
    if c >= 0:
        total += (
            _at(m0, o0, DIAG6, row, c)
            + _at(m1, o1, DIAG6, row, c)
            + _at(m2, o2, DIAG6, row, c)
            + _at(m3, o3, DIAG6, row, c)
        )
    c = np.int64(m[LAYOUT + 1 + DIAG5]) - 1
    if c >= 0:
        total += (
            _at(m0, o0, DIAG5, row, c)
            + _at(m1, o1, DIAG5, row, c)
            + _at(m2, o2, DIAG5, row, c)
            + _at(m3, o3, DIAG5, row, c)
        )
    c = np.int64(m[LAYOUT + 1 + DIAG4]) - 1
    if c >= 0:
        total += (
            _at(m0, o0, DIAG4, row, c)
            + _at(m1, o1, DIAG4, row, c)
            + _at(m2, o2, DIAG4, row, c)
            + _at(m3, o3, DIAG4, row, c)
        )
    return total


SOFT = 200.0
"""Reports squash raw values into (-SCALE, SCALE) by ``SCALE * raw / (|raw| + SOFT)``."""
UNIT = 100
"""The compiled evaluation is an integer: raw values in hundredths."""


@njit(cache=True)
def stable(own: np.uint64, m: np.ndarray) -> np.uint64:
    """Discs of ``own`` that can never be flipped, grown from its corners."""
    found = own & m[CORNERS]
    if found == 0:
        return found
    side_cols, side_rows, border = m[SIDE_COLS], m[SIDE_ROWS], m[BORDER]
    not_first, not_last = m[NOT_FIRST], m[NOT_LAST]
    s1, s7, s8, s9 = np.uint64(1), np.uint64(7), np.uint64(8), np.uint64(9)
    while True:
        left = found & not_first  # may step to col - 1
        right = found & not_last  # may step to col + 1
        grown = (
            own
            & (side_cols | (right << s1) | (left >> s1))
            & (side_rows | (found << s8) | (found >> s8))
            & (border | (right << s9) | (left >> s9))
            & (border | (left << s7) | (right >> s7))
        )
        grown |= found
        if grown == found:
            return found
        found = grown


@njit(cache=True)
def neighbours(x: np.uint64, m: np.ndarray) -> np.uint64:
    """Cells next to (a king's move from) some cell of ``x``."""
    s1, s8 = np.uint64(1), np.uint64(8)
    sideways = ((x & m[NOT_LAST]) << s1) | ((x & m[NOT_FIRST]) >> s1)
    row = x | sideways
    return (sideways | (row << s8) | (row >> s8)) & m[BOARD]


@njit(cache=True)
def features(
    me: np.uint64, opp: np.uint64, my_moves: np.uint64, opp_moves: np.uint64, m: np.ndarray
) -> tuple[float, float, float, float, float, float, float, float, float]:
    """The features of the position for the mover, in the order of :data:`ANCHORS`."""
    board = m[BOARD]
    corners = m[CORNERS]
    empty = board & ~(me | opp)
    mine = np.float64(popcount(my_moves) + popcount(my_moves & corners))
    theirs = np.float64(popcount(opp_moves) + popcount(opp_moves & corners))
    pm = np.float64(popcount(neighbours(opp, m) & empty))
    po = np.float64(popcount(neighbours(me, m) & empty))
    xs = np.int64(0)
    cs = np.int64(0)
    for i in range(4):
        if empty & m[NEAR + 3 * i]:
            x = m[NEAR + 3 * i + 1]
            c = m[NEAR + 3 * i + 2]
            xs += np.int64(popcount(me & x)) - np.int64(popcount(opp & x))
            cs += np.int64(popcount(me & c)) - np.int64(popcount(opp & c))
    sm = stable(me, m)
    so = stable(opp, m)
    border = m[BORDER]
    return (
        (mine - theirs) / (mine + theirs + 2.0),
        (pm - po) / (pm + po + 2.0),
        np.float64(np.int64(popcount(me & corners)) - np.int64(popcount(opp & corners))),
        np.float64(xs),
        np.float64(cs),
        np.float64(np.int64(popcount(sm)) - np.int64(popcount(so))),
        np.float64(np.int64(popcount(me & border & ~sm)) - np.int64(popcount(opp & border & ~so))),
        1.0 if popcount(empty) & 1 else -1.0,
        np.float64(np.int64(popcount(me)) - np.int64(popcount(opp))),
    )


@njit(cache=True)
def evaluate(
    me: np.uint64,
    opp: np.uint64,
    my_moves: np.uint64,
    opp_moves: np.uint64,
    kind: int,
    m: np.ndarray,
    w: np.ndarray,
) -> int:
    """The mover's value in hundredths (``kind`` HEURISTIC) or the disc difference (UTILITY)."""
    if kind == UTILITY:
        return np.int64(popcount(me)) - np.int64(popcount(opp))
    f = features(me, opp, my_moves, opp_moves, m)
    row = w[np.int64(popcount(m[BOARD] & ~(me | opp)))]
    fixed = (
        row[0] * f[0]
        + row[1] * f[1]
        + row[2] * f[2]
        + row[3] * f[3]
        + row[4] * f[4]
        + row[5] * f[5]
        + row[6] * f[6]
        + row[7] * f[7]
        + row[8] * f[8]
    )
    fixed += patterns_value(me, opp, m, row)
    return np.int64(fixed * (UNIT / FIXED))


@njit(cache=True)
def feature_rows(
    mes: np.ndarray,
    opps: np.ndarray,
    board: np.uint64,
    m: np.ndarray,
    families: np.ndarray,
    out: np.ndarray,
    indices: np.ndarray,
) -> None:
    """The features (``out[i]``) and the configuration of every instance of the
    ``families`` (``indices[i]``, family by family, in :data:`IMAGES` order) of many
    positions, for fitting the weights."""
    for i in range(mes.shape[0]):
        me, opp = mes[i], opps[i]
        f = features(me, opp, moves(me, opp, board), moves(opp, me, board), m)
        for k in range(FEATURES):
            out[i, k] = f[k]
        j = 0
        for family in families:
            for g in IMAGES[family]:
                if g < 0:
                    break
                indices[i, j] = family_value(image(me, g), image(opp, g), family)
                j += 1
