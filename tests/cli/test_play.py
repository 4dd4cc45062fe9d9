"""``arena play`` at the terminal: sides named, results naming agents, starting positions, save."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import arena
from arena.formats.record import GameRecord
from arena.formats.sgf import from_sgf


def play(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "arena", "play", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_board_has_a_legend_and_the_result_names_the_agent() -> None:
    proc = play("connect4", "human", "greedy", "--move-time", "0.05", stdin="4\n4\n4\n4\nquit\n")
    assert proc.returncode == 0
    assert "X Red (you)  O Yellow (greedy)" in proc.stdout
    assert "Red (you) loses: resign" in proc.stdout


def test_colosseum_names_each_side_once() -> None:
    proc = play("colosseum:size=6", "random:seed=1", "random:seed=2", "--seed", "1")
    assert proc.returncode == 0
    assert "A (random:seed=1)  B (random:seed=2)" in proc.stdout
    assert "A A" not in proc.stdout


def test_go_results_show_the_area_count_and_komi() -> None:
    proc = play("go:size=5", "random:seed=1", "random:seed=2", "--seed", "1")
    last = proc.stdout.strip().splitlines()[-1]
    assert proc.returncode == 0 and "wins by" in last
    assert "(random:seed=" in last and " komi" in last and ": B " in last and ", W " in last


def test_a_game_starts_after_moves_or_an_sgf_and_bad_lines_are_refused(tmp_path: Path) -> None:
    proc = play("connect4", "random:seed=1", "random:seed=2", "--moves", "4453")
    lines = [line.split() for line in proc.stdout.splitlines() if line[:4].strip().endswith(".")]
    assert proc.returncode == 0 and lines[0][0] == "5."  # the game went on from ply 4
    bad = play("connect4", "random", "random", "--moves", "4444444")
    assert (
        bad.returncode == 2 and "--moves, move 7: illegal move 4: the column is full" in bad.stderr
    )
    sgf = tmp_path / "g.sgf"
    sgf.write_text("(;FF[4]GM[1]SZ[5]KM[7.5];B[cc];W[bb])")
    ok = play("go:size=5", "random:seed=1", "random:seed=2", "--sgf", str(sgf))
    assert ok.returncode == 0 and ok.stdout.splitlines()[1].split()[0] == "3."
    wrong = play("go:size=7", "random", "random", "--sgf", str(sgf))
    assert wrong.returncode == 2 and "holds a game of go:size=5, not go:size=7" in wrong.stderr


def test_save_writes_the_game_so_far_and_it_can_go_on(tmp_path: Path) -> None:
    sgf, record = tmp_path / "mid.sgf", tmp_path / "mid.json"
    stdin = f"e5\nsave {sgf}\nsave {record}\nsave\nquit\n"
    proc = play("go:size=9", "human", "random:seed=3", "--move-time", "0.05", stdin=stdin)
    assert proc.returncode == 0
    assert f"saved 2 moves to {sgf}; to go on later: arena play go human" in proc.stdout
    assert "save FILE: name the file" in proc.stdout
    spec, moves = from_sgf(sgf.read_text())
    assert arena.load_game(spec).spec == "go" and moves[0] == "E5" and len(moves) == 2
    saved = GameRecord.from_json(record.read_text())
    assert saved.moves == moves and not saved.finished
    again = play("go:size=9", "random:seed=1", "random:seed=2", "--sgf", str(sgf))
    assert again.returncode == 0 and again.stdout.splitlines()[1].split()[0] == "3."


MATCH = ["--games", "2", "--budget", "rollouts=5", "--moves", "4453"]


def test_match_and_tournament_start_every_game_from_moves(tmp_path: Path) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "arena",
            "match",
            "connect4",
            "random:seed=1",
            "greedy",
            *MATCH,
            "--records",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    records = (tmp_path / "games.jsonl").read_text().splitlines()
    games = [GameRecord.from_json(line) for line in records]
    assert len(games) == 2 and all(g.moves[:4] == ["4", "4", "5", "3"] for g in games)
    assert all(g.opening_plies == 4 for g in games)
