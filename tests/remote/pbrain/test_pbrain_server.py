"""``arena pbrain``: arena's agents as a Gomocup brain, command by command and as a program."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from arena.agents import load_agent
from arena.core.limit import Limit
from arena.games import load_game
from arena.remote.pbrain.server import PbrainServer

GOMOKU = load_game("gomoku")


class Scripted:
    """An agent that plays the given moves (arena's notation) and remembers its limits."""

    def __init__(self, *moves: str, game: str = "gomoku") -> None:
        self.game = load_game(game)
        self.moves = list(moves)
        self.limits: list[Limit] = []

    def choose(self, state, limit):  # type: ignore[no-untyped-def]
        self.limits.append(limit)
        return state.game.parse_move(self.moves.pop(0))


def talk(server: PbrainServer, *lines: str) -> list[str]:
    out: list[str] = []
    for line in lines:
        out += server.handle(line)
    return out


def test_coordinates_match_the_board() -> None:
    # The manager's 0,0 is the top-left point A15; our B1 (bottom row) is 1,14.
    agent = Scripted("B1", "P14")
    server = PbrainServer(GOMOKU, agent)  # type: ignore[arg-type]
    assert talk(server, "START 15", "TURN 0,0") == ["OK", "1,14"]
    assert server.state is not None and server.state.stone(GOMOKU.parse_move("A15")) == 0
    assert talk(server, "TURN 2,3") == ["14,1"]
    assert [GOMOKU.format_move(m) for m in server.moves] == ["A15", "B1", "C12", "P14"]


def test_board_sets_the_position_with_the_mover_owning_field_1() -> None:
    agent = Scripted("A1")
    server = PbrainServer(GOMOKU, agent)  # type: ignore[arg-type]
    out = talk(server, "START 15", "BOARD", "7,7,2", "0,0,1", "8,7,2", "DONE")
    assert out == ["OK", "0,14"]
    state = server.state
    assert state is not None
    assert [GOMOKU.format_move(m) for m in server.moves] == ["H8", "A15", "J8", "A1"]
    assert state.stone(GOMOKU.parse_move("H8")) == 0 and state.stone(GOMOKU.parse_move("A15")) == 1
    assert talk(server, "TAKEBACK 0,14") == ["OK"] and len(server.moves) == 3
    assert talk(server, "TAKEBACK 0,14")[0].startswith("ERROR TAKEBACK 0,14: not the last")
    bad = talk(server, "BOARD", "7,7,1", "8,8,1", "DONE")
    assert bad[0].startswith("ERROR BOARD: 2 own stones and 0 of the opponent's")
    assert talk(server, "BOARD", "7,7,3", "DONE")[0].startswith("ERROR BOARD: field 3")


def test_rules_sizes_and_restart() -> None:
    server = PbrainServer(GOMOKU, load_agent("greedy"))
    assert talk(server, "START 20", "INFO rule 1") == ["OK"]
    assert server.game is not None
    assert (server.game.config["size"], server.game.config["overline"]) == (20, "nowin")
    assert talk(server, "INFO rule 0") == [] and server.game.config["overline"] == "win"
    assert talk(server, "INFO rule 4") == [
        "ERROR rule 4 is renju: arena plays freestyle (rule 0) and exactly five (rule 1)"
    ]
    assert talk(server, "RECTSTART 15,20") == [
        "ERROR RECTSTART 15,20: arena plays square boards only"
    ]
    assert talk(server, "RECTSTART 15,15") == ["OK"] and server.game.config["size"] == 15
    talk(server, "BEGIN")
    assert talk(server, "BEGIN") == ["ERROR BEGIN on a board with stones: RESTART or START first"]
    assert talk(server, "RESTART") == ["OK"] and server.moves == []
    # The rules the command line gave hold until the manager says otherwise.
    nowin = PbrainServer(load_game("gomoku:overline=nowin"), load_agent("greedy"))
    talk(nowin, "START 15")
    assert nowin.game is not None and nowin.game.config["overline"] == "nowin"


def test_exactly_five_is_played_after_info_rule_1() -> None:
    # Black's six in a row: a win in freestyle, nothing under exactly five.
    six = ["A8", "A1", "B8", "A2", "C8", "A3", "E8", "A4", "F8", "B2"]
    agent = Scripted("D8")
    server = PbrainServer(GOMOKU, agent)  # type: ignore[arg-type]
    cells = [GOMOKU.parse_move(m) for m in six]
    lines = [f"{c % 15},{c // 15},{1 + i % 2}" for i, c in enumerate(cells)]  # Black to move
    assert talk(server, "START 15", "INFO rule 1", "BOARD", *lines, "DONE") == ["OK", "3,7"]
    assert server.state is not None and not server.state.is_terminal()
    server = PbrainServer(GOMOKU, Scripted("D8"))  # type: ignore[arg-type]
    talk(server, "START 15", "INFO rule 0", "BOARD", *lines, "DONE")
    assert server.state is not None and server.state.winner() == 0


def test_bad_lines_get_one_error_line() -> None:
    server = PbrainServer(GOMOKU, load_agent("greedy"))
    assert talk(server, "BEGIN") == ["ERROR no game: START SIZE first"]
    assert talk(server, "BOARD", "7,7,1", "8,8,2", "DONE") == ["ERROR no game: START SIZE first"]
    assert talk(server, "START fifteen") == [
        "ERROR START fifteen: expected START SIZE, e.g. START 15"
    ]
    assert talk(server, "START 30") == ["ERROR unsupported size 30: arena plays boards of 5 to 25"]
    assert talk(server, "START 15", "TURN 7;7") == [
        "OK",
        "ERROR '7;7' is not a point: expected x,y such as 7,7",
    ]
    assert talk(server, "TURN 15,0") == ["ERROR '15,0' is off the 15x15 board (x and y are 0..14)"]
    assert talk(server, "INFO timeout_turn soon") == [
        "ERROR INFO timeout_turn soon: expected a whole number"
    ]
    assert talk(server, "INFO folder /tmp", "INFO evaluate 1,1", "", "   ") == []
    assert talk(server, "SWAP2BOARD") == ["UNKNOWN SWAP2BOARD"]
    about = talk(server, "ABOUT")[0]
    assert about.startswith('name="arena greedy", version="') and 'country="' in about


def test_an_agent_that_fails_costs_an_error_line_not_the_brain() -> None:
    class Broken:
        def choose(self, state, limit):  # type: ignore[no-untyped-def]
            raise ZeroDivisionError("oops")

    log = []

    class Log:
        def write(self, text: str) -> None:
            log.append(text)

        def flush(self) -> None:
            pass

    server = PbrainServer(GOMOKU, Broken(), log=Log())  # type: ignore[arg-type]
    assert talk(server, "START 15", "BEGIN") == [
        "OK",
        "ERROR the agent failed: ZeroDivisionError: oops",
    ]
    assert "ZeroDivisionError: oops" in "".join(log)
    assert talk(server, "ABOUT")[0].startswith('name="arena')


def test_time_follows_timeout_turn_and_time_left() -> None:
    agent = Scripted("H8", "J9", "K10", "L11")
    server = PbrainServer(GOMOKU, agent)  # type: ignore[arg-type]
    talk(server, "START 15", "BEGIN")
    assert agent.limits[-1] == Limit()  # nothing said: the agent's own budget
    talk(server, "INFO timeout_turn 1000", "INFO timeout_match 0", "INFO time_left 2147483647")
    talk(server, "TURN 0,0")
    assert agent.limits[-1] == Limit(time=0.95)  # less a reserve for the way back
    talk(server, "INFO timeout_turn 5000", "INFO timeout_match 60000", "INFO time_left 2000")
    talk(server, "TURN 0,1")
    assert agent.limits[-1].time is not None and agent.limits[-1].time < 0.6  # a share of 2 s
    talk(server, "INFO timeout_turn 0", "INFO time_left 2147483647", "INFO timeout_match 0")
    talk(server, "TURN 0,2")
    assert agent.limits[-1].time is not None and agent.limits[-1].time <= 0.05


def run_brain(
    lines: list[str], *args: str, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "arena", "pbrain", *args],
        input="".join(line + "\r\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_the_program_keeps_the_agents_prints_out_of_the_protocol(tmp_path: Path) -> None:
    noisy = tmp_path / "noisy agent.py"
    noisy.write_text(
        textwrap.dedent(
            """
            print("loading noisy agent")
            class Noisy:
                def choose(self, state, limit):
                    print("thinking about", state.ply)
                    return state.legal_moves()[0]
            """
        )
    )
    done = run_brain(
        ["START 15", "INFO timeout_turn 2000", "BEGIN", "TURN 7,7", "END"],
        "gomoku",
        f"py:{noisy}:Noisy",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["OK", "0,0", "1,0"]


def test_the_program_explains_itself_and_refuses_other_games() -> None:
    done = run_brain([], "--help")
    assert done.returncode == 0 and "Gomocup" in done.stdout and "pbrain" in done.stdout
    done = run_brain([], "connect4", "greedy")
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "Gomocup brains play gomoku, not connect4" in done.stderr
    done = run_brain([], "gomoku", "nosuchagent")
    assert done.returncode != 0 and "Traceback" not in done.stderr


@pytest.mark.parametrize("garbage", ["\udcff\udcfe", "TURN " + "9" * 100000])
def test_the_program_survives_garbage(garbage: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "arena", "pbrain", "greedy"],
        input=f"START 15\n{garbage}\nABOUT\nEND\n".encode("utf-8", "surrogateescape"),
        capture_output=True,
        timeout=120,
    )
    lines = done.stdout.decode().splitlines()
    assert done.returncode == 0 and lines[0] == "OK" and lines[-1].startswith('name="arena greedy"')
    assert b"Traceback" not in done.stderr


def test_an_agent_that_reads_stdin_cannot_eat_the_managers_lines(tmp_path: Path) -> None:
    """``input()`` in the agent reads nothing (EOFError): the lines are the protocol's."""
    greedy_reader = tmp_path / "reader.py"
    greedy_reader.write_text(
        textwrap.dedent(
            """
            class Reader:
                def choose(self, state, limit):
                    try:
                        print("read:", input())
                    except EOFError:
                        pass
                    return state.legal_moves()[0]
            """
        )
    )
    done = run_brain(["START 15", "BEGIN", "ABOUT", "END"], "gomoku", f"py:{greedy_reader}:Reader")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:2] == ["OK", "0,0"] and len(lines) == 3 and 'name="' in lines[2]
    assert "read:" not in done.stderr
