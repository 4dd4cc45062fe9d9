"""Colosseum Survival's compiled kernel (numba): the rules of ``rules.py`` over arrays.

See :mod:`arena.core.kernel` for the contract. ``p = [W]``, the game's move
stride (the board side, or 12 when the size is drawn). A position is

``s = [M, to_move, cell A, cell B, result, region A, region B, walls...]``

with ``result`` the first player's return once the players are apart
(``ONGOING`` before), the region sizes at the end (0 before), and one entry
per cell ``r * W + c`` holding its walled sides as bits u=1, r=2, d=4, l=8 --
the border included, so walks never leave the board. A move is
``4 * cell + side``, as in the rules. The set-up is drawn by the rules from the
seed; ``encode`` copies it, so the kernel never redraws it.

Legal moves come from a breadth-first walk of at most K = (M+1)//2 steps that
never enters the opponent's cell; the destinations are then read in cell order,
so the moves come out ascending, as ``State.legal_moves()`` lists them. After a
wall, as in the rules, the players can only have come apart when both end
points of the new wall touch another wall; then two floods grow in lockstep
from the cells either side of it until they meet (nothing changed) or one
stops (a closed region, which separates the players when it holds exactly one
of them). Colosseum has no rollout policy of its own: ``rollout`` is the random
playout.

>>> from arena.games.colosseum.rules import Colosseum
>>> game = Colosseum(size=3)
>>> state = game.position([(0, 0), (2, 2)], walls=["0,0,r", "1,1,l"])
>>> k = kernel(game)
>>> s = k.encode(state)
>>> out = np.zeros(k.max_moves, np.int64)
>>> n = k.functions["legal_moves"](k.params, s, out)
>>> [game.format_move(int(m)) for m in out[:n]] == [
...     game.format_move(m) for m in state.legal_moves()]
True
>>> k.functions["play"](k.params, s, game.parse_move("2,0,u"))
>>> k.functions["play"](k.params, s, game.parse_move("2,1,l"))
>>> int(k.functions["outcome"](k.params, s)), [int(x) for x in s[5:7]]
(-1, [1, 6])

Tests: tests/games/test_colosseum_kernel.py
"""

from __future__ import annotations

import numpy as np
from numba import njit

from arena.core.game import State
from arena.core.kernel import ONGOING, Kernel
from arena.games.colosseum.rules import Colosseum, ColosseumState

# s: the position.
S_SIZE, S_TO_MOVE, S_A, S_B, S_RESULT, S_REGION_A, S_REGION_B, S_WALLS = range(8)


# -- geometry -------------------------------------------------------------------


@njit(cache=True)
def _neighbour(w: int, cell: int, side: int) -> int:
    """The cell across ``side`` (u r d l) of ``cell`` on a board of stride ``w``."""
    if side == 0:
        return cell - w
    if side == 1:
        return cell + 1
    if side == 2:
        return cell + w
    return cell - 1


@njit(cache=True)
def _edge(s: np.ndarray, w: int, vertical: bool, i: int, j: int) -> bool:
    """Whether the grid edge is walled: a horizontal edge on grid line ``i`` right of
    point ``j``, or a vertical edge on grid line ``j`` below point ``i``."""
    m = s[S_SIZE]
    if vertical:
        if j < m:
            return s[S_WALLS + i * w + j] & 8 != 0
        return s[S_WALLS + i * w + m - 1] & 2 != 0
    if i < m:
        return s[S_WALLS + i * w + j] & 1 != 0
    return s[S_WALLS + (m - 1) * w + j] & 4 != 0


@njit(cache=True)
def _touches(s: np.ndarray, w: int, i: int, j: int, vertical: bool, ei: int, ej: int) -> bool:
    """Whether grid point (i, j) touches a walled edge other than edge (vertical, ei, ej)."""
    m = s[S_SIZE]
    if j >= 1 and (vertical or ei != i or ej != j - 1) and _edge(s, w, False, i, j - 1):
        return True
    if j < m and (vertical or ei != i or ej != j) and _edge(s, w, False, i, j):
        return True
    if i >= 1 and (not vertical or ei != i - 1 or ej != j) and _edge(s, w, True, i - 1, j):
        return True
    return i < m and (not vertical or ei != i or ej != j) and _edge(s, w, True, i, j)


