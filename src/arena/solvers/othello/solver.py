"""The Othello endgame solver's Python face: states in, exact disc differences out.

Tests: tests/solvers/test_othello_solver.py

>>> import arena
>>> game = arena.load_game("othello:size=4")
>>> solver = OthelloSolver(4, table_bits=12)
>>> solver.solve(game.initial_state()).score   # 4x4: White wins 11-3, 13-3 with the empties
-10
"""

from __future__ import annotations

import time

import numpy as np

from arena.core.game import State
from arena.solvers.othello import board, search
from arena.solvers.solution import Solution, bisect

UNLIMITED = 1 << 62


class OthelloSolver:
    """An exact endgame solver for Othello on a ``size`` x ``size`` board (size <= 8).

    Keeps its table between positions. ``table_bits``: ``2**table_bits`` rows
    of 24 bytes (48 MB at the default 21).
    """

    def __init__(self, size: int = 8, table_bits: int = 21) -> None:
        if size > 8 or size % 2:
            raise ValueError(f"the endgame solver handles even sizes up to 8, not {size}")
        self.size = size
        self.board = np.uint64(board.board_mask(size))
        self.table = search.new_table(table_bits)
        self.order = np.zeros((65, 64, 2), dtype=np.int64)
        self.stats = np.zeros(3, dtype=np.int64)
        self.rate = 5e6  # nodes per second, until measured
        # Load the compiled code now (from numba's cache, or compile it), not on a clock.
        self.stats[:] = (0, 0, 0)  # a budget of 0 nodes: stop at once
        search.probe(
            np.uint64(1), np.uint64(2), 0, 1, self.board, self.table, self.order, self.stats
        )

    def reset(self) -> None:
        """Forget the table."""
        self.table[:] = 0

    def bits(self, state: State) -> tuple[int, int]:
        """``(player, opponent)`` discs of a state, the player to move first."""
        n = self.size
        discs = [0, 0]
        for r in range(n):
            for c in range(n):
                owner = state.disc(r * n + c)  # type: ignore[attr-defined]
                if owner is not None:
                    discs[owner] |= 1 << (r * 8 + c)
        me = state.to_move
        return discs[me], discs[1 - me]

    def solve(self, state: State, seconds: float | None = None) -> Solution:
        """The final disc difference for the player to move (empty cells to the winner)."""
        return self.solve_bits(*self.bits(state), seconds=seconds)

    def solve_bits(self, player: int, opponent: int, seconds: float | None = None) -> Solution:
        """Solve by null-window probes; stop with bounds after ``seconds``."""
        start = time.perf_counter()
        me, opp = np.uint64(player), np.uint64(opponent)
        cells = self.size * self.size

        def probe(mid: int, left: float) -> tuple[int, int, bool]:
            budget = UNLIMITED if left < 0 else max(1000, int(self.rate * min(left, 0.2)))
            self.stats[:] = (0, budget, 0)
            t0 = time.perf_counter()
            value = search.probe(
                me, opp, mid, mid + 1, self.board, self.table, self.order, self.stats
            )
            spent = time.perf_counter() - t0
            nodes = int(self.stats[search.NODES])
            if spent > 0.01:
                self.rate = nodes / spent
            return value, nodes, bool(self.stats[search.ABORTED])

        found = bisect(probe, -cells, cells, seconds, step=2)
        return Solution(found.low, found.high, found.nodes, time.perf_counter() - start)
