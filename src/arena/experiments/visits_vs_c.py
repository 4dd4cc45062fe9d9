"""``visits-vs-c``: how the exploration constant C spreads MCTS's root visits over the moves.

One position, a fixed number of simulations, and for each C several searches
with different seeds: the bars are the mean share of the root's simulations
each move received, with a 95 % Student t interval across the seeds. A small C
piles the visits on the move that looked best early; a large C spreads them
towards uniform. The searches are budgets of simulations, not of time, so the
same --seed gives the same numbers on any machine; they run in this process
(--jobs is not used).

Tests: tests/experiments/test_visits_vs_c.py
"""

from __future__ import annotations

import argparse
from typing import Any

from arena.compete.tournament import seed_of
from arena.core.errors import ArenaError
from arena.core.limit import Limit
from arena.experiments.options import count, floats
from arena.experiments.report import Report, pyplot
from arena.experiments.roots import RootMove, default_moves, mcts_root, searched_position
from arena.experiments.stats import mean_interval, rate_interval

NAME = "visits-vs-c"
SUMMARY = "distribution of MCTS root visits over the moves of one position for several C"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default="connect4", help="game spec (see 'arena games')")
    parser.add_argument(
        "--moves",
        default=None,
        help='the position: moves from the start in the game\'s notation, e.g. "4453" '
        "(default: a position a few moves in for the standard boards, else the start)",
    )
    parser.add_argument(
        "--c", default="0.1,0.5,1.41,3", metavar="LIST", help="values of C, comma-separated"
    )
    parser.add_argument(
        "--simulations", type=int, default=5000, metavar="N", help="simulations per search"
    )
    parser.add_argument(
        "--repeats", type=int, default=10, metavar="N", help="searches (seeds) per value of C"
    )
    parser.add_argument(
        "--top", type=int, default=12, metavar="N", help="moves in the figure (most visited)"
    )


def run(args: argparse.Namespace, report: Report) -> None:
    cs = floats(args.c, "--c", low=0.0)
    if len(set(cs)) != len(cs):
        raise ArenaError(f"--c: a value is given twice in {args.c!r}")
    simulations = count(args.simulations, "--simulations")
    repeats = count(args.repeats, "--repeats", 2)
    top = count(args.top, "--top")
    moves = default_moves(args.game) if args.moves is None else args.moves
    state = searched_position(args.game, moves)
    game = state.game

    searches: dict[float, list[list[RootMove]]] = {c: [] for c in cs}
    raw: list[dict[str, Any]] = []
    with report.progress(len(cs) * repeats, f"{NAME}: {len(cs)} values of C") as advance:
        for c in cs:
            for r in range(repeats):
                seed = seed_of(args.seed, NAME, c, r)
                root = mcts_root(state, f"mcts:c={c!r},seed={seed}", Limit(rollouts=simulations))
                searches[c].append(root)
                raw.extend(
                    {
                        "c": c,
                        "repeat": r,
                        "seed": seed,
                        "move": m.text,
                        "visits": m.visits,
                        "wins": m.wins,
                    }
                    for m in root
                )
                advance(1)

    rows = _summary(searches, simulations)
    where = f"{game.spec} after {moves!r}" if moves else f"{game.spec} at the start"
    mover = game.player_names[state.to_move]
    setting = f"{simulations} simulations per search, {repeats} seeds per C"
    report.table(
        rows,
        f"Root visits per move ({where}, {mover} to move; {setting}). `visits` is the mean "
        "over the seeds with its 95 % t interval [`visits_low`, `visits_high`]; `share` is "
        "visits / simulations; `win_rate` pools the seeds' wins (a draw is 1/2) over their "
        "visits, with a Wilson interval that takes the visits as independent trials (they "
        "are not quite: the tree chooses them).",
    )
    report.table(
        raw, "Every search: visits and wins per root move (the figure's raw data).", f"{NAME}-raw"
    )
    report.figure(
        _plot(rows, top, where, mover, simulations, repeats, len(state.legal_moves())),
        caption=f"Share of the root's simulations per move for each C ({where}; {setting}); "
        "bars are means, whiskers 95 % t intervals across the seeds; the dashed line is an "
        "even split.",
    )
    report.text(
        "Every number is deterministic for a given `--seed`: the searches have budgets of "
        "simulations, not of time, and every search is seeded."
    )


def _summary(searches: dict[float, list[list[RootMove]]], simulations: int) -> list[dict]:  # type: ignore[type-arg]
    rows = []
    for c, roots in searches.items():
        for i, first in enumerate(roots[0]):
            visits = [float(root[i].visits) for root in roots]
            mean, low, high = mean_interval(visits)
            low, high = max(0.0, low), min(float(simulations), high)  # counts stay in range
            n = sum(root[i].visits for root in roots)
            wins = sum(root[i].wins for root in roots)
            rate, rate_low, rate_high = rate_interval(wins, n) if n else (None, None, None)
            rows.append(
                {
                    "c": c,
                    "move": first.text,
                    "simulations": simulations,
                    "repeats": len(roots),
                    "visits": mean,
                    "visits_low": low,
                    "visits_high": high,
                    "share": mean / simulations,
                    "share_low": low / simulations,
                    "share_high": high / simulations,
                    "win_rate": rate,
                    "win_low": rate_low,
                    "win_high": rate_high,
                }
            )
    return rows


def _plot(
    rows: list[dict[str, Any]],
    top: int,
    where: str,
    mover: str,
    simulations: int,
    repeats: int,
    legal: int,
) -> Any:
    plt = pyplot()
    cs = list(dict.fromkeys(r["c"] for r in rows))
    totals: dict[str, float] = {}
    for r in rows:
        totals[r["move"]] = totals.get(r["move"], 0.0) + r["visits"]
    shown = sorted(totals, key=lambda m: -totals[m])[:top]
    order = [m for m in totals if m in shown]  # the game's move order
    fig, ax = plt.subplots(figsize=(max(6.0, 0.9 * len(order) + 2), 4.5))
    width = 0.8 / len(cs)
    for j, c in enumerate(cs):
        by_move = {r["move"]: r for r in rows if r["c"] == c}
        xs = [i + (j - (len(cs) - 1) / 2) * width for i in range(len(order))]
        share = [by_move[m]["share"] for m in order]
        below = [by_move[m]["share"] - by_move[m]["share_low"] for m in order]
        above = [by_move[m]["share_high"] - by_move[m]["share"] for m in order]
        ax.bar(xs, share, width, yerr=[below, above], capsize=2, label=f"C = {c:g}")
    ax.axhline(1 / legal, color="grey", linestyle="--", linewidth=1, label=f"even (1/{legal})")
    ax.set_xticks(range(len(order)))
    ax.set_xticklabels(order)
    subset = f", the {len(order)} most visited" if len(order) < legal else ""
    ax.set_xlabel(f"root move ({mover} to move){subset}")
    ax.set_ylabel("share of the root's simulations (fraction)")
    ax.set_ylim(0, 1)
    ax.set_title(
        f"{where}: root visits by C\n{simulations} simulations per search, "
        f"{repeats} seeds per C, 95 % intervals"
    )
    ax.legend(fontsize="small")
    ax.grid(True, axis="y", alpha=0.3)
    return fig
