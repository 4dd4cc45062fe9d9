"""The cmd: line protocol: its parsers on bad input (fuzzed), and the serve loop."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.agents import load_agent
from arena.core.limit import Limit
from arena.games import load_game
from arena.remote.protocol import (
    ProtocolError,
    format_hello,
    format_limit,
    format_turn,
    parse_answer,
    parse_hello,
    parse_limit,
    parse_turn,
)
from arena.remote.serve import serve

C4 = load_game("connect4")

limits = st.builds(
    Limit,
    time=st.none() | st.floats(0.001, 1e5),
    depth=st.none() | st.integers(1, 100),
    rollouts=st.none() | st.integers(1, 10**9),
    nodes=st.none() | st.integers(1, 10**9),
    clock=st.none() | st.floats(0.001, 1e5),
    increment=st.none() | st.floats(0.001, 100),
    moves_to_go=st.none() | st.integers(1, 100),
)


@given(limits, st.lists(st.sampled_from(["1", "4", "7"]), max_size=20))
def test_turn_round_trips(limit: Limit, moves: list[str]) -> None:
    parsed, back = parse_turn(format_turn(limit, moves))
    assert back == moves
    assert format_limit(parsed) == format_limit(limit)


@given(st.sampled_from(["connect4:rows=6,cols=7,k=4", "go:size=9"]), st.integers(0, 1),
       st.none() | st.integers(-(2**40), 2**40))  # fmt: skip
def test_hello_round_trips(game: str, player: int, seed: int | None) -> None:
    hello = parse_hello(format_hello(game, player, seed))
    assert (hello.game, hello.player, hello.seed) == (game, player, seed)


@settings(max_examples=500)
@given(st.text(max_size=80))
def test_parsers_reject_garbage_with_protocol_errors_only(line: str) -> None:
    for parse in (parse_hello, parse_turn, parse_limit, lambda text: parse_answer(C4, text)):
        try:
            parse(line)
        except ProtocolError as exc:
            assert "\n" not in str(exc)  # one line, whatever the input held


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("arena 2 connect4 0 -", "version '2' is not supported"),
        ("arena 1 connect4 2 -", "player must be 0 or 1"),
        ("arena 1 connect4 0 x", "seed must be an integer"),
        ("hello", "expected 'arena VERSION"),
    ],
)
def test_bad_hellos(line: str, words: str) -> None:
    with pytest.raises(ProtocolError, match=words):
        parse_hello(line)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("time=-1", "time must be > 0"),
        ("depth=2.5", "depth must be an integer"),
        ("speed=3", "unknown parameter 'speed'"),
        ("time", "malformed parameter"),
        ("time=1,time=2", "time given twice"),
    ],
)
def test_bad_limits(text: str, words: str) -> None:
    with pytest.raises(ProtocolError, match=words):
        parse_limit(text)


def run_serve(agent: str, text: str) -> tuple[int, list[str]]:
    out = io.StringIO()
    code = serve(load_agent(agent), stdin=io.StringIO(text), stdout=out)
    return code, out.getvalue().splitlines()


def test_serve_answers_each_turn_and_follows_the_moves() -> None:
    code, lines = run_serve(
        "alphabeta:depth=4",
        "arena 1 connect4:rows=6,cols=7,k=4 1 -\nturn depth=4 1 7 2 7 3\nturn - 7 1 7 2 7\nquit\n",
    )
    assert code == 0
    assert lines[0].startswith("ready alphabeta")
    # Three in a row for the first player: the block is forced (then another line).
    assert lines[1:] == ["4", "7"]


def test_serve_restarts_when_the_moves_change_line() -> None:
    # The third turn is not a continuation of the second: X wins at a3 there, must block c1 here.
    turns = [[], ["a1", "b2", "a2", "c1"], ["c3", "b2", "b3", "a3"]]
    code, lines = run_serve(
        "alphabeta:depth=2",
        "arena 1 tictactoe 0 -\n" + "".join(f"turn - {' '.join(t)}\n" for t in turns) + "quit\n",
    )
    assert code == 0 and lines[0].startswith("ready alphabeta")
    # Each answer is the one a fresh agent gives in that turn's position: after the
    # change of line the server searched the new line, not the old one or its tree.
    game = load_game("tictactoe")
    expected = []
    for moves in turns:
        state = game.play_moves(game.parse_moves(moves))
        fresh = load_agent("alphabeta:depth=2")
        fresh.reset(game)
        expected.append(game.format_move(fresh.choose(state, Limit())))
    assert lines[1:] == expected
    assert expected[1:] == ["a3", "c1"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("turn - 4\n", "turn before the 'arena' hello"),
        ("arena 1 connect4 0 -\nturn - 9\n", "move 1 of the turn"),
        ("arena 1 connect4 0 -\nmove 4\n", "unknown message"),
        ("arena 1 nogame 0 -\n", "unknown game"),
    ],
)
def test_serve_stops_on_a_broken_protocol_with_one_line(
    text: str, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = run_serve("random", text)
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and words in err[0]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(max_size=30), max_size=6))
def test_serve_never_raises_on_fuzzed_messages(lines: list[str]) -> None:
    text = "arena 1 tictactoe 0 -\n" + "\n".join(line.replace("\n", " ") for line in lines)
    code, _ = run_serve("random:seed=1", text + "\n")
    assert code in (0, 2)
