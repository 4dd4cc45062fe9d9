"""Compiled alpha-beta engines, one per game that has one: what ``ids:engine=fast`` runs.

The readable ``ids`` (:mod:`arena.search.alphabeta.ids`) searches any game through the
State API. A game whose strength comes from alpha-beta (Connect Four,
Othello, Gomoku) may also have an *engine* here: the same iterative deepening
written over the game's compiled position (numba), with its heuristic
compiled too. ``ids`` runs the engine by default where one exists
(``engine=auto``), and ``ids:engine=python`` keeps the reference.

An engine module is named in :data:`ENGINES` and defines ``make_engine(game,
threads)``: the engine for the game's parameters, or None. It answers ``choose(state,
seconds, maxdepth, agent, nodes=None)`` with ``(move, SearchInfo)`` — never later than
``seconds`` allow, within about ``nodes`` nodes on one thread when given (``ids`` with
``Limit(nodes=N)``), reporting progress through ``agent.report`` as ``ids``
does — and may define ``stop()`` (``ids`` forwards ``Agent.stop`` to it). ``ids``
builds its engine in ``reset``, off the clock.

- ``othello`` (:mod:`.othello.engine`): PVS with a table, Multi-ProbCut fitted by stage
  (:mod:`.othello.probcut`), a fitted pattern evaluation (:mod:`.othello.evaluation`), an
  opening book on request (:mod:`.othello.book`) and the exact endgame; boards up to 8x8.

Tests: tests/search/test_ids_engines.py, tests/search/test_engine_othello.py
"""

from __future__ import annotations

from importlib import import_module
from typing import Protocol

from arena.core.agent import Agent, SearchInfo
from arena.core.game import Game, State
from arena.search.clock.compiled import AVAILABLE

ENGINES: dict[str, str] = {
    "connect4": "arena.search.alphabeta.engines.connect4",
    "gomoku": "arena.search.alphabeta.engines.gomoku.engine",
    "othello": "arena.search.alphabeta.engines.othello.engine",
}
"""Game name -> the module of its compiled engine."""


class Engine(Protocol):
    def choose(
        self,
        state: State,
        seconds: float | None,
        maxdepth: int,
        agent: Agent,
        nodes: int | None = None,
    ) -> tuple[int, SearchInfo]:
        """The move and its report, within ``seconds`` (None: no clock), ``maxdepth`` and
        about ``nodes`` nodes (None: no budget; searched on one thread)."""
        ...

    # Optional: ``stop()``, which ``ids.stop`` calls to end the search under way
    # (see :mod:`.driver`); an engine without it runs to its deadline.


def engine_for(game: Game, threads: int = 1) -> Engine | None:
    """The compiled engine for ``game`` searching with ``threads`` threads (Lazy SMP:
    :class:`.driver.LazySMP`), or None when it has none (or not for its parameters)."""
    where = ENGINES.get(game.name)
    if where is None or not AVAILABLE:  # an engine keeps time by the compiled clock
        return None
    module = import_module(where)
    return module.make_engine(game, threads)  # type: ignore[no-any-return]
