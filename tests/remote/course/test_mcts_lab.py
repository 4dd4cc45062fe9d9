"""mcts-lab: a Connect Four MCTS lab's MCTS.py over a game1.py-shaped folder of our own:
whole games, the board size check, ucb= and rollouts=, forfeits with reasons, tournaments
with --jobs and play."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import arena
from arena.cli.main import main
from arena.compete.match import play_game
from arena.compete.timecontrol import TimeControl
from arena.core.errors import SpecError
from arena.formats.record import GameRecord
from helpers import running

LAB = "connect4:rows=6,cols=5"
"""The board the lab's game1.py sets (and ours): 6 rows, 5 columns."""


def games(agent: str, control: str = "move:5", game: str = LAB) -> list[GameRecord]:
    g = arena.load_game(game)
    return [
        play_game(g, pair, TimeControl.parse(control), seed=1)
        for pair in ([agent, "random:seed=2"], ["random:seed=3", agent])
    ]


def test_the_labs_mcts_plays_and_beats_random(lab_dir: Path) -> None:
    agent = f"mcts-lab:rollouts=100:{lab_dir}/MCTS.py"
    records = games(agent) + games(agent)  # the lab's agent first, second, first, second
    assert all(r.reason == "normal" for r in records), [r.detail for r in records]
    assert sum(r.returns[i % 2] == 1 for i, r in enumerate(records)) >= 3


def test_another_board_is_refused_with_the_spec_to_use(lab_dir: Path) -> None:
    for game in ("connect4", "connect4:cols=5,k=3", "connect4:rows=7,cols=5"):
        with pytest.raises(
            SpecError, match=r"on 6 rows x 5 columns, not .*: use connect4:rows=6,cols=5$"
        ):
            games(f"mcts-lab:{lab_dir}/MCTS.py", game=game)
    record = games(f"mcts-lab:{lab_dir}/MCTS.py", game="tictactoe")[0]
    assert record.reason == "crash" and "plays connect4, not tictactoe" in record.detail


def test_ucb_sets_the_modules_constant(lab_dir: Path) -> None:
    # ucb_MCTS.py plays the column int(UCB_CONST) names: 0 from the file, 3 with ucb=3.
    for ucb, column in (("", "1"), ("ucb=3,", "4")):
        record = games(f"mcts-lab:{ucb}rollouts=1:{lab_dir}/ucb_MCTS.py")[0]
        assert record.reason == "normal" and record.moves[0] == column, record.moves


@pytest.mark.parametrize(
    ("file", "reason", "detail"),
    [
        ("crash_MCTS.py", "crash", "MCTS raised ZeroDivisionError: float division by zero"),
        ("full_MCTS.py", "illegal", "MCTS returned column 0: column 0 is full"),
        ("slow_MCTS.py", "time", "no move within 0.550 s"),
    ],
)
def test_bad_labs_lose_with_the_reason(lab_dir: Path, file: str, reason: str, detail: str) -> None:
    record = games(f"mcts-lab:{lab_dir}/{file}", control="move:0.5")[0]
    assert (record.reason, record.loser) == (reason, 0), record.detail
    assert detail in record.detail
    assert not running(lab_dir)


def test_a_folder_without_game1_is_refused(lab_dir: Path) -> None:
    (lab_dir / "game1.py").unlink()
    with pytest.raises(SpecError, match=r"no game1\.py beside mcts lab/MCTS\.py"):
        arena.load_agent(f"mcts-lab:{lab_dir}/MCTS.py")


def test_tournament_with_jobs_and_play(
    lab_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(lab_dir)
    argv = [
        "tournament",
        LAB,
        "mcts-lab:ucb=0.5,rollouts=20:MCTS.py",
        "mcts-lab:ucb=2,rollouts=20:MCTS.py",
        "random",
    ]
    assert main([*argv, "--jobs", "2", "--json", "--quiet"]) == 0
    result = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert result["games"] == 6
    assert all(not line["forfeits"] for line in result["agents"].values()), result
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n1\n1\n1\n1\n1\nquit\n"))
    assert main(["play", LAB, "human", "mcts-lab:rollouts=50:MCTS.py"]) == 0
    assert "Yellow (mcts-lab" in capsys.readouterr().out
