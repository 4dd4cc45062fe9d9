"""``arena solve``, ``--position`` and ``arena bench solve`` as a user runs them."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.cli.main import main

FFO40 = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X"


def test_solve_prints_the_value_every_move_and_the_best(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["solve", "tictactoe", "b2", "a1"]) == 0
    out = capsys.readouterr().out
    assert "value: +0: draw (generic solver)" in out
    assert "moves: b1 +0  c1 +0  a2 +0  c2 +0  a3 +0  b3 +0  c3 +0" in out
    assert "nodes/s" in out
    # Connect Four, the compiled solver: Red wins at once on 3 or 7.
    assert main(["solve", "connect4", "445566"]) == 0
    out = capsys.readouterr().out
    assert "value: +18: Red wins with its stone number 4 (connect4 solver)" in out
    assert "moves: 1 +17  2 +17  3 +18  4 +17  5 +17  6 +17  7 +18" in out
    assert "best: 3 7" in out


def test_solve_othello_from_a_position_string(capsys: pytest.CaptureFixture[str]) -> None:
    game_over = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX O"
    assert main(["solve", "othello", "--position", game_over]) == 0
    assert "the game is over: Black wins by 64" in capsys.readouterr().out
    assert main(["show", "othello", "--position", FFO40]) == 0
    assert f"position: {FFO40}" in capsys.readouterr().out


def test_file_mode_prints_scores_and_a_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "positions.txt"
    path.write_text("5572622223231417174176774335 0\n445566 whatever\n")
    assert main(["solve", "connect4", "--file", str(path)]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines() == ["5572622223231417174176774335 0", "445566 18"]
    assert "2 positions (0 unsolved)" in captured.err and "nodes/s" in captured.err


def test_time_limit_gives_up_with_bounds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "connect4", "--time", "0.2"]) == 3
    err = capsys.readouterr().err
    assert "gave up after 0.2 s: the value is between" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["solve", "connect4", "48"], "not a column number"),
        (["solve", "connect4", "--position", "x"], "connect4 has no position string"),
        (["solve", "othello", "--position", "XO X"], "has 64 cells"),
        (["solve", "othello", "--position", FFO40[:-2]], "followed by the side to move"),
        (["solve", "connect4", "--time", "0"], "--time must be > 0"),
        (["solve", "connect4", "--file", "/nonexistent"], "No such file"),
        (["show", "othello", "--position", "Z" * 64 + " X"], "must be X, O or -"),
    ],
)
def test_bad_input_is_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("arena: error:") and message in err and err.count("\n") == 1


def test_bench_solve_checks_every_score(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "few.txt"
    path.write_text("5572622223231417174176774335 0\n445566 17\n")
    assert main(["bench", "solve", "--file", str(path)]) == 1  # 445566 is +18, not 17
    out = capsys.readouterr().out
    assert "WRONG, expected 17" in out and "2 positions, 1 exact" in out


def test_play_from_a_position_string(capsys: pytest.CaptureFixture[str]) -> None:
    near_end = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOOOOOOX--- O"
    assert main(["play", "othello", "solver", "solver", "--position", near_end]) == 0
    out = capsys.readouterr().out
    assert "1. White" in out and "wins" in out.splitlines()[-1]
