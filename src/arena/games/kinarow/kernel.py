"""The compiled kernel shared by Tic-tac-toe, Gomoku and Connect Four (numba).

The contract is :mod:`arena.core.kernel`; the rules are ``kinarow/rules.py``.
Every size of Tic-tac-toe and Gomoku, and Connect Four boards too big for its
bitboards (``connect4/kernel.py``), go through one representation: a padded
mailbox (a border of sentinel cells around the board, ``cols + 2`` wide), so
the test for a line after a move counts the mover's stones outward from the
new stone in four directions, as the Python playouts do. Connect Four is the
same board with gravity: its rows count from the bottom, the cell a stone
drops to is ``height[col]``, and a column is legal while it is not full.

``p`` (parameters): gravity (1 for Connect Four), rows, cols, k, exact
(overline=nowin), mailbox width, cells, the offset of the mailbox in ``s``, the
mailbox size, near (Gomoku's rollout samples near the stones), where the line
masks start (0: none), then each cell's square, then each cell's bit in the rules'
bitboards (for ``decode``), then the line masks.
``s`` (position): to move, ply, outcome, the column heights
(Connect Four), each player's stones as a word (bit ``cell``, where the board has
line masks), then the mailbox (0 empty, 1 and 2 the players' stones, 3 the border).

Small boards without gravity (at most 63 cells, and no line longer than ``k`` under
overline=nowin: Tic-tac-toe) test for a line by their *line masks* instead: each cell's
windows of ``k`` cells, as bits, and a move wins when the mover's word covers one of
the windows through its cell. Walking the runs outward takes a branch at every step,
and where each run stops is a coin toss the processor mispredicts; a few masks are
tested in a row with branches that are almost never taken.

``rollout`` takes an immediate win, else blocks one of the opponent's
immediate wins at random, else plays at random — in Gomoku among the empty
cells within two king steps of a stone, as its heuristic ``candidates`` — the
policy of ``mcts:rollout=heuristic``. Winning cells are kept incrementally: a
cell can only become winning for a player when that player extends a run that
reaches it, so after each move only the first empty cell at either end of the
four runs through the new stone needs a look.

``prior`` (boards without gravity: ``mcts:rave=K,prior=N``) rates each empty
cell from the lines through it, as a Gomoku player's first glance: a win, a
block, an open four, stopping the opponent's open three, a four, an open
three, then how close it is to the stones.

>>> import arena
>>> game = arena.load_game("tictactoe")
>>> k = kernel(game, gravity=False)
>>> s = k.encode(game.play_moves(game.parse_moves("a1 b1 a2 b2")))
>>> f = k.functions
>>> out = np.empty(k.max_moves, np.int64)
>>> [int(m) for m in out[: f["legal_moves"](k.params, s, out)]]
[2, 5, 6, 7, 8]
>>> f["play"](k.params, s, 6)
>>> int(f["outcome"](k.params, s)), int(f["to_move"](k.params, s))
(1, 1)

Tests: tests/games/test_kinarow_kernel.py
"""

from __future__ import annotations

import numpy as np
from numba import njit

from arena.core.kernel import ONGOING, Kernel
from arena.core.stack import int64_scratch
from arena.games.kinarow.rules import KInARowGame, KInARowState

# Parameter array ``p``, then the square of every cell (from ``P_TABLE``).
(
    P_GRAVITY, P_ROWS, P_COLS, P_K, P_EXACT, P_WIDTH, P_CELLS, P_BOARD, P_SQUARES, P_NEAR,
    P_MASKS, P_TABLE,
) = range(12)  # fmt: skip
# Position array ``s``: header, then heights (``cols``), the two players' words, the mailbox.
S_TO_MOVE, S_PLY, S_OUTCOME, S_HEIGHT = range(4)
EMPTY, BORDER = 0, 3


@njit(cache=True)
def square_of(p, cell):  # type: ignore[no-untyped-def]
    """The mailbox square of a cell index ``row * cols + col``."""
    return p[P_TABLE + cell]


