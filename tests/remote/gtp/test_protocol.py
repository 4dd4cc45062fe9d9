"""GTP framing: preprocessing, commands, replies, colours and vertices."""

from __future__ import annotations

import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena.games import load_game
from arena.remote.gtp.protocol import (
    Command,
    GTPError,
    clean_line,
    colour_name,
    format_reply,
    from_vertex,
    parse_colour,
    parse_command,
    read_reply,
    to_vertex,
)


@pytest.mark.parametrize(
    ("raw", "cleaned"),
    [
        ("play black D4\n", "play black D4"),
        ("play\tblack\tD4", "play black D4"),
        ("\x01pla\x7fy black\r D4\r\n", "play black D4"),
        ("genmove w # why not", "genmove w"),
        ("# a comment only", ""),
        ("   \t  ", ""),
        ("", ""),
    ],
)
def test_clean_line_follows_the_preprocessing_rules(raw: str, cleaned: str) -> None:
    assert clean_line(raw) == cleaned


def test_parse_command_reads_ids_names_and_arguments() -> None:
    assert parse_command("42 PLAY b d4") == Command(42, "play", ("b", "d4"))
    assert parse_command("  quit  ") == Command(None, "quit", ())
    assert parse_command("007 name") == Command(7, "name", ())
    assert parse_command("#") is None
    assert parse_command("\n") is None


def test_parse_command_rejects_an_id_without_a_command() -> None:
    with pytest.raises(GTPError, match="without a command") as err:
        parse_command("12   # nothing else")
    assert err.value.id == 12


def test_a_non_ascii_digit_is_not_an_id() -> None:
    # '²'.isdigit() is True but int('²') fails: the token is a command name.
    assert parse_command("² name") == Command(None, "²", ("name",))


def test_format_reply_success_and_failure() -> None:
    assert format_reply(None, True) == "=\n\n"
    assert format_reply(3, True, "C3") == "=3 C3\n\n"
    assert format_reply(3, False, "illegal move") == "?3 illegal move\n\n"
    assert format_reply(None, True, "a  \nb\n\n\nc\n") == "= a\nb\nc\n\n"
    assert format_reply(1, True, "\n  A B\n1 . .") == "=1\n  A B\n1 . .\n\n"


def _well_formed(reply: str) -> bool:
    body = reply[:-2]
    return (
        reply[:1] in "=?"
        and reply.endswith("\n\n")
        and "\n\n" not in body
        and not body.endswith("\n")
        and all(line == line.rstrip() for line in body.split("\n"))
    )


@given(
    st.one_of(st.none(), st.integers(0, 10**6)),
    st.booleans(),
    # Printable text and line breaks (format_reply drops control characters).
    st.text(st.characters(codec="utf-8", exclude_categories=("Cc",)) | st.just("\n"), max_size=60),
)
def test_format_reply_is_always_well_formed_and_reads_back(
    id: int | None, ok: bool, text: str
) -> None:
    reply = format_reply(id, ok, text)
    assert _well_formed(reply)
    got_ok, got_text = read_reply(io.StringIO(reply).readline)
    assert got_ok == ok
    # What survives the round trip: the printable lines, trimmed.
    assert got_text.split() == " ".join(text.split("\n")).split() or not got_text.strip()


def test_read_reply_from_lines_or_a_readline() -> None:
    lines = iter(["\n", "=5 D4\n", "\n", "= second\n", "\n"])
    assert read_reply(lines) == (True, "D4")
    assert read_reply(lines) == (True, "second")
    stream = io.StringIO("= \n   A B C\n 1 . . .\n\n?1 unknown command\n\n")
    assert read_reply(stream.readline) == (True, "   A B C\n 1 . . .")
    assert read_reply(stream.readline) == (False, "unknown command")


def test_read_reply_tolerates_crlf_and_end_of_file_after_a_reply() -> None:
    assert read_reply(iter(["=1 pass\r\n", "\r\n"])) == (True, "pass")
    assert read_reply(iter(["="])) == (True, "")


@pytest.mark.parametrize(
    "lines",
    [[], ["\n", "\n"], ["hello\n", "\n"], ["=x D4\n", "\n"], ["D4\n"], ["=12abc\n", "\n"]],
)
def test_read_reply_rejects_garbage(lines: list[str]) -> None:
    with pytest.raises(GTPError):
        read_reply(iter(lines))


@given(st.lists(st.text(max_size=30), max_size=5))
def test_read_reply_returns_or_raises_gtperror_only(lines: list[str]) -> None:
    try:
        ok, text = read_reply(iter(lines))
    except GTPError:
        return
    assert isinstance(ok, bool)
    assert "\n\n" not in text


def test_colours() -> None:
    assert [parse_colour(c) for c in ("b", "B", "black", "BLACK", "w", "White")] == [
        0,
        0,
        0,
        0,
        1,
        1,
    ]
    assert (colour_name(0), colour_name(1)) == ("black", "white")
    with pytest.raises(GTPError, match="invalid color 'red'"):
        parse_colour("red")


def test_go_vertices_are_the_game_notation() -> None:
    game = load_game("go:size=19")
    for text in ("A1", "T19", "J10", "H8", "pass"):
        move = from_vertex(game, text)
        assert to_vertex(game, move) == text
        assert from_vertex(game, text.lower()) == move
    with pytest.raises(GTPError, match="invalid vertex 'I5'"):
        from_vertex(game, "I5")


def test_othello_vertices_are_upper_case_rows_from_the_top() -> None:
    game = load_game("othello")
    state = game.initial_state()
    assert sorted(to_vertex(game, m) for m in state.legal_moves()) == ["C4", "D3", "E6", "F5"]
    assert from_vertex(game, "D3") == from_vertex(game, "d3") == game.parse_move("d3")
    assert to_vertex(game, game.parse_move("pass")) == "pass"
    with pytest.raises(GTPError, match="invalid vertex 'Z9'"):
        from_vertex(game, "Z9")


@pytest.mark.parametrize("spec", ["tictactoe", "connect4", "gomoku:size=9", "colosseum:size=6"])
def test_other_games_use_their_own_notation(spec: str) -> None:
    game = load_game(spec)
    for move in game.initial_state().legal_moves():
        assert to_vertex(game, move) == game.format_move(move)
        assert from_vertex(game, to_vertex(game, move)) == move
    with pytest.raises(GTPError, match="invalid vertex"):
        from_vertex(game, "nonsense")
