"""The experiments' framework: intervals, report files, balanced games and the command."""

from __future__ import annotations

import io
import shlex
import sys
from pathlib import Path

import pytest
from smoke import PNG, read_csv

from arena.cli.main import main
from arena.core.errors import ArenaError
from arena.experiments import EXPERIMENTS, experiment_names, load
from arena.experiments.games import play_pairs
from arena.experiments.report import Report, pyplot
from arena.experiments.stats import mean_interval, rate_interval, score_interval
from arena.stats.tally import Tally

# --- stats ---------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 7, 50])
def test_wilson_bounds_hold_the_rate_inside_zero_one(n: int) -> None:
    widths = []
    for k in [*range(n + 1), n / 2]:
        p, low, high = rate_interval(k, n)
        assert p == k / n and 0 <= low <= p <= high <= 1
        widths.append(high - low)
    assert min(widths) > 0  # even at 0/n and n/n the interval has width


def test_wilson_matches_a_worked_value_and_narrows_with_n() -> None:
    p, low, high = rate_interval(30, 100)
    assert (p, round(low, 4), round(high, 4)) == (0.3, 0.2189, 0.3958)
    assert rate_interval(300, 1000)[2] - rate_interval(300, 1000)[1] < high - low


@pytest.mark.parametrize(("k", "n"), [(1, 0), (-1, 5), (6, 5)])
def test_impossible_rates_are_errors(k: int, n: int) -> None:
    with pytest.raises(ArenaError):
        rate_interval(k, n)


@pytest.mark.parametrize(
    ("wins", "draws", "losses"), [(10, 0, 0), (0, 0, 10), (0, 10, 0), (3, 4, 5), (1, 0, 0)]
)
def test_score_interval_contains_the_score(wins: int, draws: int, losses: int) -> None:
    score, low, high = score_interval(wins, draws, losses)
    assert score == (wins + draws / 2) / (wins + draws + losses)
    assert 0 <= low <= score <= high <= 1 and high > low


def test_score_interval_is_symmetric_under_swapping_sides() -> None:
    score, low, high = score_interval(7, 2, 3)
    other, other_low, other_high = score_interval(3, 2, 7)
    assert other == pytest.approx(1 - score)
    assert (other_low, other_high) == pytest.approx((1 - high, 1 - low))
    with pytest.raises(ArenaError):
        score_interval(0, 0, 0)


def test_mean_interval_uses_student_t() -> None:
    mean, low, high = mean_interval([1.0, 3.0])  # sd sqrt(2), n 2: half width 12.706 * 1
    assert mean == 2.0 and (low, high) == pytest.approx((2 - 12.706, 2 + 12.706))
    assert mean_interval([4.0] * 5) == (4.0, 4.0, 4.0)
    with pytest.raises(ArenaError):
        mean_interval([])


# --- report --------------------------------------------------------------------------------


def test_report_writes_csv_markdown_and_png(tmp_path: Path) -> None:
    out = tmp_path / "run"
    report = Report(out, "demo", "arena experiment demo --seed 2")
    assert not out.exists()  # nothing before the first write
    rows = [{"move": "d3", "visits": 7, "rate": 0.25}, {"move": "c4", "visits": 3, "rate": None}]
    report.table(rows, "Table one.")
    report.table([{"x": 1}], "Table two.", stem="second")
    plt = pyplot()
    fig, ax = plt.subplots()
    ax.plot([1, 2], [3, 4])
    report.figure(fig, caption="A line. Two points.")
    report.text("Times are measured.")
    assert plt.get_fignums() == []  # the figure was closed
    assert read_csv(out / "demo.csv") == [
        {"move": "d3", "visits": "7", "rate": "0.25"},
        {"move": "c4", "visits": "3", "rate": ""},
    ]
    assert (out / "second.csv").read_text() == "x\n1\n"
    assert (out / "demo.png").read_bytes().startswith(PNG)
    md = (out / "demo.md").read_text()
    assert md.startswith("```sh\narena experiment demo --seed 2\n```\n")
    order = [md.index(s) for s in ("Table one.", "| d3", "Table two.", "(demo.png)", "Times")]
    assert order == sorted(order)
    assert report.files == [out / n for n in ("demo.md", "demo.csv", "second.csv", "demo.png")]
    with pytest.raises(ValueError):
        report.table(rows, "Again.")  # would overwrite demo.csv
    with pytest.raises(ArenaError):
        report.table([], "Empty.", stem="empty")


