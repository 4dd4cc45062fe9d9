"""Go's fitted prior: move features and the weights ``scripts/fit_go_priors.py`` fitted.

``mcts:patterns=K`` (the kernel's knob ``P_LEARNED``) turns the prior of the compiled Go
search from the hand-set knowledge rates (``kernel.prior``) into rates from a linear
model of the move a strong player chooses, the "move patterns" of Coulom (*Computing
Elo ratings of move patterns in the game of Go*, ICGA Journal 30(4), 2007) and of the
MCTS programs after him, on a few features every empty point has:

- its 3x3 neighbourhood (the eight cells' colours, off the board included), seen by
  the player to move, every rotation and reflection one class;
- its distance to the opponent's last move and to the player's own last move
  (Coulom's ``dx + dy + max(dx, dy)``: 2 next to it, 3 diagonal, ..., 17 and beyond one
  bucket, no such move another);
- its line (the first to the sixth and beyond) in three stages of the game (under 15%,
  under 35% and more of the board taken);
- the hand-set knowledge's class of the move (``kernel.prior`` // 5: a capture, a save,
  a self-atari, a ladder, the shapes next to the last move, ...), so the tactics the
  kernel reads are features too;
- its liberty class (:func:`liberty_class`): the fewest liberties of an opposing string
  next to it and of an own string next to it, and the liberties the player's string on
  it would have, so an atari, a move that gives a short string room and a move into
  a net are features too (Coulom's capture, extension and atari features, the
  "low liberty" moves of Fuego's playout policy).

A move's logit is the sum of its features' weights; the prior rate of a legal point is
``50 + K (logit - mean logit)`` percent, clipped to 5..95, the mean over the position's
candidate points (empty, not an own eye). The weights were fitted by maximum likelihood of
the moves GNU Go chose (a softmax over the points, L2-regularised): see the script's
docstring for the games and the fit. They ship in ``go_priors.npz`` beside this module:
fitted to 4,101 positions of 21 games of GNU Go 3.8 level 10 playing itself on 19x19,
on 549 positions of 3 more games GNU Go's move is the model's first choice 23.5% of the
time (the hand-set prior's 6.1%), a log-loss of 3.60 nats (5.56 for a uniform choice).

>>> t = weight_table()
>>> t.shape == (LENGTH,) and t.dtype == np.int64
True
>>> code = lambda rows: sum(".XO ".index(c) << 2 * i for i, c in enumerate(rows.replace("|", "")))
>>> a, b = canonical(np.array([code("X..|..|..."), code("...|..|..X")]))
>>> bool(a == b)  # a stone at the top left and one at the bottom right: one class
True
>>> int(swap_colours(np.array([code("XO |. |...")]))[0]) == code("OX |. |...")
True
>>> distance_bucket(1, 0), distance_bucket(1, 1), distance_bucket(9, 9)
(0, 1, 15)

Tests: tests/games/test_go_learned.py
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

from arena.core.arrays_file import read_arrays
from arena.core.bitboard import iter_bits
from arena.games.go.rules import Go

NCODES = 4**8
"""Neighbourhood codes: eight cells, two bits each (0 empty, 1 the player to move, 2 the
opponent, 3 off the board), from the top left row by row, the centre skipped."""
NDIST = 17
"""Distance buckets: ``d - 2`` for Coulom's distance d in 2..16, 15 for 17 and beyond,
16 when there is no such move (the start of the game, or a pass)."""
NO_MOVE = NDIST - 1
NLINE = 6
"""Lines 1..5 and 6 and beyond (0-based: 0..5)."""
NSTAGE = 3
"""Stages: under 15% of the points taken, under 35%, more."""
NHEUR = 21
"""The hand-set prior's value // 5 (0..100 percent)."""
NLIBS = 5 * 5 * 4
"""Liberty classes (:func:`liberty_class`): ``(opponent * 5 + own) * 4 + after``."""

OFF_LAST = NCODES
OFF_PREV = OFF_LAST + NDIST
OFF_LINE = OFF_PREV + NDIST
OFF_HEUR = OFF_LINE + NLINE * NSTAGE
OFF_LIBS = OFF_HEUR + NHEUR
HAS_LIBS = OFF_LIBS + NLIBS
"""The table's last slot: 1 when the liberty classes have weights, 0 when the file was
fitted before them (the kernel then skips counting liberties)."""
LENGTH = HAS_LIBS + 1
"""Length of the flat weight table the kernel reads (``P_WEIGHTS`` in ``p``)."""
SCALE = 1000
"""The table holds weights in thousandths of a nat (``p`` is an int64 array)."""

NEIGHBOURS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
"""The eight cells of a code, in bit order (row, column offsets)."""

WEIGHTS_FILE = Path(__file__).with_name("go_priors.npz")


