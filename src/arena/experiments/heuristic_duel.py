"""``heuristic-duel``: minimax judging positions by the game's heuristic against minimax judging
them by the plain utility (Othello: the disc difference), at the same depth, for several depths.

Both sides search exactly ``depth`` plies (a budget, no clock), so the only
difference is the evaluation at the cut-off. Minimax is deterministic: to get
more than two distinct games per depth, each pair of games starts from its own
seeded random opening (``--plies`` moves, kept only when the heuristic does not
already judge it lopsided), once with each colour — the same openings at every
depth.

``--search alphabeta`` plays the very same games faster: alpha-beta without a
table or move ordering returns minimax's value for every root move it keeps,
and searching the moves in the same order it keeps the same (first) best move,
so only the node count differs. The default is plain minimax, as the course
states the experiment.

Tests: tests/experiments/test_heuristic_duel.py
"""

from __future__ import annotations

import argparse
from typing import Any

from arena.compete import tournament
from arena.compete.openings import Openings
from arena.compete.timecontrol import TimeControl
from arena.core.errors import ArenaError
from arena.core.limit import Limit
from arena.experiments.options import count, even_games, ints
from arena.experiments.report import Report, pyplot
from arena.experiments.stats import score_interval
from arena.formats.record import GameRecord
from arena.games import load_game
from arena.stats.tally import Tally

NAME = "heuristic-duel"
SUMMARY = "minimax with eval=heuristic vs eval=utility at depths 2-6, both colours"

SEARCHES = {"minimax": "", "alphabeta": ",cache=0,order=0"}
"""Search name -> the options that make it play exactly as plain minimax."""

SIDES = {"both": None, "first": 0, "second": 1}
"""The heuristic side's colour in a row of the table -> its seat (None: either)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default="othello:size=6", help="game spec (default: %(default)s)")
    parser.add_argument(
        "--depths",
        default="2,3,4,5,6",
        metavar="LIST",
        help="search depths in plies, comma-separated (default: %(default)s)",
    )
    parser.add_argument(
        "--games",
        type=int,
        default=24,
        metavar="N",
        help="games per depth, even: N/2 openings, each played with both colours "
        "(default: %(default)s)",
    )
    parser.add_argument(
        "--plies",
        type=int,
        default=4,
        metavar="N",
        help="random moves in each opening (default: %(default)s)",
    )
    parser.add_argument(
        "--search",
        choices=tuple(SEARCHES),
        default="minimax",
        help="minimax, or alphabeta:cache=0,order=0 — the same moves, much faster "
        "(default: %(default)s)",
    )


def specs(search: str, depth: int) -> tuple[str, str]:
    """The (heuristic, utility) agent specs at ``depth``.

    >>> specs("minimax", 3)
    ('minimax:depth=3,eval=heuristic', 'minimax:depth=3,eval=utility')
    >>> specs("alphabeta", 3)[1]
    'alphabeta:depth=3,eval=utility,cache=0,order=0'
    """
    base, extra = f"{search}:depth={depth}", SEARCHES[search]
    return f"{base},eval=heuristic{extra}", f"{base},eval=utility{extra}"


def run(args: argparse.Namespace, report: Report) -> None:
    depths = ints(args.depths, "--depths", low=1)
    if len(set(depths)) != len(depths):
        raise ArenaError(f"--depths: a depth is given twice in {args.depths!r}")
    games = even_games(args.games)
    plies = count(args.plies, "--plies")
    game = load_game(args.game)
    openings = Openings.random(game, plies=plies, seed=args.seed)
    rows = []
    with report.progress(len(depths) * games, f"{NAME}: {len(depths)} depths") as advance:
        for depth in sorted(depths):
            heuristic, utility = specs(args.search, depth)
            settings = tournament.Settings(
                game=game,
                agents=(heuristic, utility),
                control=TimeControl.budgeted(Limit(depth=depth)),
                games_per_pair=games,
                openings=openings,
                seed=args.seed,
            )
            outcome = tournament.run(settings, jobs=args.jobs, on_record=lambda *_: advance(1))
            rows.extend(_rows(depth, outcome.records, heuristic))
    what = f"{args.search} eval=heuristic vs eval=utility on {args.game}"
    report.table(
        rows,
        f"{what}, {games} games per depth ({games // 2} random openings of {plies} plies, "
        "each with both colours): the heuristic side's wins, draws, losses, points and score "
        "per game (a win is 1, a draw 1/2) with its 95 % interval [low, high]; `side` is the "
        "heuristic side's colour (`first` moves first); `margin` is its mean final margin "
        "(Othello: discs; empty for games without one).",
    )
    report.figure(
        plot(rows, what, games),
        caption=f"Score of the heuristic side per depth, overall and by colour, 95 % intervals; "
        f"{games} games per depth.",
    )
    report.text(
        "Both searches are deterministic and the openings come from `--seed`: the same command "
        "writes the same CSV. `--search alphabeta` writes the same numbers as `minimax`, faster."
    )


def _rows(depth: int, records: list[GameRecord], heuristic: str) -> list[dict[str, Any]]:
    """One row per side (both colours, first, second) with the heuristic side's results."""
    rows = []
    for side, wanted in SIDES.items():
        seats = [(r, r.players.index(heuristic)) for r in records]
        mine = [(r, seat) for r, seat in seats if wanted is None or seat == wanted]
        tally = Tally.of((r for r, _ in mine), heuristic)
        # The first player's margin (Othello: discs) from the heuristic side.
        margins = [r.score if seat == 0 else -r.score for r, seat in mine if r.score is not None]
        score, low, high = score_interval(*tally)
        rows.append(
            {
                "depth": depth,
                "side": side,
                "games": tally.games,
                "wins": tally.wins,
                "draws": tally.draws,
                "losses": tally.losses,
                "points": tally.points,
                "score": score,
                "low": low,
                "high": high,
                "margin": sum(margins) / len(margins) if margins else None,
            }
        )
    return rows


