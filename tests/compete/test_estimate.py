"""Runs that take long say so before they start (issue 26): the bound of a game under a
clock, and the line ``arena match`` prints."""

from __future__ import annotations

import subprocess
import sys

from arena.compete.estimate import duration, estimate_line, typical_moves
from arena.compete.timecontrol import TimeControl
from arena.games import load_game


def test_a_game_is_bounded_by_its_clock() -> None:
    othello = load_game("othello")
    assert typical_moves(othello) == 60 and typical_moves(load_game("tictactoe")) == 9
    assert duration(othello, TimeControl.parse("move:10")) == 600
    # A Fischer clock: both players' time and the increments of the moves played.
    assert duration(othello, TimeControl.parse("60+1")) == 2 * 60 + 60 * 1
    # The course clock: each first move has its own 30 s.
    assert duration(othello, TimeControl.parse("move:2,first:30")) == 60 + 58 * 2
    assert duration(othello, TimeControl.parse("rollouts=100")) is None
    assert duration(othello, TimeControl.parse("move:10"), max_plies=20) == 200


def test_only_long_runs_are_announced() -> None:
    c4 = load_game("connect4")
    assert estimate_line(c4, TimeControl.parse("move:0.1"), games=10, jobs=1) is None
    line = estimate_line(c4, TimeControl.parse("move:1"), games=100, jobs=2)
    assert line == (
        "100 games at up to 1 s a move, about 34 moves a game with 2 at once: up to about 28 min"
    )


def test_arena_match_prints_it_before_the_first_game() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "arena", "match", "othello", "random", "random", "--games",
         "2", "--move-time", "10", "--max-plies", "40"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 0
    assert "arena: 2 games at up to 10 s a move, about 40 moves a game: up to about 13 min" in (
        proc.stderr
    )
