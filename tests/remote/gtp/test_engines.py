"""`arena gtp` as a real engine process: against itself, GNU Go and GRhino.

A small referee drives two GTP engines over pipes: it asks the side to move
for a move (``genmove``), checks it by arena's rules and tells the other side
(``play``), until the game is over. At the end both engines must show the
board the referee has.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass, field

import pytest

from arena.core.game import Game, State
from arena.games import load_game
from arena.remote.gtp.protocol import colour_name, from_vertex, read_reply, to_vertex
from helpers import find_engine


@dataclass
class Engine:
    """One GTP engine process."""

    argv: list[str]
    wants_passes: bool = True
    """False for GRhino, which passes by itself and answers 'play X pass' with a syntax error."""
    proc: subprocess.Popen[str] = field(init=False)

    def __post_init__(self) -> None:
        self.proc = subprocess.Popen(
            self.argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )

    def send(self, command: str) -> tuple[bool, str]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        return read_reply(self.proc.stdout.readline)

    def ask(self, command: str) -> str:
        ok, text = self.send(command)
        assert ok, f"{self.argv[0]}: {command!r} -> ? {text}"
        return text

    def close(self) -> int:
        try:
            self.ask("quit")
        finally:
            code = self.proc.wait(timeout=10)
            assert self.proc.stdin is not None and self.proc.stdout is not None
            self.proc.stdin.close()
            self.proc.stdout.close()
        return code


def arena_gtp(game: str, agent: str) -> Engine:
    return Engine([sys.executable, "-m", "arena", "gtp", game, agent])


def board_of(text: str) -> dict[str, str]:
    """The stones of a ``showboard`` (arena's, GNU Go's or GRhino's): vertex -> 'X' or 'O'.

    The header is the line of column letters; a row starts with its number.
    """
    columns: list[str] = []
    stones: dict[str, str] = {}
    for line in text.splitlines():
        tokens = line.split()
        if not columns and tokens and all(len(t) == 1 and t.isalpha() for t in tokens):
            columns = [t.upper() for t in tokens]
        elif columns and tokens and tokens[0].isdigit():
            for column, cell in zip(columns, tokens[1 : 1 + len(columns)], strict=True):
                if cell in ("X", "O"):
                    stones[f"{column}{tokens[0]}"] = cell
    assert columns, f"no board in {text!r}"
    return stones


@dataclass
class Result:
    state: State
    vertices: list[str]
    resigned: int | None = None


def referee(game: Game, engines: tuple[Engine, Engine], komi: float | None = None) -> Result:
    """Play one game between ``engines`` (black, white) by arena's rules."""
    size = game.config["size"]
    for engine in engines:
        engine.ask(f"boardsize {size}")
        engine.ask("clear_board")
        if komi is not None:
            engine.ask(f"komi {komi}")
    state = game.initial_state()
    vertices: list[str] = []
    while not state.is_terminal():
        mover = state.to_move
        colour = colour_name(mover)
        vertex = engines[mover].ask(f"genmove {colour}")
        if vertex.lower() == "resign":
            return Result(state, vertices, resigned=mover)
        move = from_vertex(game, vertex)
        state = state.play(move)  # an illegal move fails the test here, with the reason
        vertices.append(to_vertex(game, move))
        other = engines[1 - mover]
        if vertex.lower() != "pass" or other.wants_passes:
            other.ask(f"play {colour} {vertex}")
    return Result(state, vertices)


def score_text(margin: float) -> str:
    return "0" if margin == 0 else f"{'B' if margin > 0 else 'W'}+{abs(margin):g}"


def test_arena_gtp_plays_itself_over_pipes() -> None:
    game = load_game("go:size=5,komi=2.5")  # the engines start at 7.5 and are told 2.5
    black = arena_gtp("go:size=5", "random:seed=1")
    white = arena_gtp("go:size=5", "random:seed=2")
    try:
        assert black.ask("protocol_version") == "2"
        assert black.send("play black Z9")[0] is False  # an error, and the engine goes on
        result = referee(game, (black, white), komi=2.5)
        assert result.state.is_terminal() and result.resigned is None
        expected = board_of(result.state.render())
        for engine in (black, white):
            assert board_of(engine.ask("showboard")) == expected
            assert engine.ask("final_score") == score_text(result.state.score())  # type: ignore[arg-type]
            assert engine.ask("undo") == ""
    finally:
        assert black.close() == 0
        assert white.close() == 0


def test_arena_gtp_reports_bad_specs_in_one_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "arena", "gtp", "go:size=99", "random"],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "size=99" in done.stderr


def test_arena_gtp_ends_at_end_of_input() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "arena", "gtp", "othello", "random"],
        input="1 genmove black\n2 fly\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0
    assert done.stdout.startswith("=1 ") and done.stdout.endswith("?2 unknown command\n\n")


def test_a_game_against_gnu_go() -> None:
    gnugo = find_engine("gnugo")
    game = load_game("go:size=9,komi=7.5")
    ours = arena_gtp(game.spec, "mcts:rollouts=150,seed=5")
    theirs = Engine(
        [gnugo, "--mode", "gtp", "--level", "1", "--chinese-rules", "--positional-superko"]
    )
    try:
        result = referee(game, (theirs, ours), komi=7.5)
        assert len(result.vertices) >= 10
        expected = board_of(result.state.render())
        assert board_of(ours.ask("showboard")) == expected
        assert board_of(theirs.ask("showboard")) == expected
        if result.resigned is None:
            assert ours.ask("final_score") == score_text(result.state.score())  # type: ignore[arg-type]
            assert theirs.ask("final_score")[:2] in ("B+", "W+", "0")
    finally:
        assert ours.close() == 0
        theirs.close()


@pytest.mark.parametrize(("our_colour", "told_passes"), [(0, False), (1, True)])
def test_a_game_against_grhino(our_colour: int, told_passes: bool) -> None:
    """Either colour; our server told its opponent's passes, or left to insert them itself."""
    rhino = find_engine("gtp-rhino")
    game = load_game("othello")
    ours = arena_gtp("othello", f"mcts:rollouts=100,seed={3 + our_colour}")
    ours.wants_passes = told_passes
    theirs = Engine([rhino, "--level", "1"], wants_passes=False)
    try:
        result = referee(game, (ours, theirs) if our_colour == 0 else (theirs, ours))
        assert result.resigned is None and result.state.is_terminal()
        expected = board_of(result.state.render())
        assert board_of(ours.ask("showboard")) == expected
        assert board_of(theirs.ask("showboard")) == expected
        margin = result.state.score()
        assert ours.ask("final_score") == score_text(margin)  # type: ignore[arg-type]
        # GRhino scores as Othello tournaments do: empty squares go to the winner.
        empty = game.config["size"] ** 2 - len(expected)
        winners = margin + (empty if margin > 0 else -empty if margin < 0 else 0)  # type: ignore[operator]
        assert theirs.ask("final_score") == score_text(winners)
    finally:
        assert ours.close() == 0
        theirs.close()
