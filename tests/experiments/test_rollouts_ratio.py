"""Smoke tests of ``arena experiment rollouts-ratio`` at tiny sizes."""

from __future__ import annotations

from pathlib import Path

import pytest
from smoke import PNG, experiment, one_line_error, read_csv

BOARDS = ["tictactoe", "connect4:rows=4,cols=5"]
TINY = ["--pairs", "2:8,16:1", "--games", "4", "--boards", *BOARDS]


run = experiment("rollouts-ratio")


def test_files_exist_and_numbers_add_up(tmp_path: Path) -> None:
    assert run(tmp_path / "a", *TINY) == 0
    out = tmp_path / "a"
    assert (out / "rollouts-ratio.png").read_bytes().startswith(PNG)
    assert (out / "rollouts-ratio.md").exists()
    rows = read_csv(out / "rollouts-ratio.csv")
    assert [(r["board"], int(r["n"]), int(r["m"])) for r in rows] == [
        (board, n, m) for board in BOARDS for n, m in ((2, 8), (1, 16))
    ]
    for r in rows:
        assert float(r["ratio"]) == int(r["m"]) / int(r["n"])
        wins, draws, losses = int(r["m_wins"]), int(r["draws"]), int(r["m_losses"])
        assert wins + draws + losses == int(r["games"]) == 4
        score, low, high = float(r["m_score"]), float(r["low"]), float(r["high"])
        assert score == pytest.approx((wins + draws / 2) / 4)
        assert 0 <= low <= score <= high <= 1
    assert run(tmp_path / "b", *TINY) == 0
    assert (tmp_path / "b" / "rollouts-ratio.csv").read_text() == (
        out / "rollouts-ratio.csv"
    ).read_text()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--pairs", "8:8"], "compares a budget with itself"),
        (["--pairs", "8:x"], "expected N:M"),
        (["--agent", "mcts:rollouts=5"], "leave out rollouts"),
        (["--boards", "chess"], "unknown game"),
    ],
)
def test_bad_options_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str], message: str
) -> None:
    one_line_error(run(tmp_path, *TINY, *options), capsys, message)
