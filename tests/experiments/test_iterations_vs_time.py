"""Smoke tests of ``arena experiment iterations-vs-time`` at tiny sizes."""

from __future__ import annotations

from pathlib import Path

import pytest
from smoke import PNG, experiment, one_line_error, read_csv

TINY = ["--games", "tictactoe", "connect4:rows=4,cols=4,k=3", "--start", "50", "--max", "200"]
MEASURED = ("seconds", "iterations_per_s", "us_per_iteration")


run = experiment("iterations-vs-time")


def test_files_exist_and_counts_match(tmp_path: Path) -> None:
    out = tmp_path / "a"
    assert run(out, *TINY, "--jobs", "2", "--repeats", "2") == 0  # --jobs: accepted, ignored
    assert (out / "iterations-vs-time.png").read_bytes().startswith(PNG)
    md = (out / "iterations-vs-time.md").read_text()
    assert md.startswith("```sh\narena experiment iterations-vs-time") and "one at a time" in md
    rows = read_csv(out / "iterations-vs-time.csv")
    assert [(r["game"], int(r["iterations"])) for r in rows] == [
        (game, n) for game in ("tictactoe", "connect4:rows=4,cols=4,k=3") for n in (50, 100, 200)
    ]
    for r in rows:
        assert int(r["simulations"]) == int(r["iterations"]) and int(r["depth"]) >= 1
        seconds = float(r["seconds"])
        assert seconds > 0
        assert float(r["iterations_per_s"]) == pytest.approx(int(r["iterations"]) / seconds)
        assert float(r["us_per_iteration"]) == pytest.approx(1e6 * seconds / int(r["iterations"]))
    # The same seed builds the same trees; only the measured columns change.
    assert run(tmp_path / "b", *TINY) == 0
    again = read_csv(tmp_path / "b" / "iterations-vs-time.csv")

    def fixed(table: list[dict[str, str]]) -> list[dict[str, str]]:
        return [{k: v for k, v in r.items() if k not in MEASURED} for r in table]

    assert fixed(again) == fixed(rows)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--start", "50", "--max", "10"], "--max must be >= 50"),
        (["--games", "chess"], "unknown game 'chess'"),
        (["--agent", "alphabeta"], "--agent must be an MCTS spec"),
        (["--games", "go:size=5", "go:size=5"], "a game is given twice"),
        (["--repeats", "0"], "--repeats must be >= 1"),
    ],
)
def test_bad_options_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str], message: str
) -> None:
    one_line_error(run(tmp_path / "x", *options), capsys, message)
    assert not (tmp_path / "x").exists()
