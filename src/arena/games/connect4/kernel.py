"""Connect Four's compiled kernel: int64 bitboards where they fit, else the mailbox.

Boards of up to 63 bits in column-major order with one spare bit above each
column (``cols * (rows + 1) <= 63``: 7x6, 9x6, 6x9, ...) keep the position as
three int64 bitboards, so a stone is dropped by one addition and the whole
board is tested for a run of k by a few shifts per direction. The spare bit of
every column stops runs from wrapping into the next one, and bit 63 stays
clear so right shifts never see a sign. Bigger boards (rows and cols go up to
20) use the shared mailbox kernel of :mod:`arena.games.kinarow.kernel`. Moves
are columns either way, as in ``rules.py``.

``p``: rows, cols, k, the column height with its spare bit, cells, the bottom
row, every cell. ``s``: to move, ply, outcome, the first player's stones, the
second player's, all stones.

``rollout`` takes a win, else blocks one of the opponent's wins at random, else
plays at random (the policy of ``mcts:rollout=heuristic``); a player's winning
cells come from shifts over the whole board each ply.

>>> import arena
>>> game = arena.load_game("connect4")
>>> fast, slow = kernel(game), kernel(arena.load_game("connect4:rows=9,cols=7"))
>>> fast.functions["play"] is play, slow.functions["play"] is play
(True, False)
>>> fast.perft(game.initial_state(), 4)
2401

Tests: tests/games/test_kinarow_kernel.py
"""

from __future__ import annotations

import numpy as np
from numba import njit

from arena.core.kernel import ONGOING, Kernel
from arena.core.stack import int64_scratch
from arena.games.connect4.rules import ConnectFour
from arena.games.kinarow import kernel as kinarow
from arena.games.kinarow.rules import KInARowState

P_ROWS, P_COLS, P_K, P_HEIGHT, P_CELLS, P_BOTTOM, P_BOARD = range(7)
S_TO_MOVE, S_PLY, S_OUTCOME, S_STONES, S_MASK = 0, 1, 2, 3, 5
BITS = 63


def fits(rows: int, cols: int) -> bool:
    """Whether the board fits the int64 bitboards (else the mailbox kernel serves it)."""
    return cols * (rows + 1) <= BITS


@njit(cache=True)
def shift_down(x, n):  # type: ignore[no-untyped-def]
    """``x >> n`` for ``x >= 0``, also for shifts of 64 bits or more."""
    return x >> n if n < BITS else 0


@njit(cache=True)
def shift_up(x, n):  # type: ignore[no-untyped-def]
    """``x << n`` (bits past 63 are lost; callers mask to the board)."""
    return x << n if n < BITS else 0


@njit(cache=True)
def has_run(p, stones):  # type: ignore[no-untyped-def]
    """Whether ``stones`` hold k in a line in some direction."""
    k = p[P_K]
    height = p[P_HEIGHT]
    for i in range(4):
        d = 1 if i == 0 else height - 2 + i  # up, down-right, right, up-right
        run = stones
        length = 1
        # Runs of length L become runs of L + step with step <= L.
        while length < k and run:
            step = min(length, k - length)
            run &= shift_down(run, step * d)
            length += step
        if run:
            return True
    return False


@njit(cache=True)
def winning_cells(p, stones, mask):  # type: ignore[no-untyped-def]
    """The empty cells where one more stone makes k in a line with ``stones``."""
    k = p[P_K]
    height = p[P_HEIGHT]
    cells = 0
    for i in range(4):
        d = 1 if i == 0 else height - 2 + i
        # ``before`` stones on one side of the cell and k - 1 - before on the other.
        for before in range(k):
            line = p[P_BOARD]
            for j in range(1, before + 1):
                line &= shift_up(stones, j * d)
            for j in range(1, k - before):
                line &= shift_down(stones, j * d)
            cells |= line
    return cells & ~mask & p[P_BOARD]


@njit(cache=True)
def legal_moves(p, s, out):  # type: ignore[no-untyped-def]
    if s[S_OUTCOME] != ONGOING:
        return 0
    n = 0
    height = p[P_HEIGHT]
    top = p[P_ROWS] - 1
    for col in range(p[P_COLS]):
        if not s[S_MASK] & (1 << (col * height + top)):
            out[n] = col
            n += 1
    return n


@njit(cache=True)
def play(p, s, move):  # type: ignore[no-untyped-def]
    base = move * p[P_HEIGHT]
    column = ((1 << p[P_ROWS]) - 1) << base
    # Adding the column's bottom bit carries through its stones to the free cell.
    bit = (s[S_MASK] + (1 << base)) & column
    mover = s[S_TO_MOVE]
    stones = s[S_STONES + mover] | bit
    s[S_STONES + mover] = stones
    s[S_MASK] |= bit
    s[S_PLY] += 1
    if s[S_PLY] >= 2 * p[P_K] - 1 and has_run(p, stones):
        s[S_OUTCOME] = 1 - 2 * mover
    elif s[S_PLY] == p[P_CELLS]:
        s[S_OUTCOME] = 0
    s[S_TO_MOVE] = 1 - mover


