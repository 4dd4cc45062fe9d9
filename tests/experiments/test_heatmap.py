"""Smoke tests of ``arena experiment heatmap`` at tiny sizes."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest
from smoke import PNG, experiment, one_line_error, read_csv

from arena.experiments.boards import board_view
from arena.experiments.roots import DEFAULT_MOVES, searched_position
from arena.games import NAMES

run = experiment("heatmap")


def test_every_game_gets_a_board_and_counts_add_up(tmp_path: Path) -> None:
    assert run(tmp_path, "--simulations", "120") == 0
    for name in NAMES:
        assert (tmp_path / f"heatmap-{name}.png").read_bytes().startswith(PNG)
    md = (tmp_path / "heatmap.md").read_text()
    assert md.startswith("```sh\narena experiment heatmap") and "(heatmap-go.png)" in md
    rows = read_csv(tmp_path / "heatmap.csv")
    visits: dict[str, int] = defaultdict(int)
    moves: dict[str, int] = defaultdict(int)
    for r in rows:
        visits[r["game"]] += int(r["visits"])
        moves[r["game"]] += int(r["moves"])
        assert 0 <= float(r["share"]) <= 1
        if r["win_rate"]:
            assert 0 <= float(r["low"]) <= float(r["win_rate"]) <= float(r["high"]) <= 1
            assert float(r["win_rate"]) == pytest.approx(float(r["wins"]) / int(r["visits"]))
        else:
            assert r["visits"] == "0"
    assert visits == {name: 120 for name in NAMES}
    for name in NAMES:  # every root move is on the board exactly once
        assert moves[name] == len(searched_position(name, DEFAULT_MOVES[name]).legal_moves())
    assert {r["cell"] for r in rows if r["game"] == "go"} >= {"pass", "E4"}
    # Colosseum: a cell gathers the walls that can be put there, at most 4.
    assert 1 < max(int(r["moves"]) for r in rows if r["game"] == "colosseum") <= 4


def test_one_game_is_deterministic(tmp_path: Path) -> None:
    options = ["--game", "connect4:rows=5,cols=6", "--moves", "33", "--simulations", "80"]
    assert run(tmp_path / "a", *options) == 0
    assert run(tmp_path / "b", *options) == 0
    first = (tmp_path / "a" / "heatmap.csv").read_text()
    assert first == (tmp_path / "b" / "heatmap.csv").read_text()
    assert (tmp_path / "a" / "heatmap-connect4.png").exists()
    assert len(first.splitlines()) == 1 + 6  # a cell per column


def test_board_view_puts_moves_on_their_cells() -> None:
    connect4 = searched_position("connect4", "4453")
    view = board_view(connect4)
    # Column 4 holds two stones: the next drops to the third row from the bottom.
    assert view.cell_of(3) == (3, 3) and view.pieces[5][3] != "."
    go = searched_position("go:size=5", "c3")
    view = board_view(go)
    assert view.cell_of(go.game.parse_move("pass")) is None
    assert view.cell_of(go.game.parse_move("a5")) == (0, 0) and view.pieces[2][2] == "X"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--moves", "4"], "--moves needs a single --game"),
        (["--game", "chess"], "unknown game 'chess'"),
        (["--game", "tictactoe", "--simulations", "0"], "--simulations must be >= 1"),
    ],
)
def test_bad_options_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str], message: str
) -> None:
    one_line_error(run(tmp_path / "x", *options), capsys, message)
    assert not (tmp_path / "x").exists()
