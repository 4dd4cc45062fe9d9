"""Othello's compiled kernel (numba): the rules of ``rules.py`` over int64 arrays.

See :mod:`arena.core.kernel` for the contract. Two representations share the
functions, chosen by the board size stored in ``p``:

* ``size <= 8``: ``s = [to_move, black, white]`` with the discs as 64-bit
  bitboards (bit ``row * size + col``, read through ``s.view(np.uint64)``).
  Placements come from shift-and fills in the eight directions, as in the
  rules: the opponent's discs are masked to the inner columns for the
  directions with a horizontal step, so a run never wraps into the next row.
* ``size > 8`` (10..16, up to 256 cells): ``s = [to_move, cells...]``, a
  mailbox of ``(size + 2)**2`` cells with a border of sentinels (0 empty,
  1 Black, 2 White, 3 border), so a walk along a direction stops at the edge
  without bounds checks. The playout keeps a frontier, the empty cells next
  to a disc, which holds every placement, and draws its cells without
  replacement until one flips something (testing and flipping in one walk):
  uniform over the placements without listing them, as the rules' playout.

The pass (``rule=standard``) is the move ``size * size``, as in the rules; a
position is over when the mover has no placement and, under the standard
rule, the opponent has none either, so ``s`` needs no pass counter.

The rollout policy takes a corner when one is open and avoids the X-squares
(diagonal neighbours of the corners) when anything else is legal, in nine
rollout plies out of ten; the tenth is uniformly random.

>>> from arena.games.othello.rules import Othello, OthelloState
>>> k = kernel(Othello())
>>> s = k.encode(Othello().initial_state())
>>> out = np.zeros(k.max_moves, np.int64)
>>> n = k.functions["legal_moves"](k.params, s, out)
>>> [int(m) for m in out[:n]]
[19, 26, 37, 44]
>>> big = kernel(Othello(size=10))
>>> s = big.encode(Othello(size=10).initial_state())
>>> n = big.functions["legal_moves"](big.params, s, out)
>>> [int(m) for m in out[:n]]
[34, 43, 56, 65]

Tests: tests/games/test_othello_kernel.py
"""

from __future__ import annotations

import numpy as np
from numba import njit

from arena.core.game import State
from arena.core.kernel import ONGOING, Kernel
from arena.games.othello.rules import Othello, OthelloState

# p: the parameters (the masks are bit patterns, read through a uint64 view).
_SIZE, _CAN_PASS, _INNER, _FULL, _CORNERS, _XSQUARES = 0, 1, 2, 3, 4, 5
_PARAMS = 6
_SMALL = 8  # the largest side that fits a 64-bit bitboard
_POLICY = 0.9  # share of rollout plies that follow the corner / X-square preferences

_ONE = np.uint64(1)
_ZERO = np.uint64(0)

# Mailbox values (size > 8).
_EMPTY, _BORDER = 0, 3


# -- bit tricks -----------------------------------------------------------------


@njit(cache=True)
def _popcount(x: np.uint64) -> int:
    """Set bits of ``x`` (LLVM compiles this loop to one popcount instruction)."""
    n = 0
    while x:
        x &= x - _ONE
        n += 1
    return n


@njit(cache=True)
def _low_index(x: np.uint64) -> int:
    """The index of the lowest set bit of a non-zero ``x``."""
    return _popcount((x & (~x + _ONE)) - _ONE)


@njit(cache=True)
def _random_bit(x: np.uint64) -> int:
    """The index of a uniformly drawn set bit of a non-zero ``x``."""
    k = np.random.randint(0, _popcount(x))
    for _ in range(k):
        x &= x - _ONE
    return _low_index(x)


# -- bitboards (size <= 8) ----------------------------------------------------------


@njit(cache=True)
def _shift(n: int, k: int) -> np.uint64:
    """The bit step of direction pair ``k``: right, down, down-right, down-left."""
    return np.uint64(1 if k == 0 else n if k == 1 else n + 1 if k == 2 else n - 1)


