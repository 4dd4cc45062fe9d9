"""``arena bench solve``: the solvers on the reference positions, with their figures.

Tests: tests/cli/test_solve.py, tests/bench/test_bench_solve.py

Connect Four: the 200 scored positions of ``tests/solvers/data/
connect4_scored_positions.txt`` (``MOVES SCORE``), the set on which Pascal
Pons' C++ solver (no opening book) takes 12.5-15.0 s on this project's
machine. Othello: FFO #40-#49 (``tests/solvers/data/othello_ffo.txt``,
``BOARD SIDE SCORE BEST NAME``; #40-#44 unless ``positions`` says otherwise),
each timed. Every score is checked.

With an Edax executable (Richard Delorme's public Othello engine, built from
its source; ``edax`` on the PATH or given), the same Othello positions are
solved by it in the same run, one thread (``-n 1``), and the times compared:
its evaluation file is all zeros unless one is given, so it orders its moves
without its evaluation, as arena's solver does. Edax's ``-solve`` finds the
value and a best move, as arena's root solve does; ``every_move`` also times
what ``arena solve`` does on top: the exact value of every move, and with Edax
has it do the same (its interactive ``hint``: every move's exact value), each
move's value checked against arena's.
"""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from importlib import import_module
from pathlib import Path
from typing import Any

from arena.core.errors import ArenaError, excerpt, read_text
from arena.core.game import Game
from arena.formats.position import parse_position
from arena.games import load_game

DATA = Path(__file__).resolve().parents[3] / "tests" / "solvers" / "data"
FILES = {"connect4": DATA / "connect4_scored_positions.txt", "othello": DATA / "othello_ffo.txt"}
OTHELLO_SET = "40-44"
"""The FFO numbers solved by default: 20-23 empty cells, a few seconds each."""
EDAX_NAMES = ("edax", "lEdax-x64-modern", "lEdax-x64", "lEdax-native", "lEdax")
"""Executable names an Edax build goes by (its Makefile names it ``lEdax-ARCH``)."""
EDAX_WEIGHTS = 61 * 114364
"""16-bit weights in an Edax 4.x evaluation file (61 plies), after its 28-byte header."""
_EDAX_ROW = re.compile(r"^\s*(\d+)\|\s*(\d+)\s+([+-]\d+)\s+([\d:.]+)\s+(\d+)")


def select(numbers: str) -> set[str]:
    """FFO names from ``"40-44"`` or ``"40,45,47"``.

    >>> sorted(select("40-42,45"))
    ['FFO#40', 'FFO#41', 'FFO#42', 'FFO#45']
    """
    names: set[str] = set()
    for part in numbers.split(","):
        first, _, last = part.strip().partition("-")
        try:
            low, high = int(first), int(last or first)
        except ValueError:
            raise ArenaError(
                f"--positions wants numbers like 40-44 or 40,45, not {numbers!r}"
            ) from None
        names.update(f"FFO#{n}" for n in range(low, high + 1))
    return names


def find_edax(path: str | None) -> str | None:
    """The Edax executable: ``path`` (checked), else the first of :data:`EDAX_NAMES` on
    the PATH, else None."""
    if path is not None:
        found = shutil.which(path)
        if found is None:
            raise ArenaError(f"no Edax executable {path!r}")
        return found
    for name in EDAX_NAMES:
        found = shutil.which(name)
        if found is not None:
            return found
    return None


def zero_weights(path: Path) -> None:
    """Write an Edax evaluation file whose weights are all 0 (its header, then zeros):
    Edax then orders its endgame moves without its evaluation."""
    header = struct.pack("<IIIIId", 0x45444158, 0x4556414C, 4, 6, 0, 0.0)  # "EDAX", "EVAL"
    path.write_bytes(header + bytes(2 * EDAX_WEIGHTS))


def _seconds(text: str) -> float:
    # Edax's times: "0:02.655", "1:02:03.100".
    total = 0.0
    for part in text.split(":"):
        total = total * 60 + float(part)
    return total


