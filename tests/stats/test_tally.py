"""Win/draw/loss tallies and what counts as a forfeit, as standings and experiments see them."""

from __future__ import annotations

import pytest

from arena.core.errors import ArenaError
from arena.formats.record import GameRecord
from arena.stats.standings import anchor_of, standings
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


def test_the_anchor_is_random_when_it_plays() -> None:
    assert anchor_of(["ids", "random:seed=3"]) == "random:seed=3"
    assert anchor_of(["ids", "randomized"]) is None


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
