"""Gomoku's threat-space search: a win by continuous fours (VCF) or by threes and fours
(VCT) for the side to move, compiled (numba), over the board alone.

The search reads the board cell by cell (0 empty, 1 Black, 2 White) and the rule of the
game: a *five-cell* of a player is an empty cell where its stone makes k in a row --
at least k for freestyle (``overline=win``), exactly k in some direction where
``overline=nowin``. From that, for the attacker ``a`` and the defender ``d``:

- a **four** is an attacking move that leaves ``a`` one five-cell (two: it wins, as an
  open four or a double four does); ``d`` must take it;
- a **three** is one after which ``a`` has a *winning cell*: a cell that would leave two
  five-cells (it makes an open four or a double four), so ``a`` wins next unless ``d``
  answers. ``d`` may answer with any cell that could stop it -- the winning cells and
  the five-cells each of them would make (outside these, ``a`` plays a winning cell and
  has two five-cells to complete: the set is complete) -- or with a **four of its own**
  (``a`` must block it, and ``d`` answers the threat again), and a four that leaves ``d``
  two five-cells refutes the attack;
- the attack is proven when every answer of ``d`` leads to a proven attack again (VCF:
  fours only, so ``d`` has one answer each time).

Budgets: at most ``fours`` fours and ``threes`` threes along a line (searched with 0
threes first, then 1, 2, ... up to ``threes``), a node cap and a deadline (``stats``); a
table of the positions already refuted at a budget (Zobrist keys) keeps transpositions
from being searched twice. Each node's scans look only near the stones of the side they
look for (:func:`near_mask`), and after a three only along its lines (:func:`wins_near`):
the whole board's scans (``rule[R_NEAR] = 0``) search the same nodes at half the speed
(``arena bench threats``; docs/speed.md). A failed or cut-short search returns no
move: a move is returned only with its proof.

>>> import arena
>>> game = arena.load_game("gomoku")
>>> threats = ThreatSearch(game)
>>> state = game.play_moves(game.parse_moves("F8 A1 G8 A3 H9 P15 H10 P13"))  # two twos
>>> threats.search(state, 0, 1.0) is None  # no win by fours
True
>>> found = threats.search(state, 2, 1.0)  # by threes: H8 makes two open threes
>>> game.format_move(found.move), found.kind
('H8', 'vct')

Tests: tests/search/test_gomoku_threats.py
"""

from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np
from numba import njit

from arena.core.game import Game, State
from arena.search.clock.compiled_deadline import NEVER, expired, now_ns

# stats: nodes, node cap, deadline (ns), aborted, last look at the clock, longest gap.
NODES, CAP, END, ABORTED, LAST, LONGEST = range(6)
STATS = 6
CHECK_EVERY = 63
"""The node cap is checked every 64 nodes (node-capped searches stop at a multiple of 64)."""
CLOCK_EVERY = 15
"""The clock, and a stop from another thread, every 16 nodes: a node in a crowded
position takes 20-300 microseconds, so 64 of them could carry a search (and the thread
the engine waits for) past a 20 ms move's margin."""
# rule r: size, k, exact (1: overline=nowin), near (1: scans only near the stones, 0: the
# whole board: the reference the tests compare with).
R_SIZE, R_K, R_EXACT, R_NEAR = range(4)
ATTACK, DEFEND = 0, 1
MAX_PLY = 96
TABLE_BITS = 16
DR = np.array([0, 1, 1, 1], np.int64)
DC = np.array([1, 0, 1, -1], np.int64)

SIGNATURE = (
    "int64(int64[::1], int64[::1], int64[:, ::1], int64[::1], int64[:, ::1], int64, int64,"
    " int64, int64, int64, int64, int64, int64[::1], int64[::1])"
)
"""Declared: a recursive function whose types numba infers does not load from its cache."""


