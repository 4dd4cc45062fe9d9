"""SGF export and import: real games round-trip, coordinates, results, escaping, bad input."""

from __future__ import annotations

from typing import Any

import pytest

import arena
from arena.compete.match import play_game
from arena.compete.timecontrol import TimeControl
from arena.core.errors import ArenaError
from arena.formats.record import GameRecord
from arena.formats.sgf import from_sgf, iter_sgf, read_sgf, sgf_result, to_sgf

BUDGET = TimeControl.parse("rollouts=10")


def random_record(spec: str, seed: int = 1) -> GameRecord:
    agents = [f"random:seed={seed}", f"random:seed={seed + 1}"]
    return play_game(arena.load_game(spec), agents, BUDGET)


@pytest.mark.parametrize(
    ("spec", "has_pass"),
    [
        ("go:size=5", True),
        ("go", True),
        ("go:size=7,ko=simple,komi=6", True),
        ("gomoku", False),
        ("othello", True),  # this seed's game has a pass in it
        ("othello:size=6,rule=nomove-ends", False),
    ],
)
def test_random_games_round_trip(spec: str, has_pass: bool) -> None:
    record = random_record(spec)
    assert ("pass" in record.moves) == has_pass
    text = to_sgf(record)
    assert from_sgf(text) == (record.game, record.moves)
    (sgf,) = read_sgf(text)
    assert sgf.players == record.players and sgf.result == sgf_result(record)
    assert sgf.reason == "normal"
    # The moves read back replay to the same end.
    game = arena.load_game(sgf.game)
    final = game.play_moves(game.parse_moves(sgf.moves))
    assert final.is_terminal() and final.returns() == record.returns


def test_root_properties() -> None:
    record = random_record("go:size=7,ko=simple,komi=6")
    root = to_sgf(record).split(";")[1]
    for prop in ("FF[4]", "GM[1]", "SZ[7]", "KM[6]", "RU[go:size=7,komi=6,ko=simple]"):
        assert prop in root
    assert "PB[random:seed=1]PW[random:seed=2]" in root
    othello = to_sgf(random_record("othello")).split(";")[1]
    assert "GM[2]" in othello and "SZ[8]" in othello and "KM[" not in othello
    assert "GM[4]" in to_sgf(random_record("gomoku:size=9"))


@pytest.mark.parametrize(
    ("spec", "moves", "points"),
    [
        ("go", ["A9", "J1", "pass", "E5"], "B[aa];W[ii];B[];W[ee]"),
        ("go:size=19", ["T19", "A1", "Q16"], "B[sa];W[as];B[pd]"),
        ("othello", ["d3", "c5", "pass", "h8"], "B[dc];W[ce];B[];W[hh]"),
        ("gomoku", ["H8", "A15", "P1"], "B[hh];W[aa];B[oo]"),
    ],
)
def test_coordinates_of_known_moves(spec: str, moves: list[str], points: str) -> None:
    record = GameRecord(game=spec, players=("a", "b"), moves=moves)
    text = to_sgf(record)
    assert ";" + points + ")" in text.replace("\n", "")
    assert from_sgf(text) == (arena.load_game(spec).spec, moves)


def test_ff3_pass_and_property_names_and_foreign_rules() -> None:
    # tt is FF[3]'s pass; lower-case letters in names are FF[3]'s long names.
    assert from_sgf("(;GaMe[1]SiZe[9];B[tt];W[ee])") == ("go", ["pass", "E5"])
    # SGF's default Go board is 19x19; RU[Japanese] is not an arena spec and is ignored.
    assert from_sgf("(;FF[4]KM[6.5]RU[Japanese];B[pd])") == ("go:size=19,komi=6.5", ["Q16"])


def test_main_line_is_the_first_variation() -> None:
    text = "(;GM[1]SZ[5];B[cc](;W[dd];B[bb](;W[aa])(;W[ee]))(;W[ab]))"
    assert from_sgf(text) == ("go:size=5", ["C3", "D2", "B4", "A5"])


def test_collections_hold_several_games() -> None:
    records = [random_record("go:size=5"), random_record("othello:size=6", seed=3)]
    text = "\n".join(to_sgf(r) for r in records)
    assert [(g.game, g.moves) for g in read_sgf(text)] == [(r.game, r.moves) for r in records]
    with pytest.raises(ArenaError, match="holds more than one game, not one"):
        from_sgf(text)


def test_one_game_is_read_until_a_second_starts() -> None:
    # A collection of 12,000 games is refused at the second: the broken end is never read
    # (reading them all would fail there, after seconds).
    text = "(;GM[1]SZ[5];B[cc])" + "(;GM[1]SZ[5];B[cc])" * 12_000 + "(;broken"
    with pytest.raises(ArenaError, match="holds more than one game"):
        from_sgf(text)
    assert from_sgf("(;GM[1]SZ[5];B[cc])\n") == ("go:size=5", ["C3"])
    with pytest.raises(ArenaError, match="SGF move 1: B\\[zz\\] is off"):
        from_sgf("(;GM[1]SZ[5];B[zz])")


