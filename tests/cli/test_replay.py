"""``arena replay``: listing a records file, replaying a game, stepping, and bad files."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

import arena
from arena.cli.main import main
from arena.compete.match import play_game
from arena.compete.timecontrol import TimeControl
from arena.formats.record import GameRecord
from arena.formats.sgf import to_sgf

SPECS = ("go:size=5", "othello:size=6", "tictactoe")


@pytest.fixture(scope="module")
def records() -> list[GameRecord]:
    budget = TimeControl.parse("rollouts=10")
    agents = ["random:seed=1", "random:seed=2"]
    return [play_game(arena.load_game(spec), agents, budget) for spec in SPECS]


@pytest.fixture
def jsonl(tmp_path: Path, records: list[GameRecord]) -> Path:
    path = tmp_path / "games.jsonl"
    path.write_text("".join(r.to_json() + "\n" for r in records))
    return path


@pytest.fixture
def sgf(tmp_path: Path, records: list[GameRecord]) -> Path:
    path = tmp_path / "games.sgf"
    path.write_text("\n".join(to_sgf(r) for r in records[:2]))
    return path


def replay(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    code = main(["replay", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


def boards(out: str, game: str) -> int:
    """How many boards of ``game`` the output shows (one column-letter line twice each)."""
    head = arena.load_game(game).initial_state().render().splitlines()[0]
    return out.splitlines().count(head) // 2


def test_listing(
    capsys: pytest.CaptureFixture[str], jsonl: Path, records: list[GameRecord]
) -> None:
    code, out, _ = replay(capsys, jsonl)
    lines = out.splitlines()
    assert code == 0 and len(lines) == 1 + len(records)
    assert lines[0].split() == ["#", "game", "first", "second", "result", "reason", "plies"]
    for number, (line, record) in enumerate(zip(lines[1:], records), 1):
        assert line.split()[:4] == [str(number), record.game, *record.players]
        assert line.split()[-2:] == ["normal", str(len(record.moves))]
    assert "White wins by" in lines[1] or "Black wins by" in lines[1]


def test_listing_an_sgf_file(capsys: pytest.CaptureFixture[str], sgf: Path) -> None:
    code, out, _ = replay(capsys, sgf)
    rows = [line.split() for line in out.splitlines()[1:]]
    assert code == 0 and [row[1] for row in rows] == ["go:size=5", "othello:size=6"]
    assert all(row[4][:2] in ("B+", "W+") or row[4] == "0" for row in rows)


def test_a_game_with_every_board(
    capsys: pytest.CaptureFixture[str], jsonl: Path, records: list[GameRecord]
) -> None:
    record = records[0]
    code, out, _ = replay(capsys, jsonl, "--game", 1)
    lines = out.splitlines()
    assert code == 0 and lines[0] == "game 1 of 3 (line 1): go:size=5"
    assert lines[1:3] == ["Black: random:seed=1", "White: random:seed=2"]
    assert lines[3].startswith("result: ") and lines[3].endswith(" (normal)")
    moves = [line for line in lines if line.endswith(" nodes") or line.endswith(" s")]
    assert len(moves) == len(record.moves)
    assert moves[0].split()[:4] == ["1.", "Black", record.moves[0], f"{record.seconds[0]:.3f}"]
    assert boards(out, record.game) == len(record.moves)
    game = arena.load_game(record.game)
    final = game.play_moves(game.parse_moves(record.moves))
    assert lines[-1] == f"ply {len(record.moves)}: {final.result_text()}"


def test_ply_shows_one_board(
    capsys: pytest.CaptureFixture[str], jsonl: Path, records: list[GameRecord]
) -> None:
    record = records[1]
    game = arena.load_game(record.game)
    for ply in (0, 5, len(record.moves)):
        code, out, _ = replay(capsys, jsonl, "--game", 2, "--ply", ply)
        assert code == 0 and boards(out, record.game) == 1
        board = game.play_moves(game.parse_moves(record.moves[:ply])).render()
        assert board in out
        if ply:  # the board comes right after its move
            assert out.index(f"{ply:>4}. ") < out.index(board)


def test_sgf_game_has_no_times(capsys: pytest.CaptureFixture[str], sgf: Path) -> None:
    code, out, _ = replay(capsys, sgf, "--game", 2, "--ply", 3)
    lines = out.splitlines()
    assert code == 0 and lines[0] == "game 2 of 2 (game 2): othello:size=6"
    assert lines[4].split() == ["1.", "Black", lines[4].split()[2]]  # no time column


def test_step_waits_for_enter_and_q_quits(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    jsonl: Path,
    records: list[GameRecord],
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n\nq\n"))
    code, out, _ = replay(capsys, jsonl, "--game", 3, "--step")
    # The start, then two moves; the third prompt is answered with q.
    assert code == 0 and boards(out, "tictactoe") == 3 and out.count("-- Enter") == 3
    assert " 3. " not in out and "ply " not in out
    # Enough Enters play through to the end, with no prompt after the last board.
    plies = len(records[2].moves)
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n" * 20))
    code, out, _ = replay(capsys, jsonl, "--game", 3, "--step")
    assert boards(out, "tictactoe") == plies + 1 and out.count("-- Enter") == plies
    assert out.splitlines()[-1].startswith(f"ply {plies}: ")


def test_step_from_a_ply_with_piped_input(jsonl: Path, records: list[GameRecord]) -> None:
    args = ["replay", str(jsonl), "--game", "1", "--ply", "4", "--step"]
    proc = run(*args, stdin="\n")
    # Boards at plies 4 and 5; end of input after the second prompt quits.
    assert proc.returncode == 0 and boards(proc.stdout, "go:size=5") == 2
    assert "   5. " in proc.stdout and "   6. " not in proc.stdout


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "arena.cli.main", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_errors_exit_2_with_one_line(tmp_path: Path, jsonl: Path) -> None:
    missing = run("replay", str(tmp_path / "nope.jsonl"))
    assert missing.returncode == 2 and "nope.jsonl" in missing.stderr
    assert missing.stderr.count("\n") == 1 and "Traceback" not in missing.stderr
    bad = tmp_path / "bad.jsonl"
    bad.write_text(jsonl.read_text() + "{not json\n")
    proc = run("replay", str(bad))
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert f"{bad}, line 4: not a JSON game record" in proc.stderr


def test_a_line_nested_100000_deep_is_one_line_not_a_recursion_error(tmp_path: Path) -> None:
    deep = tmp_path / "deep.jsonl"
    deep.write_text('{"game": ' + "[" * 100_000 + "\n")
    proc = run("replay", str(deep))
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr[-300:]
    assert "Traceback" not in proc.stderr and "RecursionError" not in proc.stderr
    assert "line 1: not a JSON game record (nested too deeply)" in proc.stderr


def edit(jsonl: Path, tmp_path: Path, line: int, **changes: object) -> Path:
    """A copy of ``jsonl`` with fields of one record changed."""
    lines = jsonl.read_text().splitlines()
    data = json.loads(lines[line - 1])
    data.update(changes)
    lines[line - 1] = json.dumps(data)
    path = tmp_path / "edited.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize(
    ("changes", "args", "message"),
    [
        ({"game": "chess"}, [], "line 2: unknown game 'chess'"),
        ({"players": "ab"}, [], "line 2: not a game record: 'players' must be two agents"),
        ({"seconds": ["x"]}, [], "line 2: not a game record: 'seconds' must be a list of numbers"),
        ({"returns": [1]}, [], "line 2: not a game record: 'returns' must be two numbers"),
        ({"moves": ["c2", "b2", "c2"]}, ["--game", "2"], "line 2, move 3: illegal move c2"),
        ({"moves": ["c2", "z99"]}, ["--game", "2"], "line 2, move 2: 'z99' is not a cell"),
        ({}, ["--game", "9"], "no game 9: the file holds 3"),
        ({}, ["--game", "1", "--ply", "999"], "--ply 999 is not in 0.."),
        ({}, ["--ply", "3"], "--ply and --step need --game N"),
    ],
)
def test_bad_records_and_options(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    jsonl: Path,
    changes: dict[str, object],
    args: list[str],
    message: str,
) -> None:
    path = edit(jsonl, tmp_path, 2, **changes)
    code, _, err = replay(capsys, path, *args)
    assert code == 2 and message in err and err.count("\n") == 1


def test_bad_sgf_and_binary_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    broken = tmp_path / "broken.sgf"
    broken.write_text("(;GM[1]SZ[9]\n;B[aa];W[jj])")
    code, _, err = replay(capsys, broken)
    assert code == 2 and f"{broken}: SGF move 2: W[jj] is off the 9x9 board" in err
    illegal = tmp_path / "illegal.sgf"
    illegal.write_text("(;GM[1]SZ[5];B[aa];W[aa])")
    code, _, err = replay(capsys, illegal, "--game", 1)
    assert code == 2 and f"{illegal}, game 1, move 2: illegal move A5: the point is occupied" in err
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00")
    code, _, err = replay(capsys, binary)
    assert code == 2 and "binary.jsonl: not JSON game records: not text" in err


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        # The name decides, and the error names the format the file was read as.
        ("notes.sgf", "hello\n", "notes.sgf: SGF line 1, column 1: unexpected 'h'"),
        ("record.sgf", '{"game": "go"}\n', "record.sgf: SGF line 1, column 1: unexpected '{'"),
        (
            "games.jsonl",
            "(;GM[1]SZ[5];B[cc])\n",
            "games.jsonl, line 1: not a JSON game record (Expecting value) "
            "(the file looks like SGF: name it .sgf)",
        ),
        # Another name: the content decides.
        ("games.txt", "(;GM[1]SZ[5];B[cc]\n", "games.txt: SGF line 2, column 1"),
        ("games.txt", '{"game": 1', "games.txt, line 1: not a JSON game record"),
    ],
)
def test_the_format_is_decided_by_the_name_then_the_content(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, content: str, message: str
) -> None:
    path = tmp_path / name
    path.write_text(content)
    code, _, err = replay(capsys, path)
    assert code == 2 and f"{tmp_path}/{message}" in err and err.count("\n") == 1


def test_an_empty_file_has_no_games(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    assert replay(capsys, empty)[:2] == (0, f"{empty}: no games\n")


def test_step_goes_back_and_jumps(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    jsonl: Path,
    records: list[GameRecord],
) -> None:
    record = records[2]
    game = arena.load_game(record.game)
    board = [
        game.play_moves(game.parse_moves(record.moves[:k])).render()
        for k in range(len(record.moves) + 1)
    ]
    # Forward twice, back once, jump to move 3, back, then quit.
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n\nb\n3\np\nq\n"))
    code, out, _ = replay(capsys, jsonl, "--game", 3, "--step")
    assert code == 0
    shown = [k for k in (0, 1, 2, 1, 3, 2) if board[k] in out]
    assert "back to ply 1" in out and "at ply 3" in out and "back to ply 2" in out
    positions = [out.index(m) for m in ("back to ply 1", "at ply 3", "back to ply 2")]
    assert positions == sorted(positions) and len(shown) == 6
    # The board printed after each answer is the one asked for.
    for marker, k in (("back to ply 1", 1), ("at ply 3", 3), ("back to ply 2", 2)):
        assert out[out.index(marker) :].split("\n", 1)[1].startswith(board[k])


# --- large and hostile files (issue 31) ------------------------------------------------


PEAK = """import atexit, sys
from arena.cli.main import main
def peak():  # VmHWM: this program's own peak (ru_maxrss would count the parent's at fork)
    line = next(l for l in open("/proc/self/status") if l.startswith("VmHWM"))
    open(sys.argv[1], "w").write(line.split()[1])
