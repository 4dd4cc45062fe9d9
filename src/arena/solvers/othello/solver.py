"""The Othello endgame solver's Python face: states in, exact disc differences out.

Tests: tests/solvers/test_othello_solver.py

>>> import arena
>>> game = arena.load_game("othello:size=4")
>>> solver = OthelloSolver(4, table_bits=12)
>>> solver.solve(game.initial_state()).score   # 4x4: White wins 11-3, 13-3 with the empties
-10
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import numpy as np

from arena.core.game import State
from arena.search.clock.compiled import deadline_ns
from arena.solvers.othello import board, search, stability
from arena.solvers.solution import MAX_CHUNK, Solution, gallop

UNLIMITED = 1 << 62
SYMMETRY_EMPTIES = 24
"""Solves from this many empty cells on key their first plies on symmetry."""
SYMMETRY_PLIES = 4
"""How many plies below the root a node is turned into its canonical image."""
QUIET_SECONDS = 5.0
"""A solve says nothing on ``progress`` before it has run this long."""
CHUNK_SECONDS = 10.0
"""A long probe reports its progress about this often."""

Progress = Callable[[str], None]


def discs(state: State) -> tuple[int, int]:
    """``(mover, opponent)`` discs of an Othello state in the solver's layout: bit
    ``row * 8 + col``, a board under 8x8 in the top-left corner of the 8x8 one."""
    black, white = state.black, state.white  # type: ignore[attr-defined]
    n = state.game.size  # type: ignore[attr-defined]
    if n != 8:
        black, white = _spread(black, n), _spread(white, n)
    return (black, white) if state.to_move == 0 else (white, black)


def _spread(cells: int, n: int) -> int:
    """Rows of ``n`` cells (bit ``row * n + col``) laid out 8 bits apart."""
    out = 0
    for r in range(n):
        out |= ((cells >> (r * n)) & ((1 << n) - 1)) << (r * 8)
    return out


def table_bits_for(empties: int) -> int:
    """The table size (log2 of the rows) for a solve from ``empties`` empty cells:
    2**21 rows (48 MB) up to 27 empties, then twice as many per empty cell up to
    2**26 rows (1.5 GB) from 32 empties on.

    >>> [table_bits_for(e) for e in (20, 28, 32, 40)]
    [21, 22, 26, 26]
    """
    return min(26, max(21, empties - 6))


class OthelloSolver:
    """An exact endgame solver for Othello on a ``size`` x ``size`` board (size <= 8).

    Keeps its table between positions. ``table_bits``: ``2**table_bits`` rows
    of 24 bytes; by default the table grows with the empty cells of the
    positions solved (:func:`table_bits_for`). ``symmetry_empties``: solves
    from this many empty cells on key their first :data:`SYMMETRY_PLIES` plies
    on symmetry.
    """

    def __init__(
        self,
        size: int = 8,
        table_bits: int | None = None,
        symmetry_empties: int = SYMMETRY_EMPTIES,
    ) -> None:
        if size > 8 or size % 2:
            raise ValueError(f"the endgame solver handles even sizes up to 8, not {size}")
        self.size = size
        self.board = np.uint64(board.board_mask(size))
        self.corners = search.corners(size)
        self.geo = np.concatenate((stability.geometry(size), search.sort_depths(size)))
        self.gap = 8 - size
        self.fixed_bits = table_bits
        self.symmetry_empties = symmetry_empties
        self.table = search.new_table(table_bits if table_bits is not None else 21)
        self.order = np.zeros((65, 64, 3), dtype=np.int64)
        self.stats = np.zeros(search.STATS, dtype=np.int64)
        self.lock = threading.Lock()
        self.rate = 5e6  # nodes per second, until measured
        # Load the compiled code now (from numba's cache, or compile it), not on a clock.
        self.stats[:] = 0  # a budget of 0 nodes: stop at once
        self._probe(np.uint64(1), np.uint64(2), 0, search.NO_SYMMETRY)

    def _probe(self, me: np.uint64, opp: np.uint64, alpha: int, sym_from: int) -> int:
        return int(
            search.probe(
                me,
                opp,
                alpha,
                alpha + 1,
                self.board,
                self.corners,
                self.geo,
                self.gap,
                sym_from,
                self.table,
                self.order,
                self.stats,
            )
        )

    def reset(self) -> None:
        """Forget the table."""
        self.table[:] = 0

    def solve(
        self,
        state: State,
        seconds: float | None = None,
        progress: Progress | None = None,
        stop: threading.Event | None = None,
    ) -> Solution:
        """The final disc difference for the player to move (empty cells to the winner)."""
        return self.solve_bits(*discs(state), seconds=seconds, progress=progress, stop=stop)

    def _fit_table(self, empties: int) -> None:
        # A deep solve gets a bigger table (never a smaller one: it keeps its rows).
        if self.fixed_bits is None:
            bits = table_bits_for(empties)
            if self.table.shape[0] < 1 << bits:
                self.table = search.new_table(bits)

    def solve_bits(
        self,
        player: int,
        opponent: int,
        seconds: float | None = None,
        progress: Progress | None = None,
        stop: threading.Event | None = None,
    ) -> Solution:
        """Solve by null-window probes; stop with bounds after ``seconds`` or once ``stop``
        is set (both are looked at every :data:`~arena.solvers.solution.MAX_CHUNK` s).

        ``progress`` gets a line of text now and then (each probe's window,
        nodes and time) once the solve has run :data:`QUIET_SECONDS`.
        """
        start = time.perf_counter()
        me, opp = np.uint64(player), np.uint64(opponent)
        cells = self.size * self.size
        empties = cells - bin(player | opponent).count("1")
        self._fit_table(empties)
        sym_from = (
            empties - SYMMETRY_PLIES if empties >= self.symmetry_empties else search.NO_SYMMETRY
        )
        total = [0]
        last_said = [start]

        def say(text: str, done: bool) -> None:
            # Each finished probe, and at most one line per chunk in between.
            now = time.perf_counter()
            if progress is None or now - start < QUIET_SECONDS:
                return
            if done or now - last_said[0] >= CHUNK_SECONDS:
                last_said[0] = now
                progress(f"{text}; {total[0]:,} nodes, {now - start:.1f} s")

        def probe(mid: int, left: float) -> tuple[int, int, bool]:
            # A long probe runs in chunks of about CHUNK_SECONDS (the table keeps
            # the work of each), to report progress and keep the time limit.
            nodes = 0
            while True:
                chunk = self.rate * CHUNK_SECONDS if progress is not None else UNLIMITED
                if stop is not None:
                    chunk = min(chunk, self.rate * MAX_CHUNK)
                limit = chunk if left < 0 else min(chunk, self.rate * min(left, MAX_CHUNK))
                # One probe at a time: the table's order buffer and ``stats`` are the
                # solver's, and a web server's boards may share it.
                with self.lock:
                    t0 = time.perf_counter()
                    # The compiled search also reads the clock and stops at the deadline,
                    # however wrong the budget's guess at the speed (a cold table's is).
                    end = 0 if left < 0 else deadline_ns(t0 + left)
                    self.stats[:] = (0, max(1000, int(limit)), 0, end, 0)
                    value = self._probe(me, opp, mid, sym_from)
                    spent = time.perf_counter() - t0
                    done = int(self.stats[search.NODES])
                    aborted = bool(self.stats[search.ABORTED])
                nodes += done
                total[0] += done
                if spent > 0.01:
                    self.rate = done / spent
                if not aborted:
                    verdict = f"yes, >= {value:+d}" if value > mid else f"no, <= {value:+d}"
                    say(f"probed > {mid:+d}: {verdict}", True)
                    return value, nodes, False
                say(f"probing > {mid:+d}", False)
                if left >= 0 or stop is not None:
                    return value, nodes, True  # gallop checks the clock and the stop

        found = gallop(probe, -cells, cells, seconds, step=2, stop=stop)
        return Solution(found.low, found.high, found.nodes, time.perf_counter() - start)