class _Terminal(io.StringIO):
    """A stderr that says it is a terminal, so only ``quiet`` can keep the bar off it."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("quiet", [True, False])
def test_quiet_progress_counts_nothing_and_lets_the_block_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, quiet: bool
) -> None:
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    report = Report(tmp_path, "demo", "arena experiment demo", quiet=quiet)
    ran = 0
    with report.progress(3, "work") as advance:
        for _ in range(3):
            advance()
            ran += 1
        advance(2)
        ran += 1
    assert ran == 4  # the block ran to its end; advancing past the total is harmless
    # Quiet: not a character on the terminal; otherwise the bar was drawn there.
    assert (terminal.getvalue() == "") is quiet
    assert quiet or "work" in terminal.getvalue()


# --- games ---------------------------------------------------------------------------------


def test_pairs_alternate_colours_and_tally_adds_up() -> None:
    records = play_pairs("tictactoe", "mcts:rollouts=5", "random", 6, "rollouts=5", 1, 1, None)
    assert [r.players for r in records] == [
        ("mcts:rollouts=5", "random"),
        ("random", "mcts:rollouts=5"),
    ] * 3
    mine, theirs = Tally.of(records, "mcts:rollouts=5"), Tally.of(records, "random")
    assert sum(mine) == sum(theirs) == 6
    assert tuple(mine) == (theirs.losses, theirs.draws, theirs.wins)
    with pytest.raises(ArenaError):
        Tally.of(records, "greedy")


def test_pairs_are_deterministic_and_the_same_in_parallel() -> None:
    calls: list[int] = []
    args = ("connect4:rows=4,cols=4,k=3", "mcts:rollouts=8", "mcts:rollouts=8", 4, "rollouts=8", 5)
    serial = play_pairs(*args, jobs=1, advance=calls.append)
    assert calls == [1, 1, 1, 1]
    assert serial[0].players == ("mcts:rollouts=8", "mcts:rollouts=8#2")  # equal specs: #2
    assert [r.moves for r in play_pairs(*args, jobs=1, advance=None)] == [r.moves for r in serial]
    assert [r.moves for r in play_pairs(*args, jobs=2, advance=None)] == [r.moves for r in serial]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"games": 0}, "games must be >= 1"),
        ({"first": "mcts:cc=1"}, "unknown parameter"),
        ({"game": "chess"}, "unknown game"),
        ({"control": "fast"}, "time control"),
    ],
)
def test_bad_pairs_fail_before_any_game(kwargs: dict, message: str) -> None:  # type: ignore[type-arg]
    call = {"game": "tictactoe", "first": "random", "second": "random", "games": 2}
    call |= {"control": "rollouts=1", "seed": 0, "jobs": 1, "advance": None} | kwargs
    with pytest.raises(ArenaError, match=message):
        play_pairs(**call)


# --- registry and command line -------------------------------------------------------------


def test_all_nine_experiments_are_listed(capsys: pytest.CaptureFixture[str]) -> None:
    assert len(experiment_names()) == 9
    with pytest.raises(SystemExit):
        main(["experiment", "--help"])
    out = capsys.readouterr().out
    assert all(name in out for name in experiment_names())
    with pytest.raises(ArenaError, match="unknown experiment"):
        load("chess")


def test_a_module_that_fails_to_import_is_a_one_line_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setitem(EXPERIMENTS, "broken", "arena.experiments.no_such_module")
    assert main(["experiment", "broken", "--out", str(tmp_path / "x"), "--seed", "1", "-h"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "experiment broken is not available" in err
    assert not (tmp_path / "x").exists()
    assert main(["games"]) == 0  # the rest of the command line still works


def test_without_matplotlib_an_experiment_fails_before_any_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    module = load("c-sweep")
    ran: list[object] = []
    monkeypatch.setattr(module, "run", lambda args, report: ran.append(args))
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if not installed
    out = tmp_path / "out"
    assert main(["experiment", "c-sweep", "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err
    # Was "pip install 'arena[plot]'", which asks the package index for another project.
    # These tests run from a checkout: the command installs this tree with the extra.
    root = Path(__file__).resolve().parents[2]
    expected = f"{shlex.quote(sys.executable)} -m pip install -e {shlex.quote(f'{root}[plot]')}"
    assert err == (
        f"arena: error: experiments draw with matplotlib, which is not installed: {expected}\n"
    )
    assert ran == [] and not out.exists()
