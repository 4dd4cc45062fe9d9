"""The command line as a user runs it: output, exit codes, one-line errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from arena.cli.main import main


def run(*args: str) -> tuple[int, str, str]:
    proc = subprocess.run(
        [sys.executable, "-m", "arena.cli.main", *args], capture_output=True, text=True, timeout=300
    )
    return proc.returncode, proc.stdout, proc.stderr


def test_games_lists_every_game_with_parameters(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    for name in ("tictactoe", "connect4", "othello", "gomoku", "go", "colosseum"):
        assert f"\n{name}:" in "\n" + out
    assert "rows=6 (int, 4..20)" in out and "rule=standard (standard|nomove-ends)" in out


def test_agents_lists_every_agent(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["agents"]) == 0
    out = capsys.readouterr().out
    for name in ("random", "greedy", "human", "minimax", "alphabeta", "ids", "mcts", "py:"):
        assert name in out


def test_perft_last_line_is_the_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "othello", "4"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "244"
    assert main(["perft", "go:size=5", "2", "--moves", "c3"]) == 0
    # White: 24 points or pass; then Black: 23 points + pass after a stone, 24 + pass after a pass.
    assert capsys.readouterr().out.splitlines()[-1] == str(24 * 24 + 25)


def test_show_renders_and_says_whose_move(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "connect4", "4453"]) == 0
    out = capsys.readouterr().out
    assert "ply 4: Red to move" in out and "legal moves: 1 2 3 4 5 6 7" in out
    assert main(["show", "tictactoe", "a1", "b1", "a2", "b2", "a3"]) == 0
    assert "X wins" in capsys.readouterr().out


def test_random_is_deterministic_by_seed() -> None:
    first = run("random", "othello", "--seed", "7")
    second = run("random", "othello", "--seed", "7")
    assert first[0] == 0 and first[1] == second[1]
    assert "wins" in first[1].splitlines()[-1] or "draw" in first[1].splitlines()[-1]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["show", "chess"], "unknown game 'chess'"),
        (["show", "connect4", "44444444"], "move 7: illegal move 4: the column is full"),
        (["show", "tictactoe", "z9"], "'z9' is not a cell a1..c3"),
        (["show", "go:size=4"], "size=4 is out of range"),
        (["perft", "connect4", "-1"], "DEPTH must be >= 0"),
        (["play", "connect4", "random", "alphabet"], "unknown agent 'alphabet'"),
        (["play", "connect4", "random", "random", "--move-time", "0"], "--move-time must be > 0"),
        (["analyze", "tictactoe", "a1 a1", "random"], "move 2: illegal move a1"),
        (["analyze", "tictactoe", "a1 b1 a2 b2 a3", "ids"], "the game is over"),
        (["bench", "playouts", "--games", "chess"], "unknown benchmark game 'chess'"),
        (["bench", "timing", "--moves", "0"], "--moves must be >= 1"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    code, _, err = run(*args)
    assert code == 2
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_play_prints_moves_board_and_result() -> None:
    code, out, _ = run("play", "connect4", "random:seed=1", "greedy:seed=2", "--show-search")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("connect4: Red (random:seed=1) vs Yellow (greedy:seed=2)")
    assert "X Red (random:seed=1)  O Yellow (greedy:seed=2)" in out  # the legend
    assert (
        "(random:seed=1) wins" in lines[-1]
        or "(greedy:seed=2) wins" in lines[-1]
        or lines[-1] == "draw"
    )
    assert "nodes in" in out  # greedy's search table


def test_analyze_explains_the_choice() -> None:
    code, out, _ = run("analyze", "connect4", "4453", "mcts:rollouts=500,seed=1", "--top", "3")
    assert code == 0
    assert "visits  share  win rate     UCB  rank" in out
    assert "500 simulations in" in out and "principal variation:" in out
    assert out.splitlines()[-1].startswith("chosen: ")
    code, out, _ = run("analyze", "tictactoe", "a1 b1 a2 b2", "alphabeta:depth=3")
    assert code == 0 and "a3" in out and "win in 1" in out


def test_bench_playouts_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["bench", "playouts", "--seconds", "0.05", "--games", "tictactoe", "go", "--json"])
        == 0
    )
    result = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert set(result["playouts_per_s"]) == {"tictactoe", "go:size=5", "go:size=9"}
    assert all(v > 0 for v in result["playouts_per_s"].values())
    assert "tictactoe" in result["kernel_playouts_per_s"]  # the compiled kernel's column
    assert result["kernel_ratio"]["tictactoe"] > 0
    # The bench extra is installed by `make test`: under CI its absence is a failure.
    if os.environ.get("CI") or "openspiel_playouts_per_s" in result:
        assert set(result["openspiel_playouts_per_s"]) == set(result["playouts_per_s"])


def test_bench_agents_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "agents", "--seconds", "0.05", "--games", "tictactoe", "--json"]) == 0
    result = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert result["mcts_sims_per_s"]["tictactoe"] > 0
    assert result["mcts_python_sims_per_s"]["tictactoe"] > 0
    assert result["mcts_fast_over_python"]["tictactoe"] > 1  # the compiled engine is faster
    assert result["alphabeta_nodes_per_s"]["tictactoe"] > 0
    if os.environ.get("CI") or "openspiel_cpp_mcts_sims_per_s" in result:
        assert result["openspiel_cpp_mcts_sims_per_s"]["tictactoe"] > 0


def test_warmup(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["warmup", "tictactoe", "connect4:rows=5"]) == 0
    out = capsys.readouterr().out
    assert "tictactoe: ready" in out and "connect4:rows=5: ready" in out
    code, _, err = run("warmup", "chess")
    assert code == 2 and "unknown game 'chess'" in err


def test_bench_timing_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["bench", "timing", "--moves", "12", "--json"])
    result = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert result["moves"] >= 12 and code == (1 if result["overruns"] else 0)
    assert 0 < result["used_over_limit"]["p50"] <= result["used_over_limit"]["max"]
