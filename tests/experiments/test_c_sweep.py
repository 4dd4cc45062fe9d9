"""Smoke tests of ``arena experiment c-sweep`` at tiny sizes."""

from __future__ import annotations

from pathlib import Path

import pytest
from smoke import PNG, experiment, one_line_error, read_csv

TINY = ["--game", "tictactoe", "--c", "2,0.5", "--rollouts", "10", "--games", "4"]


run = experiment("c-sweep")


def test_files_exist_and_numbers_add_up(tmp_path: Path) -> None:
    assert run(tmp_path / "a", *TINY) == 0
    out = tmp_path / "a"
    assert (out / "c-sweep.png").read_bytes().startswith(PNG)
    assert (out / "c-sweep.md").read_text().startswith("```sh\narena experiment c-sweep")
    rows = read_csv(out / "c-sweep.csv")
    assert [float(r["c"]) for r in rows] == [0.5, 2.0]  # sorted
    for r in rows:
        wins, draws, losses = int(r["wins"]), int(r["draws"]), int(r["losses"])
        assert wins + draws + losses == int(r["games"]) == 4
        score, low, high = float(r["score"]), float(r["low"]), float(r["high"])
        assert score == pytest.approx((wins + draws / 2) / 4)
        assert 0 <= low <= score <= high <= 1
    # The same seed plays the same games.
    assert run(tmp_path / "b", *TINY) == 0
    assert (tmp_path / "b" / "c-sweep.csv").read_text() == (out / "c-sweep.csv").read_text()


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [("--c", "0.5,0", "--c: 0 must be > 0"), ("--games", "3", "--games must be even")],
)
def test_bad_options_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, value: str, message: str
) -> None:
    one_line_error(run(tmp_path, *TINY, option, value), capsys, message)
    assert not tmp_path.exists() or not any(tmp_path.iterdir())
