"""Sabaki's own GTP library drives ``arena gtp``: ``@sabaki/gtp``'s ``Controller`` and
``ControllerStateTracker`` (installed from the npm registry by ``scripts/install-sabaki``,
which ``make test`` runs) sync handicap games, setup stones and undos, stream lz-analyze and
kata-analyze, and ask final_status_list, from drive.js."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).parent
ENGINE = [sys.executable, "-m", "arena", "gtp"]
VERTEX = r"(?:[A-HJ-T](?:1[0-9]|[1-9])|pass)"


def drive(scenario: str, *engine: str) -> dict[str, Any]:
    node = shutil.which("node")
    if node is None or not (HERE / "node_modules" / "@sabaki" / "gtp").is_dir():
        message = "node or @sabaki/gtp is missing: run scripts/install-sabaki"
        if os.environ.get("CI"):
            pytest.fail(f"{message}; CI must run this test")
        pytest.skip(message)
    done = subprocess.run(
        [node, str(HERE / "drive.js"), scenario, *ENGINE, *engine],
        capture_output=True, text=True, timeout=300, cwd=HERE,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout)
    assert out["failure"] is None, (out["failure"], out["transcript"][-20:])
    return out


def test_a_handicap_game_syncs_and_is_played() -> None:
    out = drive("handicap", "go:size=9", "mcts:rollouts=200,seed=1")
    result = out["result"]
    assert "> set_free_handicap C3 G7" in out["transcript"]
    black, white = result["board"]["X"], result["board"]["O"]
    assert {"C3", "G7", "E5"} <= set(black)  # the handicap stands, Black's moves too
    assert len(white) == len([m for m in result["moves"] if m != "pass"]) == len(set(white))
    assert result["history"][0] == {"name": "set_free_handicap", "args": ["C3", "G7"]}


def test_setup_stones_undo_and_resync() -> None:
    out = drive("setup", "go:size=9", "random:seed=1")
    result = out["result"]
    assert result["first"] == {"X": ["D4", "E5"], "O": ["C3", "C4"]}
    assert result["second"] == {"X": ["D4", "E5", "F6"], "O": ["C3", "C4", "G7"]}
    assert result["undone"] == result["first"]
    assert out["transcript"].count("> undo") == 2  # the tracker undid, not replayed
    assert result["replayed"] == {"X": ["J9"], "O": ["A1"]}
    assert not result["genmove"]["error"] and re.fullmatch(VERTEX, result["genmove"]["content"])


def split_moves(line: str) -> list[str]:
    assert line.startswith("info "), line
    return ["info " + part for part in re.split(r"(?:^| )info ", line) if part]


def parse_lz(text: str) -> dict[str, Any]:
    """One move of Leela Zero's format: integer winrate, prior and lcb in 0..10000."""
    match = re.fullmatch(
        rf"info move (?P<move>{VERTEX}) visits (?P<visits>\d+) winrate (?P<winrate>\d+) "
        rf"prior (?P<prior>\d+) lcb (?P<lcb>\d+) order (?P<order>\d+) pv(?P<pv>(?: {VERTEX})*)",
        text,
    )
    assert match, text
    move = {k: match[k] for k in ("move", "pv")}
    move.update({k: int(match[k]) for k in ("visits", "winrate", "prior", "lcb", "order")})
    assert all(0 <= move[k] <= 10000 for k in ("winrate", "prior", "lcb"))
    assert move["lcb"] <= move["winrate"]
    return move


def parse_kata(text: str) -> dict[str, Any]:
    """One move of KataGo's format: key-value pairs in any order, pv last; rates in [0, 1]."""
    head, _, pv = text.partition(" pv")
    tokens = head.split()
    assert tokens[0] == "info" and len(tokens) % 2 == 1, text
    move: dict[str, Any] = dict(zip(tokens[1::2], tokens[2::2], strict=True))
    assert re.fullmatch(VERTEX, move["move"]) and re.fullmatch(rf"(?: {VERTEX})*", pv), text
    for key in ("winrate", "prior", "lcb", "utility", "utilityLcb"):
        move[key] = float(move[key])
    assert 0 <= move["winrate"] <= 1 and 0 <= move["prior"] <= 1 and 0 <= move["lcb"] <= 1
    assert -1 <= move["utility"] <= 1 and move["lcb"] <= move["winrate"]
    move["visits"], move["order"], move["pv"] = int(move["visits"]), int(move["order"]), pv
    return move


@pytest.mark.parametrize("agent", ["mcts:seed=1", "ids"])
def test_lz_analyze_and_kata_analyze_stream_parseable_lines(agent: str) -> None:
    result = drive("analysis", "go:size=9", agent)["result"]
    for kind, parse in (("lz", parse_lz), ("kata", parse_kata)):
        stream = result[kind]
        assert not stream["error"] and stream["next"] == "arena"  # the next command answered
        lines = stream["lines"]
        assert lines[0] == "=" and lines[-1] == ""  # the reply, closed by the next command
        infos = lines[1:-1]
        assert len(infos) >= 2, (kind, lines)
        for line in infos:
            moves = [parse(text) for text in split_moves(line)]
            assert [m["order"] for m in moves] == list(range(len(moves)))
            assert all(m["pv"].split()[0] == m["move"] for m in moves)
            assert len({m["move"] for m in moves}) == len(moves)
            assert "E5" not in {m["move"] for m in moves}  # occupied: never analysed


def test_genmove_analyze_is_read_by_the_tracker() -> None:
    result = drive("thinking", "go:size=9", "mcts:time=0.5,seed=1")["result"]
    lines = result["lines"]
    assert not result["error"] and lines[0] == "=" and lines[-1] == ""
    played = lines[-2].removeprefix("play ")
    assert re.fullmatch(VERTEX, played)
    for line in lines[1:-2]:
        for text in split_moves(line):
            parse_lz(text)
    assert result["history"][-1] == {"name": "play", "args": ["W", played]}
    assert played in result["board"]["O"]


def test_final_status_list_dead_on_a_finished_game() -> None:
    result = drive("status", "go:size=5", "random:seed=1")["result"]
    assert result["dead"] == {"error": False, "content": "E3"}
    assert "E3" not in result["alive"]["content"].split()
    assert len(result["alive"]["content"].split()) == 11
    assert result["seki"] == {"error": False, "content": ""}
