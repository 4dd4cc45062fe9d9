"""Smoke tests of ``arena experiment heuristic-duel`` at tiny sizes."""

from __future__ import annotations

from pathlib import Path

import pytest
from smoke import PNG, experiment, one_line_error, read_csv

from arena.experiments import heuristic_duel
from arena.experiments.report import pyplot

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


def duel_rows(scores: dict[str, list[float]]) -> list[dict[str, object]]:
    """Rows as the experiment writes them, with a ±0.15 interval clipped to [0, 1]."""
    return [
        {
            "depth": depth,
            "side": side,
            "games": 24 if side == "both" else 12,
            "score": s,
            "low": max(0.0, s - 0.15),
            "high": min(1.0, s + 0.15),
        }
        for side, values in scores.items()
        for depth, s in zip(range(2, 2 + len(values)), values, strict=True)
    ]


def test_the_legend_covers_no_point_and_50_percent_is_its_own_line(tmp_path: Path) -> None:
    # Was: the legend inside the axes over the data, and a dashed "moves first" series at
    # 0.5 drawn on the dashed 50 % line. Points everywhere from 0 to 1, first-mover at 0.5.
    plt = pyplot()
    rows = duel_rows(
        {
            "both": [0.02, 0.25, 0.5, 0.75, 0.98],
            "first": [0.5, 0.5, 0.5, 0.5, 0.5],
            "second": [0.0, 0.1, 0.9, 1.0, 0.95],
        }
    )
    fig = heuristic_duel.plot(rows, "minimax", 24)
    fig.savefig(tmp_path / "f.png")  # the layout of the page's PNG
    (ax,) = fig.axes
    legends = [*fig.legends, *([ax.get_legend()] if ax.get_legend() else [])]
    assert len(legends) == 1
    box = legends[0].get_window_extent()
    points = ax.transData.transform([(r["depth"], r["score"]) for r in rows])
    assert not any(box.contains(x, y) for x, y in points)
    assert box.y1 <= ax.get_window_extent().y0  # below the axes altogether
    fifty = next(line for line in ax.get_lines() if "50 %" in line.get_label())
    series = [container.lines[0] for container in ax.containers]  # the errorbars' lines
    assert len(series) == 3
    # Thinner, grey and behind: a series at 0.5 is drawn whole on top of it.
    assert all(fifty.get_linewidth() < line.get_linewidth() for line in series)
    assert all(fifty.get_color() != line.get_color() for line in series)
    assert all(fifty.get_zorder() < line.get_zorder() for line in series)
    plt.close(fig)