@njit(cache=True)
def move_of(p, square):  # type: ignore[no-untyped-def]
    """The move that puts a stone on ``square`` (its column under gravity)."""
    width = p[P_WIDTH]
    col = square % width - 1
    if p[P_GRAVITY]:
        return col
    return (square // width - 1) * p[P_COLS] + col


@njit(cache=True)
def wins_at(p, s, square, stone):  # type: ignore[no-untyped-def]
    """Whether ``stone`` on ``square`` (placed or not) makes a winning line through it."""
    board = p[P_BOARD]
    k = p[P_K]
    width = p[P_WIDTH]
    for i in range(4):
        d = 1 if i == 0 else width - 2 + i  # 1, width - 1, width, width + 1
        count = 1
        x = square + d
        while s[board + x] == stone:
            count += 1
            x += d
        x = square - d
        while s[board + x] == stone:
            count += 1
            x -= d
        if count == k or (count > k and p[P_EXACT] == 0):
            return True
    return False


@njit(cache=True)
def target(p, s, move):  # type: ignore[no-untyped-def]
    """The square ``move`` puts a stone on."""
    if p[P_GRAVITY]:
        return (s[S_HEIGHT + move] + 1) * p[P_WIDTH] + move + 1
    return square_of(p, move)


@njit(cache=True)
def legal_moves(p, s, out):  # type: ignore[no-untyped-def]
    if s[S_OUTCOME] != ONGOING:
        return 0
    n = 0
    if p[P_GRAVITY]:
        for col in range(p[P_COLS]):
            if s[S_HEIGHT + col] < p[P_ROWS]:
                out[n] = col
                n += 1
    else:
        board = p[P_BOARD]
        for cell in range(p[P_CELLS]):
            if s[board + square_of(p, cell)] == EMPTY:
                out[n] = cell
                n += 1
    return n


@njit(cache=True)
def covers_line(p, bits, cell):  # type: ignore[no-untyped-def]
    """Whether the stones ``bits`` (a player's word) fill a window of ``k`` cells through
    ``cell`` (boards with line masks: ``p[P_MASKS]``)."""
    at = p[P_MASKS]
    for i in range(p[at + cell], p[at + cell + 1]):
        mask = p[i]
        if bits & mask == mask:
            return True
    return False


@njit(cache=True)
def play(p, s, move):  # type: ignore[no-untyped-def]
    square = target(p, s, move)
    if p[P_GRAVITY]:
        s[S_HEIGHT + move] += 1
    mover = s[S_TO_MOVE]
    board = p[P_BOARD]
    s[board + square] = mover + 1
    s[S_PLY] += 1
    masked = p[P_MASKS] != 0
    word = board - 2 + mover  # the mover's stones as bits, where the board has line masks
    if masked:  # (no gravity: the move is the cell)
        s[word] |= 1 << move
    # A line needs k stones of the mover, so skip the test before 2k - 1 plies.
    if s[S_PLY] < 2 * p[P_K] - 1:
        won = False
    elif masked:
        won = covers_line(p, s[word], move)
    else:
        won = wins_at(p, s, square, mover + 1)
    if won:
        s[S_OUTCOME] = 1 - 2 * mover
    elif s[S_PLY] == p[P_CELLS]:
        s[S_OUTCOME] = 0
    s[S_TO_MOVE] = 1 - mover


@njit(cache=True)
def to_move(p, s):  # type: ignore[no-untyped-def]
    return s[S_TO_MOVE]


@njit(cache=True)
def outcome(p, s):  # type: ignore[no-untyped-def]
    return s[S_OUTCOME]


@njit(cache=True)
def decode(p, s, black, white, turn, outcome):  # type: ignore[no-untyped-def]
    """Write the position of ``words`` into ``s``: the players' stones as the rules'
    bitboards (boards whose bits fit in an int64), ``turn`` = to move + 2 * ply, and the
    outcome (``ONGOING`` or the first player's return), as ``encode`` writes it."""
    board = p[P_BOARD]
    cells = p[P_CELLS]
    cols = p[P_COLS]
    s[:board] = 0
    s[board:] = BORDER
    for cell in range(cells):
        bit = p[P_TABLE + cells + cell]
        stone = EMPTY
        if (black >> bit) & 1:
            stone = 1
        elif (white >> bit) & 1:
            stone = 2
        s[board + p[P_TABLE + cell]] = stone
        if stone != EMPTY and p[P_GRAVITY]:
            s[S_HEIGHT + cell % cols] += 1
        if stone != EMPTY and p[P_MASKS]:
            s[board - 3 + stone] |= 1 << cell  # the word of player stone - 1 (as ``play``)
    s[S_TO_MOVE] = turn & 1
    s[S_PLY] = turn >> 1
    s[S_OUTCOME] = outcome


@njit(cache=True)
def seed(n):  # type: ignore[no-untyped-def]
    np.random.seed(n)


@njit(cache=True)
def owners(p, s, out):  # type: ignore[no-untyped-def]
    """Who holds each cell ``row * cols + col`` (rows from the bottom under gravity): 0, 1
    or -1 (empty) into ``out``; the number of cells."""
    board = p[P_BOARD]
    for cell in range(p[P_CELLS]):
        out[cell] = s[board + square_of(p, cell)] - 1
    return p[P_CELLS]


@njit(cache=True)
def add_threats(p, s, square, stone, marked, threats, count):  # type: ignore[no-untyped-def]
    """Record the empty cells where ``stone`` now wins through the stone on ``square``:
    the first empty cell past either end of each of its four runs."""
    board = p[P_BOARD]
    width = p[P_WIDTH]
    k = p[P_K]
    player = stone - 1
    for i in range(4):
        d = 1 if i == 0 else width - 2 + i
        for step in (d, -d):
            x = square + step
            while s[board + x] == stone:
                x += step
            if s[board + x] != EMPTY or marked[player, x]:
                continue
            run = 1
            y = x + d
            while s[board + y] == stone:
                run += 1
                y += d
            y = x - d
            while s[board + y] == stone:
                run += 1
                y -= d
            if run == k or (run > k and p[P_EXACT] == 0):
                marked[player, x] = True
                threats[player, count[player]] = x
                count[player] += 1


@njit(cache=True)
def playable_threats(p, s, player, marked, threats, count, out):  # type: ignore[no-untyped-def]
    """Write the squares where ``player`` wins at once if it moves there into ``out``
    and return how many (at most ``limit`` = ``len(out)``); drops stale entries."""
    board = p[P_BOARD]
    width = p[P_WIDTH]
    found = 0
    i = 0
    while i < count[player] and found < out.shape[0]:
        x = threats[player, i]
        # Occupied, or under overline=nowin grown into an overline: never winning again.
        if s[board + x] != EMPTY or (p[P_EXACT] and not wins_at(p, s, x, player + 1)):
            marked[player, x] = False
            count[player] -= 1
            threats[player, i] = threats[player, count[player]]
            continue
        if p[P_GRAVITY] == 0 or s[board + x - width] != EMPTY:
            out[found] = x
            found += 1
        i += 1
    return found


@njit(cache=True)
def playout(p, s):  # type: ignore[no-untyped-def]
    if s[S_OUTCOME] != ONGOING:
        return s[S_OUTCOME]
    gravity = p[P_GRAVITY]
    rows = p[P_ROWS]
    pool = int64_scratch(p[P_COLS] if gravity else p[P_CELLS])  # no heap allocation
    n = legal_moves(p, s, pool)
    while True:
        # random() rather than randint: the same stream as numpy's when run without JIT.
        i = int(np.random.random() * n)
        move = pool[i]
        play(p, s, move)
        if s[S_OUTCOME] != ONGOING:
            return s[S_OUTCOME]
        if gravity == 0 or s[S_HEIGHT + move] == rows:
            n -= 1
            pool[i] = pool[n]


@njit(cache=True)
def add_near(p, s, cell, near, candidates, spot, n):  # type: ignore[no-untyped-def]
    """A stone is on ``cell``: count it near the cells within two king steps, make the
    empty ones candidates, drop ``cell`` itself; return the new number of candidates."""
    board = p[P_BOARD]
    rows, cols = p[P_ROWS], p[P_COLS]
    if spot[cell] >= 0:
        n -= 1
        last = candidates[n]
        candidates[spot[cell]] = last
        spot[last] = spot[cell]
        spot[cell] = -1
    row = cell // cols
    col = cell - row * cols
    for r in range(max(row - 2, 0), min(row + 3, rows)):
        for c in range(max(col - 2, 0), min(col + 3, cols)):
            other = r * cols + c
            near[other] += 1
            if near[other] == 1 and s[board + square_of(p, other)] == EMPTY:
                candidates[n] = other
                spot[other] = n
                n += 1
    return n


@njit(cache=True)
def rollout(p, s):  # type: ignore[no-untyped-def]
    """Take a win, else block one of the opponent's wins (at random), else play at
    random — in Gomoku among the empty cells within two king steps of a stone
    when there are any — to the end: the policy of ``mcts:rollout=heuristic``."""
    if s[S_OUTCOME] != ONGOING:
        return s[S_OUTCOME]
    gravity = p[P_GRAVITY]
    board = p[P_BOARD]
    cells = p[P_CELLS]
    # The moves to sample from, with each move's index for removal in O(1).
    size = p[P_COLS] if gravity else cells
    pool = int64_scratch(size)
    where = int64_scratch(size)
    n = legal_moves(p, s, pool)
    for i in range(n):
        where[pool[i]] = i
    # Each player's winning squares (playable or not yet, under gravity), marked
    # to keep the lists free of repeats.
    marked = np.zeros((2, p[P_SQUARES]), np.bool_)
    threats = np.empty((2, cells), np.int64)
    count = np.zeros(2, np.int64)
    found = int64_scratch(size)
    # Gomoku's candidates: empty cells near stones (``near`` counts the stones).
    near_only = p[P_NEAR] != 0
    near = np.zeros(cells if near_only else 0, np.int64)
    candidates = np.empty(cells if near_only else 0, np.int64)
    spot = np.full(cells if near_only else 0, -1, np.int64)
    n_candidates = 0
    for cell in range(cells):
        x = square_of(p, cell)
        if s[board + x] == EMPTY:
            for player in range(2):
                if wins_at(p, s, x, player + 1):
                    marked[player, x] = True
                    threats[player, count[player]] = x
                    count[player] += 1
        elif near_only:
            n_candidates = add_near(p, s, cell, near, candidates, spot, n_candidates)
    while True:
        mover = s[S_TO_MOVE]
        if playable_threats(p, s, mover, marked, threats, count, found[:1]):
            move = move_of(p, found[0])
        else:
            m = playable_threats(p, s, 1 - mover, marked, threats, count, found)
            if m:
                move = move_of(p, found[int(np.random.random() * m)])
            elif n_candidates:
                move = candidates[int(np.random.random() * n_candidates)]
            else:
                move = pool[int(np.random.random() * n)]
        square = target(p, s, move)
        play(p, s, move)
        if s[S_OUTCOME] != ONGOING:
            return s[S_OUTCOME]
        if gravity == 0 or s[S_HEIGHT + move] == p[P_ROWS]:
            n -= 1
            last = pool[n]
            pool[where[move]] = last
            where[last] = where[move]
        add_threats(p, s, square, mover + 1, marked, threats, count)
        if near_only:
            n_candidates = add_near(p, s, move, near, candidates, spot, n_candidates)


@njit(cache=True)
def trace(p, start, end, out):  # type: ignore[no-untyped-def]
    """The stones placed from position ``start`` to ``end`` (``cell * 2 + player``), for
    RAVE; the board's order, not the order of play, as a cell is played only once
    (without gravity)."""
    board = p[P_BOARD]
    n = 0
    for cell in range(p[P_CELLS]):
        square = board + square_of(p, cell)
        if start[square] == EMPTY and start[square] != end[square]:
            out[n] = cell * 2 + end[square] - 1
            n += 1
    return n


# Knowledge win rates (percent) of ``prior``, for the player to move.
PRIOR_WIN = 98  # completes a line
PRIOR_BLOCK = 90  # stops the opponent's line
PRIOR_OPEN_FOUR = 85  # k - 1 in a line, both ends open: two wins, one can be stopped
PRIOR_STOP_FOUR = 75  # where the opponent would make k - 1 with both ends open
PRIOR_FOUR = 70  # k - 1 in a line, one end open: a threat the opponent must answer
PRIOR_OPEN_THREE = 65  # k - 2 in a line with both ends open
PRIOR_TOUCH = 55  # next to a stone
PRIOR_NEAR = 45  # two steps from a stone
PRIOR_FAR = 20  # further: in Gomoku, almost never the move
PRIOR_EMPTY = 50  # the empty board: nothing to go on


@njit(cache=True)
def _line(p, s, square, d, stone):  # type: ignore[no-untyped-def]
    """``stone`` on ``square``: its run along ``d`` (the stone included) and how many of
    the run's two ends are empty cells."""
    board = p[P_BOARD]
    run = 1
    x = square + d
    while s[board + x] == stone:
        run += 1
        x += d
    ends = int(s[board + x] == EMPTY)
    x = square - d
    while s[board + x] == stone:
        run += 1
        x -= d
    return run, ends + int(s[board + x] == EMPTY)


@njit(cache=True)
def _distance(p, s, cell):  # type: ignore[no-untyped-def]
    """King steps from ``cell`` to the nearest stone, at most 3."""
    board = p[P_BOARD]
    rows, cols = p[P_ROWS], p[P_COLS]
    row, col = cell // cols, cell % cols
    nearest = 3
    for r in range(max(row - 2, 0), min(row + 3, rows)):
        for c in range(max(col - 2, 0), min(col + 3, cols)):
            if s[board + square_of(p, r * cols + c)] != EMPTY:
                nearest = min(nearest, max(abs(r - row), abs(c - col)))
    return nearest


@njit(cache=True)
def prior(p, s, out):  # type: ignore[no-untyped-def]
    """Knowledge win rates (percent) of the empty cells for the player to move, from the
    lines through each (a Gomoku player's first glance): a win, a block of the
    opponent's win, an open four, a stop of the opponent's open three, a four, an open
    three, then closeness to the stones. Boards without gravity only (RAVE's games)."""
    if s[S_OUTCOME] != ONGOING or p[P_GRAVITY]:
        return 0
    board = p[P_BOARD]
    k = p[P_K]
    width = p[P_WIDTH]
    me = s[S_TO_MOVE] + 1
    opp = 3 - me
    for cell in range(p[P_CELLS]):
        x = square_of(p, cell)
        out[cell] = PRIOR_FAR
        if s[board + x] != EMPTY:
            continue
        if s[S_PLY] == 0:
            out[cell] = PRIOR_EMPTY
            continue
        if wins_at(p, s, x, me):
            out[cell] = PRIOR_WIN
            continue
        if wins_at(p, s, x, opp):
            out[cell] = PRIOR_BLOCK
            continue
        value = PRIOR_FAR
        nearest = _distance(p, s, cell)
        if nearest == 1:
            value = PRIOR_TOUCH
        elif nearest == 2:
            value = PRIOR_NEAR
        for i in range(4):
            d = 1 if i == 0 else width - 2 + i
            run, ends = _line(p, s, x, d, me)
            if run == k - 1 and ends == 2:
                value = max(value, PRIOR_OPEN_FOUR)
            elif run == k - 1 and ends == 1:
                value = max(value, PRIOR_FOUR)
            elif run == k - 2 and ends == 2 and k > 3:
                value = max(value, PRIOR_OPEN_THREE)
            # Where the opponent's open k - 2 would grow into an open k - 1.
            run, ends = _line(p, s, x, d, opp)
            if run == k - 1 and ends == 2:
                value = max(value, PRIOR_STOP_FOUR)
        out[cell] = value
    return 1


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


FEW_STONES = 24
"""Up to this many stones ``encode`` places one by one, beyond it unpacks every cell."""


class BitReader:
    """Reads a Python-int bitboard into one 0/1 entry per cell (for ``encode``)."""

    def __init__(self, cell_bits: list[int]) -> None:
        self.index = np.array([bit.bit_length() - 1 for bit in cell_bits], np.int64)
        self.size = (int(self.index.max()) + 8) // 8

    def cells(self, bits: int) -> np.ndarray:
        raw = np.frombuffer(bits.to_bytes(self.size, "little"), np.uint8)
        return np.unpackbits(raw, bitorder="little")[self.index].astype(np.int64)


MOST_MASKED = 63
"""The most cells a board with line masks has (a player's stones fit in one int64)."""


def line_masks(rows: int, cols: int, k: int, exact: bool, gravity: bool) -> list[list[int]] | None:
    """Each cell's windows of ``k`` cells in a row (any direction) as bit masks (bit
    ``row * cols + col``), where a window filled is exactly a win: boards without gravity
    of at most :data:`MOST_MASKED` cells, under overline=nowin only where no line is longer
    than ``k``. None for the others.

    >>> masks = line_masks(3, 3, 3, False, False)
    >>> [len(m) for m in masks]  # corners: a row, a column, a diagonal; the centre: four
    [3, 2, 3, 2, 4, 2, 3, 2, 3]
    >>> masks[0] == [0b111, 0b1001001, 0b100010001]
    True
    """
    if gravity or rows * cols > MOST_MASKED or (exact and max(rows, cols) > k):
        return None
    through: list[list[int]] = [[] for _ in range(rows * cols)]
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for r in range(rows):
            for c in range(cols):
                cells = [(r + i * dr, c + i * dc) for i in range(k)]
                if all(0 <= y < rows and 0 <= x < cols for y, x in cells):
                    mask = sum(1 << (y * cols + x) for y, x in cells)
                    for y, x in cells:
                        through[y * cols + x].append(mask)
    return through


def kernel(game: KInARowGame, gravity: bool, near: bool = False) -> Kernel:
    """The kernel of a k-in-a-row game (``gravity`` for Connect Four; ``near``: the
    rollout samples near the stones, as Gomoku's heuristic ``candidates``)."""
    rows, cols = game.rows, game.cols
    width = cols + 2
    squares = (rows + 2) * width
    offset = S_HEIGHT + cols + 2  # the heights, the players' words, then the mailbox
    table = [(cell // cols + 1) * width + cell % cols + 1 for cell in range(rows * cols)]
    head = [int(gravity), rows, cols, game.k, int(game.exact), width, rows * cols, offset, squares]
    head.append(int(near))
    reader = BitReader(game.lines.cell_bit)
    through = line_masks(rows, cols, game.k, game.exact, gravity)
    tail: list[int] = []
    if through is not None:
        # Where each cell's masks start in ``p`` (one more for the end), then the masks.
        at = P_TABLE + 2 * rows * cols
        first = at + rows * cols + 1
        starts = [first + sum(len(m) for m in through[:cell]) for cell in range(rows * cols + 1)]
        tail = starts + [mask for masks in through for mask in masks]
    head.append(at if through is not None else 0)
    params = np.array(head + table + reader.index.tolist() + tail, np.int64)
    # A stone's cell by the index of its bit in the rules' board (for the players' words).
    cell_of_bit = {b: c for c, b in enumerate(reader.index.tolist())}
    squares_of_cells = offset + np.array(table, np.int64)
    col_of_cell = np.arange(rows * cols) % cols
    empty = np.full(offset + squares, BORDER, np.int64)
    empty[:offset] = 0
    empty[squares_of_cells] = EMPTY
    # A stone's entry in ``s`` and its column by the index of its bit in the rules' board.
    entry_of_bit = {b: int(squares_of_cells[c]) for c, b in enumerate(reader.index.tolist())}
    col_of_bit = {b: c % cols for c, b in enumerate(reader.index.tolist())}

    def word_of(bits: int) -> int:
        """A player's stones, given as the rules' bitboard, as bits ``cell``."""
        word = 0
        while bits:
            low = bits & -bits
            word |= 1 << cell_of_bit[low.bit_length() - 1]
            bits ^= low
        return word

    def encode(state: KInARowState) -> np.ndarray:
        black, white = state.bits
        if (black | white).bit_count() <= FEW_STONES:
            # Stone by stone from the empty board: a few Python steps cost less than the
            # dozen numpy calls of unpacking every cell, on a move's clock.
            s = empty.copy()
            for value, bits in ((1, black), (2, white)):
                while bits:
                    low = bits & -bits
                    bit = low.bit_length() - 1
                    s[entry_of_bit[bit]] = value
                    if gravity:
                        s[S_HEIGHT + col_of_bit[bit]] += 1
                    bits ^= low
        else:
            s = np.full(offset + squares, BORDER, np.int64)
            s[:offset] = 0
            black_cells, white_cells = reader.cells(black), reader.cells(white)
            s[squares_of_cells] = black_cells + 2 * white_cells
            if gravity:
                occupied = (black_cells | white_cells) != 0
                s[S_HEIGHT : S_HEIGHT + cols] = np.bincount(col_of_cell[occupied], minlength=cols)
        if through is not None:
            s[offset - 2] = word_of(black)
            s[offset - 1] = word_of(white)
        s[S_TO_MOVE] = state.to_move
        s[S_PLY] = state.ply
        s[S_OUTCOME] = state.returns()[0] if state.is_terminal() else ONGOING
        return s

    def words(state: KInARowState) -> tuple[int, int, int, int]:
        black, white = state.bits
        outcome = state.returns()[0] if state.is_terminal() else ONGOING
        return black, white, state.to_move | state.ply << 1, outcome

    functions = dict(FUNCTIONS) if gravity else {**FUNCTIONS, "trace": trace, "prior": prior}
    # Positions cross into compiled code as words where the bitboards fit in an int64.
    fits = int(reader.index.max()) < 63
    if fits:
        functions["decode"] = decode
    return Kernel(
        name=game.spec,
        params=params,
        max_moves=cols if gravity else rows * cols,
        max_plies=rows * cols,
        encode=encode,  # type: ignore[arg-type]
        functions=functions,
        words=words if fits else None,  # type: ignore[arg-type]
    )


__all__ = ["FUNCTIONS", "kernel"]