@njit(cache=True)
def run(board, size, cell, dr, dc, v):  # type: ignore[no-untyped-def]
    """The stones ``v`` in a row from ``cell`` (not counted) in direction (dr, dc)."""
    r, c = cell // size + dr, cell % size + dc
    n = 0
    while 0 <= r < size and 0 <= c < size and board[r * size + c] == v:
        n += 1
        r += dr
        c += dc
    return n


@njit(cache=True)
def five_along(board, rule, cell, d, v):  # type: ignore[no-untyped-def]
    """Whether a stone ``v`` on the empty ``cell`` makes k in a row in direction ``d``."""
    size, k = rule[R_SIZE], rule[R_K]
    dr, dc = DR[d], DC[d]
    n = 1 + run(board, size, cell, dr, dc, v) + run(board, size, cell, -dr, -dc, v)
    return n == k or (n > k and rule[R_EXACT] == 0)


@njit(cache=True)
def is_five(board, rule, cell, v):  # type: ignore[no-untyped-def]
    """Whether a stone ``v`` on the empty ``cell`` wins."""
    for d in range(4):  # noqa: SIM110 (numba compiles no generator)
        if five_along(board, rule, cell, d, v):
            return True
    return False


@njit(cache=True)
def fives_through(board, rule, cell, v, out):  # type: ignore[no-untyped-def]
    """The five-cells of ``v`` on the four lines through ``cell`` (a stone ``v``), within
    k-1 of it, into ``out``; returns how many (the cells of different lines differ).

    A five-cell its last stone made lies on one of these lines, made along that line."""
    size, k = rule[R_SIZE], rule[R_K]
    r0, c0 = cell // size, cell % size
    n = 0
    for d in range(4):
        dr, dc = DR[d], DC[d]
        for s in range(-(k - 1), k):
            if s == 0:
                continue
            r, c = r0 + s * dr, c0 + s * dc
            if 0 <= r < size and 0 <= c < size:
                y = r * size + c
                if board[y] == 0 and five_along(board, rule, y, d, v):
                    out[n] = y
                    n += 1
    return n


@njit(cache=True)
def held(board, size, k, er, ec, dr, dc, v):  # type: ignore[no-untyped-def]
    """The stones ``v`` in the k-window from (``er``, ``ec``) along (``dr``, ``dc``); -1
    if the window leaves the board or holds a stone of the other player."""
    lr, lc = er + (k - 1) * dr, ec + (k - 1) * dc
    if not (0 <= er < size and 0 <= ec < size and 0 <= lr < size and 0 <= lc < size):
        return -1
    mine = 0
    for i in range(k):
        x = board[(er + i * dr) * size + ec + i * dc]
        if x == v:
            mine += 1
        elif x != 0:
            return -1
    return mine


@njit(cache=True)
def lined(board, rule, cell, v, least):  # type: ignore[no-untyped-def]
    """Whether the empty ``cell`` lies in a k-window holding at least ``least`` stones
    ``v`` and no other stone (only there can a stone on it make a four or a three)."""
    size, k = rule[R_SIZE], rule[R_K]
    r0, c0 = cell // size, cell % size
    for d in range(4):
        dr, dc = DR[d], DC[d]
        for start in range(-(k - 1), 1):
            if held(board, size, k, r0 + start * dr, c0 + start * dc, dr, dc, v) >= least:
                return True
    return False


@njit(cache=True)
def near_mask(board, rule, v, mask):  # type: ignore[no-untyped-def]
    """``mask[y]`` 1 where ``y`` lies within k-1 of a stone ``v`` along one of the four
    lines, else 0 (with ``rule[R_NEAR]`` 0: 1 everywhere).

    Every scan of the search looks for cells in a k-window with two or more stones of one
    player (its fours, threes, five-cells and winning cells), and such a cell lies within
    k-1 of one of them: scanning the mask's cells alone finds the same cells in the same
    order, at the cost of the stones' neighbourhoods instead of the whole board's windows."""
    if rule[R_NEAR] == 0:
        mask[:] = 1
        return
    size, k = rule[R_SIZE], rule[R_K]
    mask[:] = 0
    for cell in range(board.size):
        if board[cell] != v:
            continue
        r0, c0 = cell // size, cell % size
        for d in range(4):
            dr, dc = DR[d], DC[d]
            for s in range(-(k - 1), k):
                r, c = r0 + s * dr, c0 + s * dc
                if 0 <= r < size and 0 <= c < size:
                    mask[r * size + c] = 1