@njit(cache=True)
def full(p, s, col):  # type: ignore[no-untyped-def]
    return s[S_MASK] & (1 << (col * p[P_HEIGHT] + p[P_ROWS] - 1)) != 0


@njit(cache=True)
def playout(p, s):  # type: ignore[no-untyped-def]
    if s[S_OUTCOME] != ONGOING:
        return s[S_OUTCOME]
    pool = int64_scratch(p[P_COLS])  # no heap allocation
    n = legal_moves(p, s, pool)
    while True:
        # random() rather than randint: the same stream as numpy's when run without JIT.
        i = int(np.random.random() * n)
        move = pool[i]
        play(p, s, move)
        if s[S_OUTCOME] != ONGOING:
            return s[S_OUTCOME]
        if full(p, s, move):
            n -= 1
            pool[i] = pool[n]


@njit(cache=True)
def first_column(p, cells):  # type: ignore[no-untyped-def]
    """The lowest column holding one of ``cells`` (not 0)."""
    height = p[P_HEIGHT]
    col = 0
    while not (cells >> (col * height)) & ((1 << height) - 1):
        col += 1
    return col


@njit(cache=True)
def rollout(p, s):  # type: ignore[no-untyped-def]
    """Take a win, else block one of the opponent's wins (at random), else play at
    random, to the end: the policy of ``mcts:rollout=heuristic``."""
    if s[S_OUTCOME] != ONGOING:
        return s[S_OUTCOME]
    cols = p[P_COLS]
    height = p[P_HEIGHT]
    pool = int64_scratch(cols)
    where = int64_scratch(cols)
    found = int64_scratch(cols)
    column = (1 << height) - 1
    n = legal_moves(p, s, pool)
    for i in range(n):
        where[pool[i]] = i
    while True:
        mover = s[S_TO_MOVE]
        mask = s[S_MASK]
        playable = (mask + p[P_BOTTOM]) & p[P_BOARD]
        wins = winning_cells(p, s[S_STONES + mover], mask) & playable
        if wins:
            move = first_column(p, wins)
        else:
            blocks = winning_cells(p, s[S_STONES + 1 - mover], mask) & playable
            if blocks:
                # One of the opponent's winning columns, at random.
                m = 0
                for col in range(cols):
                    if blocks & (column << (col * height)):
                        found[m] = col
                        m += 1
                move = found[int(np.random.random() * m)]
            else:
                move = pool[int(np.random.random() * n)]
        play(p, s, move)
        if s[S_OUTCOME] != ONGOING:
            return s[S_OUTCOME]
        if full(p, s, move):
            n -= 1
            last = pool[n]
            pool[where[move]] = last
            where[last] = where[move]


@njit(cache=True)
def owners(p, s, out):  # type: ignore[no-untyped-def]
    """Who holds each cell ``row * cols + col`` (rows from the bottom): 0, 1 or -1."""
    cols, height = p[P_COLS], p[P_HEIGHT]
    for cell in range(p[P_CELLS]):
        bit = 1 << ((cell % cols) * height + cell // cols)
        out[cell] = 0 if s[S_STONES] & bit else 1 if s[S_STONES + 1] & bit else -1
    return p[P_CELLS]


FUNCTIONS = {
    "legal_moves": legal_moves,
    "play": play,
    "to_move": kinarow.to_move,
    "outcome": kinarow.outcome,
    "playout": playout,
    "rollout": rollout,
    "seed": kinarow.seed,
    "owners": owners,
}


def kernel(game: ConnectFour) -> Kernel:
    rows, cols = game.rows, game.cols
    if not fits(rows, cols):
        return kinarow.kernel(game, gravity=True)
    height = rows + 1
    bit_of = [(cell % cols) * height + cell // cols for cell in range(rows * cols)]
    bottom = sum(1 << (c * height) for c in range(cols))
    board = sum(1 << b for b in bit_of)
    params = np.array([rows, cols, game.k, height, rows * cols, bottom, board], np.int64)
    reader = kinarow.BitReader(game.lines.cell_bit)
    # The kernel's bit of each bit of the rules' board (a stone at a time: a Python loop
    # over at most 42 stones costs less than unpacking every cell with numpy).
    kernel_bit = {b: 1 << bit_of[c] for c, b in enumerate(reader.index.tolist())}

    def encode(state: KInARowState) -> np.ndarray:
        boards = []
        for bits in state.bits:
            board = 0
            while bits:
                low = bits & -bits
                board |= kernel_bit[low.bit_length() - 1]
                bits ^= low
            boards.append(board)
        s = [0] * 6
        s[S_STONES], s[S_STONES + 1] = boards
        s[S_MASK] = boards[0] | boards[1]
        s[S_TO_MOVE] = state.to_move
        s[S_PLY] = state.ply
        s[S_OUTCOME] = state.returns()[0] if state.is_terminal() else ONGOING
        return np.array(s, np.int64)

    return Kernel(
        name=game.spec,
        params=params,
        max_moves=cols,
        max_plies=rows * cols,
        encode=encode,  # type: ignore[arg-type]
        functions=dict(FUNCTIONS),
    )
