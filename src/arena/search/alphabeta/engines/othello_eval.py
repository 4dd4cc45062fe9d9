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
* on 8x8, **patterns**: a fitted value for each configuration of each of the
  four edges (3^8 of them; an edge is read the same either way) and of the 3x3
  block at each corner (3^9; the same mirrored on its diagonal), two of the
  pattern families of Buro's Logistello (1997).

The features are those of most hand-written Othello evaluations (Rosenbloom's
IAGO, 1982; the study of Sannidhanam and Annamalai, "An analysis of heuristics
in Othello", 2004). :data:`ANCHORS` holds each weight at five phases, from
the opening to the end; :func:`weight_table` interpolates them by the number
of empty cells into the table the compiled code reads (the edge table
follows it in the same rows). Per-disc weights are on the 8x8 scale (times
``64 / cells`` on smaller boards, which get no edge table).

The weights are fitted, not chosen: least squares of the final disc
difference on the features and patterns, over 336,000 positions of 6,000
games the engine played against itself, the last 14 empty cells solved
exactly (``scripts/fit_othello_weights.py``). Each fit was kept only because
it won matches with random 4-ply openings, colours swapped: the first fit
(features only) against :data:`HAND_ANCHORS` 36-3-21 (62.5%, 0.05 s a move),
the second (with the edge table) against the first 35-2-23 (60.0%, 0.05 s),
the third (with the corner blocks) against the second 31-2-27 and 31-5-24
(54.6% over 120 games at 0.05 s and 0.1 s).

The search has the evaluation compiled into it: an edit of this file alone reaches it
because the compiled cache is a directory per version of the sources
(:mod:`arena.core.numba_dir`).

``kind`` 1 (``UTILITY``) is the plain disc difference instead, the ``utility``
evaluation of the readable search, so the two can be checked move for move.

Tests: tests/search/test_engine_othello.py
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

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
"""Weights per feature unit at five phases, fitted to game results (see the module):
four times the expected final disc difference, so a raw value of 4 is about a disc."""
PATTERNS_FILE = Path(__file__).with_name("othello_patterns.npz")
"""The fitted pattern tables: ``edges[pattern, phase]`` and ``corners[pattern, phase]``
times ``scale``, as int16."""
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


def masks(size: int) -> np.ndarray:
    """The masks the compiled evaluation needs for a ``size`` x ``size`` board."""

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
    points = anchors.shape[1] - 1
    table = np.zeros((65, FEATURES))
    for empties in range(65):
        phase = min(1.0, max(0.0, 1.0 - empties / (cells - 4))) * points
        k = min(int(phase), points - 1)
        share = phase - k
        table[empties] = anchors[:, k] * (1.0 - share) + anchors[:, k + 1] * share
        for f in PER_DISC:
            table[empties, f] *= 64.0 / cells
    return table


PATTERNS = 3**8
"""Configurations of an edge (8 cells, each empty, the mover's or the opponent's)."""
COLUMN = np.uint64(0x0101010101010101)
GATHER = np.uint64(0x0102040810204080)  # multiplies a column's bits into the top byte


def _ternary() -> np.ndarray:
    # TERNARY[b]: the sum of 3**i over the set bits i of the byte b.
    return np.array([sum(3**i for i in range(8) if b >> i & 1) for b in range(256)], np.int64)


TERNARY = _ternary()


def pattern_table(path: Path | None = None) -> np.ndarray:
    """``table[empties, pattern]``: the fitted value of each edge configuration and,
    after them, of each corner block's (8x8), interpolated by phase from the file's
    anchors (default: the shipped tables, :data:`PATTERNS_FILE`)."""
    with np.load(path or PATTERNS_FILE) as data:
        parts = [data["edges"]] + ([data["corners"]] if "corners" in data else [])
        anchors = np.vstack(parts).astype(np.float64) / data["scale"]
    points = anchors.shape[1] - 1
    table = np.zeros((65, anchors.shape[0]))
    for empties in range(65):
        phase = min(1.0, max(0.0, 1.0 - empties / 60)) * points
        k = min(int(phase), points - 1)
        share = phase - k
        table[empties] = anchors[:, k] * (1.0 - share) + anchors[:, k + 1] * share
    return table


@njit(cache=True)
def edge_patterns(me: np.uint64, opp: np.uint64) -> tuple[int, int, int, int]:
    """The configurations of the four edges of an 8x8 board (0 empty, 1 the mover's,
    2 the opponent's, in base 3 from one corner to the other)."""
    top = TERNARY[np.int64(me & np.uint64(255))] + 2 * TERNARY[np.int64(opp & np.uint64(255))]
    s56 = np.uint64(56)
    bottom = TERNARY[np.int64(me >> s56)] + 2 * TERNARY[np.int64(opp >> s56)]
    left = (
        TERNARY[np.int64(((me & COLUMN) * GATHER) >> s56)]
        + 2 * TERNARY[np.int64(((opp & COLUMN) * GATHER) >> s56)]
    )
    s7 = np.uint64(7)
    right = (
        TERNARY[np.int64((((me >> s7) & COLUMN) * GATHER) >> s56)]
        + 2 * TERNARY[np.int64((((opp >> s7) & COLUMN) * GATHER) >> s56)]
    )
    return top, bottom, left, right


CORNER_PATTERNS = 3**9
"""Configurations of the 3x3 block at a corner."""


def _corner_cells() -> np.ndarray:
    # CORNER_CELLS[c]: the bits of corner c's 3x3 block, row by row from the corner.
    out = np.zeros((4, 9), dtype=np.int64)
    for c, (r0, c0, dr, dc) in enumerate(
        ((0, 0, 1, 1), (0, 7, 1, -1), (7, 0, -1, 1), (7, 7, -1, -1))
    ):
        for i in range(3):
            for j in range(3):
                out[c, 3 * i + j] = (r0 + dr * i) * 8 + (c0 + dc * j)
    return out


CORNER_CELLS = _corner_cells()


@njit(cache=True)
def corner_pattern(me: np.uint64, opp: np.uint64, corner: int) -> int:
    """The configuration of a corner's 3x3 block (base 3 as in :func:`edge_patterns`)."""
    index = 0
    power = 1
    for k in range(9):
        bit = np.uint64(1) << np.uint64(CORNER_CELLS[corner, k])
        if me & bit:
            index += power
        elif opp & bit:
            index += 2 * power
        power *= 3
    return index


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
    raw = (
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
    if w.shape[1] > FEATURES:
        top, bottom, left, right = edge_patterns(me, opp)
        raw += (
            row[FEATURES + top]
            + row[FEATURES + bottom]
            + row[FEATURES + left]
            + row[FEATURES + right]
        )
    if w.shape[1] > FEATURES + PATTERNS:
        base = FEATURES + PATTERNS
        for c in range(4):
            raw += row[base + corner_pattern(me, opp, c)]
    return np.int64(raw * UNIT)


@njit(cache=True)
def feature_rows(
    mes: np.ndarray,
    opps: np.ndarray,
    board: np.uint64,
    m: np.ndarray,
    out: np.ndarray,
    edges: np.ndarray,
    corners: np.ndarray,
) -> None:
    """The features (``out[i]``) and edge patterns (``edges[i]``) of many positions,
    for fitting the weights."""
    for i in range(mes.shape[0]):
        me, opp = mes[i], opps[i]
        f = features(me, opp, moves(me, opp, board), moves(opp, me, board), m)
        for k in range(FEATURES):
            out[i, k] = f[k]
        top, bottom, left, right = edge_patterns(me, opp)
        edges[i, 0] = top
        edges[i, 1] = bottom
        edges[i, 2] = left
        edges[i, 3] = right
        for c in range(4):
            corners[i, c] = corner_pattern(me, opp, c)