def result_of(**fields: Any) -> str:
    return sgf_result(GameRecord(game="go", players=("a", "b"), **fields))


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"returns": (-1, 1), "reason": "time", "loser": 0}, "W+T"),
        ({"returns": (1, -1), "reason": "time", "loser": 1}, "B+T"),
        ({"returns": (1, -1), "reason": "resign", "loser": 1}, "B+R"),
        ({"returns": (1, -1), "reason": "illegal", "loser": 1}, "B+F"),
        ({"returns": (-1, 1), "reason": "crash", "loser": 0}, "W+F"),
        ({"returns": (-1, 1), "score": -3.5}, "W+3.5"),
        ({"returns": (1, -1), "score": 12.0}, "B+12"),
        ({"returns": (1, -1), "score": 2, "reason": "adjudication"}, "B+2"),
        ({"returns": (0, 0), "score": 0.0}, "0"),
        ({"returns": (0, 0)}, "0"),
        ({"returns": (1, -1)}, "B+"),
        ({"returns": (-1, 1)}, "W+"),
    ],
)
def test_result_strings(fields: dict[str, Any], expected: str) -> None:
    assert result_of(**fields) == expected


class Crasher:
    spec = "crasher"

    def choose(self, state: Any, limit: Any) -> int:
        raise RuntimeError("boom]")


def test_a_forfeit_is_written_with_its_reason() -> None:
    record = play_game(arena.load_game("go:size=5"), ["random:seed=1", Crasher()], BUDGET)
    assert record.reason == "crash"
    text = to_sgf(record)
    # The detail names the crashing line: "RuntimeError: boom] at tests/...:125 in choose".
    assert record.detail.startswith("RuntimeError: boom] at ")
    escaped = record.detail.replace("]", "\\]")
    assert "RE[B+F]" in text and f"C[crash: {escaped}]" in text
    (sgf,) = read_sgf(text)
    assert sgf.reason == "crash" and sgf.comment == f"crash: {record.detail}"
    assert sgf.moves == record.moves and len(record.moves) == 1  # White crashed at once


def test_text_is_escaped_and_unescaped() -> None:
    players = ("py:RE[my]agent.py:A", "back\\slash]]")
    record = GameRecord(game="go:size=5", players=players, detail="a ] b \\ c", reason="resign")
    text = to_sgf(record)
    assert "PB[py:RE[my\\]agent.py:A]" in text and "PW[back\\\\slash\\]\\]]" in text
    (sgf,) = read_sgf(text)
    assert sgf.players == players and sgf.comment == "resign: a ] b \\ c"
    # An escaped line break is a soft break: it disappears; a plain one stays in text.
    (sgf,) = read_sgf("(;GM[1]SZ[5]C[one \\\ntwo\nthree]PB[a\nb])")
    assert sgf.comment == "one two\nthree" and sgf.players[0] == "a b"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "line 1, column 1: no game tree"),
        ("hello", "unexpected 'h': expected '(' to start a game"),
        ("(;GM[1]SZ[9];B[aa]", "the game tree is not closed (missing ')')"),
        ("(;GM[1]\nC[abc)", "SGF line 2, column 2: the value of C is not closed"),
        ("(;GM[1]B)", "property B has no value"),
        ("(;GM[1]GM[1])", "property GM appears twice"),
        ("()", "empty game tree"),
        (")", "')' without a '('"),
        ("(;GM[1](;B[aa]);W[bb])", "a node after a variation"),
        ("(;GM[1]SZ[5]?)", "unexpected '?'"),
        ("(;GM[3])", "GM[3] is not a game arena reads (go 1, othello 2, gomoku 4)"),
        ("(;GM[1]SZ[3])", "go: size=3 is out of range"),
        ("(;GM[1]SZ[9:7])", "SZ[9:7] is not the size of a square board"),
        ("(;GM[1]KM[lots])", "KM[lots] is not a number"),
        ("(;GM[1]RU[go:ko=weird])", "RU[go:ko=weird]: go: ko=weird is not one of"),
        ("(;GM[1]SZ[9];B[jj])", "SGF move 1: B[jj] is off the 9x9 board"),
        ("(;GM[1]SZ[9];B[a])", "B[a] is not a point"),
        ("(;GM[1]SZ[9];B[aa];B[bb])", "move 2: B moves, but it is W's turn"),
        ("(;GM[1]SZ[9];B[aa]W[bb])", "move 1: B and W in one node"),
        ("(;GM[1]SZ[9];B[aa][bb])", "B has 2 values"),
        ("(;GM[1]SZ[9]AB[aa];W[bb])", "setup stones (AB/AW/AE) are not supported"),
        ("(;GM[4]SZ[15];B[])", "a pass, and Gomoku has none"),
        ("(;GM[2]SZ[8];B[tt])", "B[tt] is off the 8x8 board"),
        ("(;GM[1])(;GM[1];B[zz])", "SGF game 2, move 1: B[zz] is off the 19x19 board"),
    ],
)
def test_malformed_sgf_is_one_clear_line(text: str, message: str) -> None:
    with pytest.raises(ArenaError) as caught:
        read_sgf(text)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_only_go_othello_and_gomoku() -> None:
    with pytest.raises(ArenaError, match="SGF supports go, othello, gomoku, not connect4"):
        to_sgf(GameRecord(game="connect4", players=("a", "b"), moves=["4"]))
    with pytest.raises(ArenaError, match="move 2: 'z99' is"):
        to_sgf(GameRecord(game="go", players=("a", "b"), moves=["E5", "z99"]))