@njit(cache=True)
def wins_near(board, rule, cell, v, tmp):  # type: ignore[no-untyped-def]
    """Whether ``v`` has a winning cell (a stone there leaves two five-cells) in a k-window
    through ``cell`` that holds k-2 stones ``v`` (``cell``'s among them) and no other.

    When ``v`` had no winning cell before its stone on ``cell`` and that stone made no
    five-cell, these are the only places one can be: one of the winning cell's five-cells
    needs the new stone, so its window holds both, k-3 more stones ``v`` and the empty
    five-cell."""
    size, k = rule[R_SIZE], rule[R_K]
    r0, c0 = cell // size, cell % size
    for d in range(4):
        dr, dc = DR[d], DC[d]
        for start in range(-(k - 1), 1):
            er, ec = r0 + start * dr, c0 + start * dc
            if held(board, size, k, er, ec, dr, dc, v) < k - 2:
                continue
            for i in range(k):
                y = (er + i * dr) * size + ec + i * dc
                if board[y] == 0:
                    board[y] = v
                    m = fives_through(board, rule, y, v, tmp)
                    board[y] = 0
                    if m >= 2:
                        return True
    return False


@njit(cache=True)
def place(board, cell, v, zob, key):  # type: ignore[no-untyped-def]
    board[cell] = v
    return key ^ zob[v - 1, cell]


@njit(cache=True)
def winning_cells(board, rule, v, tmp, out, mask):  # type: ignore[no-untyped-def]
    """Every empty cell where a stone ``v`` leaves two five-cells (``v`` has none now):
    into ``out``, returns how many. ``mask``: :func:`near_mask` of ``v``'s stones.

    As ``v`` has no five-cell, each one the stone makes lies in a k-window through it
    with k-2 stones ``v`` and no other (k-1 with it, and the five-cell empty): only a
    cell :func:`lined` with k-2 can be a winning cell."""
    n = 0
    for y in range(board.size):  # (each of the two five-cells needs a window of three)
        if board[y] == 0 and mask[y] != 0 and lined(board, rule, y, v, rule[R_K] - 2):
            board[y] = v
            m = fives_through(board, rule, y, v, tmp)
            board[y] = 0
            if m >= 2:
                out[n] = y
                n += 1
    return n


@njit(cache=True)
def add(out, n, cell):  # type: ignore[no-untyped-def]
    """``cell`` appended to the ``n`` cells of ``out`` unless there; returns the count."""
    for i in range(n):
        if out[i] == cell:
            return n
    out[n] = cell
    return n + 1


@njit(cache=True)
def tick(stats):  # type: ignore[no-untyped-def]
    stats[NODES] += 1
    n = stats[NODES]
    if (n & CHECK_EVERY == 0 and n >= stats[CAP]) or (
        n & CLOCK_EVERY == 0 and expired(stats, END, LAST, LONGEST)
    ):
        stats[ABORTED] = 1
    return stats[ABORTED] != 0


