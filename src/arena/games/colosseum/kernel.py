"""Colosseum Survival's compiled kernel (numba): the rules of ``rules.py`` over arrays.

See :mod:`arena.core.kernel` for the contract. ``p = [W]``, the game's move
stride (the board side, or 12 when the size is drawn). A position is

``s = [M, to_move, cell A, cell B, result, region A, region B, open...]``

with ``result`` the first player's return once the players are apart
(``ONGOING`` before) and the region sizes at the end (0 before). The board is
kept by rows, as in the rules' bit-parallel walks but one small int per row:
``open`` holds four blocks of W rows, one per side (u r d l), and bit ``c`` of
row ``r`` of block ``d`` is set when side ``d`` of cell (r, c) has no wall. A
move is ``4 * (r * W + c) + side``, as in the rules. The set-up is drawn by the
rules from the seed; ``encode`` copies it, so the kernel never redraws it.

A walk grows a set of cells one step for every row at once: shifted by one
column through the open right and left sides, and into the rows above and
below through the open up and down sides. The legal moves are the open sides
of the cells reached within K = (M+1)//2 steps without entering the
opponent's cell, listed by cell and side, ascending as ``State.legal_moves()``
lists them; the playout draws one uniformly by counting them per row and side
without listing them. After a wall, as in the rules, the players can only have
come apart when both end points of the new wall touch another wall; then two
floods grow in lockstep from the cells either side of it until they meet
(nothing changed) or one stops (a closed region, which separates the players
when it holds exactly one of them). Colosseum has no rollout policy of its
own: ``rollout`` is the random playout.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from arena.core.game import State
from arena.core.kernel import ONGOING, Kernel
from arena.games.colosseum.rules import Colosseum, ColosseumState

# s: the position.
S_SIZE, S_TO_MOVE, S_A, S_B, S_RESULT, S_REGION_A, S_REGION_B, S_OPEN = range(8)

_UP, _RIGHT, _DOWN, _LEFT = 0, 1, 2, 3


@njit(cache=True)
def _popcount(x: int) -> int:
    """Set bits of a row (LLVM compiles this loop to one popcount instruction)."""
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True)
def _open(s: np.ndarray, w: int, side: int, r: int, c: int) -> bool:
    """Whether ``side`` of cell (r, c) has no wall."""
    return s[S_OPEN + side * w + r] >> c & 1 != 0


@njit(cache=True)
def _grow(s: np.ndarray, w: int, rows: np.ndarray, out: np.ndarray, lo: int, hi: int) -> bool:
    """``out[lo..hi]`` = the cells of ``rows`` plus every cell one open step away;
    whether it grew. ``rows`` must be empty outside rows ``lo + 1..hi - 1`` (and the
    board's edge rows), so rows outside the band need no work."""
    m = s[S_SIZE]
    up, right, down, left = S_OPEN, S_OPEN + w, S_OPEN + 2 * w, S_OPEN + 3 * w
    grew = False
    for r in range(lo, hi + 1):
        x = rows[r]
        y = x | ((x & s[right + r]) << 1) | ((x & s[left + r]) >> 1)
        if r > 0:
            y |= rows[r - 1] & s[down + r - 1]
        if r < m - 1:
            y |= rows[r + 1] & s[up + r + 1]
        out[r] = y
        grew |= y != x
    return grew


@njit(cache=True)
def _start(rows: np.ndarray, m: int, w: int, cell: int) -> int:
    """Make ``rows`` the one cell ``cell``; its row."""
    for r in range(m):
        rows[r] = 0
    r = cell // w
    rows[r] = 1 << (cell % w)
    return r


@njit(cache=True)
def _copy(source: np.ndarray, target: np.ndarray, lo: int, hi: int) -> None:
    for r in range(lo, hi + 1):
        target[r] = source[r]


@njit(cache=True)
def _count(rows: np.ndarray, lo: int, hi: int) -> int:
    total = 0
    for r in range(lo, hi + 1):
        total += _popcount(rows[r])
    return total


@njit(cache=True)
def _reach(s: np.ndarray, w: int, mover: int, rows: np.ndarray, tmp: np.ndarray) -> None:
    """``rows`` = the cells the mover reaches in at most K steps without entering the
    opponent's cell."""
    m = s[S_SIZE]
    them = s[S_B - mover]
    lo = hi = _start(rows, m, w, s[S_A + mover])
    tr, keep = them // w, ~(1 << (them % w))
    for _ in range((m + 1) // 2):
        lo, hi = max(lo - 1, 0), min(hi + 1, m - 1)
        grew = _grow(s, w, rows, tmp, lo, hi)
        if lo <= tr <= hi:
            tmp[tr] &= keep
        _copy(tmp, rows, lo, hi)
        if not grew:
            break


@njit(cache=True)
def _flood(s: np.ndarray, w: int, cell: int, rows: np.ndarray, tmp: np.ndarray) -> int:
    """The number of cells in the region of ``cell``."""
    m = s[S_SIZE]
    lo = hi = _start(rows, m, w, cell)
    while True:
        lo, hi = max(lo - 1, 0), min(hi + 1, m - 1)
        if not _grow(s, w, rows, tmp, lo, hi):
            return _count(rows, lo, hi)
        _copy(tmp, rows, lo, hi)


@njit(cache=True)
def _meets(a: np.ndarray, b: np.ndarray, lo: int, hi: int) -> bool:  # noqa: SIM110
    for r in range(lo, hi + 1):
        if a[r] & b[r]:
            return True
    return False


@njit(cache=True)
def _apart(
    s: np.ndarray, w: int, here: int, there: int, opponent: int, scratch: np.ndarray
) -> tuple[int, int]:
    """After a wall between the mover's cell ``here`` and ``there``: (0, 0) while the
    players stay joined, else the sizes of (mover's region, opponent's region)."""
    m = s[S_SIZE]
    a, b, tmp = scratch[0], scratch[1], scratch[2]
    alo = ahi = _start(a, m, w, here)
    blo = bhi = _start(b, m, w, there)
    orow, obit = opponent // w, 1 << (opponent % w)
    while True:
        alo, ahi = max(alo - 1, 0), min(ahi + 1, m - 1)
        if not _grow(s, w, a, tmp, alo, ahi):
            # The mover's side closed first: apart unless the opponent is inside.
            if a[orow] & obit:
                return 0, 0
            return _count(a, alo, ahi), _flood(s, w, opponent, b, tmp)
        if _meets(tmp, b, max(alo, blo), min(ahi, bhi)):
            return 0, 0
        _copy(tmp, a, alo, ahi)
        blo, bhi = max(blo - 1, 0), min(bhi + 1, m - 1)
        if not _grow(s, w, b, tmp, blo, bhi):
            if not b[orow] & obit:
                return 0, 0
            return _flood(s, w, here, a, tmp), _count(b, blo, bhi)
        if _meets(tmp, a, max(alo, blo), min(ahi, bhi)):
            return 0, 0
        _copy(tmp, b, blo, bhi)


@njit(cache=True)
def _touches(s: np.ndarray, w: int, i: int, j: int, vertical: bool, ei: int, ej: int) -> bool:
    """Whether grid point (i, j) touches a wall other than the edge (vertical, ei, ej):
    a horizontal edge lies on grid row ``i`` right of point (i, j), a vertical one on
    grid column ``j`` below it; the border counts."""
    m = s[S_SIZE]
    # Horizontal edges left and right of the point, vertical edges above and below.
    if j >= 1 and (vertical or ej != j - 1) and _walled(s, w, False, i, j - 1):
        return True
    if j < m and (vertical or ej != j) and _walled(s, w, False, i, j):
        return True
    if i >= 1 and (not vertical or ei != i - 1) and _walled(s, w, True, i - 1, j):
        return True
    return i < m and (not vertical or ei != i) and _walled(s, w, True, i, j)


@njit(cache=True)
def _walled(s: np.ndarray, w: int, vertical: bool, i: int, j: int) -> bool:
    """Whether grid edge (vertical, i, j) has a wall (see :func:`_touches`)."""
    m = s[S_SIZE]
    if vertical:
        return not (_open(s, w, _LEFT, i, j) if j < m else _open(s, w, _RIGHT, i, m - 1))
    return not (_open(s, w, _UP, i, j) if i < m else _open(s, w, _DOWN, m - 1, j))


@njit(cache=True)
def _may_cut(s: np.ndarray, w: int, cell: int, side: int) -> bool:
    """False when the wall on ``side`` of ``cell`` surely leaves its two cells joined:
    a wall with a free end point cannot cut, the way round that end stays open."""
    r, c = cell // w, cell % w
    if side in (_UP, _DOWN):
        i = r if side == _UP else r + 1
        return _touches(s, w, i, c, False, i, c) and _touches(s, w, i, c + 1, False, i, c)
    j = c if side == _LEFT else c + 1
    return _touches(s, w, r, j, True, r, j) and _touches(s, w, r + 1, j, True, r, j)


@njit(cache=True)
def _play(s: np.ndarray, w: int, move: int, scratch: np.ndarray) -> None:
    mover = s[S_TO_MOVE]
    cell, side = move >> 2, move & 3
    r, c = cell // w, cell % w
    s[S_OPEN + side * w + r] &= ~(1 << c)
    if side == _UP:
        there = cell - w
    elif side == _RIGHT:
        there = cell + 1
    elif side == _DOWN:
        there = cell + w
    else:
        there = cell - 1
    s[S_OPEN + (side ^ 2) * w + there // w] &= ~(1 << (there % w))
    s[S_A + mover] = cell
    s[S_TO_MOVE] = 1 - mover
    if _may_cut(s, w, cell, side):
        mine, theirs = _apart(s, w, cell, there, s[S_B - mover], scratch)
        if mine:
            a, b = (mine, theirs) if mover == 0 else (theirs, mine)
            s[S_REGION_A], s[S_REGION_B] = a, b
            s[S_RESULT] = 1 if a > b else -1 if a < b else 0


@njit(cache=True)
def _random_move(s: np.ndarray, w: int, rows: np.ndarray) -> int:
    """A uniformly drawn open side of the cells in ``rows`` (at least one)."""
    m = s[S_SIZE]
    total = 0
    for r in range(m):
        x = rows[r]
        for side in range(4):
            total += _popcount(x & s[S_OPEN + side * w + r])
    k = np.random.randint(0, total)
    for r in range(m):
        x = rows[r]
        for side in range(4):
            bits = x & s[S_OPEN + side * w + r]
            n = _popcount(bits)
            if k < n:
                for _ in range(k):
                    bits &= bits - 1
                c = _popcount((bits & -bits) - 1)
                return 4 * (r * w + c) + side
            k -= n
    return -1


@njit(cache=True)
def _scratch(w: int) -> np.ndarray:
    return np.zeros((3, w), np.int64)


# -- the contract -------------------------------------------------------------------


@njit(cache=True)
def legal_moves(p: np.ndarray, s: np.ndarray, out: np.ndarray) -> int:
    if s[S_RESULT] != ONGOING:
        return 0
    w = p[0]
    scratch = _scratch(w)
    rows = scratch[0]
    _reach(s, w, s[S_TO_MOVE], rows, scratch[1])
    count = 0
    for r in range(s[S_SIZE]):
        x = rows[r]
        while x:
            c = _popcount((x & -x) - 1)
            x &= x - 1
            for side in range(4):
                if _open(s, w, side, r, c):
                    out[count] = 4 * (r * w + c) + side
                    count += 1
    return count


@njit(cache=True)
def play(p: np.ndarray, s: np.ndarray, move: int) -> None:
    w = p[0]
    _play(s, w, move, _scratch(w))


@njit(cache=True)
def to_move(p: np.ndarray, s: np.ndarray) -> int:
    return s[S_TO_MOVE]


@njit(cache=True)
def outcome(p: np.ndarray, s: np.ndarray) -> int:
    return s[S_RESULT]


@njit(cache=True)
def playout(p: np.ndarray, s: np.ndarray) -> int:
    w = p[0]
    scratch = _scratch(w)
    rows = np.zeros(w, np.int64)
    while s[S_RESULT] == ONGOING:
        _reach(s, w, s[S_TO_MOVE], rows, scratch[0])
        _play(s, w, _random_move(s, w, rows), scratch)
    return s[S_RESULT]


@njit(cache=True)
def rollout(p: np.ndarray, s: np.ndarray) -> int:
    return playout(p, s)


@njit(cache=True)
def seed(n: int) -> None:
    np.random.seed(n)


FUNCTIONS = {
    "legal_moves": legal_moves,
    "play": play,
    "to_move": to_move,
    "outcome": outcome,
    "playout": playout,
    "rollout": rollout,
    "seed": seed,
}


def encode(game: Colosseum, state: State) -> np.ndarray:
    """``s`` for ``state`` (see the module docstring)."""
    assert isinstance(state, ColosseumState)
    w = game.stride
    s = np.zeros(S_OPEN + 4 * w, np.int64)
    s[S_SIZE] = state.size
    s[S_TO_MOVE] = state.to_move
    s[S_A], s[S_B] = state.player_cells
    m, walls = state.size, state.walls
    for side in range(4):
        for r in range(m):
            row = 0
            for c in range(m):
                if not walls >> 4 * (r * w + c) + side & 1:
                    row |= 1 << c
            s[S_OPEN + side * w + r] = row
    regions = state.regions
    if regions is None:
        s[S_RESULT] = ONGOING
    else:
        s[S_REGION_A], s[S_REGION_B] = regions
        s[S_RESULT] = state.returns()[0]
    return s


def kernel(game: Colosseum) -> Kernel:
    """The kernel of ``game`` (any size, drawn or given)."""
    w = game.stride
    return Kernel(
        name=game.spec,
        params=np.array([w], np.int64),
        max_moves=4 * w * w,
        # Every move adds an inner wall; a board has 2 M (M - 1) of them.
        max_plies=2 * w * (w - 1),
        encode=lambda state: encode(game, state),
        functions=dict(FUNCTIONS),
    )
