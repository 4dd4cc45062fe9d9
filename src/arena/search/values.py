"""How search agents value positions.

Values are from the point of view of the player to move (negamax). A won
game is worth ``WIN`` minus the plies it takes, so every win outranks every
evaluation (those lie within ``heuristics.SCALE``) and a faster win outranks
a slower one; a lost game is the negation; a draw is 0.

Tests: tests/search/test_search.py
"""

from __future__ import annotations

from collections.abc import Callable

from arena.core.errors import SpecError
from arena.core.evaluation import SCALE, utility
from arena.core.game import Game, State
from arena.core.spec import Param
from arena.games import knowledge, preload

preload()  # search agents import this module: load the heuristics before any clock runs

WIN = 1_000_000.0
PROVEN = WIN - 10_000.0
"""Values beyond +-PROVEN are game results found by search, not estimates."""

Evaluate = Callable[[State], float]

EVAL_PARAM = Param(
    "eval",
    str,
    "heuristic",
    "how positions are judged at the cut-off",
    choices=("heuristic", "utility"),
)
"""The ``eval`` parameter every depth-limited agent takes."""


def terminal_value(state: State, ply: int) -> float:
    """Value of a finished game for the player to move, ``ply`` plies below the root."""
    mine = state.returns()[state.to_move]
    return 0.0 if mine == 0 else mine * (WIN - ply)


def evaluation(game: Game, kind: str, warm: bool = False) -> Evaluate:
    """The cut-off evaluation for the player to move: ``heuristic`` or ``utility``.

    ``utility`` is the game's plain score margin (disc difference in Othello);
    games without a margin evaluate every unfinished position as 0.
    """
    if kind == "utility":
        base = utility
    elif kind == "heuristic":
        base = knowledge(game).evaluate
    else:
        raise SpecError(f"eval={kind} is not one of heuristic|utility")

    def for_mover(state: State) -> float:
        value = base(state)
        return value if state.to_move == 0 else -value

    if warm:
        # Evaluations build per-game tables on first use; do it now, off any clock.
        start = game.initial_state()
        for_mover(start.play(start.legal_moves()[0]) if not start.is_terminal() else start)
    return for_mover


def is_proven(value: float) -> bool:
    return abs(value) >= PROVEN


def describe(value: float) -> str:
    """A value for people: ``win in 3``, ``loss in 2``, or the number."""
    if value >= PROVEN:
        return f"win in {int(WIN - value)}"
    if value <= -PROVEN:
        return f"loss in {int(WIN + value)}"
    return f"{value + 0.0:+.1f}"  # + 0.0 turns -0.0 into 0.0


__all__ = [
    "EVAL_PARAM",
    "PROVEN",
    "SCALE",
    "WIN",
    "describe",
    "evaluation",
    "is_proven",
    "terminal_value",
]
