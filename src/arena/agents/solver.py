"""``solver``: perfect play when the position can be solved in time, ``ids`` otherwise.

Tests: tests/agents/test_solver_agent.py

Each move it first tries to solve the position exactly with part of its time
(:mod:`arena.solvers`: compiled for Connect Four and Othello, generic for small
games); when that does not finish, it searches with ``ids`` for the time left.
``last_search.method`` (and ``last_method``) says which answered (``"exact"``
or ``"ids"``), and the rows of ``last_search`` say ``exact ...`` after a solve.

>>> import arena
>>> game = arena.load_game("tictactoe")
>>> agent = arena.load_agent("solver")
>>> game.format_move(agent.choose(game.play_moves([0, 4, 8]), arena.Limit(time=2.0)))
'b1'
>>> agent.last_search.method, agent.last_search.value
('exact', 0)
"""

from __future__ import annotations

import threading
import time

from arena.core.agent import Agent
from arena.core.game import Game, State
from arena.core.limit import Limit
from arena.core.spec import Param
from arena.search.alphabeta.ids import IDSAgent
from arena.search.clock.background import Background
from arena.solvers.exact import exact_move, within_reach
from arena.solvers.solve import solver_for, solver_ready


class SolverAgent(Agent):
    name = "solver"
    summary = "plays the solved best move when it can solve the position in time, else ids"
    params = (
        Param("time", float, 1.0, "seconds per move when the match gives no limit", low=0.001),
        Param(
            "share",
            float,
            0.5,
            "share of the move's time for the exact solve before falling back to ids",
            low=0.01,
            high=1.0,
        ),
    )

    def _setup(self, time: float, share: float) -> None:
        self.default_time, self.share = time, share
        self.fallback = IDSAgent(time=time)
        self.last_method: str | None = None
        self._failed_at: int | None = None
        self.halt = threading.Event()
        """Set by :meth:`stop` until the next move: the exact solve looks at it."""
        self._solvers = Background()
        """The games whose solver is built (tables, compiled code): by ``reset(game)``, or
        in the background after a move that found it missing."""

    def stop(self) -> None:
        self.halt.set()
        self.fallback.stop()

    def reset(self, game: Game | None = None) -> None:
        self.fallback.reset(game)
        self._failed_at = None
        if game is not None:
            self._solvers.wait(game.spec)  # one a move started building
            solver_for(game)  # off the clock: tables and compiled code

    def choose(self, state: State, limit: Limit) -> int:
        start = time.perf_counter()
        self.halt.clear()
        seconds = limit.time if limit.time is not None else self.default_time
        budget = seconds * self.share
        # After a failed solve, skip one move: the next position is hardly easier.
        retry = self._failed_at is None or state.ply >= self._failed_at + 4
        # A solver nobody built (no ``reset(game)``: 0.1-2 s of tables and compiled code)
        # is built in the background; ids answers this move within its limit.
        game = state.game
        built = solver_ready(game) or self._solvers.get(
            game.spec, lambda: solver_for(game), wait=0.1 * budget
        )
        if retry and built and within_reach(state, budget):
            found = exact_move(state, budget, self.halt)
            if found is not None:
                self.last_method, self.last_search = "exact", found.info
                return found.move
            self._failed_at = state.ply
        left = max(0.001, seconds - (time.perf_counter() - start))
        if self.halt.is_set():
            left = 0.001  # stopped during the solve: ids plays its first move at once
        move = self.fallback.choose(state, Limit(time=left))
        self.last_method, self.last_search = "ids", self.fallback.last_search
        if self.last_search is not None:
            self.last_search.method = "ids"
        return move