def plot(rows: list[dict[str, Any]], what: str, games: int) -> Any:
    """The figure: the heuristic side's score per depth, overall and by colour.

    The legend sits below the axes, where it cannot cover a point, and the 50 % line is a
    thin solid line drawn behind the data, unlike any series' style: a series that scores
    exactly 50 % runs visibly on top of it instead of merging into it.
    """
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 5.2), layout="constrained")
    styles = {
        "both": ("o-", "both colours", 0.0, 2.0),
        "first": ("s--", "heuristic moves first", -0.12, 1.4),
        "second": ("^:", "heuristic moves second", 0.12, 1.4),
    }
    for side, (fmt, label, shift, width) in styles.items():
        mine = [row for row in rows if row["side"] == side]
        ax.errorbar(
            [row["depth"] + shift for row in mine],
            [row["score"] for row in mine],
            yerr=[
                [row["score"] - row["low"] for row in mine],
                [row["high"] - row["score"] for row in mine],
            ],
            fmt=fmt,
            capsize=3,
            linewidth=width,
            label=f"{label} ({mine[0]['games']} games per depth)",
            alpha=1.0 if side == "both" else 0.8,
            zorder=3,
        )
    ax.axhline(
        0.5, color="0.55", linestyle="-", linewidth=0.8, zorder=1, label="equal strength (50 %)"
    )
    depths = sorted({row["depth"] for row in rows})
    ax.set_xticks(depths)
    ax.set_ylim(-0.02, 1.05)
    ax.set_xlabel("search depth of both sides (plies)")
    ax.set_ylabel("heuristic side's score per game (win 1, draw ½)")
    ax.set_title(f"{what}\n{games} games per depth, 95 % intervals")
    ax.grid(True, alpha=0.3)
    fig.legend(loc="outside lower center", ncol=2, fontsize="small")
    return fig
