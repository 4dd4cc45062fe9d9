"""``arena bench timing``: every built-in agent by default, a student's agent that can play
only some games, one move time, the cold first moves (issue 30, items 2 and 9), the
searches' threads (issue 27)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from arena.agents.registry import agent_names
from arena.bench import timing
from arena.cli.main import main
from arena.core.errors import ArenaError
from arena.search.threads import THREADS_ENV, default_threads

OTHELLO_ONLY = '''
class MyAlphaBeta:
    """Reads the disc counts, which only Othello has."""

    def choose(self, state, limit):
        black, white = state.discs()
        return state.legal_moves()[0]
'''


@pytest.fixture
def othello_only(tmp_path: Path) -> str:
    path = tmp_path / "my_othello.py"
    path.write_text(OTHELLO_ONLY)
    return f"py:{path}:MyAlphaBeta"


def test_every_built_in_agent_is_timed_by_default() -> None:
    timed = {spec.split(":")[0] for spec in timing.AGENTS}
    # solver was left out once, and az while no network shipped
    assert timed == set(agent_names()) - {"human"}


def test_an_agent_is_left_out_of_the_games_it_cannot_play(othello_only: str) -> None:
    lines: list[str] = []
    result = timing.run(9, agents=(othello_only,), times=[0.02], report=lines.append)
    # It died with "'PlaceAnywhereState' object has no attribute 'discs'" and a traceback.
    assert result["moves"] == 9 and result["overruns"] == 0
    assert {s["game"] for s in result["skipped"]} == set(timing.GAMES) - {"othello"}
    skipped = [line for line in lines if line.startswith("skipped:")]
    assert len(skipped) == len(timing.GAMES) - 1
    assert "has no attribute 'discs' at " in skipped[0] and "my_othello.py:" in skipped[0]
    assert result["by_limit"].keys() == {"0.02"} and result["cold"]["moves"] == 1


def test_a_game_asked_for_that_the_agent_cannot_play_is_an_error(othello_only: str) -> None:
    with pytest.raises(ArenaError, match=r"cannot play connect4: AttributeError: .*discs"):
        timing.run(2, agents=(othello_only,), games=["othello", "connect4"], report=print)


def test_the_command_takes_games_and_one_move_time(
    othello_only: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["bench", "timing", "--agents", othello_only, "greedy", "--moves", "4"]
    code = main([*argv, "--game", "othello", "--move-time", "0.05", "--json"])
    result = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert code == (1 if result["overruns"] else 0) and result["moves"] == 4
    assert list(result["by_limit"]) == ["0.05"] and result["cold"]["moves"] == 2
    assert main([*argv, "--game", "connect4"]) == 2
    err = capsys.readouterr().err
    assert "cannot play connect4" in err and "Traceback" not in err
    assert main(["bench", "timing", "--game", "chess"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err
    assert main(["bench", "timing", "--move-time", "0"]) == 2
    assert "--move-time must be > 0" in capsys.readouterr().err


def test_threads_sets_every_searchs_default_threads(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seen: list[int] = []

    def answer(agent_spec: str, state: object, limit: float) -> float:
        seen.append(default_threads())
        return limit / 2

    monkeypatch.delenv(THREADS_ENV, raising=False)
    monkeypatch.setattr(timing, "answer", answer)
    argv = ["bench", "timing", "--agents", "mcts", "--game", "tictactoe", "--moves", "3"]
    argv += ["--move-time", "0.05"]
    assert main([*argv, "--threads", "2", "--json"]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out.splitlines()[-1])["threads"] == 2 and seen == [2, 2, 2]
    assert "every search on 2 thread(s)" in out.err
    assert THREADS_ENV not in os.environ  # as it was after the run
    assert main([*argv, "--threads", "0"]) == 2
    err = capsys.readouterr().err
    assert "--threads must be >= 1, not 0" in err and len(err.strip().splitlines()) == 1