@njit(cache=True)
def _gen(n: int, inner: np.uint64, full: np.uint64, me: np.uint64, opp: np.uint64) -> np.uint64:
    """The cells where the owner of ``me`` can place a disc."""
    empty = ~(me | opp) & full
    inner_opp = opp & inner
    moves = _ZERO
    for k in range(4):
        shift = _shift(n, k)
        o = opp if k == 1 else inner_opp
        # Each ray stops as soon as its run of opponent discs ends: one or two
        # steps in most positions, faster than a fixed-length fill.
        t = (me << shift) & o
        while t:
            t <<= shift
            moves |= t & empty
            t &= o
        t = (me >> shift) & o
        while t:
            t >>= shift
            moves |= t & empty
            t &= o
    return moves


@njit(cache=True)
def _flips(n: int, inner: np.uint64, me: np.uint64, opp: np.uint64, cell: int) -> np.uint64:
    """The opponent discs flipped by a placement on ``cell``."""
    bit = _ONE << np.uint64(cell)
    inner_opp = opp & inner
    flips = _ZERO
    for k in range(4):
        shift = _shift(n, k)
        o = opp if k == 1 else inner_opp
        run = _ZERO
        t = (bit << shift) & o
        while t:
            run |= t
            t <<= shift
            if t & me:
                flips |= run
                break
            t &= o
        run = _ZERO
        t = (bit >> shift) & o
        while t:
            run |= t
            t >>= shift
            if t & me:
                flips |= run
                break
            t &= o
    return flips


@njit(cache=True)
def _placements(p: np.ndarray, me: np.uint64, opp: np.uint64) -> np.uint64:
    q = p.view(np.uint64)
    return _gen(p[_SIZE], q[_INNER], q[_FULL], me, opp)


@njit(cache=True)
def _sign(x: int) -> int:
    return 1 if x > 0 else -1 if x < 0 else 0


@njit(cache=True)
def _result_bits(s: np.ndarray) -> int:
    b = s.view(np.uint64)
    return _sign(_popcount(b[1]) - _popcount(b[2]))


@njit(cache=True)
def _pick_bits(corners: np.uint64, xsquares: np.uint64, moves: np.uint64) -> int:
    """The rollout policy's placement among ``moves`` (see the module docstring)."""
    if np.random.random() < _POLICY:
        good = moves & corners
        if good:
            return _random_bit(good)
        good = moves & ~xsquares
        if good:
            return _random_bit(good)
    return _random_bit(moves)


@njit(cache=True)
def _finish_bits(p: np.ndarray, s: np.ndarray, policy: bool) -> int:
    q = p.view(np.uint64)
    b = s.view(np.uint64)
    n = p[_SIZE]
    inner, full, corners, xsquares = q[_INNER], q[_FULL], q[_CORNERS], q[_XSQUARES]
    can_pass = p[_CAN_PASS] != 0
    mover = s[0]
    me, opp = b[1 + mover], b[2 - mover]
    while True:
        moves = _gen(n, inner, full, me, opp)
        if moves:
            cell = _pick_bits(corners, xsquares, moves) if policy else _random_bit(moves)
            f = _flips(n, inner, me, opp, cell)
            me, opp = opp & ~f, me | f | (_ONE << np.uint64(cell))
        elif can_pass and _gen(n, inner, full, opp, me):
            me, opp = opp, me
        else:
            break
        mover = 1 - mover
    b[1 + mover], b[2 - mover] = me, opp
    s[0] = mover
    return _sign(_popcount(b[1]) - _popcount(b[2]))


# -- mailbox (size > 8) -----------------------------------------------------------


@njit(cache=True)
def _steps(n: int) -> np.ndarray:
    w = n + 2
    return np.array([1, -1, w, -w, w + 1, -w - 1, w - 1, -w + 1], np.int64)


