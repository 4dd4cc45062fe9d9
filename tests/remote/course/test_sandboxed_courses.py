"""The course agents under --sandbox: each framework's stencil plays whole games in
bubblewrap, its folder a private copy (the Othello programs write files where they run)."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.compete.match import play_game
from arena.compete.runner import placed
from arena.compete.timecontrol import TimeControl
from arena.games import load_game
from arena.remote.sandbox import Sandbox, SandboxUnavailable, require
from helpers import running

try:
    require()
    WHY_NOT = ""
except SandboxUnavailable as exc:
    WHY_NOT = str(exc)

pytestmark = pytest.mark.skipif(bool(WHY_NOT), reason=WHY_NOT or "sandbox works")


def sandboxed_games(game: str, spec: str, folder: Path) -> None:
    g = load_game(game)
    for pair in ([spec, "random:seed=2"], ["random:seed=3", spec]):
        players = [placed(p, sandbox=Sandbox()) for p in pair]
        record = play_game(g, players, TimeControl.parse("move:5"), seed=1)
        assert record.reason == "normal", record.detail
        assert len(record.moves) >= 3 and players[pair.index(spec)].sandbox is not None
    assert running(folder) == []


def test_othello_ai(othello_dir: Path) -> None:
    before = sorted(p.name for p in othello_dir.iterdir())
    sandboxed_games(
        "othello:rule=nomove-ends", f"othello-ai:{othello_dir}/first_legal.py", othello_dir
    )
    assert sorted(p.name for p in othello_dir.iterdir()) == before  # its final.txt was private


def test_colosseum_agent(colosseum_dir: Path) -> None:
    spec = f"colosseum-agent:{colosseum_dir}/project/agents/student_agent.py"
    sandboxed_games("colosseum:size=6", spec, colosseum_dir)


def test_cs410_agent(cs410_dir: Path) -> None:
    sandboxed_games("go:size=5,komi=0.5,ko=simple", f"cs410-agent:{cs410_dir}/agents.py", cs410_dir)


def test_mcts_lab(lab_dir: Path) -> None:
    spec = f"mcts-lab:rollouts=50:{lab_dir}/MCTS.py"
    sandboxed_games("connect4:rows=6,cols=5", spec, lab_dir)
