"""``minimax``: the textbook depth-limited minimax, without pruning.

Kept deliberately plain — it is the reference the faster searches are
tested against, and the algorithm students write first.

>>> import arena
>>> game = arena.load_game("tictactoe")
>>> state = game.play_moves(game.parse_moves("a1 b1 a2 b2"))   # X wins at a3
>>> game.format_move(arena.load_agent("minimax:depth=1").choose(state, arena.Limit()))
'a3'

Tests: tests/search/test_search.py
"""

from __future__ import annotations

from arena.core.agent import Agent, SearchInfo
from arena.core.game import State
from arena.core.limit import Limit
from arena.core.spec import Param
from arena.search.az.value import cutoff_evaluation
from arena.search.clock.deadline import Deadline, SearchTimeout, quiet_gc
from arena.search.report import value_rows
from arena.search.values import EVAL_PARAM, Evaluate, terminal_value


def minimax(
    state: State,
    depth: int,
    evaluate: Evaluate,
    ply: int = 0,
    counter: list[int] | None = None,
    deadline: Deadline | None = None,
) -> float:
    """The negamax value of ``state`` searched ``depth`` plies, for the player to move."""
    if counter is not None:
        counter[0] += 1
    if deadline is not None and deadline.expired():
        raise SearchTimeout
    if state.is_terminal():
        return terminal_value(state, ply)
    if depth == 0:
        return evaluate(state)
    return max(
        -minimax(state.play(m), depth - 1, evaluate, ply + 1, counter, deadline)
        for m in state.legal_moves()
    )


class MinimaxAgent(Agent):
    name = "minimax"
    summary = "plain depth-limited minimax (no pruning): the reference search"
    params = (
        Param("depth", int, 3, "plies to search", low=1, high=64),
        EVAL_PARAM,
    )

    def _setup(self, depth: int, eval: str) -> None:
        self.depth, self.cutoff = depth, cutoff_evaluation(eval, self.name)
        self.deadline: Deadline | None = None
        """The running search's deadline (:meth:`stop` makes it pass)."""

    def stop(self) -> None:
        deadline = self.deadline
        if deadline is not None:
            deadline.stop()

    def choose(self, state: State, limit: Limit) -> int:
        evaluate = self.cutoff.evaluation(state.game)
        depth = min(self.depth, limit.depth or self.depth)
        deadline = self.deadline = Deadline(limit.time)
        counter = [1]
        rows: list[tuple[int, float]] = []
        with quiet_gc():
            try:
                for move in state.legal_moves():
                    child = state.play(move)
                    rows.append((move, -minimax(child, depth - 1, evaluate, 1, counter, deadline)))
            except SearchTimeout:
                pass
        if not rows:
            rows = [(state.legal_moves()[0], 0.0)]
        rows.sort(key=lambda row: -row[1])
        unit = self.cutoff.units(state.game)
        self.last_search = SearchInfo(
            seconds=deadline.finish(),
            depth=depth,
            nodes=counter[0],
            value=rows[0][1],
            root=value_rows(state, [(m, v, "=") for m, v in rows], depth, unit),
            units=unit.note,
        )
        return rows[0][0]
