"""The plan of games: ids, rounds, and membership a resumed run relies on."""

from __future__ import annotations

from arena.compete.plan import Plan, Rounds
from arena.compete.schedule import plan


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
