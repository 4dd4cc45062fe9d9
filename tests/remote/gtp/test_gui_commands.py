"""What GUIs (Sabaki, Lizzie, GoGui) and servers' bridges send to ``arena gtp``: moves of one
colour in a row, handicaps, final_status_list, loadsgf within allowed folders, absurd clocks,
and lz-analyze / kata-analyze streamed by a real process."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from arena.agents import load_agent
from arena.core.agent import Agent
from arena.core.game import State
from arena.core.limit import Limit
from arena.formats.sgf import from_sgf
from arena.games import load_game
from arena.remote.gtp.server import GTPServer


def ok(server: GTPServer, line: str) -> str:
    text = server.handle(line) or ""
    assert text.startswith("="), f"{line!r} -> {text!r}"
    return text[1:].lstrip("0123456789").strip()


def fails(server: GTPServer, line: str) -> str:
    text = server.handle(line) or ""
    assert text.startswith("?"), f"{line!r} -> {text!r}"
    return text[1:].lstrip("0123456789").strip()


def go(spec: str = "go:size=9", agent: str = "random:seed=1") -> GTPServer:
    return GTPServer(load_game(spec), load_agent(agent))


def stones(server: GTPServer) -> tuple[set[str], set[str]]:
    state, game = server.state, server.game
    black = {game.format_move(p) for p in range(game.points) if state.black >> p & 1}
    white = {game.format_move(p) for p in range(game.points) if state.white >> p & 1}
    return black, white


# --- either colour at any time (issue 26 item 9) -------------------------------------


def test_setup_stones_of_one_colour_in_a_row_and_undo() -> None:
    server = go()
    for line in ("play b E5", "play b D4", "play w C3", "play w C4", "play b F6"):
        ok(server, line)
    assert stones(server) == ({"E5", "D4", "F6"}, {"C3", "C4"})
    assert server.state.to_move == 1  # Black moved last
    ok(server, "undo")
    assert stones(server) == ({"E5", "D4"}, {"C3", "C4"})
    ok(server, "undo")  # C4 and the pass inserted before it
    assert stones(server) == ({"E5", "D4"}, {"C3"}) and server.state.to_move == 0
    ok(server, "undo")
    ok(server, "undo")  # D4 and White's inserted pass
    assert stones(server) == ({"E5"}, set()) and server.state.to_move == 1
    assert not server.state.is_terminal()


def test_genmove_for_the_colour_not_to_move() -> None:
    server = go()
    ok(server, "play b E5")
    vertex = ok(server, "genmove b")  # Black again: White's turn passes
    assert vertex != "pass" and len(stones(server)[0]) == 2
    assert not server.state.is_terminal()


def test_reg_genmove_does_not_play() -> None:
    server = go()
    assert ok(server, "reg_genmove w")
    assert server.state.ply == 0 and server.line == []


# --- handicap ------------------------------------------------------------------------


def test_fixed_and_free_handicap() -> None:
    server = go("go:size=19")
    assert ok(server, "fixed_handicap 4").split() == ["D4", "Q16", "D16", "Q4"]
    assert server.state.to_move == 1 and len(stones(server)[0]) == 4
    assert fails(server, "fixed_handicap 2") == "board not empty"
    ok(server, "genmove w")
    ok(server, "undo")  # White's move; the handicap is not a move and stays
    assert fails(server, "undo") == "cannot undo" and len(stones(server)[0]) == 4
    ok(server, "clear_board")
    assert stones(server) == (set(), set())
    ok(server, "set_free_handicap C3 R17 K10")
    assert stones(server)[0] == {"C3", "R17", "K10"} and server.state.to_move == 1
    ok(server, "komi 0.5")  # the game is rebuilt: the stones stay
    assert stones(server)[0] == {"C3", "R17", "K10"}
    ok(server, "clear_board")
    assert ok(server, "place_free_handicap 9").count(" ") == 8


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("fixed_handicap 1", "invalid number of stones"),
        ("fixed_handicap 10", "invalid number of stones"),
        ("set_free_handicap C3", "syntax error"),
        ("set_free_handicap C3 pass", "bad vertex list"),
        ("set_free_handicap C3 Z3", "syntax error"),
    ],
)
def test_bad_handicaps(line: str, message: str) -> None:
    server = go()
    assert fails(server, line).startswith(message)
    assert server.state == server.game.initial_state()


def test_the_game_spec_handicap_is_the_start() -> None:
    server = go("go:size=9,handicap=2,komi=0.5")
    assert stones(server)[0] == {"C3", "G7"} and server.state.to_move == 1
    ok(server, "clear_board")
    assert stones(server)[0] == {"C3", "G7"}
    ok(server, "set_free_handicap E5 D4 F6")  # no move yet: a controller's handicap wins
    assert stones(server)[0] == {"E5", "D4", "F6"}


# --- final_status_list ---------------------------------------------------------------


def test_final_status_list_finds_the_dead_stones() -> None:
    server = go("go:size=5")
    moves = ["b1", "d1", "b2", "d2", "b3", "d3", "b4", "d4", "b5", "d5", "e3", "c3"]
    for i, vertex in enumerate(moves):
        ok(server, f"play {'bw'[i % 2]} {vertex}")
    ok(server, "play b pass")
    ok(server, "play w pass")
    assert ok(server, "final_status_list dead") == "E3"
    alive = ok(server, "final_status_list alive").split()
    assert "E3" not in alive and len(alive) == 11
    assert ok(server, "final_status_list seki") == ""
    assert fails(server, "final_status_list zombie").startswith("syntax error")
    othello = GTPServer(load_game("othello"), load_agent("random"))
    assert "for Go" in fails(othello, "final_status_list dead")


# --- loadsgf -------------------------------------------------------------------------


def test_loadsgf_reads_only_inside_the_allowed_folders(tmp_path: Path) -> None:
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    (allowed / "g.sgf").write_text("(;GM[1]SZ[9]KM[6.5];B[ee];W[cc];B[gg])")
    (tmp_path / "secret.sgf").write_text("(;GM[1]SZ[9];B[aa])")
    (allowed / "link.sgf").symlink_to(tmp_path / "secret.sgf")
    off = go()
    assert "loadsgf is off" in fails(off, "loadsgf g.sgf")
    server = GTPServer(
        load_game("go:size=9"), load_agent("random"), sgf_dirs=[allowed], read_sgf=from_sgf
    )
    assert ok(server, "loadsgf g.sgf") == "white"
    assert server.game.config["komi"] == 6.5 and server.state.ply == 3
    assert ok(server, "loadsgf g.sgf 2") == "white"  # the position before move 2
    assert server.state.ply == 1
    for name in ("../secret.sgf", str(tmp_path / "secret.sgf"), "link.sgf", "/etc/passwd"):
        assert fails(server, f"loadsgf {name}").startswith("cannot load file"), name
    (allowed / "bad.sgf").write_text("(;GM[1]SZ[9];B[zz])")
    assert "off the 9x9 board" in fails(server, "loadsgf bad.sgf")
    assert server.state.ply == 1  # a failed load leaves the game as it was


# --- clocks (issue 31 item 8) --------------------------------------------------------


class Timed(Agent):
    """Answers at once and remembers the limit it was given."""

    name = "timed"
    summary = "test"

    def choose(self, state: State, limit: Limit) -> int:
        self.limit = limit
        return state.legal_moves()[0]


@pytest.mark.parametrize(
    "settings",
    ["time_settings 0 1e300 1", "time_settings 100000000 0 0", "time_settings 0 1e308 1"],
)
def test_absurd_clocks_are_no_limit_and_genmove_answers(settings: str) -> None:
    agent = Timed()
    server = GTPServer(load_game("go:size=9"), agent, move_time=0.5)
    ok(server, settings)
    ok(server, "genmove b")
    assert agent.limit == Limit(time=0.5)  # the engine's default time
    ok(server, "time_settings 60 0 0")
    ok(server, "time_left w 1e300 0")
    ok(server, "genmove w")
    assert agent.limit == Limit(time=0.5)


def test_absurd_clock_with_a_real_search_answers() -> None:
    server = go("go:size=9", "mcts:seed=1")
    ok(server, "time_settings 0 1e300 1")
    started = time.perf_counter()
    assert ok(server, "genmove b")
    assert time.perf_counter() - started < 30


# --- analysis, through a real process ------------------------------------------------

LZ_MOVE = re.compile(
    r"info move (?P<move>[A-HJ-T]\d{1,2}|pass) visits (?P<visits>\d+) winrate (?P<w>\d+) "
    r"prior (?P<prior>\d+) lcb (?P<lcb>\d+) order (?P<order>\d+) "
    r"pv(?P<pv>( ([A-HJ-T]\d{1,2}|pass))*)"
)


class Process:
    """``arena gtp`` on pipes, its stdout read by a thread line by line."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "arena", "gtp", *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )  # fmt: skip
        self.lines: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def wait_for(self, predicate, timeout: float = 60.0) -> None:  # type: ignore[no-untyped-def]
        end = time.monotonic() + timeout
        while not predicate(self.lines):
            assert time.monotonic() < end, f"timed out; read {self.lines[-5:]}"
            time.sleep(0.02)

    def close(self) -> None:
        self.process.kill()
        self.process.wait()


