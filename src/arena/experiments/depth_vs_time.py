"""``depth-vs-time``: the deepest alpha-beta search that finishes within a time limit, per
Othello board size.

The searcher is the ``ids`` agent (iterative-deepening alpha-beta with its
transposition table and move ordering) as it plays a first move. For each
depth d = 1, 2, ... a fresh agent searches the position with a limit of
``--seconds`` and d plies, which is exactly the work ``ids`` does before it
finishes depth d in a game: the time and node counts per row are those of all
iterations up to d. The deepest depth finished within the limit is the last d
whose search was not cut off by the clock; the search also stops when it
solves the game (a proven result, or no line left open at the horizon).

Positions: the start position, where every board size offers the same four
moves, plus ``--positions - 1`` seeded random openings that fill ``--fill`` of
the empty squares, so each board is searched at the same stage of its game
(about 20 % in: 2 moves on 4x4, 12 on 8x8). Timings are measured one at a time in this process
(parallel timings on shared cores lie, so there is no ``--jobs``), so the times,
nodes per second and the deepest depths vary with the machine and its load;
the node counts per depth do not.

Tests: tests/experiments/test_depth_vs_time.py
"""

from __future__ import annotations

import argparse
from typing import Any

from arena.agents import load_agent
from arena.compete.openings import Openings
from arena.core.agent import start_game
from arena.core.errors import ArenaError
from arena.core.game import Game, State
from arena.core.limit import Limit
from arena.core.spec import split_spec, with_params
from arena.experiments.options import count, ints, positive
from arena.experiments.report import Report, pyplot
from arena.games import load_game
from arena.search.values import describe, is_proven

