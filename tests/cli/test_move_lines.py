"""One reader for a line of moves (issue 26): every command and the web board take moves
separated by spaces or commas, packed (``f5d6c3``), one argument or several."""

from __future__ import annotations

import asyncio
import json

import pytest

from arena.cli.main import main
from arena.core.errors import MoveSyntaxError
from arena.games import load_game
from arena.web.session import Session

FORMS = (["f5 d6 c3"], ["f5d6c3"], ["f5", "d6", "c3"], ["f5,d6,c3"], ["F5D6", "c3"])


def output(capsys: pytest.CaptureFixture, argv: list[str]) -> str:
    assert main(argv) == 0
    return capsys.readouterr().out  # type: ignore[no-any-return]


def test_show_reads_every_form(capsys: pytest.CaptureFixture) -> None:
    seen = {output(capsys, ["show", "othello", *form]) for form in FORMS}
    assert len(seen) == 1 and "ply 3" in seen.pop()


def test_solve_reads_every_form(capsys: pytest.CaptureFixture) -> None:
    forms = (["b2 a1"], ["b2a1"], ["b2", "a1"], ["b2,a1"])
    seen = {output(capsys, ["solve", "tictactoe", *form]).split("best:")[0] for form in forms}
    assert len(seen) == 1


def test_analyze_reads_a_packed_line(capsys: pytest.CaptureFixture) -> None:
    spaced = output(capsys, ["analyze", "tictactoe", "b2 a1", "greedy:seed=1"])
    packed = output(capsys, ["analyze", "tictactoe", "b2a1", "greedy:seed=1"])
    strip = [line for line in spaced.splitlines() if "nodes in" not in line]
    assert strip == [line for line in packed.splitlines() if "nodes in" not in line]


def test_packing_reads_each_notation() -> None:
    assert load_game("connect4").parse_moves("4453") == [3, 3, 4, 2]
    go = load_game("go:size=9")
    assert [go.format_move(m) for m in go.parse_moves("D4passE5")] == ["D4", "pass", "E5"]
    gomoku = load_game("gomoku")
    assert [gomoku.format_move(m) for m in gomoku.parse_moves("H8H9J10")] == ["H8", "H9", "J10"]
    with pytest.raises(MoveSyntaxError, match="'f5zz'"):
        load_game("othello").parse_moves("f5zz")  # the error names the word it could not read


def test_the_web_board_reads_the_same_lines() -> None:
    async def load() -> dict:
        session = Session()
        await session.handle(json.dumps({"type": "new", "game": "othello", "moves": "f5d6c3"}))
        session.close()
        return session.outbox.get_nowait()

    state = asyncio.run(load())
    assert state["type"] == "state" and state["moves"] == ["f5", "d6", "c3"]
