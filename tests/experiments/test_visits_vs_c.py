"""Smoke tests of ``arena experiment visits-vs-c`` at tiny sizes."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest
from smoke import PNG, experiment, one_line_error, read_csv

TINY = ["--game", "tictactoe", "--moves", "b2 a1 c1", "--c", "0.5,2", "--simulations", "60"]
TINY += ["--repeats", "2"]


run = experiment("visits-vs-c")


def test_files_exist_and_visits_add_up(tmp_path: Path) -> None:
    out = tmp_path / "a"
    assert run(out, *TINY) == 0
    assert (out / "visits-vs-c.png").read_bytes().startswith(PNG)
    md = (out / "visits-vs-c.md").read_text()
    assert md.startswith("```sh\narena experiment visits-vs-c") and "--simulations 60" in md
    raw = read_csv(out / "visits-vs-c-raw.csv")
    per_search: dict[tuple[str, str], int] = defaultdict(int)
    for r in raw:
        per_search[r["c"], r["repeat"]] += int(r["visits"])
        assert 0 <= float(r["wins"]) <= int(r["visits"])
    assert sorted(per_search.values()) == [60] * 4  # 2 values of C x 2 seeds
    rows = read_csv(out / "visits-vs-c.csv")
    assert len(rows) == 2 * 6  # every legal move of the position for each C
    for c in ("0.5", "2.0"):
        mine = [r for r in rows if r["c"] == c]
        assert sum(float(r["visits"]) for r in mine) == pytest.approx(60)
        assert sum(float(r["share"]) for r in mine) == pytest.approx(1)
    for r in rows:
        assert 0 <= float(r["visits_low"]) <= float(r["visits"]) <= float(r["visits_high"]) <= 60
        assert 0 <= float(r["share_low"]) <= float(r["share"]) <= float(r["share_high"]) <= 1
        if r["win_rate"]:
            assert 0 <= float(r["win_low"]) <= float(r["win_rate"]) <= float(r["win_high"]) <= 1
    # The same seed gives the same searches.
    assert run(tmp_path / "b", *TINY) == 0
    for name in ("visits-vs-c.csv", "visits-vs-c-raw.csv"):
        assert (tmp_path / "b" / name).read_text() == (out / name).read_text()


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--repeats", "1", "--repeats must be >= 2"),
        ("--c", "0.5,x", "--c: expected a comma-separated list of numbers"),
        ("--moves", "b2 b2", "move 2: illegal move b2"),
    ],
)
def test_bad_options_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, value: str, message: str
) -> None:
    one_line_error(run(tmp_path / "x", *TINY, option, value), capsys, message)
    assert not (tmp_path / "x").exists()