@njit(SIGNATURE, cache=True, nogil=True)
def threat(board, rule, zob, table, buf, a, mode, fours, threes, last, key, ply, stats, mark):  # type: ignore[no-untyped-def]
    """Whether attacker ``a`` (0 or 1) wins by threats, 1 or 0.

    ``mode`` ATTACK: ``a`` to move, with no five-cell; ``last`` the defender's last move
    (-1 at the root: it has no five-cell then). On a win the first attack is at
    ``buf[ply, 0]``. ``mode`` DEFEND: the defender to move, facing a threat of ``a``.
    The cells of a proof (each attack, block, defence and five-cell of the lines that
    won) are set to 1 in ``mark`` (with some of lines that won below a defence that did
    not: a superset).
    """
    if tick(stats) or ply >= MAX_PLY - 3:
        return 0
    av, dv = a + 1, 2 - a
    # The modes and "no move" as variables: a literal argument to the recursive call
    # compiles a variant that the cache cannot load.
    ZERO, ONE, NONE = mode - mode, mode - mode + 1, mode - mode - 1
    moves = buf[ply]
    tmp = buf[ply + 1]
    # The scans' masks (near_mask), each used before any recursion: rows no ply reaches.
    mine, theirs = buf[MAX_PLY + 1], buf[MAX_PLY]
    if mode == DEFEND:
        near_mask(board, rule, av, mine)
        # a's five-cells: one must be taken; two win.
        nf = 0
        for y in range(board.size):
            if board[y] == 0 and mine[y] != 0 and is_five(board, rule, y, av):
                moves[nf] = y
                nf += 1
                if nf >= 2:
                    mark[moves[0]] = 1
                    mark[y] = 1
                    return 1
        n = nf
        if nf == 0:
            nw = winning_cells(board, rule, av, tmp, moves, mine)
            if nw == 0:
                return 0  # no threat left: the defender has the move
            n = nw
            for i in range(nw):  # the five-cells each winning cell would make
                y = moves[i]
                board[y] = av
                m = fives_through(board, rule, y, av, tmp)
                board[y] = 0
                for j in range(m):
                    n = add(moves, n, tmp[j])
            near_mask(board, rule, dv, theirs)
            for y in range(board.size):  # the defender's own fours
                if board[y] == 0 and theirs[y] != 0 and lined(board, rule, y, dv, 3):
                    board[y] = dv
                    m = fives_through(board, rule, y, dv, tmp)
                    board[y] = 0
                    if m >= 1:
                        n = add(moves, n, y)
        for i in range(n):
            z = moves[i]
            key2 = place(board, z, dv, zob, key)
            m = fives_through(board, rule, z, dv, tmp)
            if m >= 2:
                won = 0  # the defender's open or double four
            elif m == 1:
                b = tmp[0]  # a must block (it has no five-cell: it would have taken it)
                key3 = place(board, b, av, zob, key2)
                won = threat(board, rule, zob, table, buf, a, ONE, fours, threes, NONE, key3,
                             ply + 1, stats, mark)  # fmt: skip
                board[b] = 0
                mark[b] = 1
            else:
                won = threat(board, rule, zob, table, buf, a, ZERO, fours, threes, z, key2,
                             ply + 1, stats, mark)  # fmt: skip
            board[z] = 0
            if won == 0 or stats[ABORTED]:
                return 0
        for i in range(n):
            mark[moves[i]] = 1
        return 1
    # ATTACK. The defender's five-cells, made by its last move: two lose, one is taken.
    mask = table.size - 1
    slot = (key ^ a) & mask
    entry = ((key ^ a) >> 12) << 12
    held = table[slot]
    if (
        held != 0
        and held & ~np.int64(4095) == entry
        and (held >> 6) & 63 >= fours
        and held & 63 >= threes
    ):
        return 0  # refuted already with as many fours and threes
    forced = -1
    if last >= 0:
        m = fives_through(board, rule, last, dv, tmp)
        if m >= 2:
            return 0
        if m == 1:
            forced = tmp[0]
    n = 0
    if forced >= 0:
        moves[0] = forced
        n = 1
    else:
        near_mask(board, rule, av, mine)
        least = 2 if threes > 0 else 3
        for x in range(board.size):
            if board[x] == 0 and mine[x] != 0 and lined(board, rule, x, av, least):
                moves[n] = x
                n += 1
    # Fours first (VCF), then threes; a move leaving two five-cells wins at once.
    for phase in range(2):
        if phase == 1 and threes <= 0:
            break
        if phase == 0 and fours <= 0:
            continue
        for i in range(n):
            x = moves[i]
            key2 = place(board, x, av, zob, key)
            m = fives_through(board, rule, x, av, tmp)
            won = 0
            if m >= 2:
                won = 1
                for j in range(m):
                    mark[tmp[j]] = 1
            elif m == 1 and phase == 0:
                b = tmp[0]
                key3 = place(board, b, dv, zob, key2)
                won = threat(board, rule, zob, table, buf, a, ZERO, fours - 1, threes, b,
                             key3, ply + 2, stats, mark)  # fmt: skip
                board[b] = 0
                if won:
                    mark[b] = 1
            elif m == 0 and phase == 1:
                # Phase 0 tried every candidate, none a winning cell: a new one is by x.
                if forced < 0 and fours > 0 and rule[R_NEAR] != 0:
                    nw = 1 if wins_near(board, rule, x, av, tmp) else 0
                else:
                    near_mask(board, rule, av, mine)
                    nw = winning_cells(board, rule, av, tmp, buf[ply + 2], mine)
                if nw > 0:
                    won = threat(board, rule, zob, table, buf, a, ONE, fours, threes - 1, NONE,
                                 key2, ply + 1, stats, mark)  # fmt: skip
            board[x] = 0
            if won:
                buf[ply, 0] = x
                mark[x] = 1
                return 1
            if stats[ABORTED]:
                return 0
    if not stats[ABORTED]:
        table[slot] = entry | (min(fours, 63) << 6) | min(threes, 63)
    return 0


