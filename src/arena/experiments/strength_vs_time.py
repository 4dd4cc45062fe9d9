"""``strength-vs-time``: what more thinking time buys MCTS, in games and at the root.

Part 1: MCTS with each time per move plays --games games against a fixed
opponent, colours alternating; the score (a win 1, a draw 1/2) with its 95 %
interval against the time, on a log axis. The opponent must limit itself (a
budget of simulations or a depth, e.g. mcts:rollouts=1000 or
alphabeta:depth=4): the referee gives every move up to --cap seconds, so the
opponent does the same work at every point and only MCTS's time changes.

Part 2: the win rate of every root move of one position after a short and a
long search (--compare), with Wilson 95 % intervals that take the move's
visits as the trials: longer searches narrow the intervals and can reorder
the moves.

Both parts run on the clock, so their numbers depend on the machine and vary
from run to run (a time buys as many simulations as the CPU allows); the
tables give the simulations each time bought. With --jobs N the games run N at
a time: keep N at most the number of free cores, or the games measure a busy
machine.

Tests: tests/experiments/test_strength_vs_time.py
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from arena.agents import load_agent
from arena.compete.runner import cores
from arena.compete.timecontrol import TimeControl
from arena.compete.tournament import seed_of
from arena.core.errors import ArenaError
from arena.core.limit import Limit
from arena.core.spec import with_params
from arena.experiments.games import play_pairs, score_row
from arena.experiments.options import even_games, floats, positive
from arena.experiments.report import Report, pyplot
from arena.experiments.roots import (
    budgetless_mcts,
    default_moves,
    mcts_root,
    searched_position,
)
from arena.experiments.stats import rate_interval
from arena.formats.record import GameRecord
from arena.games import load_game

NAME = "strength-vs-time"
SUMMARY = "MCTS score against a fixed opponent by time per move; root win rates short vs long"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default="connect4", help="game spec (see 'arena games')")
    parser.add_argument(
        "--agent", default="mcts", help="the MCTS spec to time (without time= or rollouts=)"
    )
    parser.add_argument(
        "--times",
        default="0.01,0.03,0.1,0.3",
        metavar="LIST",
        help="seconds per move for the agent, comma-separated",
    )
    parser.add_argument(
        "--opponent",
        default="mcts:rollouts=1000",
        metavar="AGENT",
        help="the fixed opponent; give it a budget (rollouts=, depth=), not a time",
    )
    parser.add_argument(
        "--games", type=int, default=20, metavar="N", help="games per time, even (both colours)"
    )
    parser.add_argument(
        "--cap",
        type=float,
        default=10.0,
        metavar="S",
        help="seconds a move may take before it loses on time (the referee's limit)",
    )
    parser.add_argument(
        "--moves",
        default=None,
        help="part 2's position: moves from the start in the game's notation "
        "(default: a position a few moves in for the standard boards, else the start)",
    )
    parser.add_argument(
        "--compare",
        default="0.1,1",
        metavar="LIST",
        help="part 2: seconds of search to compare at the position",
    )


def run(args: argparse.Namespace, report: Report) -> None:
    times = sorted(floats(args.times, "--times", low=0.001))
    compare = sorted(floats(args.compare, "--compare", low=0.001))
    for option, values in (("--times", times), ("--compare", compare)):
        if len(set(values)) != len(values):
            raise ArenaError(f"{option}: a value is given twice")
    games = even_games(args.games)
    cap = positive(args.cap, "--cap")
    if cap < max(times):
        raise ArenaError(f"--cap {cap:g} is below the longest time per move {max(times):g}")
    agent = budgetless_mcts(args.agent, "--agent")
    load_agent(args.opponent)
    game = load_game(args.game)
    moves = default_moves(game.spec) if args.moves is None else args.moves
    state = searched_position(game.spec, moves)
    if args.jobs > cores():
        print(
            f"arena: warning: {args.jobs} timed games at once on {cores()} cores",
            file=sys.stderr,
        )

    rows = []
    total = len(times) * games + len(compare)
    with report.progress(total, f"{NAME}: {len(times)} times") as advance:
        for t in times:
            spec = with_params(agent, time=f"{t:g}")
            records = play_pairs(
                game.spec,
                spec,
                args.opponent,
                games,
                TimeControl.moving(cap),
                args.seed,
                args.jobs,
                advance,
            )
            rows.append(
                {
                    "seconds": t,
                    **score_row(records, spec),
                    "simulations_per_move": _mean_nodes(records, spec),
                }
            )
        roots = []
        for t in compare:
            seed = seed_of(args.seed, NAME, t)
            searcher = with_params(agent, time=f"{t:g}", seed=seed)
            roots.append((t, mcts_root(state, searcher, Limit(time=t))))
            advance(1)

    setting = f"{game.spec}, {games} games per time, colours alternating"
    report.table(
        rows,
        f"Score of `{agent}` with each time per move against `{args.opponent}` ({setting}): "
        "a win is 1, a draw 1/2; [`low`, `high`] is the 95 % interval. "
        "`simulations_per_move` is the mean the time bought on this machine.",
    )
    report.figure(
        _plot_strength(rows, agent, args.opponent, game.spec, games),
        caption=f"Score of {agent} against {args.opponent} by time per move ({setting}); "
        "whiskers are 95 % intervals.",
    )
    where = f"{game.spec} after {moves!r}" if moves else f"{game.spec} at the start"
    mover = game.player_names[state.to_move]
    root_rows = _root_rows(roots)
    report.table(
        root_rows,
        f"Root moves of {where} ({mover} to move) after each search time: visits, share of "
        "the simulations, win rate (a draw is 1/2) and its Wilson 95 % interval "
        "[`low`, `high`] with the visits as trials.",
        stem=f"{NAME}-roots",
    )
    report.figure(
        _plot_roots(root_rows, where, mover),
        stem=f"{NAME}-roots",
        caption=f"Win rate of each root move of {where} after "
        f"{' s and '.join(f'{t:g}' for t in compare)} s of search; whiskers are Wilson 95 % "
        "intervals with the move's visits as n.",
    )
    report.text(
        "Both parts run on the clock: every column depends on the machine's speed and "
        "varies between runs, except `games` and the moves listed. Each game and search is "
        f"seeded from `--seed`, so differences come from timing alone. Forfeits on time "
        f"(beyond {cap:g} s per move) count as losses and are listed."
    )


def _mean_nodes(records: list[GameRecord], name: str) -> float | None:
    """Mean simulations per move of player ``name`` (players alternate, passes included)."""
    counts = []
    for record in records:
        seat = record.players.index(name)
        counts.extend(n for ply, n in enumerate(record.nodes) if ply % 2 == seat and n is not None)
    return sum(counts) / len(counts) if counts else None


def _root_rows(roots: list[tuple[float, list[Any]]]) -> list[dict[str, Any]]:
    rows = []
    for t, root in roots:
        simulations = sum(m.visits for m in root)
        for m in root:
            rate, low, high = rate_interval(m.wins, m.visits) if m.visits else (None,) * 3
            rows.append(
                {
                    "seconds": t,
                    "move": m.text,
                    "simulations": simulations,
                    "visits": m.visits,
                    "share": m.visits / simulations if simulations else None,
                    "win_rate": rate,
                    "low": low,
                    "high": high,
                }
            )
    return rows


def _plot_strength(
    rows: list[dict[str, Any]], agent: str, opponent: str, game: str, games: int
) -> Any:
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.5), layout="constrained")
    xs = [r["seconds"] for r in rows]
    ys = [r["score"] for r in rows]
    below = [r["score"] - r["low"] for r in rows]
    above = [r["high"] - r["score"] for r in rows]
    ax.errorbar(xs, ys, yerr=[below, above], fmt="o-", capsize=4, label=f"{agent}, 95 % CI")
    ax.axhline(0.5, color="grey", linestyle="--", linewidth=1, label="equal strength (50 %)")
    ax.set_xscale("log")
    ax.set_xticks(xs)
    ax.set_xticklabels([f"{x:g}" for x in xs])
    ax.minorticks_off()
    for r in rows:
        if r["simulations_per_move"] is not None:
            ax.annotate(
                f"≈{r['simulations_per_move']:,.0f} sims/move",
                (r["seconds"], r["score"]),
                textcoords="offset points",
                xytext=(6, -12),
                fontsize=7,
            )
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("time per move (s, log scale)")
    ax.set_ylabel("score per game (win 1, draw ½)")
    ax.set_title(
        f"{game}: {agent} vs {opponent}\n{games} games per point, {games * len(rows)} in all"
    )
    ax.grid(True, alpha=0.3)
    ax.legend(loc="best", fontsize="small")
    return fig


def _plot_roots(rows: list[dict[str, Any]], where: str, mover: str) -> Any:
    plt = pyplot()
    times = list(dict.fromkeys(r["seconds"] for r in rows))
    longest = [r for r in rows if r["seconds"] == times[-1]]
    # The moves the longest search visited most, at most 12, in the game's order.
    ranked = sorted(longest, key=lambda r: -r["visits"])[:12]
    order = [r["move"] for r in longest if r in ranked]
    fig, ax = plt.subplots(figsize=(max(6.0, 0.9 * len(order) + 2), 4.5), layout="constrained")
    width = 0.8 / len(times)
    for j, t in enumerate(times):
        by_move = {r["move"]: r for r in rows if r["seconds"] == t}
        picked = [(i, by_move[m]) for i, m in enumerate(order) if by_move[m]["visits"]]
        xs = [i + (j - (len(times) - 1) / 2) * width for i, _ in picked]
        rates = [r["win_rate"] for _, r in picked]
        below = [r["win_rate"] - r["low"] for _, r in picked]
        above = [r["high"] - r["win_rate"] for _, r in picked]
        sims = by_move[order[0]]["simulations"]
        ax.bar(
            xs,
            rates,
            width,
            yerr=[below, above],
            capsize=2,
            label=f"{t:g} s ({sims:,} simulations)",
        )
    ax.axhline(0.5, color="grey", linestyle="--", linewidth=1)
    ax.set_xticks(range(len(order)))
    ax.set_xticklabels(order)
    ax.set_ylim(0, 1)
    ax.set_xlabel(f"root move ({mover} to move)")
    ax.set_ylabel(f"win rate for {mover} (fraction, draw ½)")
    ax.set_title(f"{where}: root win rates by search time\n95 % intervals, n = the move's visits")
    ax.legend(fontsize="small")
    ax.grid(True, axis="y", alpha=0.3)
    return fig
