"""``learned-eval``: the same alpha-beta judging its horizon by a value network
(``eval=net:FILE``) against it judging by the game's hand-written heuristic, at equal
depth and at equal time.

At equal depth (``--depths``) both sides search exactly that many plies — ``alphabeta``
(or ``ids`` stopped at the depth, ``--search ids``) — so the only difference is the
evaluation at the cut-off: which one judges positions better. At equal time
(``--times``, seconds a move) both sides are ``ids``, the readable alpha-beta deepening
on the clock: the network's evaluation costs a forward pass per position where the
heuristic costs microseconds, so here a learned evaluation must be better by more than
the depth it loses. The table gives the depth each side reached on the openings' first
positions. The hand-written side is ``ids:engine=python``, the same readable search:
plain ``ids`` plays Connect Four, Gomoku and Othello with a compiled engine, which no
network evaluation runs in, and the experiment compares evaluations, not engines.

Each pair of games starts from its own seeded random opening (``--plies`` moves), once
with each colour, the same openings at every depth and time. ``--net random`` plays an
untrained network made from ``--seed`` (the control: what the evaluation is worth before
learning); ``--net FILE`` any network of the game (docs/az.md).

Tests: tests/experiments/test_learned_eval.py
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import Any

from arena.agents import load_agent
from arena.compete.openings import Openings
from arena.compete.timecontrol import TimeControl
from arena.core.errors import ArenaError, SpecError
from arena.core.game import Game
from arena.core.limit import Limit
from arena.experiments.games import play_pairs, score_row
from arena.experiments.options import count, even_games, floats, ints
from arena.experiments.report import Report, pyplot
from arena.formats.record import GameRecord
from arena.games import load_game
from arena.search.az.network import load, random_network
from arena.search.az.value import network_problem

NAME = "learned-eval"
SUMMARY = "alpha-beta with a value network (eval=net:) vs the hand-written heuristic"

SEARCHES = ("alphabeta", "ids")
"""The searches of the equal-depth games."""

PROBES = 4
"""Opening positions on which each side's depth at each time is measured."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default="connect4", help="game spec (see 'arena games')")
    parser.add_argument(
        "--net",
        required=True,
        metavar="FILE",
        help="the network (.npz, docs/az.md) whose value head judges positions, or "
        "'random': an untrained network made from --seed",
    )
    parser.add_argument(
        "--search",
        choices=SEARCHES,
        default="alphabeta",
        help="the search of the equal-depth games (equal-time games are ids)",
    )
    parser.add_argument(
        "--depths",
        default="1,2,3,4",
        metavar="LIST",
        help="equal depth: plies both sides search, comma-separated; 'none' for no such games",
    )
    parser.add_argument(
        "--times",
        default="0.05,0.2",
        metavar="LIST",
        help="equal time: seconds a move for both ids searches, comma-separated; 'none' for "
        "no such games",
    )
    parser.add_argument(
        "--games",
        type=int,
        default=20,
        metavar="N",
        help="games per depth and per time, even: N/2 openings, each played with both colours",
    )
    parser.add_argument(
        "--plies", type=int, default=4, metavar="N", help="random moves in each opening"
    )


def specs(search: str, net: str, depth: int | None) -> tuple[str, str]:
    """The (network, heuristic) agent specs: at ``depth`` with ``search``, or (``depth``
    None) the two ``ids`` of the equal-time games.

    >>> specs("alphabeta", "c4.npz", 3)
    ('alphabeta:depth=3,eval=net:c4.npz', 'alphabeta:depth=3')
    >>> specs("ids", "c4.npz", None)
    ('ids:eval=net:c4.npz', 'ids:engine=python')
    """
    if search == "alphabeta" and depth is not None:
        return f"alphabeta:depth={depth},eval=net:{net}", f"alphabeta:depth={depth}"
    return f"ids:eval=net:{net}", "ids:engine=python"


def budgets(depths: str, times: str) -> tuple[list[int], list[float]]:
    """The depths and the times, checked (each list may be 'none', not both).

    >>> budgets("3,1", "none")
    ([1, 3], [])
    >>> budgets("none", "none")
    Traceback (most recent call last):
    ...
    arena.core.errors.ArenaError: --depths and --times are both 'none': nothing to play
    """
    d = [] if depths.strip().lower() == "none" else ints(depths, "--depths", low=1)
    t = [] if times.strip().lower() == "none" else floats(times, "--times", low=0.0, strict=True)
    if len(set(d)) != len(d):
        raise ArenaError(f"--depths: a depth is given twice in {depths!r}")
    if len(set(t)) != len(t):
        raise ArenaError(f"--times: a time is given twice in {times!r}")
    if not d and not t:
        raise ArenaError("--depths and --times are both 'none': nothing to play")
    return sorted(d), sorted(t)


def network_file(text: str, game: Game, seed: int, folder: Path) -> tuple[Path, str]:
    """The network's path and how the report names it: ``random`` is written into
    ``folder``; a file is checked against the game now (one line, before any game)."""
    if text.strip().lower() == "random":
        path = folder / "random.npz"
        random_network(game, seed=seed).save(path)
        return path, f"an untrained network (random, seed {seed})"
    path = Path(text)
    try:
        load(path).check(game)  # no file, not a network, another game: before any game
    except SpecError as exc:
        raise ArenaError(f"--net {text}: {network_problem(str(exc))}") from None
    return path, f"the network {path.name}"