class Found(NamedTuple):
    """A proven win: its first ``move``, ``kind`` (``five``, ``vcf`` or ``vct``)."""

    move: int
    kind: str
    nodes: int
    seconds: float


class ThreatSearch:
    """The arrays of one board's threat search (one thread each)."""

    def __init__(self, game: Game) -> None:
        size, k = game.rows, game.k  # type: ignore[attr-defined]
        self.size = size
        self.rule = np.array([size, k, int(getattr(game, "exact", False)), 1], np.int64)
        """Size, k, exactly five, and 1: scans near the stones (0: the whole board's, the
        reference: the same search, node for node)."""
        cells = size * size
        rng = np.random.default_rng(20261129)
        self.zob = rng.integers(1, 1 << 50, size=(2, cells), dtype=np.int64)
        self.board = np.zeros(cells, np.int64)
        self.table = np.zeros(1 << TABLE_BITS, np.int64)
        self.buf = np.zeros((MAX_PLY + 2, cells), np.int64)
        self.stats = np.zeros(STATS, np.int64)
        self.mark = np.zeros(cells, np.int64)
        """The cells of the last win found (1): its proof's attacks, blocks, defences and
        five-cells (:meth:`proof_cells`)."""
        self.nodes = 0
        self.halted = False
        """Set by :meth:`stop`: searches end at once until the owner clears it."""
        self.warm(game)

    def warm(self, game: Game) -> None:
        """Load the compiled search now, off the clock: its first call in a process loads
        it from numba's cache, 10-15 ms that a 20 ms move cannot spare."""
        state = game.initial_state()
        for _ in range(3):
            legal = state.legal_moves()
            state = state.play(legal[len(legal) // 2])
        self.search(state, 1, None, nodes=64)
        self.nodes = 0

    def stop(self) -> None:
        """End the search under way at its next look at the clock, and any started before
        ``halted`` is cleared (safe from another thread)."""
        self.halted = True
        self.stats[END] = 0

    def search(
        self,
        state: State,
        threes: int,
        seconds: float | None,
        attacker: int | None = None,
        fours: int = 30,
        nodes: int = 1 << 62,
    ) -> Found | None:
        """A proven win of ``attacker`` (default: the side to move) in ``state``, or None.

        ``threes``: at most this many threes along a line (0: VCF only), ``fours`` fours;
        ``seconds`` and ``nodes`` the limits. When the attacker is not to move, the
        search asks what it would do with the move (the threats the mover must answer)."""
        start = time.perf_counter()
        a = state.to_move if attacker is None else attacker
        key = self.load(state)
        self.table[:] = 0
        self.mark[:] = 0
        self.nodes = 0
        end = NEVER if seconds is None else int(now_ns() + seconds * 1e9)
        self.stats[:] = (0, nodes, end, 0, now_ns(), 0)
        if self.halted:  # checked after the write: a stop() racing it still wins
            self.stats[END] = 0
        return self._run(a, key, threes, fours, start)

    def load(self, state: State) -> int:
        """Set :attr:`board` to ``state``'s stones; returns the position's Zobrist key."""
        board = self.board
        board[:] = 0
        key = 0
        for cell in range(board.size):
            owner = state.stone(cell)  # type: ignore[attr-defined]
            if owner is not None:
                key = place(board, cell, owner + 1, self.zob, key)
        return key

    def proof_cells(self) -> list[int]:
        """The cells of the last win found (its attacks, the blocks and defences it
        answered, the five-cells it made): a stone of the defender elsewhere leaves the
        proof as it was, unless it gives the defender a four or three of its own."""
        return [int(y) for y in np.flatnonzero(self.mark)]

    def counter_cells(self, state: State, player: int, threes: bool) -> list[int]:
        """The empty cells where ``player``'s stone makes a four (``threes``: or a three)
        of its own: a k-window holding k-2 (k-3) of its stones and none of the other's."""
        board, rule = self.board, self.rule
        self.load(state)
        least = rule[R_K] - (3 if threes else 2)
        return [
            y
            for y in range(board.size)
            if board[y] == 0 and lined(board, rule, y, player + 1, least)
        ]

    def _run(self, a: int, key: int, threes: int, fours: int, start: float) -> Found | None:
        board, rule = self.board, self.rule
        av, dv = a + 1, 2 - a
        for y in range(board.size):
            if board[y] == 0 and is_five(board, rule, y, av):
                return Found(y, "five", 0, time.perf_counter() - start)
        theirs = [y for y in range(board.size) if board[y] == 0 and is_five(board, rule, y, dv)]
        if len(theirs) >= 2:
            return None
        last = -1
        if len(theirs) == 1:  # the defender's four: taken first, and it must make a four
            return self._forced(a, key, theirs[0], threes, fours, start)
        # VCF first, then one three more at a time: a short win is found before a long
        # search, and each pass finds the last one's refutations in the table.
        won = 0
        for t in range(threes + 1):
            won = threat(board, rule, self.zob, self.table, self.buf, a, ATTACK, fours, t,
                         last, key, 0, self.stats, self.mark)  # fmt: skip
            if won or self.stats[ABORTED]:
                break
        kind = "vct" if won and t > 0 else "vcf"
        self.nodes = int(self.stats[NODES])
        if not won:
            return None
        return Found(int(self.buf[0, 0]), kind, self.nodes, time.perf_counter() - start)

    def _forced(
        self, a: int, key: int, block: int, threes: int, fours: int, start: float
    ) -> Found | None:
        """The attacker must take the defender's five-cell: a win only if the block is a
        four and the rest follows."""
        board, rule = self.board, self.rule
        av, dv = a + 1, 2 - a
        key2 = place(board, block, av, self.zob, key)
        m = fives_through(board, rule, block, av, self.buf[1])
        if m >= 2:
            won = 1
        elif m == 1:
            reply = int(self.buf[1, 0])
            key3 = place(board, reply, dv, self.zob, key2)
            won = threat(board, rule, self.zob, self.table, self.buf, a, ATTACK, fours - 1,
                         threes, reply, key3, 2, self.stats, self.mark)  # fmt: skip
            board[reply] = 0
        else:  # a threat of the attacker's may still stand: the defender answers it
            won = threat(board, rule, self.zob, self.table, self.buf, a, DEFEND, fours,
                         threes, -1, key2, 1, self.stats, self.mark)  # fmt: skip
        board[block] = 0
        self.nodes = int(self.stats[NODES])
        if not won:
            return None
        self.mark[block] = 1
        return Found(block, "vct" if threes else "vcf", self.nodes, time.perf_counter() - start)
