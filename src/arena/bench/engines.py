"""Strength against real engines: our agents against GNU Go and GRhino over GTP.

Each case plays ``games`` games with colours alternating at a fixed time per
move for both sides, in one process after the other (engines and agents must
not share a core with other games), and reports our score with its 95 %
interval (:func:`arena.experiments.games.score_row`) and the forfeits.
GNU Go runs with Chinese (area) rules and ``--capture-all-dead``, so the
game's Tromp-Taylor count agrees with how it plays the end of the game.

Tests: tests/remote/gtp/test_client.py
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from arena.compete.timecontrol import TimeControl
from arena.core.errors import ArenaError
from arena.experiments.games import play_pairs, score_row

GNUGO = "gtp:gnugo --mode gtp --chinese-rules --capture-all-dead --level {level}"
GRHINO = "gtp:gtp-rhino --level {level}"
RAPFI = "pbrain:{options}pbrain-rapfi"
"""Rapfi, a Gomocup brain built from its public source by ``scripts/build-rapfi``
(``{options}``: the ``pbrain:`` options, e.g. ``turn=0.1:``)."""


@dataclass(frozen=True)
class Case:
    game: str
    ours: str
    engine: str


def cases(
    gnugo_level: int = 10, grhino_level: int = 3, ours: dict[str, str] | None = None
) -> list[Case]:
    """The three cases, with our agents (``ours``: per game name) and the engines' levels."""
    picks = {"go": "mcts:rollout=heuristic,reuse=1", "othello": "ids", **(ours or {})}
    return [
        Case("go:size=5", picks["go"], GNUGO.format(level=gnugo_level)),
        Case("go:size=9", picks["go"], GNUGO.format(level=gnugo_level)),
        Case("othello", picks["othello"], GRHINO.format(level=grhino_level)),
    ]


def run(
    games: int,
    move_time: float,
    seed: int,
    selected: list[Case],
    report: Callable[[str], None] = print,
) -> dict[str, Any]:
    if games < 1:
        raise ArenaError(f"--games must be >= 1, not {games}")
    if not move_time > 0:
        raise ArenaError(f"--move-time must be > 0, not {move_time}")
    rows = []
    report(
        f"{'game':<10} {'ours':<32} {'engine':<58} {'games':>5} {'W-D-L':>8} "
        f"{'score':>6} {'95% interval':>15}  forfeits"
    )
    for case in selected:
        started = time.perf_counter()
        control = TimeControl.moving(move_time)
        records = play_pairs(case.game, case.ours, case.engine, games, control, seed, 1, None)
        row = score_row(records, case.ours)
        by = Counter(
            f"{'ours' if r.players[r.loser] == case.ours else 'engine'} {r.reason}"
            for r in records
            if r.forfeited
        )
        shown = ", ".join(f"{k}: {v}" for k, v in sorted(by.items())) or "-"
        wdl = f"{row['wins']}-{row['draws']}-{row['losses']}"
        interval = f"[{100 * row['low']:.1f}, {100 * row['high']:.1f}]"
        report(
            f"{case.game:<10} {case.ours:<32} {case.engine:<58} {games:>5} "
            f"{wdl:>8} {100 * row['score']:>5.1f}% {interval:>15}  {shown}"
        )
        row.update(forfeits=dict(by), minutes=round((time.perf_counter() - started) / 60, 2))
        rows.append({"game": case.game, "ours": case.ours, "engine": case.engine, **row})
    return {"move_time": move_time, "seed": seed, "cases": rows}
