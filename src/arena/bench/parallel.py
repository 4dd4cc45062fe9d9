"""Games per minute with worker processes: ``--jobs 2`` against ``--jobs 1``.

Fixed-budget games (no clock), so the figure is pure throughput: the games
and their results are the same in both runs, only the wall time differs.

Tests: tests/compete/test_tournament.py (the parallel runner it times)
"""

from __future__ import annotations

import time
from typing import Any

from arena.compete.runner import cores
from arena.compete.timecontrol import TimeControl
from arena.compete.tournament import Settings
from arena.compete.tournament import run as run_tournament
from arena.core.limit import Limit
from arena.games import load_game

SETTINGS = Settings(
    game=load_game("connect4"),
    agents=("mcts:rollouts=2000", "mcts:rollouts=1000"),
    control=TimeControl.budgeted(Limit(rollouts=2000)),
    games_per_pair=12,
    seed=1,
)


def run(jobs: int = 2, report=print) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    rates = {}
    for n in (1, jobs):
        start = time.perf_counter()
        outcome = run_tournament(SETTINGS, jobs=n)
        minutes = (time.perf_counter() - start) / 60
        rates[n] = len(outcome.records) / minutes
        report(
            f"--jobs {n}: {len(outcome.records)} games in {minutes * 60:.1f} s "
            f"= {rates[n]:.1f} games/min"
        )
    ratio = rates[jobs] / rates[1]
    report(f"speed-up with --jobs {jobs} on {cores()} cores: {ratio:.2f}x")
    return {
        "games_per_min": {str(n): round(r, 2) for n, r in rates.items()},
        "speedup": round(ratio, 3),
        "cores": cores(),
    }
