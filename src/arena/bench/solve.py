"""``arena bench solve``: the solvers on the reference positions, with their figures.

Tests: tests/cli/test_solve.py

Connect Four: the 200 scored positions of ``tests/solvers/data/
connect4_scored_positions.txt`` (``MOVES SCORE``), the set on which Pascal
Pons' C++ solver (no opening book) takes 12.5-15.0 s on this project's
machine. Othello: FFO #40-#42 (``tests/solvers/data/othello_ffo.txt``,
``BOARD SIDE SCORE BEST NAME``), each timed. Every score is checked.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from importlib import import_module
from pathlib import Path
from typing import Any

from arena.core.errors import ArenaError
from arena.formats.position import parse_position
from arena.games import load_game

DATA = Path(__file__).resolve().parents[3] / "tests" / "solvers" / "data"
FILES = {"connect4": DATA / "connect4_scored_positions.txt", "othello": DATA / "othello_ffo.txt"}


def run(game_name: str, path: str | None, report: Callable[[str], None]) -> dict[str, Any]:
    """Solve every line of the file; report each slow or wrong one and the totals."""
    source = Path(path) if path is not None else FILES[game_name]
    if not source.exists():
        raise ArenaError(f"no positions file {source} (give one with --file)")
    game = load_game(game_name)
    if game_name == "connect4":
        c4 = import_module("arena.solvers.connect4.solver").Connect4Solver()

        def solve(fields: list[str]) -> tuple[int, int, float]:
            c4.reset()  # each position on its own: no help from the previous ones
            found = c4.solve([int(c) - 1 for c in fields[0]])
            return found.score, found.nodes, found.seconds

        expected_at = 1
    else:
        oth = import_module("arena.solvers.othello.solver").OthelloSolver(game.size)  # type: ignore[attr-defined]

        def solve(fields: list[str]) -> tuple[int, int, float]:
            oth.reset()  # each position on its own, as the suites are timed
            found = oth.solve(parse_position(game, " ".join(fields[:2])))
            return found.score, found.nodes, found.seconds

        expected_at = 2
    rows = [line.split() for line in source.read_text().splitlines() if line.strip()]
    total_nodes, total_time, wrong = 0, 0.0, 0
    cpu = time.process_time()
    for fields in rows:
        score, nodes, seconds = solve(fields)
        total_nodes += nodes
        total_time += seconds
        ok = score == int(fields[expected_at])
        wrong += not ok
        if game_name == "othello" or seconds > 1.0 or not ok:
            name = fields[-1] if game_name == "othello" else fields[0]
            verdict = "ok" if ok else "WRONG, expected " + fields[expected_at]
            rate = nodes / max(seconds, 1e-9) / 1e6
            report(
                f"{name:<12} score {score:+d} {verdict}  {seconds:8.3f} s  {nodes:>12,} nodes"
                f"  {rate:6.2f} M/s"
            )
    cpu = time.process_time() - cpu
    n = len(rows)
    rate = total_nodes / total_time if total_time else 0.0
    report(
        f"{game_name}: {n} positions, {n - wrong} exact; total {total_time:.2f} s "
        f"(CPU {cpu:.2f} s), mean {total_time / n * 1000:.2f} ms; {total_nodes:,} nodes, "
        f"{rate / 1e6:.2f} M nodes/s"
    )
    return {
        "game": game_name,
        "positions": n,
        "wrong": wrong,
        "seconds": total_time,
        "cpu_seconds": cpu,
        "nodes": total_nodes,
        "nodes_per_second": rate,
    }
