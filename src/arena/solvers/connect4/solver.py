"""The Connect Four solver's Python face: positions in, exact scores out.

Tests: tests/solvers/test_connect4_solver.py

>>> solver = Connect4Solver(rows=6, cols=7)
>>> solver.solve([3, 3, 4, 4, 5, 5]).score   # 4 4 5 5 6 6: Red wins at once
18
>>> [solver.solve_move([3, 3, 4, 4, 5, 5], c) for c in range(7)]  # or win next time
[17, 17, 18, 17, 17, 17, 18]
>>> r = solver.solve([int(c) - 1 for c in "5572622223231417174176774335"])
>>> r.score, r.exact, r.nodes > 0
(0, True, True)
"""

from __future__ import annotations

import threading
import time

import numpy as np

from arena.search.clock.compiled import deadline_ns
from arena.solvers.connect4 import position, search, table
from arena.solvers.connect4.position import fits, from_moves
from arena.solvers.solution import MAX_CHUNK, Solution, bisect

UNLIMITED = 1 << 62


class Connect4Solver:
    """A strong solver for one board shape; keeps its table between positions.

    ``symmetry``: mirror images share table entries. The table has
    about ``2**table_bits`` entries of 8 bytes (64 MB by default).
    """

    def __init__(
        self,
        rows: int = 6,
        cols: int = 7,
        k: int = 4,
        symmetry: bool = False,
        table_bits: int = table.DEFAULT_BITS,
    ) -> None:
        if not fits(rows, cols):
            raise ValueError(f"a {rows}x{cols} board is too large for the bitboard solver")
        self.rows, self.cols, self.k = rows, cols, k
        self.cells = rows * cols
        self.L = position.layout(rows, cols, k, symmetry)
        self.table, self.shift = table.new_table(cols * (rows + 1), table_bits)
        self.mbuf = np.zeros((self.cells + 1, cols), dtype=np.int64)
        self.sbuf = np.zeros((self.cells + 1, cols), dtype=np.int64)
        self.frames = np.zeros((self.cells + 1, search.FIELDS), dtype=np.int64)
        self.stats = np.zeros(search.STATS, dtype=np.int64)
        self.lock = threading.Lock()
        # Load the compiled code now (from numba's cache, or compile it), and touch
        # every page of the table (a first touch of 64 MB costs tens of milliseconds),
        # not on a clock.
        self.reset()
        self.status(0, 0, 0)
        position.can_win_next(self.L, 0, 0)
        self.stats[:] = (0, 0, 0, 0)  # a budget of 0 nodes: stop at once
        search.probe(
            self.L,
            0,
            0,
            0,
            0,
            1,
            self.table,
            self.shift,
            self.mbuf,
            self.sbuf,
            self.frames,
            self.stats,
        )

    def reset(self) -> None:
        """Forget the table."""
        self.table[:] = 0

    def position(self, moves: list[int]) -> tuple[int, int, int]:
        """``(pos, mask, ply)`` after the 0-based column moves."""
        pos, mask = from_moves(self.rows, self.cols, moves)
        return pos, mask, len(moves)

    def status(self, pos: int, mask: int, ply: int) -> int | None:
        """The score of a finished game (the player to move has lost, or drawn), else None."""
        if position.has_won(self.L, pos ^ mask):
            return -((self.cells + 2 - ply) // 2)
        if ply == self.cells:
            return 0
        return None

    def solve(self, moves: list[int], seconds: float | None = None) -> Solution:
        """The score of the position after ``moves`` for the player to move."""
        return self.solve_position(*self.position(moves), seconds=seconds)

    def solve_move(self, moves: list[int], move: int, seconds: float | None = None) -> int | None:
        """The score of playing column ``move`` for the player to move (None if it is full)."""
        pos, mask, ply = self.position(moves)
        if self.status(pos, mask, ply) is not None:
            raise ValueError("the game is over")
        L = self.L
        column = position.column_mask(self.rows, move)
        if mask & column == column:
            return None
        cell = position.possible(mask, L[position.BOTTOM], L[position.BOARD]) & column
        if position.winning_cells(pos, mask, self.rows, self.k, L[position.BOARD]) & cell:
            return (self.cells + 1 - ply) // 2
        return -self.solve_position(pos ^ mask, mask | cell, ply + 1, seconds).score

    def outcome(
        self, pos: int, mask: int, ply: int, nodes: int, end: float | None = None
    ) -> int | None:
        """The game's outcome with perfect play for the player to move (1 win, 0 draw,
        -1 loss), or None if ``nodes`` nodes did not settle it before ``end``.

        One probe with the window (-1, 1) (a weak solve: which side wins, not how soon),
        stopped after ``nodes`` nodes. Without ``end`` (a :func:`time.perf_counter`
        moment), never by the clock, so the answer depends only on the position, the
        budget and the table's contents (:meth:`reset` first for an answer that depends
        on nothing else); with it, the compiled search also stops there (it reads the
        clock every 1,024 nodes).
        """
        done = self.status(pos, mask, ply)
        if done is not None:
            return int(np.sign(done))
        if position.can_win_next(self.L, pos, mask):
            return 1
        with self.lock:
            self.stats[:] = (0, nodes, 0, 0 if end is None else deadline_ns(end))
            value = search.probe(
                self.L, pos, mask, ply, -1, 1, self.table, self.shift,
                self.mbuf, self.sbuf, self.frames, self.stats,
            )  # fmt: skip
            if self.stats[search.ABORTED]:
                return None
        return int(np.sign(value))

    def solve_position(
        self,
        pos: int,
        mask: int,
        ply: int,
        seconds: float | None = None,
        stop: threading.Event | None = None,
    ) -> Solution:
        """Solve by null-window probes; stop with bounds after ``seconds`` or once ``stop``
        is set (both are looked at every :data:`~arena.solvers.solution.MAX_CHUNK` s)."""
        start = time.perf_counter()
        done = self.status(pos, mask, ply)
        if done is not None:
            return Solution(done, done, 0, 0.0)
        if position.can_win_next(self.L, pos, mask):
            win = (self.cells + 1 - ply) // 2
            return Solution(win, win, 1, time.perf_counter() - start)
        rate = [2e6]  # nodes per second, until measured

        def probe(mid: int, left: float) -> tuple[int, int, bool]:
            # Budgets of at most MAX_CHUNK between looks at the clock and the stop request.
            if left < 0 and stop is None:
                budget = UNLIMITED
            else:
                budget = max(1000, int(rate[0] * (MAX_CHUNK if left < 0 else min(left, MAX_CHUNK))))
            # One probe at a time: the buffers and ``stats`` are the solver's, and a web
            # server's boards may share it.
            with self.lock:
                t0 = time.perf_counter()
                # The compiled search also reads the clock and stops at the deadline,
                # however wrong the budget's guess at the speed (a cold table's is).
                end = 0 if left < 0 else deadline_ns(t0 + left)
                self.stats[:] = (0, budget, 0, end)
                value = search.probe(
                    self.L, pos, mask, ply, mid, mid + 1, self.table, self.shift,
                    self.mbuf, self.sbuf, self.frames, self.stats,
                )  # fmt: skip
                spent = time.perf_counter() - t0
                nodes = int(self.stats[search.NODES])
                aborted = bool(self.stats[search.ABORTED])
            if spent > 0.01:
                rate[0] = nodes / spent
            return value, nodes, aborted

        low = -((self.cells - ply) // 2)
        high = (self.cells + 1 - ply) // 2
        found = bisect(probe, low, high, seconds, stop=stop)
        return Solution(found.low, found.high, found.nodes + 1, time.perf_counter() - start)
