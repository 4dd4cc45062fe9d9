"""pbrain: agents: our own small brain (tests/remote/pbrain/brain.py), brains that fail,
and arena playing itself through the protocol (``arena pbrain`` as a ``pbrain:`` agent)."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from arena.agents import load_agent
from arena.compete.match import play_game
from arena.compete.timecontrol import TimeControl
from arena.core.errors import AgentFailure, SpecError
from arena.core.limit import Limit
from arena.games import load_game
from arena.web.catalog import check_agent

PY = shlex.quote(sys.executable)
BRAIN = Path(__file__).with_name("brain.py")
GOMOKU = load_game("gomoku")
MOVE = TimeControl.parse("move:5")


def brain(*args: str) -> str:
    return f"pbrain:{PY} {shlex.quote(str(BRAIN))} {shlex.join(args)}".rstrip()


def test_moves_land_on_the_intended_points_both_ways(tmp_path: Path) -> None:
    # x is the column and y the row, both from the top-left: the brain's 1,14 is B1 (row 1
    # counted from the bottom), and the opponent's A15 (top-left) reaches it as 0,0.
    log = tmp_path / "log"
    spec = brain("--log", str(log), "--script", "1,14;14,1;2,3")
    opponent = load_agent("random:seed=1")
    record = play_game(
        GOMOKU, [opponent, spec], MOVE, max_plies=6, opening=GOMOKU.parse_moves(["A15"])
    )
    assert record.moves[:4] == ["A15", "B1", record.moves[2], "P14"]  # 14,1: the 15th column (no I)
    assert record.moves[5] == "C12"
    lines = log.read_text().splitlines()
    assert lines[:5] == [
        "START 15",
        "INFO rule 0",
        f"INFO max_memory {350 << 20}",
        "INFO game_type 1",
        "ABOUT",  # answered off the clock, after the brain has taken in the INFO lines
    ]
    assert record.names == (None, "testbrain 1")  # the name it gave in its ABOUT answer
    turns = [line for line in lines if line.startswith(("TURN", "BEGIN", "BOARD"))]
    assert turns[0] == "TURN 0,0"  # A15: its only move, told with TURN
    x, y = turns[1][5:].split(",")
    assert GOMOKU.format_move(int(y) * 15 + int(x)) == record.moves[2]


def test_a_position_it_did_not_follow_is_sent_with_board(tmp_path: Path) -> None:
    log = tmp_path / "log"
    agent = load_agent(brain("--log", str(log), "--script", "0,0"))
    try:
        agent.reset(GOMOKU)
        # H8 J8 K8 played elsewhere (a resumed game, the web board): White to move.
        state = GOMOKU.play_moves(GOMOKU.parse_moves(["H8", "J8", "K8"]))
        move = agent.choose(state, Limit(time=5))
        assert GOMOKU.format_move(move) == "A15"
        lines = log.read_text().splitlines()
        board = lines[lines.index("BOARD") + 1 : lines.index("DONE")]
        assert sorted(board) == ["7,7,2", "8,7,1", "9,7,2"]  # K is the 10th column: no I
        assert board[-1] in ("7,7,2", "9,7,2")  # the opponent's stone comes last
        # The brain has a game now: another position starts with RESTART.
        state2 = GOMOKU.play_moves(GOMOKU.parse_moves(["H8"]))
        agent.choose(state2, Limit(time=5))
        assert log.read_text().splitlines()[-4:] == ["RESTART", "BOARD", "7,7,2", "DONE"]
    finally:
        agent.close()


def test_an_opening_then_turns(tmp_path: Path) -> None:
    log = tmp_path / "log"
    spec = brain("--log", str(log))
    opening = GOMOKU.parse_moves(["H8", "J9", "G7"])
    record = play_game(GOMOKU, ["random:seed=2", spec], MOVE, max_plies=9, opening=opening)
    assert record.reason == "adjudication", record.detail
    lines = log.read_text().splitlines()
    asks = [line.split()[0] for line in lines if line.startswith(("TURN", "BEGIN", "BOARD"))]
    assert asks == ["BOARD", "TURN", "TURN"]  # the opening as a position, then moves


def test_clock_is_told_in_milliseconds(tmp_path: Path) -> None:
    log = tmp_path / "log"
    record = play_game(
        GOMOKU, [brain("--log", str(log)), "random:seed=3"], TimeControl.parse("30+0"), max_plies=3
    )
    assert record.reason == "adjudication", record.detail
    lines = log.read_text().splitlines()
    at = lines.index("BEGIN")
    turn, match, left = lines[at - 3 : at]
    assert turn.startswith("INFO timeout_turn ") and match == "INFO timeout_match 30000"
    assert left.startswith("INFO time_left ") and int(left.split()[-1]) <= 30000
    record = play_game(GOMOKU, [brain("--log", str(log)), "random"], MOVE, max_plies=1)
    assert log.read_text().splitlines()[-5:-2] == [
        "INFO timeout_turn 5000",
        "INFO timeout_match 0",
        "INFO time_left 2147483647",
    ]


def test_turn_option_gives_odds(tmp_path: Path) -> None:
    log = tmp_path / "log"
    play_game(
        GOMOKU, [f"pbrain:turn=0.1:{brain('--log', str(log))[7:]}", "random"], MOVE, max_plies=1
    )
    assert "INFO timeout_turn 100" in log.read_text().splitlines()


def test_exactly_five_and_size_20_are_told(tmp_path: Path) -> None:
    log = tmp_path / "log"
    game = load_game("gomoku:size=20,overline=nowin")
    record = play_game(game, [brain("--log", str(log)), "random:seed=4"], MOVE, max_plies=2)
    assert record.reason == "adjudication", record.detail
    assert record.moves[0] == "K11"  # the brain's 10,9... nearest the centre of 20x20
    assert log.read_text().splitlines()[:2] == ["START 20", "INFO rule 1"]


def test_a_brain_that_refuses_the_size_loses_with_its_words() -> None:
    game = load_game("gomoku:size=20")
    record = play_game(game, ["random", brain("--sizes", "15")], MOVE)
    assert (record.reason, record.loser) == ("crash", 1)
    assert "refused 'START 20': unsupported size 20" in record.detail


@pytest.mark.parametrize(
    ("mode", "reason", "words"),
    [
        ("garbage", "illegal", "answered BEGIN with 'hello', not x,y"),
        ("offboard", "illegal", "'99,99' is off the 15x15 board"),
        ("error", "crash", "answered BEGIN with ERROR cannot move"),
        ("crash", "crash", "crashed: it exited before its move after BEGIN (exit status 7)"),
    ],
)
def test_a_brain_that_misbehaves_loses(mode: str, reason: str, words: str) -> None:
    record = play_game(GOMOKU, [brain("--mode", mode), "random"], MOVE)
    assert (record.reason, record.loser) == (reason, 0), record.detail
    assert words in record.detail


def test_an_occupied_point_loses() -> None:
    record = play_game(GOMOKU, ["random:seed=5", brain("--mode", "occupied")], MOVE)
    assert (record.reason, record.loser) == ("illegal", 1), record.detail
    assert "an occupied point" in record.detail


def test_a_brain_that_hangs_loses_on_time_and_is_killed() -> None:
    agent = load_agent(brain("--mode", "hang"))
    agent.reset(GOMOKU, grace=0.05)
    process = agent.process
    assert process is not None
    with pytest.raises(AgentFailure) as failure:
        agent.choose(GOMOKU.initial_state(), Limit(time=0.3))
    assert failure.value.reason == "time"
    assert "no move after BEGIN within 0.350 s" in failure.value.detail
    assert not process.alive()
    agent.close()


def test_chatter_and_a_brain_without_restart(tmp_path: Path) -> None:
    log = tmp_path / "log"
    agent = load_agent(brain("--mode", "chatty"))
    agent.reset(GOMOKU)
    try:
        assert GOMOKU.format_move(agent.choose(GOMOKU.initial_state(), Limit(time=5))) == "H8"
    finally:
        agent.close()
    agent = load_agent(brain("--mode", "norestart", "--log", str(log)))
    agent.reset(GOMOKU)
    try:
        agent.choose(GOMOKU.initial_state(), Limit(time=5))
        agent.choose(GOMOKU.play_moves(GOMOKU.parse_moves(["A1"])), Limit(time=5))
        assert log.read_text().splitlines()[-5:] == [
            "RESTART",
            "START 15",
            "BOARD",
            "0,14,2",
            "DONE",
        ]
    finally:
        agent.close()


def test_other_games_are_refused() -> None:
    record = play_game(load_game("tictactoe"), [brain(), "random"], MOVE)
    assert (record.reason, record.loser) == ("crash", 0)
    assert "Gomocup brains play gomoku, not tictactoe" in record.detail
    with pytest.raises(SpecError, match="not found"):
        load_agent("pbrain:./no-such-brain")


def test_arena_plays_itself_through_the_protocol() -> None:
    served = f"pbrain:{PY} -m arena pbrain gomoku greedy"
    for agents in ([served, brain()], [brain(), served], ["random:seed=7", served]):
        record = play_game(GOMOKU, agents, MOVE)
        assert record.reason == "normal", record.detail
        state = GOMOKU.play_moves(GOMOKU.parse_moves(record.moves))
        assert state.is_terminal() and state.returns() == record.returns
        assert record.winner == agents.index(served)  # greedy sees the others' fours


def test_max_memory_is_gomocups_not_the_address_space_limit(tmp_path: Path) -> None:
    # A brain told the 4 GB address-space limit as its max_memory asks for all of it for
    # its tables, and the limit kills it (Rapfi did): it is told Gomocup's 350 MB.
    log = tmp_path / "log"
    play_game(GOMOKU, [brain("--log", str(log)), "random"], MOVE, max_plies=1)
    assert f"INFO max_memory {350 << 20}" in log.read_text().splitlines()
    spec = f"pbrain:memory=200:{brain('--log', str(log))[7:]}"
    play_game(GOMOKU, [spec, "random"], MOVE, max_plies=1)
    assert f"INFO max_memory {150 << 20}" in log.read_text().splitlines()


def test_listed_and_kept_off_the_web_board_unless_programs_are_allowed() -> None:
    with pytest.raises(SpecError, match="--allow-programs"):
        check_agent(brain(), allow_programs=False)
    assert check_agent(brain(), allow_programs=True).label == "pbrain:python brain.py"
    listing = subprocess.run(
        [sys.executable, "-m", "arena", "agents"], capture_output=True, text=True, timeout=60
    ).stdout
    assert "pbrain:[OPTIONS:]COMMAND: a Gomocup brain" in listing and "turn=0.0" in listing