@pytest.mark.parametrize("agent", ["mcts:seed=1", "ids"])
def test_lz_analyze_streams_until_the_next_command(agent: str) -> None:
    engine = Process("go:size=9", agent)
    try:
        engine.send("1 play b E5")
        engine.wait_for(lambda lines: "=1" in lines)
        start = len(engine.lines)
        engine.send("2 lz-analyze w 10")
        engine.wait_for(lambda lines: sum(x.startswith("info") for x in lines) >= 3)
        engine.send("3 name")
        engine.wait_for(lambda lines: "=3 arena" in lines)
        reply = engine.lines[start:]
        assert reply[0] == "=2"
        end = reply.index("")  # the analysis reply ends with an empty line before =3
        infos = reply[1:end]
        assert len(infos) >= 3 and reply[end + 1] == "=3 arena"
        for line in infos:
            moves = re.split(r" (?=info )", line)
            for order, text in enumerate(moves):
                match = LZ_MOVE.fullmatch(text)
                assert match, text
                assert int(match["order"]) == order
                assert 0 <= int(match["w"]) <= 10000 and 0 <= int(match["lcb"]) <= 10000
                assert match["pv"].split()[0] == match["move"]
    finally:
        engine.close()


def test_an_empty_line_stops_the_analysis_and_quit_works() -> None:
    engine = Process("go:size=9", "mcts:seed=1")
    try:
        engine.send("kata-analyze 5")
        engine.wait_for(lambda lines: any(x.startswith("info") for x in lines))
        engine.send("")
        engine.wait_for(lambda lines: lines and lines[-1] == "")
        engine.send("quit")
        assert engine.process.wait(timeout=20) == 0
    finally:
        engine.close()


