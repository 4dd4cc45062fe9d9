"""A match's SPRT stop: pairs of games in the plan's order (pentanomial), single games
with colours fixed; the error rates and the games it takes, on simulated pairs."""

from __future__ import annotations

import random

import pytest

from arena.compete.plan import Plan
from arena.compete.sprt_stop import SprtStop
from arena.formats.record import GameRecord
from arena.stats.sprt import SPRT


def records(plan: Plan, outcomes: list[tuple[int, int]]) -> list[GameRecord]:
    """The plan's first games with ``outcomes``: per pair, the first agent's result (1, 0,
    -1) in the game it moves first and in the one it moves second."""
    out = []
    for i, game in enumerate(plan[: 2 * len(outcomes)]):
        mine = outcomes[i // 2][0 if game.first == "a" else 1]
        returns = (mine, -mine) if game.first == "a" else (-mine, mine)
        out.append(
            GameRecord("gomoku", (game.first, game.second), returns=returns, game_id=game.game_id)
        )
    return out


def test_pairs_are_counted_in_the_plans_order_whatever_order_the_games_end() -> None:
    plan = Plan((("a", "b"),), per_pair=400)
    rng = random.Random(5)
    kinds = [(1, 1), (1, 1), (1, -1), (-1, 1), (1, 0), (-1, -1)]
    outcomes = [rng.choice(kinds) for _ in range(150)]
    games = records(plan, outcomes)
    in_order = SprtStop(SPRT(0, 30), plan, "a")
    for record in games:
        in_order.add(record)
    assert in_order.decided  # these pairs lean to "a": 62.5%
    assert in_order.verdict is not None and in_order.verdict.decision == "H1"
    counted = sum(in_order.pairs)
    assert counted < 150  # it stopped at the first pair past the bound
    for seed in range(5):
        shuffled = games[:]
        random.Random(seed).shuffle(shuffled)
        stop = SprtStop(SPRT(0, 30), plan, "a")
        for record in shuffled:
            stop.add(record)
        assert (stop.pairs, stop.verdict) == (in_order.pairs, in_order.verdict)


def test_half_a_pair_counts_for_nothing_yet() -> None:
    plan = Plan((("a", "b"),), per_pair=10)
    stop = SprtStop(SPRT(0, 30), plan, "a")
    first, second, third = records(plan, [(1, 1), (1, 1)])[:3]
    stop.add(second)
    assert stop.verdict is None and stop.unit == "0 pairs of games"
    stop.add(third)  # pair 1 begun, pair 0 still waits for its first game
    assert stop.pairs == (0, 0, 0, 0, 0)
    stop.add(first)
    assert stop.pairs == (0, 0, 0, 0, 1) and stop.unit == "1 pair of games"


def test_colours_fixed_counts_single_games() -> None:
    plan = Plan((("a", "b"),), per_pair=50, alternate=False)
    stop = SprtStop(SPRT(0, 30), plan, "a")
    for game in plan[:7]:
        stop.add(GameRecord("go", (game.first, game.second), returns=(1, -1), game_id=game.game_id))
    assert not stop.paired and stop.unit == "7 games"
    assert stop.verdict == SPRT(0, 30).status(7, 0, 0)


def correlated(rng: random.Random) -> tuple[int, int]:
    """Even agents whose pairs always end alike: both games won, or both lost."""
    r = rng.choice((1, -1))
    return (r, r)


def first_mover_wins(rng: random.Random) -> tuple[int, int]:
    """An opening that decides the game for whoever moves first 80% of the time; otherwise
    "a" (about 30 Elo stronger) wins both games 70% of the time."""
    if rng.random() < 0.8:
        return (1, -1)
    return (1, 1) if rng.random() < 0.7 else (-1, -1)


def run(pairs_of: object, seed: int, paired: bool, cap: int = 800) -> tuple[str | None, int]:
    plan = Plan((("a", "b"),), per_pair=cap, alternate=paired)
    rng = random.Random(seed)
    stop = SprtStop(SPRT(0, 30), plan, "a")
    if paired:
        for record in records(plan, [pairs_of(rng) for _ in range(cap // 2)]):  # type: ignore[operator]
            stop.add(record)
            if stop.decided:
                break
    else:  # the same games, told to a test that counts them one by one
        games = [g for _ in range(cap // 2) for g in pairs_of(rng)]  # type: ignore[operator]
        for game, result in zip(plan, games, strict=False):
            stop.add(
                GameRecord("gomoku", (game.first, game.second), returns=(result, -result),
                           game_id=game.game_id)
            )  # fmt: skip
            if stop.decided:
                break
    decision = stop.verdict.decision if stop.verdict is not None else None
    return decision, stop.tally.games


@pytest.mark.slow
def test_pairs_that_end_alike_do_not_fool_the_paired_test() -> None:
    """At H0 (even agents), with both games of each pair ending alike, the test counted
    game by game accepts H1 far more often than its 5%; on pairs it stays near 5%
    (Wald's bounds; 200 runs: the binomial 95% range of a true 5% reaches 9%)."""
    runs = 200
    paired = sum(run(correlated, seed, True)[0] == "H1" for seed in range(runs))
    single = sum(run(correlated, seed, False)[0] == "H1" for seed in range(runs))
    assert paired <= 0.09 * runs
    assert single >= 0.12 * runs


@pytest.mark.slow
def test_openings_that_decide_most_games_take_the_paired_test_fewer_games() -> None:
    """Where most pairs split, the split pairs say nothing of who is stronger: on pairs the
    test decides in fewer games, and as rightly."""
    runs = 60
    paired = [run(first_mover_wins, seed, True) for seed in range(runs)]
    single = [run(first_mover_wins, seed, False) for seed in range(runs)]
    mean = [sum(games for _, games in results) / runs for results in (paired, single)]
    assert mean[0] < 0.6 * mean[1]
    assert sum(d == "H1" for d, _ in paired) >= sum(d == "H1" for d, _ in single) - 3
