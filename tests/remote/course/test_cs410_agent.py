"""cs410-agent: Go final project agents over a stencil-shaped folder of our own (OpenSpiel's
Go and a fallback engine), whole games, the clock passed as time_limit, forfeits with
reasons, the rules check, missing packages, tournaments with --jobs and play."""

from __future__ import annotations

import io
import json
import random
import sys
from pathlib import Path

import pytest

import arena
from arena.cli.main import main
from arena.compete.match import play_game
from arena.compete.timecontrol import TimeControl
from arena.core.errors import SpecError
from arena.formats.record import GameRecord
from arena.remote.cs410_agent import to_action
from helpers import running

GO = "go:size=5,komi=0.5,ko=simple"
"""The stencil's rules: 5x5, komi 0.5 (its choice for 5x5), OpenSpiel's simple ko."""


def spec(folder: Path, cls: str = "", file: str = "agents.py") -> str:
    options = f"class={cls}:" if cls else ""
    return f"cs410-agent:{options}{folder}/{file}"


def both_colours(agent: str, control: str = "move:5", game: str = GO) -> list[GameRecord]:
    g = arena.load_game(game)
    return [
        play_game(g, pair, TimeControl.parse(control), seed=1)
        for pair in ([agent, "random:seed=2"], ["random:seed=3", agent])
    ]