@njit(cache=True)
def _may_cut(s: np.ndarray, w: int, cell: int, side: int) -> bool:
    """False when the wall on ``side`` of ``cell`` surely leaves its two cells joined:
    a wall with a free end point cannot cut, the way round that end stays open."""
    r, c = cell // w, cell % w
    if side == 0:
        return _touches(s, w, r, c, False, r, c) and _touches(s, w, r, c + 1, False, r, c)
    if side == 2:
        return _touches(s, w, r + 1, c, False, r + 1, c) and _touches(
            s, w, r + 1, c + 1, False, r + 1, c
        )
    if side == 3:
        return _touches(s, w, r, c, True, r, c) and _touches(s, w, r + 1, c, True, r, c)
    return _touches(s, w, r, c + 1, True, r, c + 1) and _touches(
        s, w, r + 1, c + 1, True, r, c + 1
    )


# -- walks and floods -------------------------------------------------------------


@njit(cache=True)
def _reach(
    s: np.ndarray, w: int, me: int, them: int, seen: np.ndarray, stamp: int, queue: np.ndarray
) -> None:
    """Mark ``seen[cell] = stamp`` on every cell ``me`` reaches in at most K steps
    without entering ``them``."""
    steps = (s[S_SIZE] + 1) // 2
    seen[me] = stamp
    seen[them] = stamp  # never entered; unmarked below
    queue[0] = me
    start, end = 0, 1
    for _ in range(steps):
        if start == end:
            break
        stop = end
        for k in range(start, stop):
            cell = queue[k]
            walls = s[S_WALLS + cell]
            for side in range(4):
                if walls >> side & 1:
                    continue
                nb = _neighbour(w, cell, side)
                if seen[nb] != stamp:
                    seen[nb] = stamp
                    queue[end] = nb
                    end += 1
        start = stop
    seen[them] = stamp - 1


@njit(cache=True)
def _list_moves(
    s: np.ndarray, w: int, out: np.ndarray, seen: np.ndarray, stamp: int, queue: np.ndarray
) -> int:
    mover = s[S_TO_MOVE]
    _reach(s, w, s[S_A + mover], s[S_B - mover], seen, stamp, queue)
    m = s[S_SIZE]
    count = 0
    for r in range(m):
        for cell in range(r * w, r * w + m):
            if seen[cell] == stamp:
                walls = s[S_WALLS + cell]
                for side in range(4):
                    if not walls >> side & 1:
                        out[count] = 4 * cell + side
                        count += 1
    return count


@njit(cache=True)
def _flood(s: np.ndarray, w: int, start: int, mark: np.ndarray, queue: np.ndarray) -> int:
    """The number of cells in the region of ``start`` (``mark`` is all zero before and after)."""
    mark[start] = 1
    queue[0] = start
    end = 1
    k = 0
    while k < end:
        cell = queue[k]
        k += 1
        walls = s[S_WALLS + cell]
        for side in range(4):
            if not walls >> side & 1:
                nb = _neighbour(w, cell, side)
                if mark[nb] == 0:
                    mark[nb] = 1
                    queue[end] = nb
                    end += 1
    for k in range(end):
        mark[queue[k]] = 0
    return end


@njit(cache=True)
def _grow(
    s: np.ndarray, w: int, mark: np.ndarray, queue: np.ndarray, start: int, end: int, own: int
) -> int:
    """Grow one layer from ``queue[start:end]``, marking new cells ``own``: the new
    end, or ``-1 - end`` as soon as a cell marked by the other flood is met."""
    new = end
    for k in range(start, end):
        cell = queue[k]
        walls = s[S_WALLS + cell]
        for side in range(4):
            if not walls >> side & 1:
                nb = _neighbour(w, cell, side)
                v = mark[nb]
                if v == 0:
                    mark[nb] = own
                    queue[new] = nb
                    new += 1
                elif v != own:
                    return -1 - new
    return new


