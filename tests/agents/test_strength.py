"""Agents against each other, with seeded statistics (long ones marked slow)."""

from __future__ import annotations

import pytest

import arena
from helpers import play_game


def series(
    spec: str,
    a: str,
    b: str,
    games: int,
    limit: arena.Limit,
    alternate: bool = True,
    a_first: bool = True,
) -> dict[str, float]:
    """Play ``games`` seeded games; A's wins, draws, losses and points."""
    game = arena.load_game(spec)
    out = {"wins": 0, "draws": 0, "losses": 0}
    for g in range(games):
        first = (g % 2 == 0) if alternate else a_first
        agent_a = arena.load_agent(f"{a}{',' if ':' in a else ':'}seed={1000 + g}")
        agent_b = arena.load_agent(f"{b}{',' if ':' in b else ':'}seed={2000 + g}")
        agents = (agent_a, agent_b) if first else (agent_b, agent_a)
        returns = play_game(game, agents, limit, seed=g)
        mine = returns[0 if first else 1]
        out["wins" if mine > 0 else "losses" if mine < 0 else "draws"] += 1
    out["points"] = out["wins"] + out["draws"] / 2
    return out


def test_mcts_10_rollouts_beats_random_as_first_player() -> None:
    result = series("connect4", "mcts:rollouts=10", "random", 20, arena.Limit(), alternate=False)
    assert result["wins"] >= 18, result


def test_random_rarely_beats_mcts_10_rollouts_as_second_player() -> None:
    result = series(
        "connect4", "mcts:rollouts=10", "random", 20, arena.Limit(), alternate=False, a_first=False
    )
    assert result["losses"] <= 6, result


@pytest.mark.slow
def test_more_rollouts_score_more() -> None:
    result = series("connect4", "mcts:rollouts=20", "mcts:rollouts=10", 60, arena.Limit())
    assert result["points"] / 60 > 0.5, result


@pytest.mark.slow
def test_alphabeta_depth_4_beats_greedy_on_othello_6x6() -> None:
    result = series(
        "othello:size=6", "alphabeta:depth=4,eval=heuristic", "greedy", 20, arena.Limit()
    )
    assert result["points"] / 20 >= 0.8, result


@pytest.mark.slow
def test_heuristic_beats_utility_at_equal_depth_on_othello() -> None:
    result = series(
        "othello:size=6",
        "alphabeta:depth=3,eval=heuristic",
        "alphabeta:depth=3,eval=utility",
        20,
        arena.Limit(),
    )
    assert result["points"] / 20 > 0.5, result