def run_edax(exe: str, rows: list[list[str]], weights: str | None) -> list[tuple[int, float, int]]:
    """``(score, seconds, nodes)`` of Edax's exact ``-solve`` on each row, one thread."""
    with tempfile.TemporaryDirectory(prefix="arena-edax-") as tmp:
        folder = Path(tmp)
        eval_file = Path(weights) if weights else folder / "eval.dat"
        if not weights:
            zero_weights(eval_file)
        problems = folder / "problems.obf"
        problems.write_text("".join(f"{f[0]} {f[1]};\n" for f in rows))
        # Level 60: every position solved exactly (at its default level Edax solves 25
        # empty cells and more selectively, with a probability of error).
        command = [
            exe,
            "-n",
            "1",
            "-l",
            "60",
            "-eval-file",
            str(eval_file),
            "-solve",
            str(problems),
        ]
        try:
            done = subprocess.run(
                command, cwd=folder, capture_output=True, text=True, timeout=3600, check=False
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise ArenaError(f"Edax ({exe}) did not run: {exc}") from None
    found = [_EDAX_ROW.match(line) for line in done.stdout.splitlines()]
    results = [(int(m[3]), _seconds(m[4]), int(m[5])) for m in found if m]
    if len(results) != len(rows):
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        raise ArenaError(f"Edax ({exe}) solved {len(results)} of {len(rows)}: {tail[0]}")
    return results


def _hint_row(line: str, empties: int) -> tuple[str, int, float, int] | None:
    # One row of Edax's ``hint`` table, "   20   +38  0:01.758  67445348  38364817 a2 B1 ...":
    # (move, score, seconds, nodes) when it is an exact row at ``empties`` (a selective one
    # reads "20@73%", a bound "<+36").
    tokens = line.split()
    if len(tokens) < 4 or tokens[0] != str(empties) or not re.fullmatch(r"[+-]\d+", tokens[1]):
        return None
    if not re.fullmatch(r"[\d:.]+", tokens[2]):
        return None
    numbers = [t for t in tokens[3:] if t.isdigit()]
    moves = [t for t in tokens[3:] if not t.isdigit()]
    if not moves:
        return None
    return moves[0].lower(), int(tokens[1]), _seconds(tokens[2]), int(numbers[0]) if numbers else 0


def run_edax_hint(
    exe: str, rows: list[list[str]], weights: str | None
) -> list[tuple[dict[str, int], float, int]]:
    """``(values, seconds, nodes)`` of Edax's ``hint`` on each row: the exact value of
    every move (``{"a2": 38, ...}``), what ``arena solve`` computes, one thread.

    Edax's interactive ``hint N`` searches all moves with open windows at level 60 (its
    multi-PV mode), prints the best, then takes it out and searches again for the next
    (table hits), a row each; the time and nodes are the sum of its rows.
    """
    with tempfile.TemporaryDirectory(prefix="arena-edax-") as tmp:
        folder = Path(tmp)
        eval_file = Path(weights) if weights else folder / "eval.dat"
        if not weights:
            zero_weights(eval_file)
        # Level 1 at start-up: without a book file Edax builds an empty one at its level
        # (half a minute at its default); the searches run at level 60 (exact).
        command = [exe, "-n", "1", "-l", "1", "-eval-file", str(eval_file), "-book-usage", "off"]
        try:
            proc = subprocess.Popen(
                command,
                cwd=folder,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
            )
        except OSError as exc:
            raise ArenaError(f"Edax ({exe}) did not run: {exc}") from None
        watchdog = threading.Timer(3600, proc.kill)
        watchdog.start()
        results = []
        try:
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write("level 60\n")
            for fields in rows:
                empties = fields[0].count("-")
                proc.stdin.write(f"setboard {fields[0]} {fields[1]}\nhint 64\n")
                proc.stdin.flush()
                found: list[tuple[str, int, float, int]] = []
                # The table: a header, a separator, a row per move, a separator.
                separators = 0
                while separators < 2:
                    line = proc.stdout.readline()
                    if not line:
                        raise ArenaError(f"Edax ({exe}) stopped before its hint for {fields[-1]}")
                    if line.startswith("------+"):
                        separators += 1
                    elif separators == 1 and (row := _hint_row(line, empties)) is not None:
                        found.append(row)
                values = {move: score for move, score, _, _ in found}
                results.append((values, sum(r[2] for r in found), sum(r[3] for r in found)))
            proc.stdin.write("quit\n")
            proc.stdin.flush()
        except (OSError, ValueError) as exc:
            raise ArenaError(f"Edax ({exe}) hint failed: {exc}") from None
        finally:
            watchdog.cancel()
            if proc.poll() is None:
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
    return results


def read_rows(source: Path, game: Game) -> list[list[str]]:
    """The positions file's lines as fields, each checked before any is solved (a line
    the solver cannot take would crash it or never end): Connect Four's ``MOVES VALUE``,
    Othello's ``CELLS SIDE VALUE ... NAME``. A bad line is one error naming it."""
    text = read_text(source)
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        fields = line.split()
        if not fields:
            continue
        try:
            _check_row(fields, game)
        except ArenaError as exc:
            raise ArenaError(f"{source}:{number}: {exc}") from None
        rows.append(fields)
    return rows


def _check_row(fields: list[str], game: Game) -> None:
    connect4 = game.name == "connect4"
    expected_at = 1 if connect4 else 2
    if len(fields) <= expected_at:
        shape = "MOVES VALUE" if connect4 else "CELLS SIDE VALUE NAME"
        raise ArenaError(f"expected {shape}, not {excerpt(' '.join(fields))!r}")
    if not re.fullmatch(r"[+-]?\d{1,3}", fields[expected_at]):
        raise ArenaError(f"the value {excerpt(fields[expected_at])!r} is not a whole number")
    if not connect4:
        parse_position(game, " ".join(fields[:2]))
        return
    if not fields[0].isdigit():
        raise ArenaError(f"the moves {excerpt(fields[0])!r} are not column numbers")
    if game.play_moves(game.parse_moves(" ".join(fields[0]))).is_terminal():
        raise ArenaError(f"the game is over after {excerpt(fields[0])}")


def run(
    game_name: str,
    path: str | None,
    report: Callable[[str], None],
    positions: str | None = None,
    edax: str | None = None,
    edax_weights: str | None = None,
    every_move: bool = False,
) -> dict[str, Any]:
    """Solve every line of the file (Othello: the FFO numbers in ``positions``); report
    each slow or wrong one and the totals, and Edax's figures when ``edax`` is found."""
    source = Path(path) if path is not None else FILES[game_name]
    if not source.exists():
        raise ArenaError(f"no positions file {source} (give one with --file)")
    game = load_game(game_name)
    rows = read_rows(source, game)
    exe = None
    if game_name == "connect4":
        if positions is not None or edax is not None or every_move:
            raise ArenaError("--positions, --edax and --every-move are for the othello set")
        c4 = import_module("arena.solvers.connect4.solver").Connect4Solver()

        def solve(fields: list[str]) -> tuple[int, int, float]:
            c4.reset()  # each position on its own: no help from the previous ones
            found = c4.solve([int(c) - 1 for c in fields[0]])
            return found.score, found.nodes, found.seconds

        expected_at = 1
    else:
        if positions is not None or path is None:
            names = select(positions or OTHELLO_SET)
            rows = [f for f in rows if f[-1] in names]
            if not rows:
                raise ArenaError(f"no position of {source} is in --positions {positions}")
        exe = find_edax(edax)
        oth = import_module("arena.solvers.othello.solver").OthelloSolver(game.size)  # type: ignore[attr-defined]

        def solve(fields: list[str]) -> tuple[int, int, float]:
            oth.reset()  # each position on its own, as the suites are timed
            found = oth.solve(parse_position(game, " ".join(fields[:2])))
            return found.score, found.nodes, found.seconds

        expected_at = 2
    total_nodes, total_time, wrong = 0, 0.0, 0
    every_time, every_nodes = 0.0, 0
    values: dict[str, dict[str, int]] = {}  # every move's value, by position
    per_every: dict[str, tuple[float, int]] = {}  # every move's time and nodes
    per: list[dict[str, Any]] = []
    cpu = time.process_time()
    for fields in rows:
        own = time.process_time()
        score, nodes, seconds = solve(fields)
        own = time.process_time() - own  # CPU seconds: what a loaded machine leaves out
        total_nodes += nodes
        total_time += seconds
        ok = score == int(fields[expected_at])
        wrong += not ok
        if game_name == "othello" or seconds > 1.0 or not ok:
            name = fields[-1] if game_name == "othello" else fields[0]
            verdict = "ok" if ok else "WRONG, expected " + fields[expected_at]
            rate = nodes / max(seconds, 1e-9) / 1e6
            extra = ""
            if every_move:
                # What ``arena solve`` adds: each move's exact value (the table kept).
                state = parse_position(game, " ".join(fields[:2]))
                moves = [oth.solve(state.play(move)) for move in state.legal_moves()]
                move_time = sum(v.seconds for v in moves)
                move_nodes = sum(v.nodes for v in moves)
                values[name] = {
                    game.format_move(move): -v.score
                    for move, v in zip(state.legal_moves(), moves, strict=True)
                }
                per_every[name] = (seconds + move_time, nodes + move_nodes)
                every_time += seconds + move_time
                every_nodes += nodes + move_nodes
                extra = (
                    f"  every move: {seconds + move_time:7.3f} s {nodes + move_nodes:>13,} nodes"
                )
            report(
                f"{name:<12} score {score:+d} {verdict}  {seconds:8.3f} s (CPU {own:.3f} s)"
                f"  {nodes:>12,} nodes  {rate:6.2f} M/s{extra}"
            )
            per.append(
                {"name": name, "score": score, "seconds": seconds, "cpu": own, "nodes": nodes}
            )
    cpu = time.process_time() - cpu
    n = len(rows)
    rate = total_nodes / total_time if total_time else 0.0
    report(
        f"{game_name}: {n} positions, {n - wrong} exact; total {total_time:.2f} s "
        f"(CPU {cpu:.2f} s), mean {total_time / n * 1000:.2f} ms; {total_nodes:,} nodes, "
        f"{rate / 1e6:.2f} M nodes/s"
    )
    result: dict[str, Any] = {
        "game": game_name,
        "positions": n,
        "wrong": wrong,
        "seconds": total_time,
        "cpu_seconds": cpu,
        "nodes": total_nodes,
        "nodes_per_second": rate,
    }
    if game_name == "othello":
        result["rows"] = per
    if every_move:
        report(f"every move (as arena solve): {every_time:.2f} s, {every_nodes:,} nodes")
        result["every_move_seconds"] = every_time
        result["every_move_nodes"] = every_nodes
    if exe is not None:
        result.update(_compare(exe, rows, edax_weights, per, total_time, every_time, report))
        wrong += result["edax_wrong"]
        if every_move:
            result.update(_compare_hint(exe, rows, edax_weights, values, per_every, report))
            wrong += result["edax_hint_wrong"]
        result["wrong"] = wrong
    elif game_name == "othello":
        report("no Edax to compare with (give --edax PATH, or put edax on the PATH)")
    return result


def _compare(
    exe: str,
    rows: list[list[str]],
    weights: str | None,
    per: list[dict[str, Any]],
    total: float,
    every: float,
    report: Callable[[str], None],
) -> dict[str, Any]:
    # Edax on the same rows, right after arena's run; its figures and the ratios.
    found = run_edax(exe, rows, weights)
    wrong = 0
    for fields, ours, (score, seconds, nodes) in zip(rows, per, found, strict=True):
        ok = score == int(fields[2])
        wrong += not ok
        report(
            f"{fields[-1]:<12} Edax {score:+d} {'ok' if ok else 'WRONG'}  {seconds:8.3f} s  "
            f"{nodes:>12,} nodes; arena/Edax time {ours['seconds'] / max(seconds, 1e-9):.2f}x, "
            f"nodes {ours['nodes'] / max(nodes, 1):.2f}x"
        )
    edax_time = sum(s for _, s, _ in found)
    weights_text = f"weights {weights}" if weights else "all-zero weights"
    report(
        f"Edax ({Path(exe).name}, one thread, {weights_text}): {edax_time:.2f} s, "
        f"{sum(n for _, _, n in found):,} nodes; arena/Edax {total / max(edax_time, 1e-9):.2f}x"
        + (f", every move {every / max(edax_time, 1e-9):.2f}x" if every else "")
    )
    return {
        "edax_seconds": edax_time,
        "edax_nodes": sum(n for _, _, n in found),
        "edax_wrong": wrong,
        "ratio": total / max(edax_time, 1e-9),
    }


def _compare_hint(
    exe: str,
    rows: list[list[str]],
    weights: str | None,
    values: dict[str, dict[str, int]],
    per_every: dict[str, tuple[float, int]],
    report: Callable[[str], None],
) -> dict[str, Any]:
    # The same task on both sides: Edax's hint (every move's exact value) against
    # arena's every move; each move's value must agree.
    found = run_edax_hint(exe, rows, weights)
    wrong = 0
    for fields, (edax_values, seconds, nodes) in zip(rows, found, strict=True):
        name = fields[-1]
        ours = values[name]
        ok = edax_values == ours
        wrong += not ok
        differ = "" if ok else f"  WRONG: Edax {edax_values}, arena {ours}"
        report(
            f"{name:<12} Edax every move {seconds:8.3f} s {nodes:>13,} nodes; arena/Edax "
            f"every move time {per_every[name][0] / max(seconds, 1e-9):.2f}x, nodes "
            f"{per_every[name][1] / max(nodes, 1):.2f}x{differ}"
        )
    hint_time = sum(s for _, s, _ in found)
    ours_time = sum(t for t, _ in per_every.values())
    report(
        f"Edax every move (hint, one thread): {hint_time:.2f} s, "
        f"{sum(n for _, _, n in found):,} nodes; arena/Edax every move "
        f"{ours_time / max(hint_time, 1e-9):.2f}x"
    )
    return {
        "edax_hint_seconds": hint_time,
        "edax_hint_nodes": sum(n for _, _, n in found),
        "edax_hint_wrong": wrong,
        "every_move_ratio": ours_time / max(hint_time, 1e-9),
    }