@njit(cache=True)
def _apart(
    s: np.ndarray,
    w: int,
    here: int,
    there: int,
    opponent: int,
    mark: np.ndarray,
    qa: np.ndarray,
    qb: np.ndarray,
) -> tuple[int, int]:
    """After a wall between the mover's cell ``here`` and ``there``: (0, 0) while the
    players stay joined, else the sizes of (mover's region, opponent's region)."""
    mark[here] = 1
    mark[there] = 2
    qa[0] = here
    qb[0] = there
    a0, a1, b0, b1 = 0, 1, 0, 1
    closed = 0  # 1: the region of ``here`` stopped growing, 2: that of ``there``
    while True:
        grown = _grow(s, w, mark, qa, a0, a1, 1)
        if grown < 0:
            a1 = -1 - grown
            break
        if grown == a1:
            closed = 1
            break
        a0, a1 = a1, grown
        grown = _grow(s, w, mark, qb, b0, b1, 2)
        if grown < 0:
            b1 = -1 - grown
            break
        if grown == b1:
            closed = 2
            break
        b0, b1 = b1, grown
    opponent_side = mark[opponent]
    for k in range(a1):
        mark[qa[k]] = 0
    for k in range(b1):
        mark[qb[k]] = 0
    if closed == 1 and opponent_side != 1:
        return a1, _flood(s, w, opponent, mark, qa)
    if closed == 2 and opponent_side == 2:
        return _flood(s, w, here, mark, qa), b1
    return 0, 0


@njit(cache=True)
def _play(
    s: np.ndarray, w: int, move: int, mark: np.ndarray, qa: np.ndarray, qb: np.ndarray
) -> None:
    mover = s[S_TO_MOVE]
    cell, side = move >> 2, move & 3
    there = _neighbour(w, cell, side)
    s[S_WALLS + cell] |= 1 << side
    s[S_WALLS + there] |= 1 << (side ^ 2)
    s[S_A + mover] = cell
    s[S_TO_MOVE] = 1 - mover
    if _may_cut(s, w, cell, side):
        mine, theirs = _apart(s, w, cell, there, s[S_B - mover], mark, qa, qb)
        if mine:
            a, b = (mine, theirs) if mover == 0 else (theirs, mine)
            s[S_REGION_A], s[S_REGION_B] = a, b
            s[S_RESULT] = 1 if a > b else -1 if a < b else 0


# -- the contract -------------------------------------------------------------------


@njit(cache=True)
def legal_moves(p: np.ndarray, s: np.ndarray, out: np.ndarray) -> int:
    if s[S_RESULT] != ONGOING:
        return 0
    w = p[0]
    seen = np.zeros(w * w, np.int64)
    queue = np.empty(w * w, np.int64)
    return _list_moves(s, w, out, seen, 1, queue)


@njit(cache=True)
def play(p: np.ndarray, s: np.ndarray, move: int) -> None:
    w = p[0]
    mark = np.zeros(w * w, np.int64)
    _play(s, w, move, mark, np.empty(w * w, np.int64), np.empty(w * w, np.int64))


@njit(cache=True)
def to_move(p: np.ndarray, s: np.ndarray) -> int:
    return s[S_TO_MOVE]


@njit(cache=True)
def outcome(p: np.ndarray, s: np.ndarray) -> int:
    return s[S_RESULT]


@njit(cache=True)
def playout(p: np.ndarray, s: np.ndarray) -> int:
    w = p[0]
    cells = w * w
    seen = np.zeros(cells, np.int64)
    mark = np.zeros(cells, np.int64)
    qa = np.empty(cells, np.int64)
    qb = np.empty(cells, np.int64)
    moves = np.empty(4 * cells, np.int64)
    stamp = 0
    while s[S_RESULT] == ONGOING:
        stamp += 2  # the walk unmarks the opponent's cell with stamp - 1
        count = _list_moves(s, w, moves, seen, stamp, qa)
        _play(s, w, moves[np.random.randint(0, count)], mark, qa, qb)
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
    s = np.zeros(S_WALLS + w * w, np.int64)
    s[S_SIZE] = state.size
    s[S_TO_MOVE] = state.to_move
    s[S_A], s[S_B] = state.player_cells
    walls = state.walls
    for cell in range(w * w):
        s[S_WALLS + cell] = walls >> 4 * cell & 15
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
