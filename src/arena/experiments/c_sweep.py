"""``c-sweep``: how MCTS's score against a fixed baseline changes with its exploration constant C.

Every point plays ``--games`` games of ``mcts:c=C`` against ``--baseline``,
colours alternating, with the same number of simulations per move for both
(``--rollouts``: a budget of work, not time, so the result does not depend on
the machine). The default baseline is MCTS with the textbook C = √2, so the
point at C = 1.41 is a self-play check near 50 % and the curve shows which C
beats the default at this budget.

Tests: tests/experiments/test_c_sweep.py
"""

from __future__ import annotations

import argparse
import math
from typing import Any

from arena.compete.timecontrol import TimeControl
from arena.core.errors import ArenaError
from arena.core.limit import Limit
from arena.experiments.games import play_pairs, score_row
from arena.experiments.options import count, even_games, floats
from arena.experiments.report import Report, pyplot
from arena.games import load_game

NAME = "c-sweep"
SUMMARY = "MCTS score against a baseline over a sweep of the exploration constant C"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default="connect4", help="game spec (default: %(default)s)")
    parser.add_argument(
        "--c",
        default="0.1,0.25,0.5,1,1.41,2,4",
        metavar="LIST",
        help="values of C to try, comma-separated, each > 0 (default: %(default)s)",
    )
    parser.add_argument(
        "--baseline",
        default="mcts",
        metavar="AGENT",
        help="the fixed opponent (default: %(default)s, i.e. C = √2 with the same simulations)",
    )
    parser.add_argument(
        "--rollouts",
        type=int,
        default=400,
        metavar="N",
        help="simulations per move for both sides (default: %(default)s)",
    )
    parser.add_argument(
        "--games",
        type=int,
        default=200,
        metavar="N",
        help="games per value of C, even: half with each colour (default: %(default)s)",
    )


def run(args: argparse.Namespace, report: Report) -> None:
    cs = floats(args.c, "--c", low=0.0, strict=True)
    if len(set(cs)) != len(cs):
        raise ArenaError(f"--c: a value is given twice in {args.c!r}")
    games = even_games(args.games)
    rollouts = count(args.rollouts, "--rollouts")
    load_game(args.game)
    control = TimeControl.budgeted(Limit(rollouts=rollouts))
    rows = []
    with report.progress(len(cs) * games, f"{NAME}: {len(cs)} values of C") as advance:
        for c in sorted(cs):
            agent = f"mcts:c={c:g}"
            records = play_pairs(
                args.game, agent, args.baseline, games, control, args.seed, args.jobs, advance
            )
            rows.append({"c": c, **score_row(records, agent)})
    setting = (
        f"{args.game}, {rollouts} simulations per move for both sides, "
        f"{games} games per value of C (colours alternating)"
    )
    report.table(
        rows,
        f"Score of `mcts:c=C` against `{args.baseline}` ({setting}): a win is 1, a draw 1/2; "
        "low and high bound the 95 % interval.",
    )
    report.figure(
        _plot(rows, args.baseline, args.game, rollouts, games),
        caption=f"MCTS score against `{args.baseline}` by C, 95 % intervals; {setting}.",
    )
    report.text(
        "Every number here is deterministic for a given `--seed` (seeded agents, budgets of "
        "simulations rather than time), so the same command writes the same CSV."
    )


def _plot(rows: list[dict[str, Any]], baseline: str, game: str, rollouts: int, games: int) -> Any:
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.5))
    cs = [row["c"] for row in rows]
    scores = [row["score"] for row in rows]
    below = [row["score"] - row["low"] for row in rows]
    above = [row["high"] - row["score"] for row in rows]
    ax.errorbar(cs, scores, yerr=[below, above], fmt="o-", capsize=4, label="MCTS(C), 95 % CI")
    ax.axhline(0.5, color="grey", linestyle="--", linewidth=1, label="equal strength (50 %)")
    if baseline.strip().lower() == "mcts":
        ax.axvline(math.sqrt(2), color="grey", linestyle=":", linewidth=1, label="baseline C = √2")
    ax.set_xscale("log")
    ax.set_xticks(cs)
    ax.set_xticklabels([f"{c:g}" for c in cs])
    ax.minorticks_off()
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("exploration constant C (log scale, dimensionless)")
    ax.set_ylabel("score per game (win 1, draw ½)")
    ax.set_title(
        f"{game}: mcts:c=C vs {baseline}, {rollouts} simulations/move\n"
        f"{games} games per point, {games * len(rows)} games in all"
    )
    ax.grid(True, alpha=0.3)
    ax.legend(loc="best", fontsize="small")
    return fig
