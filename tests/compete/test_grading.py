"""Grading: the clock replay behind "never late", criteria, and decisions that do not depend
on how many games run at once."""

from __future__ import annotations

import pytest

from arena.compete.grade import Criterion, Placement, Rubric, grade, timing
from arena.compete.timecontrol import TimeControl
from arena.core.errors import ArenaError
from arena.formats.record import GameRecord


def record(seconds, **kw):
    moves = ["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"][: len(seconds)]
    return GameRecord("tictactoe", ("me", "you"), moves=moves, seconds=seconds, game_id="g", **kw)


def test_a_fischer_move_is_late_only_past_what_is_on_the_clock():
    control = TimeControl.parse("1+0.5")
    # me: 0.9 (clock 1 -> 0.6), then 1.0 with 0.6 on the clock: late by 0.4 s.
    t = timing([record([0.9, 0.1, 1.0])], "me", control)
    assert [(m.ply, m.seconds, round(m.limit, 6)) for m in t.late] == [(3, 1.0, 0.6)]
    assert t.outcome == "not met"
    # The opponent's slow moves are its own business.
    assert timing([record([0.1, 5.0, 0.1])], "me", control).late == ()


def test_opening_moves_are_off_the_clock_and_the_slowest_is_nearest_its_limit():
    control = TimeControl.parse("move:1")
    t = timing([record([9.0, 0.0, 0.5, 0.1, 0.2], opening_plies=2)], "me", control)
    assert t.moves == 2 and t.late == ()
    assert (t.slowest.ply, t.slowest.seconds) == (3, 0.5)


def test_a_time_forfeit_counts_its_last_answer_and_the_forfeit():
    lost = record([0.1, 0.1], reason="time", loser=0, last_seconds=1.3, returns=(-1, 1))
    t = timing([lost], "me", TimeControl.parse("move:1"))
    assert t.time_forfeits == 1 and [m.seconds for m in t.late] == [1.3]


def test_the_first_move_allowance_is_its_limit():
    control = TimeControl.parse("move:1,first:5")
    assert timing([record([4.0, 0.1, 0.9])], "me", control).late == ()
    assert len(timing([record([4.0, 0.1, 1.2])], "me", control).late) == 1


def test_no_clock_nothing_to_check():
    t = timing([record([100.0])], "me", TimeControl.parse("depth=2"))
    assert not t.clocked and t.outcome == "met"


def test_criterion_specs_keep_their_own_colons():
    assert Criterion.parse("py:agents/a b.py:Agent:0.6") == Criterion("py:agents/a b.py:Agent", 0.6)
    with pytest.raises(ArenaError, match="SPEC:SCORE"):
        Criterion.parse(":0.5")


def test_the_decision_is_the_same_with_parallel_games():
    rubric = Rubric("tictactoe", (Criterion("random", 0.8),), control="depth=3", max_games=60)
    one = grade(rubric, "alphabeta")
    two = grade(rubric, "alphabeta", Placement(jobs=2))
    a, b = one.results[0], two.results[0]
    assert (a.outcome, a.decided_after) == (b.outcome, b.decided_after)
    assert a.decided_after is not None and a.tally.games == a.decided_after
    assert b.tally.games >= b.decided_after  # games in flight at the decision are reported


def test_an_agent_graded_against_itself_is_named_apart():
    rubric = Rubric("tictactoe", (Criterion("random", 0.3),), control="depth=1", max_games=6)
    report = grade(rubric, "random")
    assert report.results[0].tally.games > 0
    assert report.records[0].players in (("random", "random#2"), ("random#2", "random"))
