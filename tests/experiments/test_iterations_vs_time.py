"""Smoke tests of ``arena experiment iterations-vs-time`` at tiny sizes."""

from __future__ import annotations

from pathlib import Path

import pytest
from smoke import PNG, experiment, one_line_error, read_csv

from arena.experiments import iterations_vs_time
from arena.experiments.report import pyplot

TINY = ["--games", "tictactoe", "connect4:rows=4,cols=4,k=3", "--start", "50", "--max", "200"]
MEASURED = ("seconds", "iterations_per_s", "us_per_iteration")


run = experiment("iterations-vs-time")


def test_files_exist_and_counts_match(tmp_path: Path) -> None:
    out = tmp_path / "a"
    assert run(out, *TINY, "--repeats", "2") == 0
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


def timing_rows(seconds: dict[str, list[float]]) -> list[dict[str, object]]:
    counts = [1000 * 2**k for k in range(len(next(iter(seconds.values()))))]
    return [
        {"game": game, "iterations": n, "seconds": s, "iterations_per_s": n / s}
        for game, times in seconds.items()
        for n, s in zip(counts, times, strict=True)
    ]


def labelled_ticks(axis: object) -> list[str]:
    """The tick labels matplotlib would draw on a y axis (non-empty, inside the limits)."""
    low, high = axis.get_ylim()
    ticks = axis.yaxis.get_major_ticks() + axis.yaxis.get_minor_ticks()
    return [
        t.label1.get_text()
        for t in ticks
        if t.label1.get_visible() and t.label1.get_text() and low <= t.get_loc() <= high
    ]


def test_a_narrow_range_of_times_gets_several_y_labels(tmp_path: Path) -> None:
    # Was: one y label ("0.01") for times between 0.004 and 0.06.
    plt = pyplot()
    rows = timing_rows({"a": [0.004, 0.008, 0.016], "b": [0.015, 0.03, 0.06]})
    fig = iterations_vs_time.plot(rows, "mcts", 1)
    fig.savefig(tmp_path / "f.png")  # lay out the ticks as the page's PNG does
    seconds_axis, rate_axis = fig.axes
    assert len(labelled_ticks(seconds_axis)) >= 3
    assert len(labelled_ticks(rate_axis)) >= 3
    plt.close(fig)


def test_the_slope_1_line_hides_no_game(tmp_path: Path) -> None:
    # Was: the line through the median cost per iteration, on top of Othello's points.
    plt = pyplot()
    rows = timing_rows({"a": [0.1, 0.2, 0.4], "b": [0.2, 0.41, 0.8], "c": [1.0, 2.0, 4.1]})
    fig = iterations_vs_time.plot(rows, "mcts", 1)
    ax = fig.axes[0]
    reference = next(line for line in ax.get_lines() if "slope 1" in line.get_label())
    games = [line for line in ax.get_lines() if line is not reference]
    assert len(games) == 3
    xs, ys = reference.get_data()
    assert list(xs) == [1000, 4000]  # across the whole range
    cost = ys[0] / xs[0]  # seconds per iteration: the same at both ends (slope 1)
    assert ys[1] / xs[1] == pytest.approx(cost)
    for line in games:  # below every point of every game
        assert all(y / x > 1.5 * cost for x, y in zip(*line.get_data(), strict=True))
    assert reference.get_zorder() < min(line.get_zorder() for line in games)
    # One legend for both panels, outside them: it covers no point.
    assert ax.get_legend() is None and len(fig.legends) == 1
    plt.close(fig)