NAME = "depth-vs-time"
SUMMARY = "deepest alpha-beta (ids) depth finished within a time limit, per Othello board size"
PLAYS_GAMES = False
"""Searches, not games: no ``--jobs`` (see the module's description)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--sizes",
        default="4,6,8,10",
        metavar="LIST",
        help="Othello board sides, comma-separated, even, 4..16 (default: %(default)s)",
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=10.0,
        metavar="S",
        help="time limit per search, in seconds (default: %(default)s)",
    )
    parser.add_argument(
        "--positions",
        type=int,
        default=3,
        metavar="N",
        help="positions per size: the start, then random openings (default: %(default)s)",
    )
    parser.add_argument(
        "--fill",
        type=float,
        default=0.2,
        metavar="F",
        help="share of the empty squares each random opening fills, 0 < F < 1 "
        "(default: %(default)s)",
    )
    parser.add_argument(
        "--agent",
        default="ids:engine=python",
        metavar="SPEC",
        help="the ids spec, e.g. ids:engine=python,eval=utility; 'ids' alone runs the compiled "
        "Othello engine, whose depths are not the readable alpha-beta's "
        "(default: %(default)s)",
    )


def run(args: argparse.Namespace, report: Report) -> None:
    sizes = ints(args.sizes, "--sizes", low=4)
    if len(set(sizes)) != len(sizes):
        raise ArenaError(f"--sizes: a size is given twice in {args.sizes!r}")
    seconds = positive(args.seconds, "--seconds")
    positions = count(args.positions, "--positions")
    if not 0 < args.fill < 1:
        raise ArenaError(
            f"--fill must be between 0 and 1 (a share of the squares), not {args.fill}"
        )
    if split_spec(args.agent)[0] != "ids":
        raise ArenaError(
            f"--agent must be an ids spec (its depth is what is measured), not {args.agent!r}"
        )
    maxdepth = load_agent(args.agent).maxdepth  # type: ignore[attr-defined]
    games = {size: load_game(f"othello:size={size}") for size in sorted(sizes)}
    depth_rows: list[dict[str, Any]] = []
    summary: list[dict[str, Any]] = []
    with report.progress(len(sizes) * positions, f"{NAME}: one search at a time") as advance:
        for size, game in games.items():
            plies = opening_plies(size, args.fill)
            book = Openings.random(game, plies=plies, seed=args.seed)
            for index in range(positions):
                opening = book.get(index - 1) if index else ()
                state = game.play_moves(opening)
                where = {
                    "size": size,
                    "position": index,
                    "plies": len(opening),
                    "opening": " ".join(game.format_move(m) for m in opening) or "start",
                }
                rows, stop = _deepen(game, state, args.agent, seconds, maxdepth)
                depth_rows.extend({**where, **row} for row in rows)
                last = rows[-1] if rows else {"depth": 0, "seconds": None}
                summary.append(
                    {
                        **where,
                        "deepest": last["depth"],
                        "seconds": last["seconds"],
                        "stopped": stop,
                    }
                )
                advance(1)
    limit = f"{seconds:g} s"
    report.table(
        summary,
        f"Deepest depth (plies) `{args.agent}` finishes within {limit} per Othello board size "
        "and position, with the time it took; `stopped` says why it went no deeper: `time` "
        "(the next depth did not finish in time), `solved` (every line reached the end of the "
        "game: the value is exact) or `maxdepth` (the agent's deepest iteration).",
    )
    if depth_rows:
        report.table(
            depth_rows,
            f"Every depth finished within {limit}: time (s) and positions searched (nodes) by "
            "all iterations up to that depth, nodes per second, and the root value (for the "
            "player to move; `win in N` when proven).",
            stem=f"{NAME}-depths",
        )
    else:  # a tiny --seconds on a busy machine: say so rather than fail on an empty table
        report.text(f"No search finished even depth 1 within {limit}.")
    report.figure(
        _plot(summary, depth_rows, args.agent, seconds, args.fill),
        caption=f"Left: deepest depth finished within {limit} per board size. Right: time to "
        f"finish each depth (log scale); the dashed line is the {limit} limit.",
    )
    report.text(
        "Measured one search at a time, in one process. The columns "
        "`seconds` and `nodes_per_second` are measured times, and `deepest` and which depths "
        "appear depend on them: they vary with the machine and its load. `nodes` and `value` "
        "of a depth are the same on every run."
    )


def opening_plies(size: int, fill: float) -> int:
    """Moves that fill ``fill`` of the empty squares of a size x size board (at least one).

    >>> [opening_plies(size, 0.2) for size in (4, 6, 8, 10)]
    [2, 6, 12, 19]
    """
    return max(1, round(fill * (size * size - 4)))


def _deepen(
    game: Game, state: State, spec: str, seconds: float, maxdepth: int
) -> tuple[list[dict[str, Any]], str]:
    """Search ``state`` to depth 1, 2, ... (a fresh agent each) until one does not finish."""
    rows: list[dict[str, Any]] = []
    for depth in range(1, maxdepth + 1):
        # The depth of alpha-beta is what is measured: no switch to the exact endgame solver.
        agent = load_agent(with_params(spec, exact=0))
        start_game(agent, game)  # tables are built here, off the clock
        agent.choose(state, Limit(time=seconds, depth=depth))
        info = agent.last_search
        assert info is not None and info.depth is not None
        if info.depth < depth:
            # ids stops short of the depth asked on the clock, or when nothing is left to
            # search: a proven win or loss, or every line at an end of the game (then the
            # value is an exact draw, 0, found well inside the time).
            # A compiled engine may solve a small board outright (method "exact") whatever
            # exact=0 asks: that is solved too, not out of time.
            value = info.value
            solved = info.method == "exact" or (
                value is not None
                and (is_proven(value) or (value == 0 and info.seconds < seconds / 2))
            )
            return rows, "solved" if solved else "time"
        rows.append(
            {
                "depth": depth,
                "seconds": info.seconds,
                "nodes": info.nodes,
                "nodes_per_second": info.nodes / info.seconds if info.seconds > 0 else None,
                "value": describe(info.value) if info.value is not None else "",
            }
        )
    return rows, "maxdepth"


def _plot(
    summary: list[dict[str, Any]],
    depth_rows: list[dict[str, Any]],
    agent: str,
    seconds: float,
    fill: float,
) -> Any:
    plt = pyplot()
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5))
    sizes = sorted({row["size"] for row in summary})
    colours = {
        size: plt.cm.viridis(i / max(1, len(sizes) - 1) * 0.85) for i, size in enumerate(sizes)
    }
    openings = f"random openings filling {fill:.0%} of the empty squares"
    start = [row for row in summary if row["position"] == 0]
    later = [row for row in summary if row["position"] > 0]
    left.plot(
        [r["size"] for r in start],
        [r["deepest"] for r in start],
        "s-",
        color="black",
        label="start position",
        zorder=3,
    )
    if later:
        left.scatter(
            [r["size"] for r in later],
            [r["deepest"] for r in later],
            color=[colours[r["size"]] for r in later],
            label=openings,
            zorder=3,
        )
        means = [
            sum(r["deepest"] for r in later if r["size"] == size)
            / sum(1 for r in later if r["size"] == size)
            for size in sizes
        ]
        left.plot(sizes, means, "--", color="grey", linewidth=1, label="mean of the openings")
    for row in summary:
        if row["stopped"] == "solved":
            left.annotate(
                "solved",
                (row["size"], row["deepest"]),
                textcoords="offset points",
                xytext=(6, -3),
                fontsize="small",
            )
    left.set_xticks(sizes)
    left.set_xlabel("Othello board side (cells)")
    left.set_ylabel(f"deepest depth finished in {seconds:g} s (plies)")
    left.set_ylim(bottom=0)
    left.grid(True, alpha=0.3)
    left.legend(loc="lower left", fontsize="small")
    for row in summary:
        mine = [
            r for r in depth_rows if (r["size"], r["position"]) == (row["size"], row["position"])
        ]
        if not mine:
            continue
        right.plot(
            [r["depth"] for r in mine],
            [r["seconds"] for r in mine],
            "o-" if row["position"] == 0 else "o:",
            color=colours[row["size"]],
            markersize=3,
            linewidth=1.5 if row["position"] == 0 else 1,
            label=f"{row['size']}x{row['size']}" if row["position"] == 0 else None,
        )
    right.axhline(seconds, color="grey", linestyle="--", linewidth=1, label=f"limit {seconds:g} s")
    right.set_yscale("log")
    right.set_xlabel("search depth (plies)")
    right.set_ylabel("time to finish the depth (s, log scale)")
    right.grid(True, which="both", alpha=0.3)
    right.legend(loc="lower right", fontsize="small", title="solid: start; dotted: openings")
    fig.suptitle(
        f"{agent} on Othello: deepest depth within {seconds:g} s, one search at a time\n"
        f"{len(summary)} searches: {len(start)} from the start, {len(later)} after {openings}"
    )
    fig.tight_layout()
    return fig
