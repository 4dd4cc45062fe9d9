"""``arena bench tournament``: what the tournament machinery costs around the games.

A round robin of fast agents (``random`` and ``greedy`` on Connect Four by default: their
moves take microseconds) spends its time in what every tournament does: planning the games,
the referee's clocks and checks, writing each game to the results database and the
standings. The figure is the wall and CPU time of the whole run, median of ``repeat``
runs, each into a fresh database.

Tests: tests/cli/test_bench_kinds.py
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from arena.compete.store import ResultsDB
from arena.compete.tournament import Settings, run

AGENTS = ("random:seed=1", "greedy:seed=1")


def run_bench(
    report: Callable[[str], None],
    games: int = 100,
    repeat: int = 3,
    game: str = "connect4",
    agents: tuple[str, ...] = AGENTS,
) -> dict[str, Any]:
    """Time ``repeat`` round robins of about ``games`` games; report and return the figures."""
    pairs = len(agents) * (len(agents) - 1)  # each pairing twice, colours swapped
    rounds = max(1, round(games / pairs))
    settings = Settings(game=game, agents=agents, control="1+0.1", rounds=rounds, seed=1)
    walls: list[float] = []
    cpus: list[float] = []
    played = 0
    for _ in range(repeat):
        with tempfile.TemporaryDirectory(prefix="arena-bench-") as folder:
            db = ResultsDB(Path(folder) / "bench.db")
            wall, cpu = time.perf_counter(), time.process_time()
            outcome = run(settings, db=db)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
            db.close()
        played = len(outcome.records)
    result = {
        "game": game,
        "agents": list(agents),
        "games": played,
        "repeat": repeat,
        "wall_s": round(statistics.median(walls), 4),
        "cpu_s": round(statistics.median(cpus), 4),
        "ms_per_game": round(1000 * statistics.median(walls) / max(1, played), 3),
    }
    report(
        f"{game}: {played} games of {' vs '.join(agents)}, median of {repeat}: "
        f"{result['wall_s']:.3f} s wall, {result['cpu_s']:.3f} s CPU "
        f"({result['ms_per_game']:.2f} ms a game)"
    )
    return result
