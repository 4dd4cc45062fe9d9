"""Smoke tests of ``arena experiment heuristic-duel`` at tiny sizes."""

from __future__ import annotations

from pathlib import Path

import pytest
from smoke import PNG, experiment, one_line_error, read_csv

TINY = ["--game", "othello:size=6", "--depths", "3,1", "--games", "4", "--plies", "2"]


run = experiment("heuristic-duel")


def test_files_exist_and_numbers_add_up(tmp_path: Path) -> None:
    assert run(tmp_path / "a", *TINY) == 0
    out = tmp_path / "a"
    assert (out / "heuristic-duel.png").read_bytes().startswith(PNG)
    assert (out / "heuristic-duel.md").exists()
    rows = read_csv(out / "heuristic-duel.csv")
    assert [(int(r["depth"]), r["side"]) for r in rows] == [
        (d, side) for d in (1, 3) for side in ("both", "first", "second")
    ]
    for r in rows:
        wins, draws, losses = int(r["wins"]), int(r["draws"]), int(r["losses"])
        games = int(r["games"])
        assert wins + draws + losses == games == (4 if r["side"] == "both" else 2)
        assert float(r["points"]) == wins + draws / 2
        score, low, high = float(r["score"]), float(r["low"]), float(r["high"])
        assert score == pytest.approx(float(r["points"]) / games)
        assert 0 <= low <= score <= high <= 1
    for both, first, second in zip(rows[::3], rows[1::3], rows[2::3]):
        for column in ("wins", "draws", "losses"):
            assert int(both[column]) == int(first[column]) + int(second[column])
        # Disc margins from the heuristic side's view: the mean over both colours.
        margins = [float(r["margin"]) for r in (both, first, second)]
        assert margins[0] == pytest.approx((margins[1] + margins[2]) / 2)
    for r in rows:
        if int(r["wins"]) == int(r["games"]):
            assert float(r["margin"]) > 0
        if int(r["losses"]) == int(r["games"]):
            assert float(r["margin"]) < 0
    # Deterministic, and alpha-beta without table or ordering plays exactly as minimax.
    assert run(tmp_path / "b", *TINY, "--search", "alphabeta") == 0
    assert (tmp_path / "b" / "heuristic-duel.csv").read_text() == (
        out / "heuristic-duel.csv"
    ).read_text()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--depths", "2,x"], "--depths: expected"),
        (["--depths", "0"], "--depths must be >= 1"),
        (["--plies", "0"], "--plies must be >= 1"),
    ],
)
def test_bad_options_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str], message: str
) -> None:
    one_line_error(run(tmp_path, *TINY, *options), capsys, message)
