"""The plan of games (ids, rounds, membership a resumed run relies on) and the
nearest-rated schedule of a large league, on a simulated class of known strength."""

from __future__ import annotations

import random

from arena.compete.plan import Plan, Rounds
from arena.compete.schedule import league_rounds, nearest_rated, plan
from arena.stats.ratings import expected_score, fit


def test_round_robin_plan_is_the_union_of_its_rounds() -> None:
    agents = ["a", "b", "c", "d"]
    whole = plan(agents, rounds=3)
    pairs = whole.pairs
    rounds = Rounds(tuple(Plan(pairs, 2, first_round=r) for r in range(3)))
    assert {g.game_id for g in whole} == {g.game_id for g in rounds}
    assert whole.size == rounds.size == 36
    for game in rounds:
        assert game.game_id in whole and game.game_id in rounds


def test_a_later_round_is_its_own_games_only() -> None:
    third = Plan((("a b", "c|d"),), 2, first_round=2)
    ids = [g.game_id for g in third]
    assert ids == ["a b|c|d|round=2|first=a b", "a b|c|d|round=2|first=c|d"]
    assert [g.position for g in third] == [2, 2]
    assert "a b|c|d|round=1|first=a b" not in third
    assert "a b|c|d|round=3|first=a b" not in third
    assert "a b|c|d|round=2|first=x" not in third


def spearman(x: list[float], y: list[float]) -> float:
    def ranks(v: list[float]) -> list[int]:
        out = [0] * len(v)
        for k, i in enumerate(sorted(range(len(v)), key=lambda i: v[i])):
            out[i] = k
        return out

    n = len(x)
    d = sum((a - b) ** 2 for a, b in zip(ranks(x), ranks(y)))
    return 1 - 6 * d / (n * (n * n - 1))


def simulated_league(
    n: int, seed: int, spread: float = 250.0
) -> tuple[dict[str, float], list[tuple[str, str, float]], int]:
    """A class of ``n`` synthetic players of known Elo playing nearest-rated rounds; each
    game's result drawn from the Elo model (no real games)."""
    rng = random.Random(seed)
    truth = {f"student {i:02d}": rng.gauss(0.0, spread) for i in range(n)}
    names = list(truth)
    results: list[tuple[str, str, float]] = []
    ids: set[str] = set()
    rounds = league_rounds(n)
    for r in range(rounds):
        round_plan = nearest_rated(names, results, r, seed=seed)
        playing = [p for pair in round_plan.pairs for p in pair]
        assert len(playing) == len(set(playing)) >= n - 1  # each plays once a round
        for game in round_plan:
            assert game.game_id not in ids  # a pair that meets again plays new games
            ids.add(game.game_id)
            p = expected_score(truth[game.first] - truth[game.second])
            results.append((game.first, game.second, 1.0 if rng.random() < p else 0.0))
    return truth, results, rounds


def test_nearest_rated_ranks_a_simulated_class_with_far_fewer_games() -> None:
    n = 40
    correlations, coverage = [], []
    for seed in range(3):
        truth, results, _ = simulated_league(n, seed)
        assert len(results) <= 0.45 * n * (n - 1)  # a round robin plays n (n - 1)
        ratings = fit(results)
        mean = sum(truth.values()) / n
        names = list(truth)
        correlations.append(spearman([ratings[k].elo for k in names], [truth[k] for k in names]))
        coverage.append(
            sum(ratings[k].low <= truth[k] - mean <= ratings[k].high for k in names) / n
        )
    assert min(correlations) > 0.85, correlations
    assert sum(coverage) / len(coverage) > 0.8, coverage


def test_random_pairing_of_the_same_size_ranks_worse_than_nearest_rated() -> None:
    """Why nearest-rated: at the same number of games, pairing at random is less sure."""
    n, seed = 40, 7
    truth, results, rounds = simulated_league(n, seed)
    rng = random.Random(seed)
    names = list(truth)
    shuffled: list[tuple[str, str, float]] = []
    for r in range(rounds):
        for game in nearest_rated(names, [], r, seed=seed * 100 + r):
            p = expected_score(truth[game.first] - truth[game.second])
            shuffled.append((game.first, game.second, 1.0 if rng.random() < p else 0.0))
    assert len(shuffled) == len(results)

    def mean_width(games: list[tuple[str, str, float]]) -> float:
        fitted = fit(games)
        return sum(r.high - r.low for r in fitted.values()) / len(fitted)

    assert mean_width(results) < mean_width(shuffled)


def test_a_round_is_the_same_when_replayed_and_gives_an_odd_player_a_bye() -> None:
    names = ["a", "b", "c", "d", "e"]
    results = [("a", "b", 1.0), ("c", "d", 0.0), ("e", "a", 0.5)]
    once = nearest_rated(names, results, 2, seed=3)
    assert once == nearest_rated(names, results, 2, seed=3)
    playing = [p for pair in once.pairs for p in pair]
    assert len(playing) == 4 and len(set(playing)) == 4
    assert once.first_round == 4  # rounds 0 and 1 used positions 0 to 3


def test_fixed_colours_put_the_first_agent_first_from_a_new_position_each_game() -> None:
    fixed = plan(["a", "b", "c"], rounds=1, games_per_pair=3, alternate=False)
    assert fixed.size == 9 and {g.first for g in fixed} == {"a", "b"}
    assert all(g.first == min(g.first, g.second) for g in fixed)  # a pairing's first agent
    ab = [g for g in fixed if {g.first, g.second} == {"a", "b"}]
    assert [g.position for g in ab] == [0, 1, 2]
    assert all(g.game_id in fixed for g in fixed)
    assert "a|b|round=0|first=b" not in fixed and "a|b|round=3|first=a" not in fixed
    # An alternating plan of the same size holds other games, so neither resumes the other.
    alternating = plan(["a", "b", "c"], rounds=1, games_per_pair=3)
    assert {g.game_id for g in alternating} != {g.game_id for g in fixed}
