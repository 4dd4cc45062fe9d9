"""The pages in docs/experiments/ rerun as written, and docs/experiments.md quotes them.

Each page's command is read from the page itself and run at a small size (the options
below shrink it; each must still be in the command), so an option the command line no
longer takes (``--jobs 1`` on an experiment without games) fails here, not in a reader's
shell. The text of docs/experiments.md must be what ``arena.experiments.pages`` makes
from the pages' CSVs, so rerunning a page without rewriting the text fails too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.cli.main import main
from arena.core.errors import ArenaError
from arena.experiments import experiment_names
from arena.experiments.pages import (
    overview,
    page_command,
    page_path,
    run_seconds,
    with_options,
)

DOCS = Path(__file__).resolve().parents[2] / "docs"

SMALL: dict[str, dict[str, str | list[str]]] = {
    "visits-vs-c": {"--c": "0.5,1.41", "--simulations": "100", "--repeats": "2", "--top": "3"},
    "heatmap": {"--game": "tictactoe", "--simulations": "100"},
    "strength-vs-time": {
        "--game": "tictactoe",
        "--times": "0.01,0.02",
        "--opponent": "mcts:rollouts=20",
        "--games": "2",
        "--cap": "1",
        "--compare": "0.01",
    },
    "c-sweep": {"--game": "tictactoe", "--c": "0.5,1.41", "--rollouts": "20", "--games": "2"},
    "rollouts-ratio": {"--pairs": "2:4", "--boards": ["tictactoe"], "--games": "2"},
    "iterations-vs-time": {"--games": ["tictactoe"], "--start": "50", "--max": "100"},
    "depth-vs-time": {"--sizes": "4", "--seconds": "1", "--positions": "1"},
    "heuristic-duel": {"--depths": "1,2", "--games": "2", "--plies": "2"},
    "learned-eval": {
        "--game": "tictactoe",
        "--depths": "1",
        "--times": "0.01",
        "--games": "2",
        "--plies": "2",
    },
}
"""Per page: the options that make its command small (the rest stays as the page says)."""


def test_every_experiment_has_a_page_and_a_small_size() -> None:
    assert set(SMALL) == set(experiment_names())
    for name in experiment_names():
        assert page_path(DOCS, name).exists(), name


@pytest.mark.parametrize("name", experiment_names())
def test_each_page_s_command_runs_at_a_small_size(name: str, tmp_path: Path) -> None:
    words = page_command(page_path(DOCS, name).read_text())
    assert words[2] == name
    small = with_options(words, {**SMALL[name], "--out": str(tmp_path)})
    if "--jobs" in small:
        small = with_options(small, {"--jobs": "1"})
    assert main([*small[1:], "--quiet"]) == 0
    assert (tmp_path / f"{name}.md").exists() and (tmp_path / f"{name}.csv").exists()
    assert list(tmp_path.glob("*.png"))


def test_every_page_says_how_long_its_run_took() -> None:
    for name in experiment_names():
        assert run_seconds(page_path(DOCS, name).read_text()) is not None, name


def test_the_overview_quotes_the_pages_as_they_are() -> None:
    text = (DOCS / "experiments.md").read_text()
    assert overview(text, DOCS) == text, (
        "docs/experiments.md is stale: run scripts/experiment_pages.py --text-only"
    )


def test_a_page_command_is_checked() -> None:
    with pytest.raises(ArenaError, match="no ```sh block"):
        page_command("no command here")
    with pytest.raises(ArenaError, match="not 'arena experiment NAME"):
        page_command("```sh\narena match a b\n```")
    with pytest.raises(ArenaError, match="the command has no --games"):
        with_options(["arena", "experiment", "x"], {"--games": "2"})
