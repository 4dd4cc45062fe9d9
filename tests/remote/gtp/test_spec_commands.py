"""The GTP 2 specification's command list (section 6.3) over plain GTP: each command with a
good and a bad argument, against ``arena gtp`` as a controller runs it (a process on pipes)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from arena.remote.gtp.protocol import read_reply

# command -> (a good line, a bad line): every command the specification lists.
SPEC = {
    "protocol_version": ("protocol_version", "protocol_version 3"),
    "name": ("name", "name arena"),
    "version": ("version", "version 1"),
    "known_command": ("known_command play", "known_command"),
    "list_commands": ("list_commands", "list_commands all"),
    "boardsize": ("boardsize 9", "boardsize 4"),
    "clear_board": ("clear_board", "clear_board now"),
    "komi": ("komi 6.5", "komi much"),
    "fixed_handicap": ("fixed_handicap 2", "fixed_handicap 10"),
    "place_free_handicap": ("place_free_handicap 3", "place_free_handicap 1"),
    "set_free_handicap": ("set_free_handicap C3 G7", "set_free_handicap C3 C3"),
    "play": ("play black E5", "play black Z9"),
    "genmove": ("genmove white", "genmove green"),
    "undo": ("undo", "undo 5"),
    "time_settings": ("time_settings 60 10 5", "time_settings 60 ten 5"),
    "time_left": ("time_left black 50 0", "time_left black soon 0"),
    "final_score": ("final_score", "final_score now"),
    "final_status_list": ("final_status_list dead", "final_status_list zombie"),
    "loadsgf": ("loadsgf game.sgf", "loadsgf ../outside.sgf"),
    "reg_genmove": ("reg_genmove black", "reg_genmove"),
    "showboard": ("showboard", "showboard big"),
    "quit": ("quit", "quit now"),
}
# Each good line in this order leaves the engine ready for the next (the handicap
# commands each need an empty board: clear_board comes before them).
ORDER = [*SPEC]
SETUP = {"fixed_handicap": "clear_board", "place_free_handicap": "clear_board",
         "set_free_handicap": "clear_board"}  # fmt: skip


@pytest.fixture
def engine(tmp_path: Path):  # type: ignore[no-untyped-def]
    allowed = tmp_path / "games"
    allowed.mkdir()
    (allowed / "game.sgf").write_text("(;GM[1]SZ[9]KM[7.5];B[ee];W[cc])")
    (tmp_path / "outside.sgf").write_text("(;GM[1]SZ[9];B[ee])")
    process = subprocess.Popen(
        [sys.executable, "-m", "arena", "gtp", "go:size=9", "random:seed=1",
         "--sgf-dir", str(allowed)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    yield process
    process.kill()
    process.wait()


def ask(process: subprocess.Popen, line: str) -> tuple[bool, str]:  # type: ignore[type-arg]
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(line + "\n")
    process.stdin.flush()
    return read_reply(process.stdout.readline)


def test_every_spec_command_with_a_good_and_a_bad_argument(engine) -> None:  # type: ignore[no-untyped-def]
    ok, listed = ask(engine, "list_commands")
    assert ok and set(SPEC) <= set(listed.split("\n"))
    for name in ORDER:
        good, bad = SPEC[name]
        if name in SETUP:
            assert ask(engine, SETUP[name])[0]
        answer = ask(engine, bad)  # refused, and the engine reads on ("quit now" too)
        assert not answer[0], f"{bad!r} was accepted: {answer[1]!r}"
        assert answer[1], f"{bad!r} was refused without a reason"
        if name in SETUP:
            assert ask(engine, SETUP[name])[0]
        answer = ask(engine, good)
        assert answer[0], f"{good!r} was refused: {answer[1]!r}"
        if name == "loadsgf":
            assert answer[1] == "black"  # E5 and C3 played: Black to move
    assert engine.wait(timeout=10) == 0
