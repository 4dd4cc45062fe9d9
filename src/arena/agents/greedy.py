"""``greedy``: the best move one ply ahead by the game's heuristic.

An immediate win is always taken (a won position outranks every evaluation).

>>> import arena
>>> game = arena.load_game("connect4")
>>> state = game.play_moves(game.parse_moves("112233"))
>>> game.format_move(arena.load_agent("greedy").choose(state, arena.Limit()))
'4'

Tests: tests/search/test_search.py
"""

from __future__ import annotations

import random

from arena.core.agent import Agent, SearchInfo
from arena.core.game import Game, State
from arena.core.limit import Limit
from arena.core.spec import Param
from arena.search.az.value import cutoff_evaluation
from arena.search.clock.deadline import Deadline
from arena.search.clock.time_management import move_time
from arena.search.report import value_rows
from arena.search.values import EVAL_PARAM, Evaluate, terminal_value


class GreedyAgent(Agent):
    name = "greedy"
    summary = "the best move one ply ahead by the heuristic; always takes an immediate win"
    params = (
        EVAL_PARAM,
        Param("seed", int, None, "seed for breaking ties at random", default_text="fresh"),
    )

    def _setup(self, eval: str, seed: int | None) -> None:
        self.cutoff = cutoff_evaluation(eval, self.name)
        self.rng = random.Random(seed)
        self._evaluate: Evaluate | None = None
        self._game: Game | None = None

    def reset(self, game: Game | None = None) -> None:
        self._evaluate = None if game is None else self.cutoff.evaluation(game, warm=True)
        self._game = game

    def choose(self, state: State, limit: Limit) -> int:
        deadline = Deadline(move_time(limit, state))
        if self._evaluate is None or self._game != state.game:
            self.reset(state.game)
        evaluate = self._evaluate
        rows = []
        for move in state.legal_moves():
            child = state.play(move)
            # Values of the child are for the opponent: negate them for the mover.
            value = -(terminal_value(child, 1) if child.is_terminal() else evaluate(child))
            rows.append((value, self.rng.random(), move))
            if deadline.expired():
                break
        rows.sort(reverse=True)
        unit = self.cutoff.units(state.game)
        self.last_search = SearchInfo(
            seconds=deadline.finish(),
            depth=1,
            nodes=len(rows),
            value=rows[0][0],
            root=value_rows(state, [(m, v, "=") for v, _, m in rows], 1, unit),
            units=unit.note,
        )
        return rows[0][2]
