"""Smoke tests of ``arena experiment depth-vs-time`` at tiny sizes."""

from __future__ import annotations

from pathlib import Path

import pytest
from smoke import PNG, experiment, one_line_error, read_csv

MEASURED = ("seconds", "nodes_per_second")


run = experiment("depth-vs-time")


def test_files_exist_and_tables_agree(tmp_path: Path) -> None:
    # 4x4 Othello is solved in a few thousand nodes (well under the 1.5 s even on a loaded
    # machine); 6x6 is not, in any small time.
    assert run(tmp_path, "--sizes", "6,4", "--seconds", "1.5", "--positions", "2") == 0
    assert (tmp_path / "depth-vs-time.png").read_bytes().startswith(PNG)
    assert (tmp_path / "depth-vs-time.md").exists()
    summary = read_csv(tmp_path / "depth-vs-time.csv")
    depths = read_csv(tmp_path / "depth-vs-time-depths.csv")
    assert [(int(r["size"]), int(r["position"])) for r in summary] == [
        (4, 0),
        (4, 1),
        (6, 0),
        (6, 1),
    ]
    assert summary[0]["opening"] == "start" and summary[1]["opening"] != "start"
    for r in summary:
        mine = [d for d in depths if (d["size"], d["position"]) == (r["size"], r["position"])]
        # Depths 1..deepest, each finished; nodes are cumulative over the iterations.
        assert [int(d["depth"]) for d in mine] == list(range(1, int(r["deepest"]) + 1))
        nodes = [int(d["nodes"]) for d in mine]
        assert nodes == sorted(set(nodes))
        assert all(float(d["seconds"]) > 0 for d in mine)
        assert r["stopped"] == ("solved" if r["size"] == "4" else "time")
    assert summary[0]["deepest"] == "12"  # the first player's loss in 12 plies
    assert depths[11]["value"] == "loss in 12"


def test_node_counts_repeat(tmp_path: Path) -> None:
    options = ["--sizes", "4", "--seconds", "5", "--positions", "2", "--seed", "3"]
    assert run(tmp_path / "a", *options) == 0
    assert run(tmp_path / "b", *options) == 0
    for stem in ("depth-vs-time", "depth-vs-time-depths"):
        a, b = (read_csv(tmp_path / d / f"{stem}.csv") for d in ("a", "b"))
        for row in (*a, *b):
            for column in MEASURED:
                row.pop(column, None)
        assert a == b


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--sizes", "5"], "othello: size=5"),
        (["--seconds", "0"], "--seconds must be > 0"),
        (["--agent", "alphabeta"], "--agent must be an ids spec"),
    ],
)
def test_bad_options_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str], message: str
) -> None:
    one_line_error(run(tmp_path, "--sizes", "4", *options), capsys, message)


def test_a_board_the_compiled_engine_solves_outright_is_solved(tmp_path: Path) -> None:
    # ids's compiled Othello engine solves 4x4 exactly whatever exact=0 asks, reporting
    # depth 0: that read as "deepest 0, stopped: time" on the page.
    options = ["--sizes", "4", "--seconds", "5", "--positions", "1", "--agent", "ids"]
    assert run(tmp_path, *options) == 0
    (row,) = read_csv(tmp_path / "depth-vs-time.csv")
    assert row["stopped"] == "solved"