@pytest.mark.parametrize("engine", ["", "fallback"])
def test_good_agents_play_whole_games_from_either_side(
    cs410_dir: Path, engine: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if engine:
        monkeypatch.setenv("STENCIL_ENGINE", engine)
    elif "pyspiel" not in sys.modules:
        pytest.importorskip("pyspiel")
    for cls in ("", "FirstLegalAgent", "PassAgent", "StatefulAgent", "ModelAgent"):
        for seat, record in enumerate(both_colours(spec(cs410_dir, cls))):
            assert record.reason == "normal", (cls, record.detail)
            assert record.names is not None and record.names[seat] == (cls or "MCTSAgent")


def test_the_model_agent_plays_its_saved_preference(cs410_dir: Path) -> None:
    record = both_colours(spec(cs410_dir, "ModelAgent"))[0]
    # weights.json prefers action 12, the centre: c3 for both the stencil and arena.
    assert record.moves[0] == "C3"


def test_time_limit_is_the_clock_left(cs410_dir: Path) -> None:
    # ClockAgent raises unless time_limit is its clock (1 s + 0.1 s a move) and spends a
    # tenth of it: the clock goes down, the game is not lost.
    for record in both_colours(spec(cs410_dir, "ClockAgent"), control="1+0.1"):
        assert record.reason == "normal", record.detail


@pytest.mark.parametrize(
    ("cls", "reason", "detail"),
    [
        ("CrashAgent", "crash", "get_move raised RuntimeError: the search tree is empty"),
        ("GarbageAgent", "illegal", "get_move returned 'e4', not an action index"),
        ("OffBoardAgent", "illegal", "get_move returned 99: an action is 0..25 (25 the pass)"),
        ("OccupiedAgent", "illegal", "get_move returned 0 (A1): "),
        ("HangAgent", "time", "no move within 0.550 s"),
        ("NoSuchAgent", "crash", "no class 'NoSuchAgent' in agents.py; its classes with"),
    ],
)
def test_bad_agents_lose_with_the_reason(
    cs410_dir: Path, cls: str, reason: str, detail: str
) -> None:
    record = both_colours(spec(cs410_dir, cls), control="move:0.5")[0]
    assert (record.reason, record.loser) == (reason, 0), record.detail
    assert detail in record.detail
    assert not running(cs410_dir)  # the host, hung or not, is gone with its game


def test_a_missing_package_is_named_in_one_line(
    cs410_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every game would fail the same way: the match stops with one line, not forfeits.
    with pytest.raises(
        SpecError, match=r"No module named 'torch' \(\S+ lacks torch: pip install torch"
    ):
        both_colours(spec(cs410_dir, file="torch_agents.py"))
    monkeypatch.setenv("STENCIL_ENGINE", "none")
    with pytest.raises(SpecError, match=r"needs pyspiel.*lacks open_spiel: pip install open_spiel"):
        both_colours(spec(cs410_dir))
    assert not running(cs410_dir)


def test_another_rule_set_is_refused_with_the_spec_to_use(cs410_dir: Path) -> None:
    for game in ("go:size=5", "go:size=5,komi=0.5", "go:size=5,ko=simple"):
        with pytest.raises(SpecError, match=r"use go:size=5,komi=0.5,ko=simple$"):
            both_colours(spec(cs410_dir), game=game)
    record = both_colours(spec(cs410_dir), game="connect4")[0]
    assert record.reason == "crash" and "agent cannot play connect4" in record.detail
    assert both_colours(spec(cs410_dir), game="go:size=9,komi=5.5,ko=simple")[0].reason == (
        "normal"
    )


def test_the_action_index_is_openspiels(cs410_dir: Path) -> None:
    """The differential test: random games through the stencil's own GoState (OpenSpiel's
    Go, or the fallback engine without it) agree with arena's rules at every ply."""
    sys.path.insert(0, str(cs410_dir))
    try:
        import go_search_problem  # the fixture stencil, as the host imports it

        game = arena.load_game(GO)
        rng = random.Random(5)
        for _ in range(20):
            problem = go_search_problem.GoProblem(5)
            theirs, ours = problem.start_state, game.initial_state()
            while not ours.is_terminal():
                assert {to_action(5, m) for m in ours.legal_moves()} == set(theirs.legal_actions())
                move = rng.choice(ours.legal_moves())
                ours, theirs = ours.play(move), problem.transition(theirs, to_action(5, move))
            assert theirs.is_terminal_state()
            assert tuple(round(r) for r in theirs.terminal_value()) == ours.returns()
    finally:
        sys.path.remove(str(cs410_dir))
        for name in ("go_search_problem", "go_engine", "tiny_go"):
            sys.modules.pop(name, None)


def test_match_and_tournament_with_jobs_from_the_cli(
    cs410_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(cs410_dir)
    argv = ["match", GO, "cs410-agent:agents.py", "random", "--games", "2", "--time", "15+1"]
    assert main([*argv, "--json", "--quiet"]) == 0
    result = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert result["games"] == 2 and not result["agents"]["cs410-agent:agents.py"]["forfeits"]
    argv = ["tournament", GO, "cs410-agent:agents.py", "cs410-agent:class=ModelAgent:agents.py"]
    assert main([*argv, "random", "--jobs", "2", "--move-time", "2", "--json", "--quiet"]) == 0
    result = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert result["games"] == 6
    assert all(not line["forfeits"] for line in result["agents"].values()), result


def test_a_person_plays_their_own_agent(
    cs410_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(cs410_dir)
    monkeypatch.setattr("sys.stdin", io.StringIO("c3\npass\n"))
    agent = "cs410-agent:class=PassAgent:agents.py"
    assert main(["play", GO, "human", agent, "--time", "15+1"]) == 0
    out = capsys.readouterr().out
    assert "loses:" not in out and "C3" in out and "Black (you) wins" in out, out


def test_arena_agents_lists_the_course_kinds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["agents"]) == 0
    out = capsys.readouterr().out
    for words in (
        "cs410-agent:[OPTIONS:]PATH/agents.py",
        "class=MCTSAgent",
        "mcts-lab:[OPTIONS:]PATH/MCTS.py",
        "rollouts=100",
        "ucb=the file's own",
    ):
        assert words in out, words


def test_when_the_stencils_game_ends_first_the_agent_passes_with_a_note(cs410_dir: Path) -> None:
    # These two repeat a board at ply 49: OpenSpiel's Go (the stencil's) ends the game there
    # as a draw; arena's ko=simple plays on. The agent is not blamed: it passes, noted.
    if "pyspiel" not in sys.modules:
        pytest.importorskip("pyspiel")
    agents = [spec(cs410_dir), spec(cs410_dir, "IterativeDeepeningAgent")]
    record = play_game(arena.load_game(GO), agents, TimeControl.parse("move:5"))
    assert record.reason == "normal", record.detail
    assert any("the stencil's game is over" in note for note in record.notes), record.notes
