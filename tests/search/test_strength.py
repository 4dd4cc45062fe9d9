"""Agents against each other, with seeded statistics (long ones marked slow)."""

from __future__ import annotations

import pytest

from arena.compete.tournament import Settings, run


def series(
    spec: str,
    a: str,
    b: str,
    games: int,
    openings: str | None = None,
    alternate: bool = True,
    a_first: bool = True,
) -> dict[str, float]:
    """A's wins, draws, losses and points over ``games`` seeded games, through the arena."""
    if alternate:
        settings = Settings(
            game=spec,
            agents=(a, b),
            control="move:60",
            games_per_pair=games,
            openings=openings,
            seed=1,
        )
        records = run(settings).records
    else:
        # Fixed colours: every game from the start position, A always first (or second).
        pair = (a, b) if a_first else (b, a)
        records = [
            run(
                Settings(game=spec, agents=pair, control="move:60", games_per_pair=1, seed=1000 + g)
            ).records[0]
            for g in range(games)
        ]
    out = {"wins": 0, "draws": 0, "losses": 0}
    for record in records:
        mine = record.returns[record.players.index(a)]
        out["wins" if mine > 0 else "losses" if mine < 0 else "draws"] += 1
    out["points"] = out["wins"] + out["draws"] / 2
    return out


def test_mcts_10_rollouts_beats_random_as_first_player() -> None:
    result = series("connect4", "mcts:rollouts=10", "random", 20, alternate=False)
    assert result["wins"] >= 18, result


def test_random_rarely_beats_mcts_10_rollouts_as_second_player() -> None:
    result = series("connect4", "mcts:rollouts=10", "random", 20, alternate=False, a_first=False)
    assert result["losses"] <= 6, result


@pytest.mark.slow
def test_more_rollouts_score_more() -> None:
    result = series("connect4", "mcts:rollouts=20", "mcts:rollouts=10", 60)
    assert result["points"] / 60 > 0.5, result


@pytest.mark.slow
def test_alphabeta_depth_4_beats_greedy_on_othello_6x6() -> None:
    result = series(
        "othello:size=6",
        "alphabeta:depth=4,eval=heuristic",
        "greedy",
        20,
        openings="random:plies=4",
    )
    assert result["points"] / 20 >= 0.8, result


@pytest.mark.slow
def test_heuristic_beats_utility_at_equal_depth_on_othello() -> None:
    result = series(
        "othello:size=6",
        "alphabeta:depth=3,eval=heuristic",
        "alphabeta:depth=3,eval=utility",
        20,
        openings="random:plies=4",
    )
    assert result["points"] / 20 > 0.5, result
