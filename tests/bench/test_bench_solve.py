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
FAKE_EDAX = """#!/bin/sh
[ "$1 $2 $3 $4 $5 $7" = "-n 1 -l 60 -eval-file -solve" ] || exit 9
[ "$(wc -c < "$6")" = 13952436 ] || exit 8
echo ' # | depth|score|       time   |  nodes (N)  |   N/s    | principal variation'
n=0
while read -r line; do
  n=$((n + 1))
  echo "  $n|   20   +38        0:01.500      21000788   14000525 a2 B1 c1"
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
