"""Win/draw/loss tallies and what counts as a forfeit, as standings and experiments see them."""

from __future__ import annotations

import math

import pytest

from arena.core.errors import ArenaError
from arena.formats.record import GameRecord
from arena.stats.standings import format_standings, standings
from arena.stats.tally import Tally


def game(first: str, second: str, returns: tuple[int, int], reason: str = "normal") -> GameRecord:
    loser = None if reason in ("normal", "adjudication") else (0 if returns[0] < 0 else 1)
    return GameRecord("tictactoe", (first, second), returns=returns, reason=reason, loser=loser)


GAMES = [
    game("a", "b", (1, -1)),
    game("b", "a", (1, -1)),
    game("b", "a", (0, 0)),
    game("a", "b", (-1, 1), "time"),
    game("b", "a", (-1, 1), "resign"),
]


def test_a_tally_counts_each_colour_from_the_player_s_side() -> None:
    assert Tally.of(GAMES, "a") == Tally(wins=2, draws=1, losses=2)
    assert Tally.of(GAMES, "b") == Tally(wins=2, draws=1, losses=2)
    assert Tally.of(GAMES[:1], "b").add(GAMES[1], "b") == Tally(1, 0, 1)
    assert Tally.of(GAMES, "a").points == 2.5 and Tally().score == 0.0
    with pytest.raises(ArenaError, match="'c' did not play"):
        Tally.of(GAMES, "c")


def test_standings_count_as_the_tally_does_and_list_forfeits_not_resignations() -> None:
    table = standings(GAMES, ["a", "b"])
    for name in ("a", "b"):
        line = table.agents[name]
        assert line.tally == Tally.of(GAMES, name) and line.tally.games == 5
    assert table.agents["a"].forfeits == {"time": 1} and table.agents["b"].forfeits == {}
    assert [g.forfeited for g in GAMES] == [False, False, False, True, False]


def test_move_times_of_a_handicap_game_go_to_the_player_who_made_them() -> None:
    from arena.formats.record import GameRecord
    from arena.stats.standings import standings

    # go:handicap=2: White (players[1]) makes the first move.
    record = GameRecord(
        "go:size=9,handicap=2", ("black", "white"), moves=["E5", "D4", "pass", "pass"],
        returns=(1, -1), seconds=[3.0, 1.0, 3.0, 1.0],
    )  # fmt: skip
    table = standings([record], ["black", "white"])
    assert table.agents["white"].move_seconds == [3.0, 3.0]
    assert table.agents["black"].move_seconds == [1.0, 1.0]


def results(first: str, second: str, wins: int, draws: int, losses: int) -> list[GameRecord]:
    """A match as records: ``first``'s wins, draws and losses, colours alternating."""
    out = []
    for k, outcome in enumerate([1] * wins + [0] * draws + [-1] * losses):
        a, b, r = (first, second, outcome) if k % 2 == 0 else (second, first, -outcome)
        out.append(game(a, b, (r, -r)))
    return out


def test_a_19_to_1_match_has_finite_bounds_and_says_what_0_is() -> None:
    # Was: -512 [-inf, -308] for the loser, and nothing said what 0 was.
    table = standings(results("a", "b", 19, 0, 1), ["a", "b"])
    a, b = table.agents["a"], table.agents["b"]
    assert b.elo == b.elo_low == b.elo_high == 0.0 and table.anchor == "b"
    # 19 wins + 1 virtual draw in 21 games: 19.5/21, by hand 400·log10(19.5/1.5) = +445.6.
    assert a.elo == pytest.approx(445.6, abs=6)  # the ridge (sd 1000) pulls it in by 5
    assert 0 < a.elo_low < a.elo < a.elo_high < 1000
    text = format_standings(table)
    assert "inf" not in text
    assert "Elo: 0 = b; Bradley-Terry fit with a prior of 1 virtual draw per pairing" in text


def test_a_4_to_0_match_is_finite() -> None:
    # Was: +inf [-72, +inf].
    a = standings(results("a", "b", 4, 0, 0), ["a", "b"]).agents["a"]
    assert all(math.isfinite(x) for x in (a.elo, a.elo_low, a.elo_high))
    # 4.5/5 by hand: 400·log10(9) = +381.7, less the ridge's pull.
    assert 340 < a.elo < 382


def test_a_player_who_lost_every_game_does_not_blow_up_the_others() -> None:
    # Was: about ±900 for every other agent, anchored at random (0 of 24); ±95 without it.
    pool = results("a", "b", 5, 2, 5) + results("a", "c", 7, 1, 4) + results("b", "c", 6, 2, 4)
    weak = [r for x in "abc" for r in results(x, "random", 8, 0, 0)]
    names = ["a", "b", "c"]
    without = standings(pool, names)
    with_random = standings(pool + weak, [*names, "random"])
    assert with_random.anchor is None and "0 = the average of the 4 agents" in (
        format_standings(with_random)
    )
    for name in names:
        half = (with_random.agents[name].elo_high - with_random.agents[name].elo_low) / 2
        alone = (without.agents[name].elo_high - without.agents[name].elo_low) / 2
        assert 80 < alone < 100 and half < 1.3 * alone
    # The order and the gaps among the others hardly move.
    gap = with_random.agents["a"].elo - with_random.agents["c"].elo
    assert gap == pytest.approx(without.agents["a"].elo - without.agents["c"].elo, abs=10)
    assert with_random.as_json()["elo_anchor"] is None
