"""``arena bench strength``: the table's columns, and time forfeits kept apart from strength."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from arena.bench import strength
from arena.cli.main import main
from arena.experiments.games import play_pairs
from arena.games import load_game

SLOW = '''
import time


class Slow:
    """Overruns every move: it can only lose on time."""

    def choose(self, state, limit):
        time.sleep(0.3)
        return state.legal_moves()[0]
'''


def test_a_time_forfeit_is_a_forfeit_not_strength(tmp_path: Path) -> None:
    path = tmp_path / "slow.py"
    path.write_text(SLOW)
    case = strength.Case("ttt-slow", "tictactoe", "random", f"py:{path}:Slow", 0.05)
    lines: list[str] = []
    result = strength.run(2, None, 1, [case], lines.append)
    row = result["cases"][0]
    assert row["games"] == 2 and row["counted"] == 0
    assert (row["wins"], row["draws"], row["losses"]) == (0, 0, 0)  # no win for the overrun
    assert row["forfeits"] == {"opponent time": 2}
    assert lines[1].split()[:3] == ["case", "ours", "opponent"]
    assert lines[-1].split()[0] == "ttt-slow" and lines[-1].endswith("opponent time: 2")
    assert lines[-1].split()[7:9] == ["-", "-"]  # no score, no interval without a game counted
    assert row["ours_max"] < 0.3  # our moves, not the sleeper's


def test_the_cli_prints_the_table_and_its_load(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyspiel")
    code = main(["bench", "strength", "--cases", "ttt-ids", "--games", "2",
                 "--move-time", "0.05", "--json"])  # fmt: skip
    assert code == 0
    out, err = capsys.readouterr()
    header = err.splitlines()[1].split()
    assert header == ["case", "ours", "opponent", "s/move", "ours", "s", "games", "W-D-L", "score",
                      "95%", "interval", "load", "target", "forfeits"]  # fmt: skip
    assert "load" in err.splitlines()[0]
    row = json.loads(out.splitlines()[-1])["cases"][0]
    assert row["case"] == "ttt-ids" and row["games"] == 2 and row["move_time"] == 0.05
    assert row["wins"] + row["draws"] + row["losses"] == row["counted"]
    assert len(row["load"]) == 2
    assert 0 < row["ours_mean"] <= row["ours_max"]


def test_unknown_cases_are_one_line_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "strength", "--cases", "chess"]) != 0
    assert "unknown case 'chess'" in capsys.readouterr().err


def test_target_rows_say_whether_the_target_is_met() -> None:
    rows = strength.select(["targets"])
    assert {row.ours for row in rows} == {"best"} and all(row.target for row in rows)
    case = strength.Case("ttt-best", "tictactoe", "best", "random", 0.05, target=0.5)
    lines: list[str] = []
    result = strength.run(2, None, 1, [case], lines.append)
    assert result["cases"][0]["verdict"] == "met"  # best never loses Tic-tac-toe
    assert ">=50% met" in lines[-1]
    weak = strength.Case("ttt-random", "tictactoe", "random", "best", 0.05, target=0.5)
    assert strength.run(2, None, 1, [weak], lines.append)["cases"][0]["verdict"] == "missed"


def test_targets_start_from_paired_openings_but_tictactoe_from_the_empty_board() -> None:
    rows = {row.name: row for row in strength.select(["targets"])}
    assert rows["best-ttt"].openings is None  # two random plies can lose Tic-tac-toe
    assert {r.openings for n, r in rows.items() if n != "best-ttt"} == {strength.PAIRED}
    case = strength.Case(
        "c4-pairs", "connect4", "random", "random#2", 0.01, openings="random:plies=2"
    )
    result = strength.run(4, None, 1, [case], lambda _: None)
    assert result["cases"][0]["openings"] == "random:plies=2"
    records = play_pairs("connect4", "random", "random#2", 4, "move:0.01", 1, 1, None,
                         openings="random:plies=2")  # fmt: skip
    # Each opening twice, colours swapped: games 0 and 1 (and 2 and 3) begin alike.
    assert [r.opening_plies for r in records] == [2, 2, 2, 2]
    assert records[0].moves[:2] == records[1].moves[:2] != records[2].moves[:2]


def test_the_gomocup_rows_play_a_brain_found_on_the_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A stand-in for Rapfi (scripts/build-rapfi): our own small brain under its name.
    brain = Path(__file__).parents[1] / "remote" / "pbrain" / "brain.py"
    stand_in = tmp_path / "pbrain-rapfi"
    stand_in.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{brain}" "$@"\n')
    stand_in.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    cases = [replace(c, ours="greedy") for c in strength.select(["gomocup"])]
    assert [c.name for c in cases] == ["best-rapfi-odds", "best-rapfi-1s"]
    lines: list[str] = []
    result = strength.run(2, 0.5, 1, cases[:1], lines.append)
    row = result["cases"][0]
    assert row["games"] == row["counted"] == 2 and row["forfeits"] == {}
    assert "pbrain-rapfi at 0.1 s" in lines[-1]


def test_a_handicap_case_gives_the_opponent_black_and_the_stones_in_every_game() -> None:
    rows = {c.name: c for c in strength.select(["go19"])}
    assert set(rows) == {"best-go19-gnugo", "best-go19-gnugo-h4"}
    even, h4 = rows["best-go19-gnugo"], rows["best-go19-gnugo-h4"]
    assert (even.target, even.move_time, even.handicap, even.openings) == (
        0.9,
        5.0,
        False,
        strength.PAIRED,
    )
    assert (h4.target, h4.handicap, load_game(h4.game).spec) == (
        0.5,
        True,
        "go:size=19,komi=0.5,handicap=4",
    )
    # The same rule on a small board with quick agents: greedy gives random two stones.
    case = strength.Case("h2", "go:size=9,handicap=2,komi=0.5", "greedy", "random", 0.05,
                         handicap=True)  # fmt: skip
    records = play_pairs(case.game, "random", "greedy", 3, "move:0.05", 1, 1, None,
                         alternate=False)  # fmt: skip
    assert [r.players for r in records] == [("random", "greedy")] * 3
    assert len({r.seed for r in records}) == 3
    result = strength.run(2, None, 1, [case], lambda _: None)
    row = result["cases"][0]
    assert row["games"] == 2 and row["ours"] == "greedy"
    assert row["wins"] + row["draws"] + row["losses"] == 2