def test_handicap_round_trips_as_ha_and_ab() -> None:
    record = GameRecord(
        game="go:size=9,handicap=2,komi=0.5", players=("a", "b"),
        moves=["E5", "D4", "pass", "pass"], returns=(1, -1), score=3,
    )  # fmt: skip
    text = to_sgf(record)
    assert "HA[2]" in text and "AB[gc][cg]" in text and ";W[ee];B[df]" in text
    assert from_sgf(text) == ("go:komi=0.5,handicap=2", ["E5", "D4", "pass", "pass"])
    # Another program's handicap game: HA and AB on the fixed points, White first.
    assert from_sgf("(;GM[1]SZ[9]HA[2]AB[cg][gc];W[ee])") == ("go:handicap=2", ["E5"])
    with pytest.raises(ArenaError, match="setup stones"):
        from_sgf("(;GM[1]SZ[9]HA[2]AB[aa][gc];W[ee])")  # not the fixed points


# --- reading a collection as a stream (issue 31) ---------------------------------------

COLLECTION = (
    "\ufeff(;GM[1]SZ[5]PB[a\\]b]C[one\\\n line];B[cc](;W[aa])(;W[bb]))\n"
    "  (;GM[2]SZ[8]PW[x(y)];B[dc];W[ce])\r\n(;GM[4]SZ[15]RE[0];B[hh])"
)


def outcome(read: Any) -> Any:
    try:
        return [(g.game, g.moves, g.players, g.result, g.comment) for g in read()]
    except ArenaError as exc:
        return str(exc)


@pytest.mark.parametrize(
    "text",
    [
        COLLECTION,
        COLLECTION + "\n(;GM[1]SZ[9];B[jj])",  # a bad game after good ones
        COLLECTION + "\n\n  x",  # junk after the trees
        COLLECTION + ")",
        "(;GM[1]SZ[5];B[cc]\n;W[aa]",  # not closed
        "(;GM[1]C[a\\",  # an escape at the very end
        "(;GM[1]SZ[5]\n  ;B[cc];W",  # a property without a value
        "(;GM[1]\n(;B[aa]);W[bb])",  # a node after a variation
        "(;GM[1])(;GM[1]SZ[5];B[cc];X[)",
        "  \n ",
        "",
    ],
)
def test_reading_in_pieces_reads_as_the_whole_text(text: str) -> None:
    """Pieces of any size, cut anywhere (in a value, after a backslash, between CR and
    LF), give the games and the error, with its line and column, of the whole text."""
    whole = outcome(lambda: read_sgf(text))
    for size in (1, 2, 3, 7, 64):
        pieces = [text[i : i + size] for i in range(0, len(text), size)]
        assert outcome(lambda pieces=pieces: iter_sgf(pieces)) == whole, size


def test_whole_text_errors_keep_their_place() -> None:
    with pytest.raises(ArenaError, match=r"^SGF line 6, column 3: unexpected 'x'"):
        read_sgf(COLLECTION + "\n\n  x")
    with pytest.raises(ArenaError, match=r"^SGF game 4, move 1: B\[jj\] is off the 9x9 board"):
        read_sgf(COLLECTION + "\n(;GM[1]SZ[9];B[jj])")
    with pytest.raises(ArenaError, match=r"^SGF line 2, column 11: property W has no value"):
        read_sgf("(;GM[1]SZ[5]\n  ;B[cc];W")


def test_each_game_comes_as_its_tree_closes() -> None:
    def pieces() -> Any:
        yield "(;GM[1]SZ[5];B[cc])"
        yield "(;GM[1]"
        raise AssertionError("read past the first game before yielding it")

    games = iter_sgf(pieces())
    assert next(games).moves == ["C3"]
    with pytest.raises(AssertionError):
        next(games)


@pytest.mark.parametrize(
    "text",
    [
        "(;GM[1]SZ[" + "9" * 5000 + "];B[aa])",
        "(;GM[1]SZ[" + "x" * 5000 + "];B[aa])",
        "(;GM[" + "7" * 5000 + "])",
        "(;GM[1]KM[" + "k" * 5000 + "])",
        "(;GM[1]RU[go:" + "x" * 5000 + "])",
        "(;GM[1]SZ[5];B[" + "a" * 5000 + "])",
        "(;GM[1]" + "Q" * 5000 + "[1]" + "Q" * 5000 + "[2])",
        "(;GM[1]" + "q" * 5000 + "[1])",
        "(;GM[1]" + "Q" * 5000 + ")",
    ],
)
def test_errors_quote_a_short_prefix_of_an_oversized_value(text: str) -> None:
    with pytest.raises(ArenaError) as error:
        read_sgf(text)
    message = str(error.value)
    assert len(message) < 250 and "... (5," in message, message