def run(args: argparse.Namespace, report: Report) -> None:
    depths, times = budgets(args.depths, args.times)
    games = even_games(args.games)
    plies = count(args.plies, "--plies")
    game = load_game(args.game)
    openings = Openings.random(game, plies=plies, seed=args.seed)
    with tempfile.TemporaryDirectory(prefix="arena-learned-eval-") as folder:
        path, named = network_file(args.net, game, args.seed, Path(folder))
        rows = []
        total = (len(depths) + len(times)) * games
        with report.progress(total, f"{NAME}: {len(depths) + len(times)} budgets") as advance:
            for depth in depths:
                net, hand = specs(args.search, str(path), depth)
                control = TimeControl.budgeted(Limit(depth=depth))
                records = play_pairs(
                    game.spec, net, hand, games, control, args.seed, args.jobs, advance,
                    openings=openings.spec,
                )  # fmt: skip
                rows.append(_row("depth", depth, records, net))
            for seconds in times:
                net, hand = specs("ids", str(path), None)
                records = play_pairs(
                    game.spec, net, hand, games, TimeControl.moving(seconds), args.seed,
                    args.jobs, advance, openings=openings.spec,
                )  # fmt: skip
                row = _row("time", seconds, records, net)
                row["depth_net"], row["depth_heuristic"] = reached(
                    game, openings, (net, hand), seconds, min(PROBES, games // 2)
                )
                rows.append(row)
    what = f"{named} vs the hand-written heuristic on {game.spec}"
    report.table(
        rows,
        f"Alpha-beta judging positions by {what}: the network side's wins, draws and "
        f"losses over {games} games per row ({games // 2} random openings of {plies} plies, "
        "each with both colours), its score per game (a win 1, a draw 1/2) with the 95 % "
        "interval [low, high], and its score when it moved first and second. `budget` is "
        f"`depth` (both sides {args.search} to `value` plies) or `time` (both sides ids, "
        "`value` seconds a move); `depth_net` and `depth_heuristic` are the mean depth "
        f"each side completed in that time on the first {PROBES} openings' positions.",
    )
    report.figure(
        plot(rows, what, games),
        caption=f"Score of the side with the network's evaluation, 95 % intervals; {games} "
        "games per point. Equal depth: both sides search the same depth; equal time: both "
        "deepen for the same time a move, the depths each reached written above the point "
        "(network vs heuristic).",
    )
    report.text(
        "Equal-depth games are deterministic and the openings come from `--seed`: the same "
        "command writes the same numbers there. Equal-time games depend on the machine's "
        "speed and load, as does the depth each side reaches."
    )


def _row(budget: str, value: float, records: list[GameRecord], net: str) -> dict[str, Any]:
    """One budget's results for the network side, overall and by colour."""
    row: dict[str, Any] = {"budget": budget, "value": value}
    row.update(score_row(records, net))
    for seat, column in ((0, "score_first"), (1, "score_second")):
        mine = [r for r in records if r.players.index(net) == seat]
        row[column] = score_row(mine, net)["score"] if mine else None
    return row


def reached(
    game: Game, openings: Openings, agents: tuple[str, ...], seconds: float, positions: int
) -> tuple[float, ...]:
    """The mean depth each agent completes in ``seconds`` on the first ``positions``
    openings' positions (as it would in a game: one fresh agent, its tables built)."""
    states = [game.play_moves(openings.get(i)) for i in range(positions)]
    depths = []
    for spec in agents:
        agent = load_agent(spec)
        agent.reset(game)
        reached = []
        for state in states:
            agent.choose(state, Limit(time=seconds))
            info = agent.last_search
            reached.append(info.depth if info is not None and info.depth else 0)
        depths.append(sum(reached) / len(reached))
    return tuple(depths)


def plot(rows: list[dict[str, Any]], what: str, games: int) -> Any:
    """One panel per budget given: the network side's score against the depth (equal
    depth) and against the time a move on a log axis (equal time), with the 50 % line
    thin and behind the data."""
    plt = pyplot()
    kinds = [k for k in ("depth", "time") if any(r["budget"] == k for r in rows)]
    fig, axes = plt.subplots(
        1, len(kinds), figsize=(5.2 * len(kinds) + 1, 4.6), layout="constrained", squeeze=False
    )
    for ax, kind in zip(axes[0], kinds, strict=True):
        mine = [r for r in rows if r["budget"] == kind]
        x = [r["value"] for r in mine]
        ax.errorbar(
            x,
            [r["score"] for r in mine],
            yerr=[[r["score"] - r["low"] for r in mine], [r["high"] - r["score"] for r in mine]],
            fmt="o-",
            capsize=3,
            linewidth=2.0,
            zorder=3,
            label="network's evaluation",
        )
        ax.axhline(0.5, color="0.55", linewidth=0.8, zorder=1, label="equal strength (50 %)")
        ax.set_ylim(-0.02, 1.05)
        ax.grid(True, alpha=0.3)
        if kind == "depth":
            ax.set_xticks(x)
            ax.set_xlabel("search depth of both sides (plies)")
            ax.set_title("equal depth")
        else:
            ax.set_xscale("log")
            ax.set_xticks(x, [f"{v:g}" for v in x])
            ax.minorticks_off()
            ax.margins(x=0.15)  # room for the labels of the first and last points
            ax.set_xlabel("seconds a move for both sides (ids)")
            ax.set_title("equal time")
            if len(x) == 1:  # a log axis around one point
                ax.set_xlim(x[0] / 2, x[0] * 2)
            for r in mine:  # what each side's time bought
                ax.annotate(
                    f"depth {r['depth_net']:g} vs {r['depth_heuristic']:g}",
                    (r["value"], r["high"]),
                    textcoords="offset points",
                    xytext=(0, 6),
                    ha="center",
                    fontsize="x-small",
                    color="0.3",
                )
    axes[0][0].set_ylabel("network side's score per game (win 1, draw ½)")
    fig.suptitle(f"{what}\n{games} games per point, 95 % intervals", fontsize="medium")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=2, fontsize="small")
    return fig
