"""``rollouts-ratio``: MCTS with n simulations per move against MCTS with m, on two boards.

For each pair ``n:m`` and each board, ``--games`` games are played with the
colours alternating, and the score of the side with the larger budget is
shown with its 95 % interval. The budgets are counts of simulations, not
time, so the result is the same on any machine. The default boards are
Connect Four and the smaller 4-row, 5-column board.

Tests: tests/experiments/test_rollouts_ratio.py
"""

from __future__ import annotations

import argparse
from typing import Any

from arena.compete.timecontrol import TimeControl
from arena.core.errors import ArenaError
from arena.core.limit import Limit
from arena.core.spec import split_spec, with_params
from arena.experiments.games import forfeits, play_pairs
from arena.experiments.options import even_games
from arena.experiments.report import Report, pyplot
from arena.experiments.stats import score_interval
from arena.games import load_game
from arena.stats.tally import Tally

NAME = "rollouts-ratio"
SUMMARY = "MCTS(n) vs MCTS(m) simulations per move, colours balanced, on two board sizes"

DEFAULT_BOARDS = ("connect4", "connect4:rows=4,cols=5")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--pairs",
        default="8:64,8:512,64:512",
        metavar="N:M,...",
        help="budgets to compare, simulations per move (default: %(default)s)",
    )
    parser.add_argument(
        "--boards",
        nargs="+",
        default=list(DEFAULT_BOARDS),
        metavar="GAME",
        help="game specs, space-separated (default: %(default)s)",
    )
    parser.add_argument(
        "--agent",
        default="mcts",
        metavar="SPEC",
        help="the MCTS both sides use, without rollouts (default: %(default)s)",
    )
    parser.add_argument(
        "--games",
        type=int,
        default=200,
        metavar="N",
        help="games per pair and board, even: half with each colour (default: %(default)s)",
    )


def parse_pairs(text: str) -> list[tuple[int, int]]:
    """``8:64,8:512`` as (smaller, larger) budgets.

    >>> parse_pairs("64:8, 8:512")
    [(8, 64), (8, 512)]
    >>> parse_pairs("8:8")
    Traceback (most recent call last):
    ...
    arena.core.errors.ArenaError: --pairs: 8:8 compares a budget with itself
    """
    pairs = []
    for item in text.split(","):
        n, colon, m = item.strip().partition(":")
        try:
            a, b = int(n), int(m)
        except ValueError:
            a = b = 0
        if not colon or a < 1 or b < 1:
            raise ArenaError(f"--pairs: expected N:M with counts >= 1 (e.g. 8:64), got {item!r}")
        if a == b:
            raise ArenaError(f"--pairs: {item.strip()} compares a budget with itself")
        pairs.append((min(a, b), max(a, b)))
    if len(set(pairs)) != len(pairs):
        raise ArenaError(f"--pairs: a pair is given twice in {text!r}")
    return pairs


def with_rollouts(agent: str, rollouts: int) -> str:
    """The MCTS spec ``agent`` with a budget of ``rollouts`` simulations per move."""
    name, raw = split_spec(agent)
    if name != "mcts":
        raise ArenaError(f"--agent must be an mcts spec, not {agent!r}")
    if "rollouts" in raw or "time" in raw:
        raise ArenaError(f"--agent {agent!r}: leave out rollouts and time, --pairs sets them")
    return with_params(agent, rollouts=rollouts)


def run(args: argparse.Namespace, report: Report) -> None:
    pairs = parse_pairs(args.pairs)
    games = even_games(args.games)
    if len(set(args.boards)) != len(args.boards):
        raise ArenaError(f"--boards: a game is given twice in {' '.join(args.boards)!r}")
    for board in args.boards:
        load_game(board)
    with_rollouts(args.agent, 1)
    rows = []
    total = len(pairs) * len(args.boards) * games
    with report.progress(total, f"{NAME}: {len(pairs)} pairs x {len(args.boards)} boards") as step:
        for board in args.boards:
            for small, large in pairs:
                strong, weak = with_rollouts(args.agent, large), with_rollouts(args.agent, small)
                # The larger budget is the first player in the even-numbered games; the
                # control only caps the work, each spec carries its own budget.
                cap = TimeControl.budgeted(Limit(rollouts=large))
                records = play_pairs(board, strong, weak, games, cap, args.seed, args.jobs, step)
                wins, draws, losses = Tally.of(records, strong)
                score, low, high = score_interval(wins, draws, losses)
                rows.append(
                    {
                        "board": board,
                        "n": small,
                        "m": large,
                        "ratio": large / small,
                        "games": games,
                        "m_wins": wins,
                        "draws": draws,
                        "m_losses": losses,
                        "m_score": score,
                        "low": low,
                        "high": high,
                        "forfeits": forfeits(records),
                    }
                )
    report.table(
        rows,
        f"`{args.agent}` with m simulations per move against n ({games} games per row, "
        "colours alternating): the larger budget's wins, draws, losses and score (a win is 1, "
        "a draw 1/2) with its 95 % interval [low, high].",
    )
    report.figure(
        _plot(rows, args.boards, args.agent, games),
        caption=f"Score of MCTS(m) against MCTS(n), {games} games per bar, 95 % intervals.",
    )
    report.text(
        "Budgets are simulations, not seconds, and every agent is seeded from `--seed`: "
        "the same command writes the same CSV on any machine."
    )


def _plot(rows: list[dict[str, Any]], boards: list[str], agent: str, games: int) -> Any:
    plt = pyplot()
    labels = list(dict.fromkeys(f"{row['n']} vs {row['m']}" for row in rows))
    fig, ax = plt.subplots(figsize=(max(6.0, 1.6 * len(labels) * len(boards)), 4.5))
    width = 0.8 / len(boards)
    for b, board in enumerate(boards):
        mine = [row for row in rows if row["board"] == board]
        xs = [
            labels.index(f"{row['n']} vs {row['m']}") + (b - (len(boards) - 1) / 2) * width
            for row in mine
        ]
        scores = [row["m_score"] for row in mine]
        err = [
            [s - row["low"] for s, row in zip(scores, mine)],
            [row["high"] - s for s, row in zip(scores, mine)],
        ]
        ax.bar(xs, scores, width * 0.9, yerr=err, capsize=4, label=board)
    ax.axhline(0.5, color="grey", linestyle="--", linewidth=1, label="equal strength (50 %)")
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels([f"n={lab.replace(' vs ', ' vs m=')}" for lab in labels])
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("simulations per move: smaller budget n vs larger budget m")
    ax.set_ylabel("score of MCTS(m) per game (win 1, draw ½)")
    ax.set_title(
        f"{agent}: MCTS(m) vs MCTS(n), colours balanced\n{games} games per bar, 95 % intervals"
    )
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=3, fontsize="small")
    ax.grid(True, axis="y", alpha=0.3)
    return fig
