"""One MCTS search of one position, and its root statistics per move.

>>> state = searched_position("tictactoe", "b2 a1 c1")
>>> root = mcts_root(state, "mcts:seed=1", Limit(rollouts=500))
>>> sum(m.visits for m in root), max(root, key=lambda m: m.visits).text
(500, 'a3')

Tests: tests/experiments/test_heatmap.py, tests/experiments/test_visits_vs_c.py
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.agents import load_agent
from arena.core.errors import ArenaError
from arena.core.game import State, position
from arena.core.limit import Limit
from arena.core.spec import split_spec
from arena.games import load_game
from arena.search.mcts.agent import MCTSAgent

DEFAULT_MOVES = {
    "tictactoe": "b2 a1 c1",
    "connect4": "4453",
    "othello": "d3 c5",
    "gomoku": "H8 H9 J8 J9 K8",
    "go": "E5 C3 G3",
    "colosseum": "",
}
"""A position a few moves in for each game (its default spec), where the choice is not
trivial: O must block the diagonal in Tic-tac-toe, White an open three in Gomoku."""


def default_moves(game_spec: str) -> str:
    """The default position's moves for ``game_spec``; the start for other board sizes.

    >>> default_moves("connect4"), default_moves("connect4:rows=5")
    ('4453', '')
    """
    game = load_game(game_spec)
    standard = load_game(game.name)
    return DEFAULT_MOVES.get(game.name, "") if game.spec == standard.spec else ""


@dataclass(frozen=True)
class RootMove:
    """A root move's statistics: ``wins`` counts a win 1 and a draw 1/2, from the view
    of the player to move at the root."""

    move: int
    text: str
    visits: int
    wins: float

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.visits if self.visits else None


def searched_position(game_spec: str, moves: str) -> State:
    """The position after ``moves`` (the game's notation, spaces between moves) from the
    start; it must leave the searcher a choice of at least two moves."""
    game = load_game(game_spec)
    state = position(game, moves.split())
    if state.is_terminal():
        raise ArenaError(f"--moves: the game is over after {moves!r}: {state.result_text()}")
    if len(state.legal_moves()) < 2:
        raise ArenaError(f"--moves: only one legal move after {moves!r}: nothing to decide")
    return state


def budgetless_mcts(agent: str, option: str) -> str:
    """``agent`` when it is an MCTS spec without a budget of its own (``time=``,
    ``rollouts=``): the experiment sets the budget.

    >>> budgetless_mcts("mcts:rollouts=5", "--agent")
    Traceback (most recent call last):
    ...
    arena.core.errors.ArenaError: --agent: leave out rollouts=; the experiment sets the budget
    """
    name, params = split_spec(agent)
    if name != "mcts":
        raise ArenaError(f"{option} must be an MCTS spec (mcts:...), not {agent!r}")
    for key in ("time", "rollouts"):
        if key in params:
            raise ArenaError(f"{option}: leave out {key}=; the experiment sets the budget")
    load_agent(agent)
    return agent


def mcts_root(state: State, spec: str, limit: Limit) -> list[RootMove]:
    """Search ``state`` once with a fresh MCTS agent; every root move in legal-move order
    (unvisited ones with zero counts)."""
    agent = load_agent(spec)
    if not isinstance(agent, MCTSAgent):
        raise ArenaError(f"{spec!r} is not an MCTS agent (mcts:...)")
    agent.reset(state.game)
    agent.choose(state, limit)
    root = agent.root_stats()
    assert root is not None
    fmt = state.game.format_move
    return [
        RootMove(move, fmt(move), visits, wins)
        for move, visits, wins in zip(root.moves, root.visits, root.wins)
    ]
