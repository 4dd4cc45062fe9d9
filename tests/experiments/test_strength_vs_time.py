"""Smoke tests of ``arena experiment strength-vs-time`` at tiny sizes.

The experiment plays on the clock, so its numbers vary from run to run; these
tests check the files and that the numbers are consistent, not that they repeat.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from smoke import PNG, experiment, one_line_error, read_csv

TINY = ["--game", "tictactoe", "--times", "0.01,0.005", "--opponent", "random", "--games", "2"]
# The short comparison may see no simulation at all on a loaded machine (its margin keeps
# up to 95 % of 5 ms for the pauses the process has suffered); the long one always does.
TINY += ["--compare", "0.005,0.1"]


run = experiment("strength-vs-time")


def test_files_exist_and_numbers_add_up(tmp_path: Path) -> None:
    assert run(tmp_path, *TINY) == 0
    for stem in ("strength-vs-time", "strength-vs-time-roots"):
        assert (tmp_path / f"{stem}.png").read_bytes().startswith(PNG)
    assert (tmp_path / "strength-vs-time.md").read_text().startswith("```sh\narena experiment")
    rows = read_csv(tmp_path / "strength-vs-time.csv")
    assert [float(r["seconds"]) for r in rows] == [0.005, 0.01]  # sorted
    for r in rows:
        wins, draws, losses = int(r["wins"]), int(r["draws"]), int(r["losses"])
        assert wins + draws + losses == int(r["games"]) == 2
        score, low, high = float(r["score"]), float(r["low"]), float(r["high"])
        assert score == pytest.approx((wins + draws / 2) / 2)
        assert 0 <= low <= score <= high <= 1
        assert int(r["forfeits"]) <= losses and float(r["simulations_per_move"]) > 0
    roots = read_csv(tmp_path / "strength-vs-time-roots.csv")
    for seconds in ("0.005", "0.1"):
        mine = [r for r in roots if r["seconds"] == seconds]
        assert len(mine) == 6  # the legal moves after b2 a1 c1
        assert sum(int(r["visits"]) for r in mine) == int(mine[0]["simulations"])
        assert int(mine[0]["simulations"]) > 0 or seconds == "0.005"
        for r in mine:
            if r["win_rate"]:
                assert 0 <= float(r["low"]) <= float(r["win_rate"]) <= float(r["high"]) <= 1


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--games", "3", "--games must be even"),
        ("--agent", "mcts:rollouts=5", "--agent: leave out rollouts="),
        ("--cap", "0.001", "--cap 0.001 is below the longest time per move"),
        ("--opponent", "minimax:deep=1", "unknown parameter"),
    ],
)
def test_bad_options_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, value: str, message: str
) -> None:
    one_line_error(run(tmp_path / "x", *TINY, option, value), capsys, message)
    assert not (tmp_path / "x").exists()
