"""``iterations-vs-time``: how long N MCTS iterations take, game by game.

From the start position of each game, a fresh seeded MCTS agent runs exactly N
iterations (simulations) for N = --start, 2·--start, ... up to --max, timed
with a monotonic clock around the search alone (with --repeats, the
fastest of that many identical searches: other processes can only slow a
search down, never speed it up). The log-log plot shows each
game's time against N beside a line of slope 1 (time proportional to N); the
second panel shows the rate, which falls as the tree grows deeper.

Measurements run one at a time in this process (there is no --jobs):
timings taken side by side on shared cores would measure each other. The
times depend on the machine; the tree each search builds (its depth) does
not. Memory grows with N: 128k iterations of Gomoku or Colosseum hold
1-2 GB of tree.

Tests: tests/experiments/test_iterations_vs_time.py
"""

from __future__ import annotations

import argparse
import gc
import math
import time
from typing import Any

from arena.agents import load_agent
from arena.compete.tournament import seed_of
from arena.core.errors import ArenaError
from arena.core.limit import Limit
from arena.core.spec import with_params
from arena.experiments.options import count
from arena.experiments.report import Report, pyplot
from arena.experiments.roots import budgetless_mcts
from arena.games import NAMES, load_game

NAME = "iterations-vs-time"
SUMMARY = "time for 1k ... 128k MCTS iterations per game: table and log-log plot"
PLAYS_GAMES = False
"""Searches, not games: no ``--jobs`` (see the module's description)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--games", nargs="+", default=list(NAMES), metavar="GAME", help="game specs to time"
    )
    parser.add_argument("--agent", default="mcts", help="the MCTS spec (without a budget)")
    parser.add_argument(
        "--start", type=int, default=1000, metavar="N", help="the fewest iterations timed"
    )
    parser.add_argument(
        "--repeats",
        type=int,
        default=1,
        metavar="N",
        help="time each search N times and keep the fastest (other processes only slow it)",
    )
    parser.add_argument(
        "--max",
        type=int,
        default=32000,
        metavar="N",
        help="the most iterations timed (doubling from --start; 128000 for the full series)",
    )


def iteration_counts(start: int, most: int) -> list[int]:
    """``start`` doubled while it stays within ``most``.

    >>> iteration_counts(1000, 8000), iteration_counts(1000, 7999)
    ([1000, 2000, 4000, 8000], [1000, 2000, 4000])
    """
    counts = [start]
    while counts[-1] * 2 <= most:
        counts.append(counts[-1] * 2)
    return counts


def run(args: argparse.Namespace, report: Report) -> None:
    start = count(args.start, "--start")
    most = count(args.max, "--max", start)
    repeats = count(args.repeats, "--repeats")
    agent = budgetless_mcts(args.agent, "--agent")
    games = [load_game(spec) for spec in args.games]
    if len({g.spec for g in games}) != len(games):
        raise ArenaError("--games: a game is given twice")
    counts = iteration_counts(start, most)
    rows = []
    total = repeats * len(games) * sum(counts)
    with report.progress(total, f"{NAME}: iterations") as advance:
        for game in games:
            state = game.initial_state()
            for n in counts:
                spec = with_params(agent, seed=seed_of(args.seed, game.spec, n))
                times = []
                for _ in range(repeats):
                    searcher = load_agent(spec)  # the same seed: the same tree every time
                    searcher.reset(game)
                    gc.collect()  # the last tree's garbage is not this search's time
                    started = time.perf_counter()
                    searcher.choose(state, Limit(rollouts=n))
                    times.append(time.perf_counter() - started)
                    info = searcher.last_search
                    assert info is not None
                    del searcher  # free the tree before the next clock starts
                    advance(n)
                seconds = min(times)
                rows.append(
                    {
                        "game": game.spec,
                        "iterations": n,
                        "simulations": info.nodes,
                        "depth": info.depth,
                        "seconds": seconds,
                        "iterations_per_s": info.nodes / seconds,
                        "us_per_iteration": 1e6 * seconds / info.nodes,
                    }
                )
    report.table(
        rows,
        f"Time for N MCTS iterations (`{agent}`) from each game's start position, the fastest "
        f"of {repeats} search{'es' if repeats > 1 else ''} per row, one at a time. "
        "`simulations` is what the search did (N); `depth` is the deepest level its tree "
        "reached.",
    )
    report.figure(
        plot(rows, agent, repeats),
        caption=f"Seconds for N iterations of `{agent}` from the start position (log-log), "
        f"the fastest of {repeats} per point, beside a line of slope 1; right: iterations per "
        "second.",
    )
    report.text(
        "Measured on this machine, one search at a time: `seconds`, `iterations_per_s` and "
        "`us_per_iteration` vary between runs and machines; `game`, `iterations`, "
        "`simulations` and `depth` are the same for the same `--seed`."
    )


def plot(rows: list[dict[str, Any]], agent: str, repeats: int) -> Any:
    """The figure: seconds against N (log-log) beside a slope-1 reference; right, the rate.

    The reference line runs below every game's points (its height means nothing, only its
    slope), so it never hides a game's line; and each log axis gets enough labelled ticks
    to be read (1-2-5 within a few decades), however narrow the range a run measured.
    """
    plt = pyplot()
    note = "one search per point" if repeats == 1 else f"fastest of {repeats} searches per point"
    fig, (ax, rate_ax) = plt.subplots(1, 2, figsize=(11, 4.5), layout="constrained")
    for spec in dict.fromkeys(r["game"] for r in rows):
        mine = [r for r in rows if r["game"] == spec]
        xs = [r["iterations"] for r in mine]
        ax.plot(xs, [r["seconds"] for r in mine], "o-", label=spec, zorder=3)
        rate_ax.plot(xs, [r["iterations_per_s"] for r in mine], "o-", label=spec, zorder=3)
    # The reference: time proportional to N, a third of the cheapest cost per iteration, so
    # it sits below every game.
    cost = min(r["seconds"] / r["iterations"] for r in rows) / 3
    ends = [min(r["iterations"] for r in rows), max(r["iterations"] for r in rows)]
    ax.plot(
        ends, [cost * n for n in ends], "--", color="grey", label="slope 1 (time ∝ N)", zorder=2
    )
    counts = sorted({r["iterations"] for r in rows})
    for axis in (ax, rate_ax):
        axis.set_xscale("log")
        axis.set_yscale("log")
        axis.set_xticks(counts)
        axis.set_xticklabels([_short(n) for n in counts])
        axis.xaxis.set_minor_locator(plt.NullLocator())
        readable_log_ticks(plt, axis.yaxis, *axis.get_ylim())
    ax.set_xlabel("MCTS iterations N (simulations, log scale)")
    ax.set_ylabel("time for the search (s, log scale)")
    ax.set_title(f"{agent}: time for N iterations from the start\n{note}")
    ax.grid(True, which="both", alpha=0.3)
    # Below both panels (their colours are the same games), where it cannot cover a point.
    fig.legend(
        *ax.get_legend_handles_labels(), loc="outside lower center", ncol=4, fontsize="small"
    )
    rate_ax.set_xlabel("MCTS iterations N (simulations, log scale)")
    rate_ax.set_ylabel("iterations per second (1/s, log scale)")
    rate_ax.set_title("speed: iterations per second")
    rate_ax.grid(True, which="both", alpha=0.3)
    return fig


def readable_log_ticks(plt: Any, axis: Any, low: float, high: float) -> None:
    """Labelled ticks on a log ``axis`` spanning ``low``..``high``: every decade when it spans
    more than three, else 1, 2 and 5 times each power of ten (and 1-9 within one decade).

    Matplotlib's default labels only powers of ten, so a range such as 0.004-0.06 showed
    a single label, "0.01".
    """
    decades = math.log10(high / low)
    subs: tuple[float, ...] = (1.0,)
    if decades <= 1:
        subs = tuple(float(k) for k in range(1, 10))
    elif decades <= 3:
        subs = (1.0, 2.0, 5.0)
    axis.set_major_locator(plt.LogLocator(base=10, subs=subs))
    axis.set_major_formatter(plt.FuncFormatter(_tick_text))
    axis.set_minor_formatter(plt.NullFormatter())


def _tick_text(y: float, _position: int) -> str:
    """``12345.0`` -> ``12,345``, ``0.05`` -> ``0.05``: plain numbers, no powers of ten."""
    return f"{y:,.0f}" if y >= 1000 else f"{y:g}"


def _short(n: int) -> str:
    """``2000`` -> ``2k``: tick labels that fit."""
    return f"{n / 1000:g}k" if n >= 1000 and n % 100 == 0 else str(n)
