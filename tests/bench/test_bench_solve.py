"""``arena bench solve othello``: the FFO set, its selection and the Edax comparison
(against a stand-in of our own that prints Edax's table, so no Edax is needed)."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from arena.bench import solve
from arena.cli.main import main

FFO40 = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X +38 a2 FFO#40\n"

# A stand-in for Edax: checks the arguments arena passes and prints a result row in
# Edax's -solve table format for each problem line.
# A position with 12 empty cells (from FFO #40), its score and every move's value.
SMALL = "O--OOOOX-OOOOOOXOOXXOOXXOOXOOXXXOOOOXOXXO-OOOXXXOOX-O-XX---X-O-- X +28 d7 SMALL\n"
SMALL_VALUES = {"b1": 20, "c1": 20, "a2": 20, "b6": 20, "d7": 28, "f7": 28, "a8": 22, "e8": 24}

# A stand-in for Edax: checks the arguments arena passes and prints a result row in
# Edax's -solve table format for each problem line; started with "-l 1 ... -book-usage
# off" it reads commands and answers "hint" with SMALL's table as Edax prints it (a
# selective and a bound row among them, to be skipped; VALUE_E8 in the environment
# changes e8's value, SCORE the -solve rows' score).
FAKE_EDAX = """#!/bin/sh
if [ "$1 $2 $3 $4 $5 $7 $8" = "-n 1 -l 1 -eval-file -book-usage off" ]; then
  while read -r cmd rest; do
    case "$cmd" in
      hint)
        echo ' depth|score|       time   |  nodes (N)  |   N/s    | principal variation'
        echo '------+-----+--------------+-------------+----------+-------------------'
        echo '10@73%  +26        0:00.100        500000    5000000 d7 A1'
        echo '   12   +28        0:00.250       1000000    4000000 d7 A1 b1'
        echo '   12   +28        0:00.000           500            f7 A1'
        echo '   12  <+30        0:00.000           500            e8 A1'
        echo "   12   ${VALUE_E8:-+24}        0:00.000           400            e8 A1"
        echo '   12   +22        0:00.000           300            a8 A1'
        for m in b1 c1 a2 b6; do
          echo "   12   +20        0:00.000           200            $m A1"
        done
        echo '------+-----+--------------+-------------+----------+-------------------'
        printf '>' ;;
      quit) exit 0 ;;
    esac
  done
  exit 0
fi
[ "$1 $2 $3 $4 $5 $7" = "-n 1 -l 60 -eval-file -solve" ] || exit 9
[ "$(wc -c < "$6")" = 13952436 ] || exit 8
echo ' # | depth|score|       time   |  nodes (N)  |   N/s    | principal variation'
n=0
while read -r line; do
  n=$((n + 1))
  echo "  $n|   20   ${SCORE:-+38}        0:01.500      21000788   14000525 a2 B1 c1"