atexit.register(peak)
sys.exit(main(sys.argv[2:]))
"""


def run_measured(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], int]:
    """``arena ARGS`` in a process of its own, with the most memory it held (KB)."""
    peak = tmp_path / "peak"
    done = subprocess.run(
        [sys.executable, "-c", PEAK, str(peak), *args],
        capture_output=True,
        text=True,
        timeout=300,
    )
    return done, int(peak.read_text())


@pytest.mark.parametrize("kind", ["sgf", "jsonl"])
def test_a_large_collection_is_listed_while_it_is_read(tmp_path: Path, kind: str) -> None:
    """30,000 games, the last one damaged: the listing is printed as the file is read
    (every good game before the error) in the memory of a few games."""
    count = 30_000
    path = tmp_path / f"many.{kind}"
    if kind == "sgf":
        game = "(;GM[1]SZ[9]PB[a]PW[b]RE[B+R];B[ee];W[cc])\n"
        path.write_text(game * (count - 1) + "(;GM[1]SZ[9];B[zz])\n")
    else:
        record = GameRecord("tictactoe", ("a", "b"), moves=["b2", "a1"], seconds=[0.1, 0.1])
        path.write_text((record.to_json() + "\n") * (count - 1) + '{"game": 1}\n')
    out, peak = run_measured(tmp_path, "replay", str(path))
    assert out.returncode == 2 and out.stderr.count("\n") == 1
    where = f"game {count}, move 1" if kind == "sgf" else f"line {count}"
    assert where in out.stderr
    rows = out.stdout.splitlines()
    assert len(rows) == count and rows[-1].split()[0] == str(count - 1)
    # Before: every game was held (as a game, a record and a row) before the first
    # row was printed: 383 MB for 20,000 games.
    assert peak < 150_000, f"{peak} KB"


def test_replaying_one_game_of_a_large_file_counts_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "many.sgf"
    path.write_text("(;GM[1]SZ[5];B[cc];W[aa])\n" * 3000)
    proc = run("replay", str(path), "--game", "2999", "--ply", "1")
    assert proc.returncode == 0 and "game 2999 of 3000 (game 2999): go:size=5" in proc.stdout


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("big.sgf", "(;GM[1]SZ[" + "9" * 5000 + "];B[aa])", "SGF SZ[99999"),
        ("big.sgf", "(;GM[1]SZ[5];B[" + "c" * 5000 + "])", "SGF move 1: B[cccc"),
        ("big.jsonl", json.dumps({"game": "x" * 5000, "players": ["a", "b"]}), "unknown game"),
        ("big.jsonl", json.dumps({"game": "go:" + "k" * 5000, "players": ["a", "b"]}), "go:"),
        ("big.jsonl", json.dumps({"game": "tictactoe:" + "9" * 5000, "players": ["a", "b"]}), ""),
    ],
)
def test_errors_quote_a_short_prefix_of_an_oversized_value(
    tmp_path: Path, name: str, content: str, message: str
) -> None:
    path = tmp_path / name
    path.write_text(content)
    proc = run("replay", str(path), "--game", "1")
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and message in proc.stderr
    assert len(proc.stderr) < 300 and "characters)" in proc.stderr, proc.stderr


def test_a_move_of_thousands_of_characters_is_quoted_short(tmp_path: Path) -> None:
    path = tmp_path / "long.jsonl"
    path.write_text(json.dumps({"game": "go:size=5", "players": ["a", "b"], "moves": ["z" * 9000]}))
    proc = run("replay", str(path), "--game", "1")
    assert proc.returncode == 2 and "move 1: " in proc.stderr and len(proc.stderr) < 300