def swap_colours(codes: np.ndarray) -> np.ndarray:
    """The codes with the two colours swapped (1 <-> 2; empty and off the board stay)."""
    codes = np.asarray(codes, np.int64)
    low, high = codes & 0x5555, (codes >> 1) & 0x5555
    return (low << 1) | high


def _symmetries() -> list[list[int]]:
    """For each of the eight rotations and reflections, where each code cell goes."""
    out = []
    for rot in range(4):
        for flip in (False, True):
            perm = []
            for dr, dc in NEIGHBOURS:
                r, c = dr, dc
                for _ in range(rot):
                    r, c = c, -r
                if flip:
                    c = -c
                perm.append(NEIGHBOURS.index((r, c)))
            out.append(perm)
    return out


def canonical(codes: np.ndarray) -> np.ndarray:
    """The smallest code among each code's rotations and reflections (its class)."""
    codes = np.asarray(codes, np.int64)
    cells = [(codes >> (2 * i)) & 3 for i in range(8)]
    best = None
    for perm in _symmetries():
        moved = np.zeros_like(codes)
        for i, j in enumerate(perm):
            moved |= cells[i] << (2 * j)
        best = moved if best is None else np.minimum(best, moved)
    assert best is not None
    return best


def distance_bucket(dr: int, dc: int) -> int:
    """Coulom's distance ``dx + dy + max(dx, dy)`` of an offset, as a bucket (0..15)."""
    dr, dc = abs(dr), abs(dc)
    d = dr + dc + max(dr, dc)
    return min(d, 17) - 2


def stage(taken: int, points: int) -> int:
    """The stage of a position with ``taken`` of ``points`` points not empty (0..2)."""
    if 20 * taken < 3 * points:
        return 0
    if 20 * taken < 7 * points:
        return 1
    return 2


@cache
def classes() -> tuple[np.ndarray, np.ndarray]:
    """Every code's class index (``np.int64``, length :data:`NCODES`) and each class's
    canonical code."""
    canon = canonical(np.arange(NCODES))
    reps, index = np.unique(canon, return_inverse=True)
    return index.astype(np.int64), reps.astype(np.int64)


def table_from(weights: dict[str, np.ndarray]) -> np.ndarray:
    """The flat int64 table (thousandths of a nat) from fitted weights: ``patterns`` by
    canonical code (``codes``), ``last``, ``prev``, ``line`` (NSTAGE x NLINE), ``heur``
    and ``libs`` (zeros when a file fitted before the liberty classes has none)."""
    index, reps = classes()
    by_class = np.zeros(len(reps))
    where = np.searchsorted(reps, weights["codes"])
    by_class[where] = weights["patterns"]
    out = np.zeros(LENGTH)
    out[:NCODES] = by_class[index]
    out[OFF_LAST : OFF_LAST + NDIST] = weights["last"]
    out[OFF_PREV : OFF_PREV + NDIST] = weights["prev"]
    out[OFF_LINE : OFF_LINE + NLINE * NSTAGE] = np.asarray(weights["line"]).ravel()
    out[OFF_HEUR : OFF_HEUR + NHEUR] = weights["heur"]
    if "libs" in weights:
        out[OFF_LIBS : OFF_LIBS + NLIBS] = weights["libs"]
    table = np.rint(out * SCALE).astype(np.int64)
    table[HAS_LIBS] = int(np.any(table[OFF_LIBS:HAS_LIBS]))
    return table


SHAPES = {
    "last": (NDIST,),
    "prev": (NDIST,),
    "line": (NSTAGE, NLINE),
    "heur": (NHEUR,),
    "libs": (NLIBS,),
}
"""The shape of each fitted array in a weights file (``codes`` and ``patterns`` have one
entry per shape class seen; ``libs`` may be missing)."""


def load_table(path: str | Path) -> np.ndarray:
    """The kernel's table from a weights file written by ``scripts/fit_go_priors.py``; a
    :class:`ValueError` in one line for a file that is missing or not such a file."""
    if not Path(path).exists():
        raise ValueError(f"{path}: no such file")
    weights = read_arrays(Path(path), "a weights file (.npz)")
    for name, shape in (("codes", None), ("patterns", None), *SHAPES.items()):
        if name not in weights:
            if name == "libs":
                continue
            raise ValueError(f"{path}: not a weights file of fit_go_priors.py (no {name!r})")
        if shape is not None and weights[name].shape != shape:
            raise ValueError(f"{path}: {name!r} has shape {weights[name].shape}, not {shape}")
    codes, patterns = weights["codes"], weights["patterns"]
    if codes.ndim != 1 or codes.shape != patterns.shape:
        raise ValueError(f"{path}: 'codes' and 'patterns' are not two arrays of one length")
    _, reps = classes()
    if not np.all(np.isin(codes, reps)):
        raise ValueError(f"{path}: 'codes' holds codes that are no shape class")
    try:
        finite = all(np.all(np.isfinite(w)) for k, w in weights.items() if k != "codes")
    except TypeError:  # an array of text or objects
        finite = False
    if not finite:
        raise ValueError(f"{path}: a weight is not a finite number")
    return table_from(weights)