def test_every_gogui_analysis_answers_in_its_type() -> None:
    server = go("go:size=9", "mcts:rollouts=300,seed=1")
    ok(server, "play b E5")
    menu = ok(server, "gogui-analyze_commands").split("\n")
    assert len(menu) == 5
    for entry in menu:
        kind, label, command = entry.split("/")
        assert label and kind in ("gfx", "var", "string", "plist")
        text = ok(server, command)
        if kind == "gfx":
            assert [line.split()[0] for line in text.split("\n")] == ["LABEL", "VAR", "TEXT"]
        elif kind == "var":
            assert text and all(re.fullmatch(r"[A-HJ]\d|pass", v) for v in text.split())
        elif kind == "plist":
            assert all(re.fullmatch(r"[A-HJ]\d", v) for v in text.split())
        else:
            assert "white to move" in text
    assert server.state.ply == 1  # analyses never play


def test_genmove_analyze_streams_then_plays() -> None:
    engine = Process("go:size=9", "mcts:time=0.5,seed=1")
    try:
        engine.send("1 play b E5")
        engine.send("2 lz-genmove_analyze w 5")
        engine.wait_for(lambda lines: any(x.startswith("play ") for x in lines))
        engine.send("3 showboard")
        engine.wait_for(lambda lines: any(x.startswith("=3") for x in lines))
        reply = engine.lines[engine.lines.index("=2") :]
        end = next(i for i, x in enumerate(reply) if x.startswith("play "))
        assert reply[end + 1] == "" and reply[end + 2] == "=3 Black to move"
        assert re.fullmatch(r"play ([A-HJ]\d|pass)", reply[end])
        for line in reply[1:end]:
            assert all(LZ_MOVE.fullmatch(t) for t in re.split(r" (?=info )", line)), line
    finally:
        engine.close()


class Plain:
    """A user's class: choose() only, no Agent base (no listener, no stop, no report)."""

    def choose(self, state: State, limit: Limit) -> int:
        return state.legal_moves()[0]


def test_analysis_and_genmove_analyze_with_a_plain_class() -> None:
    written: list[str] = []
    server = GTPServer(load_game("go:size=5"), Plain(), write=written.append)  # type: ignore[arg-type]
    assert server.handle("1 lz-analyze 10") == ""
    time.sleep(0.3)
    assert server.handle("2 name") == "=2 arena\n\n"
    assert "".join(written) == "=1\n\n"  # no report: an empty analysis, closed
    written.clear()
    assert server.handle("3 kata-genmove_analyze b 10") == ""
    assert "".join(written) == "=3\nplay A5\n\n"
    assert server.state.ply == 1
