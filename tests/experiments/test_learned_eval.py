"""Smoke tests of ``arena experiment learned-eval`` at tiny sizes."""

from __future__ import annotations

from pathlib import Path

import pytest
from smoke import PNG, experiment, one_line_error, read_csv

import arena
from arena.experiments import learned_eval
from arena.experiments.report import pyplot
from arena.search.az.network import random_network

TINY = ["--game", "tictactoe", "--depths", "2,1", "--times", "0.02", "--games", "4"]

run = experiment("learned-eval")


def test_files_exist_and_numbers_add_up(tmp_path: Path) -> None:
    assert run(tmp_path / "a", *TINY, "--net", "random", "--plies", "2") == 0
    out = tmp_path / "a"
    assert (out / "learned-eval.png").read_bytes().startswith(PNG)
    assert "untrained network" in (out / "learned-eval.md").read_text()
    rows = read_csv(out / "learned-eval.csv")
    assert [(r["budget"], float(r["value"])) for r in rows] == [
        ("depth", 1),
        ("depth", 2),
        ("time", 0.02),
    ]
    for r in rows:
        wins, draws, losses = int(r["wins"]), int(r["draws"]), int(r["losses"])
        assert wins + draws + losses == int(r["games"]) == 4
        score, low, high = float(r["score"]), float(r["low"]), float(r["high"])
        assert score == pytest.approx((wins + draws / 2) / 4)
        assert 0 <= low <= score <= high <= 1
        # Two games with each colour: the overall score is the mean of the two.
        both = (float(r["score_first"]) + float(r["score_second"])) / 2
        assert score == pytest.approx(both)
        # Counted, not asserted: at 0.02 s a move a loaded machine can make either side
        # overrun (the referee's forfeits are tested in tests/compete).
        assert 0 <= int(r["forfeits"]) <= 4
    timed = rows[-1]
    # Depths measured in the timed row (a mean over the moves: a move a loaded machine
    # paused past its 0.02 s completes no iteration, so a mean of 0.5 was seen in CI).
    assert float(timed["depth_net"]) > 0 and float(timed["depth_heuristic"]) > 0
    # No temporary network left behind in the output.
    assert sorted(p.name for p in out.iterdir()) == [
        "learned-eval.csv",
        "learned-eval.md",
        "learned-eval.png",
    ]


def test_a_network_file_plays_at_equal_depth_deterministically(tmp_path: Path) -> None:
    net = tmp_path / "C4 net.npz"  # a space and a capital: the path as written
    random_network(arena.load_game("connect4"), filters=4, blocks=0, hidden=8, seed=3).save(net)
    options = ["--game", "connect4", "--net", str(net), "--depths", "1", "--times", "none"]
    assert run(tmp_path / "a", *options, "--games", "2", "--search", "ids") == 0
    assert run(tmp_path / "b", *options, "--games", "2", "--search", "ids") == 0
    first = (tmp_path / "a" / "learned-eval.csv").read_text()
    assert first == (tmp_path / "b" / "learned-eval.csv").read_text()
    assert "the network C4 net.npz" in (tmp_path / "a" / "learned-eval.md").read_text()
    assert "depth_net" not in first  # no equal-time rows


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--net", "nowhere.npz"], "--net nowhere.npz: no such file"),
        (["--net", "OTHER"], "--net OTHER: the network is for connect4, not tictactoe"),
        (["--net", "random", "--depths", "none", "--times", "none"], "nothing to play"),
        (["--net", "random", "--depths", "0"], "--depths must be >= 1"),
        (["--net", "random", "--times", "0.1,x"], "--times: expected"),
        (["--net", "random", "--times", "0"], "--times: 0 must be > 0"),
        (["--net", "random", "--depths", "2,2"], "--depths: a depth is given twice"),
        (["--net", "random", "--games", "3"], "--games must be even"),
    ],
)
def test_bad_options_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str], message: str
) -> None:
    other = tmp_path / "c4.npz"
    random_network(arena.load_game("connect4"), filters=4, blocks=0, hidden=8).save(other)
    options = [str(other) if o == "OTHER" else o for o in options]
    message = message.replace("OTHER", str(other))
    one_line_error(run(tmp_path / "out", *TINY, *options), capsys, message)
    assert not (tmp_path / "out").exists()  # nothing written before the games


def test_the_figure_has_a_panel_per_budget_and_says_what_time_bought() -> None:
    plt = pyplot()
    rows = [
        {"budget": "depth", "value": d, "score": 0.4, "low": 0.2, "high": 0.6} for d in (1, 2)
    ] + [
        {
            "budget": "time",
            "value": t,
            "score": 0.3,
            "low": 0.1,
            "high": 0.5,
            "depth_net": 3.0,
            "depth_heuristic": 5.5,
        }
        for t in (0.05, 0.2)
    ]
    fig = learned_eval.plot(rows, "net vs heuristic", 20)
    depth, time = fig.axes
    assert depth.get_title() == "equal depth" and time.get_title() == "equal time"
    assert time.get_xscale() == "log"
    assert [t.get_text() for t in time.texts] == ["depth 3 vs 5.5"] * 2
    plt.close(fig)
    fig = learned_eval.plot(rows[:2], "net vs heuristic", 20)
    assert len(fig.axes) == 1
    plt.close(fig)