done < "$8"
"""


def _fake(tmp_path: Path) -> Path:
    exe = tmp_path / "edax"
    exe.write_text(FAKE_EDAX)
    exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
    return exe


def test_select_reads_ranges_and_lists() -> None:
    assert solve.select("45-47,40") == {"FFO#40", "FFO#45", "FFO#46", "FFO#47"}
    with pytest.raises(Exception, match="numbers like 40-44"):
        solve.select("forty")


def test_zero_weights_is_an_edax_file_of_zeros(tmp_path: Path) -> None:
    path = tmp_path / "eval.dat"
    solve.zero_weights(path)
    data = path.read_bytes()
    assert data[:8] == b"XADELAVE"  # "EDAX", "EVAL" as little-endian words
    assert len(data) == 28 + 2 * 61 * 114364 and not any(data[28:])


def test_the_set_holds_ffo_40_to_49() -> None:
    names = [line.split()[4] for line in solve.FILES["othello"].read_text().splitlines()]
    assert names == [f"FFO#{n}" for n in range(40, 50)]


def test_edax_in_the_same_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    positions = tmp_path / "ffo.txt"
    positions.write_text(FFO40)
    args = ["bench", "solve", "othello", "--file", str(positions), "--json"]
    assert main([*args, "--edax", str(_fake(tmp_path))]) == 0
    captured = capsys.readouterr()
    result = json.loads(captured.out.splitlines()[-1])
    assert result["edax_seconds"] == 1.5 and result["edax_nodes"] == 21000788
    assert result["ratio"] == pytest.approx(result["seconds"] / 1.5)
    assert "FFO#40       Edax +38 ok" in captured.err and "arena/Edax" in captured.err


def test_bad_edax_and_positions_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bench", "solve", "othello", "--edax", str(tmp_path / "none")]) == 2
    assert "no Edax executable" in capsys.readouterr().err
    assert main(["bench", "solve", "othello", "--positions", "12-13"]) == 2
    assert "no position" in capsys.readouterr().err
    assert main(["bench", "solve", "connect4", "--positions", "40"]) == 2
    assert "for the othello set" in capsys.readouterr().err
    broken = tmp_path / "edax"
    broken.write_text("#!/bin/sh\necho 'Cannot open eval file' >&2\nexit 1\n")
    broken.chmod(0o755)
    positions = tmp_path / "ffo.txt"
    positions.write_text(FFO40)
    args = ["bench", "solve", "othello", "--file", str(positions), "--edax", str(broken)]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "solved 0 of 1: Cannot open eval file" in err and err.count("\n") == 1


def test_every_move_against_edax_hint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    positions = tmp_path / "small.txt"
    positions.write_text(SMALL)
    monkeypatch.setenv("SCORE", "+28")  # the -solve row
    args = ["bench", "solve", "othello", "--file", str(positions), "--every-move", "--json"]
    assert main([*args, "--edax", str(_fake(tmp_path))]) == 0
    captured = capsys.readouterr()
    result = json.loads(captured.out.splitlines()[-1])
    # The exact rows at 12 empty cells only: 0.25 s, 1,000,000 + 500 + 400 + 300 + 4 * 200.
    assert result["edax_hint_seconds"] == 0.25 and result["edax_hint_nodes"] == 1002000
    assert result["edax_hint_wrong"] == 0
    assert result["every_move_ratio"] == pytest.approx(result["every_move_seconds"] / 0.25)
    assert "SMALL        Edax every move" in captured.err and "WRONG" not in captured.err
    # A value that differs from arena's is reported and fails the run.
    monkeypatch.setenv("VALUE_E8", "+26")
    assert main([*args, "--edax", str(_fake(tmp_path))]) == 1
    assert "WRONG: Edax" in capsys.readouterr().err


def test_hint_rows() -> None:
    row = "   20   +38        0:01.758      67445348   38364817 a2 B1 c1 PA b6"
    assert solve._hint_row(row, 20) == ("a2", 38, 1.758, 67445348)
    assert solve._hint_row("   20   -2        0:00.000            c7 C6", 20) == ("c7", -2, 0.0, 0)
    assert solve._hint_row("20@73%  +36   0:00.100   5000  50000 c7", 20) is None
    assert solve._hint_row("   20  <+36   0:00.100   5000  50000 c7", 20) is None
    assert solve._hint_row("   19   +36   0:00.100   5000  50000 c7", 20) is None


@pytest.mark.parametrize(
    ("game", "text", "message"),
    [
        ("connect4", b"\xff\xfe\n", ": not text (byte 0 is not UTF-8)"),
        ("connect4", b"4455 0\n9 0\n", ":2: '9' is not a column number 1..7"),  # hung the solver
        ("connect4", b"4444444 0\n", ":1: illegal move 4: the column is full"),  # solved anyway
        ("connect4", b"4\n", ":1: expected MOVES VALUE"),
        ("connect4", b"44 x\n", ":1: the value 'x' is not a whole number"),
        ("othello", b"xx yy\n", ":1: expected CELLS SIDE VALUE NAME"),
        ("othello", FFO40.replace(" X ", " Z ").encode(), ":1: the cells must be followed by"),
    ],
)
def test_a_bad_positions_file_is_one_line_naming_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, text: bytes, message: str
) -> None:
    positions = tmp_path / "positions.txt"
    positions.write_bytes(text)
    assert main(["bench", "solve", game, "--file", str(positions)]) == 2
    err = capsys.readouterr().err
    assert f"{positions}{message}" in err and err.count("\n") == 1, err