@cache
def weight_table() -> np.ndarray:
    """The shipped weights as the kernel's table (zeros if the file is missing: then
    ``patterns=K`` gives every candidate 50%)."""
    if not WEIGHTS_FILE.exists():
        return np.zeros(LENGTH, np.int64)
    return load_table(WEIGHTS_FILE)


def features(size: int, cells: np.ndarray, to_move: int, last: int, prev: int,
             heur: np.ndarray) -> np.ndarray:  # fmt: skip
    """Each point's feature indices into the flat table, the readable reference of the
    kernel's: an ``(points, 6)`` array (code, last, prev, line, heuristic class, liberty
    class).

    ``cells`` is the board as ``size x size`` (0 empty, 1 Black, 2 White), ``to_move``
    1 or 2, ``last`` and ``prev`` the points of the last two moves (-1 or ``size**2``
    for none or a pass), ``heur`` the hand-set prior of each point (``kernel.prior``)."""
    n = size * size
    padded = np.full((size + 2, size + 2), 3, np.int64)
    padded[1:-1, 1:-1] = cells
    if to_move == 2:
        swap = np.array([0, 2, 1, 3])
        padded = swap[padded]
    codes = np.zeros((size, size), np.int64)
    for i, (dr, dc) in enumerate(NEIGHBOURS):
        codes |= padded[1 + dr : 1 + dr + size, 1 + dc : 1 + dc + size] << (2 * i)
    rows, cols = np.divmod(np.arange(n), size)

    def buckets(move: int) -> np.ndarray:
        if move < 0 or move >= n:
            return np.full(n, NO_MOVE)
        dr, dc = np.abs(rows - move // size), np.abs(cols - move % size)
        d = dr + dc + np.maximum(dr, dc)
        return np.minimum(np.maximum(d, 2), 17) - 2

    line = np.minimum(np.minimum(rows, cols), np.minimum(size - 1 - rows, size - 1 - cols))
    st = stage(int(np.count_nonzero(cells)), n)
    out = np.empty((n, 6), np.int64)
    out[:, 0] = codes.ravel()
    out[:, 1] = OFF_LAST + buckets(last)
    out[:, 2] = OFF_PREV + buckets(prev)
    out[:, 3] = OFF_LINE + st * NLINE + np.minimum(line, NLINE - 1)
    out[:, 4] = OFF_HEUR + np.asarray(heur, np.int64)[:n] // 5
    out[:, 5] = OFF_LIBS + liberty_classes(cells, to_move)
    return out


def liberty_class(opponent: int, own: int, after: int) -> int:
    """The liberty class of a point: ``opponent`` and ``own`` the fewest liberties of a
    string of that side next to it (0 when there is none, 4 for four or more), ``after``
    the liberties the player's string on the point would have (0..3, 3 for three or more,
    and 3 when the stone captures a string in atari, which frees points).

    >>> liberty_class(0, 0, 3), liberty_class(2, 0, 3), liberty_class(4, 4, 3)
    (3, 43, 99)
    """
    return (min(opponent, 4) * 5 + min(own, 4)) * 4 + min(after, 3)


@cache
def _board(size: int) -> Go:
    """The readable rules of a ``size`` board, for their bitboard helpers."""
    return Go(size=size)


def liberty_classes(cells: np.ndarray, to_move: int) -> np.ndarray:
    """Each point's :func:`liberty_class` for the player ``to_move`` (1 or 2) on ``cells``
    (``size x size``), the readable reference of the kernel's ``_liberty_class``, by the
    rules' bitboard ``groups`` and ``adjacent``; occupied points get class 0."""
    go = _board(cells.shape[0])
    flat = cells.ravel()
    own, opp = (sum(1 << int(q) for q in np.nonzero(flat == c)[0]) for c in (to_move, 3 - to_move))
    empty = go.full & ~(own | opp)
    string = {q: g for g in (*go.groups(own), *go.groups(opp)) for q in iter_bits(g)}
    counts = {g: (go.adjacent(g) & empty).bit_count() for g in set(string.values())}

    out = np.zeros(len(flat), np.int64)
    for q in iter_bits(empty):
        near = go.adjacent(1 << q)
        theirs = [counts[string[x]] for x in iter_bits(near & opp)]
        mine = [string[x] for x in iter_bits(near & own)]
        region = (1 << q) | sum(set(mine))  # the string a stone on q would make
        after = 3 if 1 in theirs else (go.adjacent(region) & empty & ~(1 << q)).bit_count()
        fewest = min((counts[g] for g in mine), default=0)
        out[q] = liberty_class(min(theirs, default=0), fewest, after)
    return out