@njit(cache=True)
def _index(n: int, cell: int) -> int:
    """The mailbox index (in ``s``) of board cell ``cell``."""
    return 1 + (cell // n + 1) * (n + 2) + cell % n + 1


@njit(cache=True)
def _can_place(s: np.ndarray, steps: np.ndarray, i: int, me: int, opp: int) -> bool:
    for step in steps:
        j = i + step
        if s[j] != opp:
            continue
        j += step
        while s[j] == opp:
            j += step
        if s[j] == me:
            return True
    return False


@njit(cache=True)
def _list_placements(p: np.ndarray, s: np.ndarray, mover: int, out: np.ndarray) -> int:
    n = p[_SIZE]
    steps = _steps(n)
    me, opp = 1 + mover, 2 - mover
    count = 0
    for cell in range(n * n):
        i = _index(n, cell)
        if s[i] == _EMPTY and _can_place(s, steps, i, me, opp):
            out[count] = cell
            count += 1
    return count


@njit(cache=True)
def _has_placement(p: np.ndarray, s: np.ndarray, mover: int) -> bool:
    n = p[_SIZE]
    steps = _steps(n)
    me, opp = 1 + mover, 2 - mover
    for cell in range(n * n):
        i = _index(n, cell)
        if s[i] == _EMPTY and _can_place(s, steps, i, me, opp):
            return True
    return False


@njit(cache=True)
def _place_box(p: np.ndarray, s: np.ndarray, cell: int) -> None:
    n = p[_SIZE]
    me = 1 + s[0]
    opp = 3 - me
    i = _index(n, cell)
    for step in _steps(n):
        j = i + step
        while s[j] == opp:
            j += step
        if s[j] == me:
            j -= step
            while j != i:
                s[j] = me
                j -= step
    s[i] = me
    s[0] = 1 - s[0]


@njit(cache=True)
def _result_box(s: np.ndarray) -> int:
    margin = 0
    for v in s[1:]:
        if v == 1:
            margin += 1
        elif v == 2:
            margin -= 1
    return _sign(margin)


@njit(cache=True)
def _kind(n: int, i: int) -> int:
    """0 for a corner, 1 for an X-square, 2 for any other cell (mailbox index ``i``)."""
    w = n + 2
    r, c = (i - 1) // w - 1, (i - 1) % w - 1
    if (r == 0 or r == n - 1) and (c == 0 or c == n - 1):
        return 0
    if (r == 1 or r == n - 2) and (c == 1 or c == n - 2):
        return 1
    return 2


@njit(cache=True)
def _flip_from(s: np.ndarray, steps: np.ndarray, i: int, me: int, opp: int) -> bool:
    """Place ``me`` on the empty mailbox cell ``i`` if that flips anything; whether it did."""
    placed = False
    for step in steps:
        j = i + step
        if s[j] != opp:
            continue
        j += step
        while s[j] == opp:
            j += step
        if s[j] == me:
            placed = True
            j -= step
            while j != i:
                s[j] = me
                j -= step
    if placed:
        s[i] = me
    return placed


@njit(cache=True)
def _draw(
    s: np.ndarray,
    steps: np.ndarray,
    front: np.ndarray,
    size: int,
    kinds: np.ndarray,
    want: int,
    me: int,
    opp: int,
) -> int:
    """Draw frontier cells without replacement until one of kind ``want`` (-1: any)
    flips something, and place there; its position in ``front``, or -1 if none can.
    The order is a uniform shuffle, so the placement is uniform among those legal."""
    for k in range(size):
        j = k + np.random.randint(0, size - k)
        i = front[j]
        if (want < 0 or kinds[i] == want) and _flip_from(s, steps, i, me, opp):
            return j
        front[j] = front[k]
        front[k] = i
    return -1


@njit(cache=True)
def _corner(
    s: np.ndarray, steps: np.ndarray, front: np.ndarray, size: int, n: int, me: int, opp: int
) -> int:
    """Place on a uniformly drawn legal corner; its position in ``front``, or -1."""
    w = n + 2
    legal = np.empty(4, np.int64)
    count = 0
    for i in (1 + w + 1, 1 + w + n, 1 + n * w + 1, 1 + n * w + n):
        if s[i] == _EMPTY and _can_place(s, steps, i, me, opp):
            legal[count] = i
            count += 1
    if count == 0:
        return -1
    i = legal[np.random.randint(0, count)]
    _flip_from(s, steps, i, me, opp)
    for j in range(size):
        if front[j] == i:
            return j
    return -1


@njit(cache=True)
def _finish_box(p: np.ndarray, s: np.ndarray, policy: bool) -> int:
    """Play out on the mailbox over a frontier: the empty cells next to a disc, which
    hold every placement. Frontier cells are drawn without replacement until one flips
    something, so the placement is uniform without listing them all."""
    n = p[_SIZE]
    steps = _steps(n)
    can_pass = p[_CAN_PASS] != 0
    front = np.empty(n * n, np.int64)
    in_front = np.zeros(s.size, np.bool_)
    kinds = np.zeros(s.size if policy else 0, np.int64)
    if policy:
        for cell in range(n * n):
            kinds[_index(n, cell)] = _kind(n, _index(n, cell))
    size = 0
    for cell in range(n * n):
        i = _index(n, cell)
        if s[i] == _EMPTY:
            for step in steps:
                if s[i + step] == 1 or s[i + step] == 2:
                    front[size] = i
                    in_front[i] = True
                    size += 1
                    break
    mover = s[0]
    while True:
        me, opp = 1 + mover, 2 - mover
        at = -1
        if policy and np.random.random() < _POLICY:
            # A corner, else anything but an X-square, else an X-square.
            at = _corner(s, steps, front, size, n, me, opp)
            if at < 0:
                at = _draw(s, steps, front, size, kinds, 2, me, opp)
            if at < 0:
                at = _draw(s, steps, front, size, kinds, 1, me, opp)
        else:
            at = _draw(s, steps, front, size, kinds, -1, me, opp)
        if at < 0:
            passed = False
            if can_pass:
                for k in range(size):
                    if _can_place(s, steps, front[k], opp, me):
                        passed = True
                        break
            if not passed:
                break
        else:
            i = front[at]
            size -= 1
            front[at] = front[size]
            for step in steps:
                j = i + step
                if s[j] == _EMPTY and not in_front[j]:
                    in_front[j] = True
                    front[size] = j
                    size += 1
        mover = 1 - mover
    s[0] = mover
    return _result_box(s)


# -- the contract -------------------------------------------------------------------


@njit(cache=True)
def legal_moves(p: np.ndarray, s: np.ndarray, out: np.ndarray) -> int:
    n = p[_SIZE]
    mover = s[0]
    if n <= _SMALL:
        b = s.view(np.uint64)
        moves = _placements(p, b[1 + mover], b[2 - mover])
        if moves:
            count = 0
            while moves:
                out[count] = _low_index(moves)
                moves &= moves - _ONE
                count += 1
            return count
        if p[_CAN_PASS] and _placements(p, b[2 - mover], b[1 + mover]):
            out[0] = n * n
            return 1
        return 0
    count = _list_placements(p, s, mover, out)
    if count:
        return count
    if p[_CAN_PASS] and _has_placement(p, s, 1 - mover):
        out[0] = n * n
        return 1
    return 0


@njit(cache=True)
def play(p: np.ndarray, s: np.ndarray, move: int) -> None:
    n = p[_SIZE]
    if move == n * n:
        s[0] = 1 - s[0]
    elif n <= _SMALL:
        q = p.view(np.uint64)
        b = s.view(np.uint64)
        mover = s[0]
        me, opp = b[1 + mover], b[2 - mover]
        f = _flips(n, q[_INNER], me, opp, move)
        b[1 + mover] = me | f | (_ONE << np.uint64(move))
        b[2 - mover] = opp & ~f
        s[0] = 1 - mover
    else:
        _place_box(p, s, move)


@njit(cache=True)
def to_move(p: np.ndarray, s: np.ndarray) -> int:
    return s[0]


@njit(cache=True)
def outcome(p: np.ndarray, s: np.ndarray) -> int:
    mover = s[0]
    if p[_SIZE] <= _SMALL:
        b = s.view(np.uint64)
        me, opp = b[1 + mover], b[2 - mover]
        if _placements(p, me, opp) or (p[_CAN_PASS] and _placements(p, opp, me)):
            return ONGOING
        return _result_bits(s)
    if _has_placement(p, s, mover) or (p[_CAN_PASS] and _has_placement(p, s, 1 - mover)):
        return ONGOING
    return _result_box(s)


@njit(cache=True)
def playout(p: np.ndarray, s: np.ndarray) -> int:
    if p[_SIZE] <= _SMALL:
        return _finish_bits(p, s, False)
    return _finish_box(p, s, False)


@njit(cache=True)
def rollout(p: np.ndarray, s: np.ndarray) -> int:
    if p[_SIZE] <= _SMALL:
        return _finish_bits(p, s, True)
    return _finish_box(p, s, True)


@njit(cache=True)
def seed(n: int) -> None:
    np.random.seed(n)


@njit(cache=True)
def owners(p: np.ndarray, s: np.ndarray, out: np.ndarray) -> int:
    """Who holds each cell ``row * size + col``: 0 (Black), 1 (White) or -1 (empty)."""
    n = p[_SIZE]
    if n <= _SMALL:
        b = s.view(np.uint64)
        for cell in range(n * n):
            bit = _ONE << np.uint64(cell)
            out[cell] = 0 if b[1] & bit else 1 if b[2] & bit else -1
    else:
        for cell in range(n * n):
            out[cell] = s[_index(n, cell)] - 1
    return n * n


FUNCTIONS = {
    "legal_moves": legal_moves,
    "play": play,
    "to_move": to_move,
    "outcome": outcome,
    "playout": playout,
    "rollout": rollout,
    "seed": seed,
    "owners": owners,
}


def params(game: Othello) -> np.ndarray:
    """``p`` for ``game``: size, pass rule and the bitboard masks (zero above 8x8)."""
    n = game.size
    p = np.zeros(_PARAMS, np.int64)
    p[_SIZE] = n
    p[_CAN_PASS] = int(game.can_pass)
    if n <= _SMALL:
        q = p.view(np.uint64)
        inner = full = corners = xsquares = 0
        for cell in range(n * n):
            r, c = divmod(cell, n)
            full |= 1 << cell
            if 0 < c < n - 1:
                inner |= 1 << cell
            if r in (0, n - 1) and c in (0, n - 1):
                corners |= 1 << cell
            if r in (1, n - 2) and c in (1, n - 2):
                xsquares |= 1 << cell
        q[_INNER], q[_FULL], q[_CORNERS], q[_XSQUARES] = inner, full, corners, xsquares
    return p


def encode(game: Othello, state: State) -> np.ndarray:
    """``s`` for ``state`` (see the module docstring for the two layouts)."""
    assert isinstance(state, OthelloState)
    n = game.size
    if n <= _SMALL:  # one numpy call: this runs on a move's clock
        return np.array((state.to_move, state.black, state.white), np.uint64).view(np.int64)
    else:
        # Bit ``cell`` of each bitboard, unpacked to one byte per cell.
        size = (n * n + 7) // 8
        black, white = (
            np.unpackbits(
                np.frombuffer(bits.to_bytes(size, "little"), np.uint8), bitorder="little"
            )[: n * n].reshape(n, n)
            for bits in (state.black, state.white)
        )
        board = np.full((n + 2, n + 2), _BORDER, np.int64)
        board[1:-1, 1:-1] = black + 2 * white.astype(np.int64)
        s = np.concatenate((np.zeros(1, np.int64), board.reshape(-1)))
    s[0] = state.to_move
    return s


def kernel(game: Othello) -> Kernel:
    """The kernel of ``game`` (any size, either end rule)."""
    cells = game.size**2
    return Kernel(
        name=game.spec,
        params=params(game),
        max_moves=cells,
        # Every placement fills a cell and passes never come twice in a row.
        max_plies=2 * cells,
        encode=lambda state: encode(game, state),
        functions=dict(FUNCTIONS),
    )
