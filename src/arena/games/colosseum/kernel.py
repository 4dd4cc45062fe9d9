"""Colosseum Survival's compiled kernel (numba): the rules of ``rules.py`` over arrays.

See :mod:`arena.core.kernel` for the contract. ``p = [W, words]``: the game's
move stride (the board side, or 12 when the size is drawn) and the number of
64-bit words that hold one bit per cell of its largest board. A position is

``s = [M, to_move, cell A, cell B, result, region A, region B, open...]``

with the players' cells as ``r * M + c``, ``result`` the first player's return
once the players are apart (``ONGOING`` before) and the region sizes at the end
(0 before). The board is a bitset, as in the rules' bit-parallel walks but in
fixed 64-bit words: ``open`` holds four blocks of ``words`` words, one block per
side (u r d l), and bit ``r * M + c`` of block ``d`` is set when side ``d`` of
cell (r, c) has no wall. A move is ``4 * (r * W + c) + side``, as in the rules.
The set-up is drawn by the rules from the seed; ``encode`` copies it, so the
kernel never redraws it.

A walk grows a set of cells one step in every direction at once: the cells with
an open right side move up one bit, those with an open down side up M bits,
and so on, carrying bits across the words; the border's walls keep every bit
on the board, so no masks are needed. The legal moves are the open sides of
the cells reached within K = (M+1)//2 steps without entering the opponent's
cell, listed by cell and side, ascending as ``State.legal_moves()`` lists them;
the playout draws one uniformly by counting them per word and side, without
listing them. After a wall, as in the rules, the players can only have come
apart when both end points of the new wall touch another wall; then two floods
grow in lockstep from the cells either side of it until they meet (nothing
changed) or one stops (a closed region, which separates the players when it
holds exactly one of them). Colosseum has no rollout policy of its own:
``rollout`` is the random playout.

>>> from arena.games.colosseum.rules import Colosseum
>>> game = Colosseum(size=3)
>>> state = game.position([(0, 0), (2, 2)], walls=["0,0,r", "1,1,l"])
>>> k = kernel(game)
>>> s = k.encode(state)
>>> out = np.zeros(k.max_moves, np.int64)
>>> n = k.functions["legal_moves"](k.params, s, out)
>>> [game.format_move(int(m)) for m in out[:n]]
['0,0,d', '1,0,u', '1,0,d', '2,0,u', '2,0,r']
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

# p: the parameters.
P_STRIDE, P_WORDS = 0, 1
# s: the position.
S_SIZE, S_TO_MOVE, S_A, S_B, S_RESULT, S_REGION_A, S_REGION_B, S_OPEN = range(8)

_UP, _RIGHT, _DOWN, _LEFT = 0, 1, 2, 3
_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_U63 = np.uint64(63)


@njit(cache=True)
def _popcount(x: np.uint64) -> int:
    """Set bits of ``x`` (LLVM compiles this loop to one popcount instruction)."""
    n = 0
    while x:
        x &= x - _ONE
        n += 1
    return n


@njit(cache=True)
def _bit(i: int) -> np.uint64:
    return _ONE << np.uint64(i & 63)


@njit(cache=True)
def _open(o: np.ndarray, words: int, side: int, i: int) -> bool:
    """Whether ``side`` of cell ``i`` (``r * M + c``) has no wall."""
    return (o[S_OPEN + side * words + (i >> 6)] & _bit(i)) != _ZERO


# -- walks and floods ---------------------------------------------------------------


@njit(cache=True)
def _grow(o: np.ndarray, words: int, m: int, n: int, x: np.ndarray, out: np.ndarray) -> bool:
    """``out`` = the cells of ``x`` plus every cell one open step away (``n`` words
    of the board in use); whether it grew."""
    up, right = S_OPEN, S_OPEN + words
    down, left = S_OPEN + 2 * words, S_OPEN + 3 * words
    sm, back = np.uint64(m), np.uint64(64 - m)
    grew = False
    for j in range(n):
        xj = x[j]
        y = xj | ((xj & o[right + j]) << _ONE) | ((xj & o[left + j]) >> _ONE)
        y |= ((xj & o[down + j]) << sm) | ((xj & o[up + j]) >> sm)
        if j > 0:
            prev = x[j - 1]
            y |= ((prev & o[right + j - 1]) >> _U63) | ((prev & o[down + j - 1]) >> back)
        if j + 1 < n:
            after = x[j + 1]
            y |= ((after & o[left + j + 1]) << _U63) | ((after & o[up + j + 1]) << back)
        out[j] = y
        grew |= y != xj
    return grew


@njit(cache=True)
def _start(x: np.ndarray, n: int, i: int) -> None:
    """Make ``x`` the one cell ``i``."""
    for j in range(n):
        x[j] = _ZERO
    x[i >> 6] = _bit(i)


@njit(cache=True)
def _copy(source: np.ndarray, target: np.ndarray, n: int) -> None:
    for j in range(n):
        target[j] = source[j]


@njit(cache=True)
def _count(x: np.ndarray, n: int) -> int:
    total = 0
    for j in range(n):
        total += _popcount(x[j])
    return total


@njit(cache=True)
def _meets(a: np.ndarray, b: np.ndarray, n: int) -> bool:
    for j in range(n):  # noqa: SIM110 (numba compiles no generator in any())
        if a[j] & b[j]:
            return True
    return False


@njit(cache=True)
def _words(m: int) -> int:
    return (m * m + 63) >> 6


@njit(cache=True)
def _reach(s: np.ndarray, o: np.ndarray, words: int, x: np.ndarray, tmp: np.ndarray) -> None:
    """``x`` = the cells the mover reaches in at most K steps without entering the
    opponent's cell."""
    m = s[S_SIZE]
    n = _words(m)
    mover = s[S_TO_MOVE]
    them = s[S_B - mover]
    _start(x, n, s[S_A + mover])
    tj, keep = them >> 6, ~_bit(them)
    for _ in range((m + 1) // 2):
        grew = _grow(o, words, m, n, x, tmp)
        tmp[tj] &= keep
        _copy(tmp, x, n)
        if not grew:
            break


@njit(cache=True)
def _flood(o: np.ndarray, words: int, m: int, i: int, x: np.ndarray, tmp: np.ndarray) -> int:
    """The number of cells in the region of cell ``i``."""
    n = _words(m)
    _start(x, n, i)
    while _grow(o, words, m, n, x, tmp):
        _copy(tmp, x, n)
    return _count(x, n)


@njit(cache=True)
def _apart(
    o: np.ndarray, words: int, m: int, here: int, there: int, opponent: int, scratch: np.ndarray
) -> tuple[int, int]:
    """After a wall between the mover's cell ``here`` and ``there``: (0, 0) while the
    players stay joined, else the sizes of (mover's region, opponent's region)."""
    n = _words(m)
    a, b, tmp = scratch[0], scratch[1], scratch[2]
    _start(a, n, here)
    _start(b, n, there)
    oj, obit = opponent >> 6, _bit(opponent)
    while True:
        if not _grow(o, words, m, n, a, tmp):
            # The mover's side closed first: apart unless the opponent is inside.
            if a[oj] & obit:
                return 0, 0
            return _count(a, n), _flood(o, words, m, opponent, b, tmp)
        if _meets(tmp, b, n):
            return 0, 0
        _copy(tmp, a, n)
        if not _grow(o, words, m, n, b, tmp):
            if not b[oj] & obit:
                return 0, 0
            return _flood(o, words, m, here, a, tmp), _count(b, n)
        if _meets(tmp, a, n):
            return 0, 0
        _copy(tmp, b, n)


# -- a new wall ---------------------------------------------------------------------


@njit(cache=True)
def _walled(o: np.ndarray, words: int, m: int, vertical: bool, i: int, j: int) -> bool:
    """Whether a grid edge has a wall: a horizontal edge on grid row ``i`` right of
    point (i, j), or a vertical edge on grid column ``j`` below it."""
    if vertical:
        if j < m:
            return not _open(o, words, _LEFT, i * m + j)
        return not _open(o, words, _RIGHT, i * m + m - 1)
    if i < m:
        return not _open(o, words, _UP, i * m + j)
    return not _open(o, words, _DOWN, (m - 1) * m + j)


@njit(cache=True)
def _touches(
    o: np.ndarray, words: int, m: int, i: int, j: int, vertical: bool, ei: int, ej: int
) -> bool:
    """Whether grid point (i, j) touches a wall other than the edge (vertical, ei, ej):
    the horizontal edges left and right of it, the vertical ones above and below
    (the border counts)."""
    if j >= 1 and (vertical or ej != j - 1) and _walled(o, words, m, False, i, j - 1):
        return True
    if j < m and (vertical or ej != j) and _walled(o, words, m, False, i, j):
        return True
    if i >= 1 and (not vertical or ei != i - 1) and _walled(o, words, m, True, i - 1, j):
        return True
    return i < m and (not vertical or ei != i) and _walled(o, words, m, True, i, j)


@njit(cache=True)
def _may_cut(o: np.ndarray, words: int, m: int, i: int, side: int) -> bool:
    """False when the wall on ``side`` of cell ``i`` surely leaves its two cells
    joined: a wall with a free end point cannot cut, the way round that end stays
    open."""
    r, c = i // m, i % m
    if side in (_UP, _DOWN):
        y = r if side == _UP else r + 1
        return _touches(o, words, m, y, c, False, y, c) and _touches(
            o, words, m, y, c + 1, False, y, c
        )
    x = c if side == _LEFT else c + 1
    return _touches(o, words, m, r, x, True, r, x) and _touches(o, words, m, r + 1, x, True, r, x)


@njit(cache=True)
def _wall(s: np.ndarray, o: np.ndarray, w: int, words: int, move: int) -> int:
    """Walk and put up the wall of ``move``; the cell behind the new wall when it may
    have cut the board (then :func:`_settle` must run), else -1."""
    m = s[S_SIZE]
    mover = s[S_TO_MOVE]
    cell, side = move >> 2, move & 3
    i = cell // w * m + cell % w
    if side == _UP:
        there = i - m
    elif side == _RIGHT:
        there = i + 1
    elif side == _DOWN:
        there = i + m
    else:
        there = i - 1
    o[S_OPEN + side * words + (i >> 6)] &= ~_bit(i)
    o[S_OPEN + (side ^ 2) * words + (there >> 6)] &= ~_bit(there)
    s[S_A + mover] = i
    s[S_TO_MOVE] = 1 - mover
    return there if _may_cut(o, words, m, i, side) else -1


@njit(cache=True)
def _settle(s: np.ndarray, o: np.ndarray, words: int, there: int, scratch: np.ndarray) -> None:
    """After a wall between the last mover's cell and ``there`` that may have cut the
    board: the end and its regions if the players are now apart."""
    mover = 1 - s[S_TO_MOVE]
    mine, theirs = _apart(o, words, s[S_SIZE], s[S_A + mover], there, s[S_B - mover], scratch)
    if mine:
        a, b = (mine, theirs) if mover == 0 else (theirs, mine)
        s[S_REGION_A], s[S_REGION_B] = a, b
        s[S_RESULT] = 1 if a > b else -1 if a < b else 0


@njit(cache=True)
def _random_move(s: np.ndarray, o: np.ndarray, w: int, words: int, x: np.ndarray) -> int:
    """A uniformly drawn open side of the cells in ``x`` (there is at least one)."""
    m = s[S_SIZE]
    n = _words(m)
    total = 0
    for side in range(4):
        for j in range(n):
            total += _popcount(x[j] & o[S_OPEN + side * words + j])
    k = np.random.randint(0, total)
    for side in range(4):
        for j in range(n):
            bits = x[j] & o[S_OPEN + side * words + j]
            count = _popcount(bits)
            if k < count:
                for _ in range(k):
                    bits &= bits - _ONE
                i = 64 * j + _popcount((bits & (~bits + _ONE)) - _ONE)
                return 4 * (i // m * w + i % m) + side
            k -= count
    return -1


@njit(cache=True)
def _scratch(words: int) -> np.ndarray:
    return np.zeros((4, words), np.uint64)


# -- the contract -------------------------------------------------------------------


@njit(cache=True)
def legal_moves(p: np.ndarray, s: np.ndarray, out: np.ndarray) -> int:
    if s[S_RESULT] != ONGOING:
        return 0
    w, words = p[P_STRIDE], p[P_WORDS]
    o = s.view(np.uint64)
    scratch = _scratch(words)
    x = scratch[3]
    _reach(s, o, words, x, scratch[0])
    m = s[S_SIZE]
    count = 0
    for j in range(_words(m)):
        bits = x[j]
        while bits:
            i = 64 * j + _popcount((bits & (~bits + _ONE)) - _ONE)
            bits &= bits - _ONE
            cell = i // m * w + i % m
            for side in range(4):
                if _open(o, words, side, i):
                    out[count] = 4 * cell + side
                    count += 1
    return count


@njit(cache=True)
def play(p: np.ndarray, s: np.ndarray, move: int) -> None:
    words = p[P_WORDS]
    o = s.view(np.uint64)
    there = _wall(s, o, p[P_STRIDE], words, move)
    if there >= 0:
        _settle(s, o, words, there, _scratch(words))


@njit(cache=True)
def to_move(p: np.ndarray, s: np.ndarray) -> int:
    return s[S_TO_MOVE]


@njit(cache=True)
def outcome(p: np.ndarray, s: np.ndarray) -> int:
    return s[S_RESULT]


@njit(cache=True)
def playout(p: np.ndarray, s: np.ndarray) -> int:
    w, words = p[P_STRIDE], p[P_WORDS]
    o = s.view(np.uint64)
    scratch = _scratch(words)
    x = scratch[3]
    while s[S_RESULT] == ONGOING:
        _reach(s, o, words, x, scratch[0])
        there = _wall(s, o, w, words, _random_move(s, o, w, words, x))
        if there >= 0:
            _settle(s, o, words, there, scratch)
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
    words = (w * w + 63) // 64
    m = state.size
    s = np.zeros(S_OPEN + 4 * words, np.int64)
    o = s.view(np.uint64)
    s[S_SIZE] = m
    s[S_TO_MOVE] = state.to_move
    for player, cell in enumerate(state.player_cells):
        s[S_A + player] = cell // w * m + cell % w
    # Bit 4 * (r * W + c) + d of the walls, unpacked to one byte per bit; the
    # open sides of the M x M board repacked to bit r * M + c of each side's words.
    walls = np.unpackbits(
        np.frombuffer(state.walls.to_bytes(w * w // 2 + 1, "little"), np.uint8),
        bitorder="little",
    )[: 4 * w * w].reshape(w, w, 4)
    for side in range(4):
        free = 1 - walls[:m, :m, side].reshape(-1)
        packed = np.zeros(8 * words, np.uint8)
        bits = np.packbits(free, bitorder="little")
        packed[: bits.size] = bits
        o[S_OPEN + side * words : S_OPEN + (side + 1) * words] = packed.view("<u8")
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
        params=np.array([w, (w * w + 63) // 64], np.int64),
        max_moves=4 * w * w,
        # Every move adds an inner wall; a board has 2 M (M - 1) of them.
        max_plies=2 * w * (w - 1),
        encode=lambda state: encode(game, state),
        functions=dict(FUNCTIONS),
    )
