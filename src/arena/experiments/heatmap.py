"""``heatmap``: where MCTS spends its simulations on the board, and what it learns there.

For each game, one search of one position (the default: a few moves in, where
the choice matters); two boards side by side, coloured by the simulations
(rollouts) that went through each root move and by that move's win rate for
the player to move. Connect Four colours the cell the stone would drop to,
Colosseum Survival the destination cell of the walk (summed over the walls
that can be put there); a pass is the square beside the board. The table has
every move with its 95 % Wilson interval (the visits taken as the trials).
Searches have budgets of simulations, so --seed fixes every number; they run
in this process (--jobs is not used).

Tests: tests/experiments/test_heatmap.py
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any

from arena.compete.tournament import seed_of
from arena.core.errors import ArenaError
from arena.core.game import State
from arena.core.limit import Limit
from arena.experiments.boards import BoardView, Cell, board_view
from arena.experiments.options import count
from arena.experiments.report import Report, pyplot
from arena.experiments.roots import RootMove, default_moves, mcts_root, searched_position
from arena.experiments.stats import rate_interval
from arena.games import NAMES, load_game

NAME = "heatmap"
SUMMARY = "the board coloured by MCTS rollouts and win rate per move, for every board game"

_ANNOTATE_ALL = 100
"""Boards with more cells than this annotate only their most visited cells."""
_ANNOTATED = 15


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--game", default="all", help="a game spec (see 'arena games'), or 'all' for every game"
    )
    parser.add_argument(
        "--moves",
        default=None,
        help="the position for a single --game: moves from the start in the game's notation "
        "(default: a position a few moves in for the standard boards, else the start)",
    )
    parser.add_argument(
        "--simulations", type=int, default=20000, metavar="N", help="simulations per search"
    )


@dataclass
class Square:
    """The root moves that mark one cell (or the pass), added up."""

    label: str
    moves: int = 0
    visits: int = 0
    wins: float = 0.0


def run(args: argparse.Namespace, report: Report) -> None:
    simulations = count(args.simulations, "--simulations")
    if args.game.strip().lower() == "all":
        if args.moves is not None:
            raise ArenaError("--moves needs a single --game, not 'all'")
        specs = list(NAMES)
    else:
        specs = [load_game(args.game).spec]
    positions = []
    for spec in specs:
        moves = default_moves(spec) if args.moves is None else args.moves
        positions.append((searched_position(spec, moves), moves))
    rows: list[dict[str, Any]] = []
    figures = []
    with report.progress(len(positions), f"{NAME}: {simulations} simulations") as advance:
        for state, moves in positions:
            spec = state.game.spec
            agent = f"mcts:seed={seed_of(args.seed, NAME, spec)}"
            root = mcts_root(state, agent, Limit(rollouts=simulations))
            view = board_view(state)
            squares = _squares(root, view)
            rows.extend(_rows(spec, squares, simulations))
            figures.append((state, moves, view, squares))
            advance(1)
    report.table(
        rows,
        f"Root moves by board cell ({simulations} simulations per game): `visits` are the "
        "simulations through the cell's moves, `moves` how many root moves mark the cell "
        "(more than one only in Colosseum), `win_rate` their wins (a draw is 1/2) over "
        "their visits for the player to move, with a Wilson 95 % interval [`low`, `high`] "
        "that takes the visits as independent trials.",
    )
    for state, moves, view, squares in figures:
        where = f"after {moves!r}" if moves else "at the start"
        report.figure(
            _plot(state, view, squares, simulations, where),
            stem=f"{NAME}-{state.game.name}",
            caption=f"{state.game.spec} {where}: simulations (left) and win rate for "
            f"{state.game.player_names[state.to_move]} (right) per move, {simulations} "
            "simulations; grey cells have no legal move. The table above gives each "
            "win rate's 95 % interval.",
        )
    report.text(
        "Every number is deterministic for a given `--seed`: budgets of simulations, seeded "
        "searches."
    )


def _squares(root: list[RootMove], view: BoardView) -> dict[Cell | None, Square]:
    squares: dict[Cell | None, Square] = {}
    for m in root:
        cell = view.cell_of(m.move)
        if cell is None:
            label = m.text
        elif len(view.walls):  # Colosseum: a cell is named by row,col
            label = f"{cell[0]},{cell[1]}"
        else:
            label = m.text
        square = squares.setdefault(cell, Square(label))
        square.moves += 1
        square.visits += m.visits
        square.wins += m.wins
    return squares


def _rows(spec: str, squares: dict[Cell | None, Square], simulations: int) -> list[dict]:  # type: ignore[type-arg]
    rows = []
    for square in squares.values():
        if square.visits:
            rate, low, high = rate_interval(square.wins, square.visits)
        else:
            rate = low = high = None
        rows.append(
            {
                "game": spec,
                "cell": square.label,
                "moves": square.moves,
                "visits": square.visits,
                "share": square.visits / simulations,
                "wins": square.wins,
                "win_rate": rate,
                "low": low,
                "high": high,
            }
        )
    return rows


def _plot(
    state: State,
    view: BoardView,
    squares: dict[Cell | None, Square],
    simulations: int,
    where: str,
) -> Any:
    plt = pyplot()
    import numpy as np

    game = state.game
    mover = game.player_names[state.to_move]
    visits = np.full((view.rows, view.cols), np.nan)
    rates = np.full((view.rows, view.cols), np.nan)
    for cell, square in squares.items():
        if cell is not None:
            visits[cell] = square.visits
            if square.visits:
                rates[cell] = square.wins / square.visits
    passed = squares.get(None)
    scale = max(view.cols + (1.5 if passed else 0), view.rows)
    fig, axes = plt.subplots(
        1, 2, figsize=(2 * (0.45 * scale + 1.6), 0.45 * scale + 1.4), layout="constrained"
    )
    top = max(1.0, float(np.nanmax(visits)))
    panels = [
        (axes[0], visits, "viridis", top, "simulations through the move (count)", "rollouts"),
        (axes[1], rates, "RdYlGn", 1.0, f"win rate for {mover} (fraction)", "win rate"),
    ]
    shown = _annotated(squares, view)
    for ax, values, cmap_name, high, unit, title in panels:
        cmap = plt.get_cmap(cmap_name).with_extremes(bad="#d9d9d9")
        norm = plt.Normalize(0.0, high)
        image = ax.imshow(np.ma.masked_invalid(values), cmap=cmap, norm=norm)
        fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04, label=unit)
        size = max(4.0, min(9.0, 70 / scale))
        for r in range(view.rows):
            for c in range(view.cols):
                piece = view.pieces[r][c]
                if piece == ".":
                    continue
                if (r, c) in squares:  # a move's cell too (Colosseum's stay): in the corner
                    ax.text(
                        c - 0.32,
                        r - 0.22,
                        piece,
                        ha="center",
                        va="center",
                        fontsize=size,
                        fontweight="bold",
                        color="#333333",
                    )
                else:
                    ax.text(
                        c,
                        r,
                        piece,
                        ha="center",
                        va="center",
                        fontsize=1.4 * size,
                        fontweight="bold",
                        color="#333333",
                    )
        for cell, square in squares.items():
            if cell not in shown:
                continue
            value = values[cell] if cell is not None else None
            text = _cell_text(square, ax is axes[1])
            if cell is None:
                x, y = view.cols + 0.8, (view.rows - 1) / 2
                colour = cmap(norm(_pass_value(square, ax is axes[1])))
                ax.add_patch(plt.Rectangle((x - 0.5, y - 0.5), 1, 1, color=colour, clip_on=False))
                ax.text(x, y + 0.8, "pass", ha="center", va="center", fontsize=size)
                value = _pass_value(square, ax is axes[1])
            else:
                x, y = cell[1], cell[0]
            if text:
                dark = value is not None and norm(value) < 0.35 if ax is axes[0] else False
                ax.text(
                    x,
                    y,
                    text,
                    ha="center",
                    va="center",
                    fontsize=size,
                    color="white" if dark else "black",
                )
        for (r1, c1), (r2, c2) in view.walls:
            ax.plot([c1 - 0.5, c2 - 0.5], [r1 - 0.5, r2 - 0.5], color="black", linewidth=2)
        ax.set_xticks(range(view.cols))
        ax.set_xticklabels(view.col_labels)
        ax.set_yticks(range(view.rows))
        ax.set_yticklabels(view.row_labels)
        ax.set_xlim(-0.5, view.cols - 0.5 + (1.6 if passed else 0))
        ax.set_ylim(view.rows - 0.5, -0.5)
        ax.set_xlabel("column")
        ax.set_ylabel("row")
        ax.set_title(f"{title} per move")
    note = "" if len(shown) == len(squares) else f"; numbers on the {len(shown)} most visited"
    fig.suptitle(
        f"{game.spec} {where}, {mover} to move: {simulations} simulations{note}", fontsize=10
    )
    return fig


def _annotated(squares: dict[Cell | None, Square], view: BoardView) -> set[Cell | None]:
    if view.rows * view.cols <= _ANNOTATE_ALL:
        return set(squares)
    ranked = sorted(squares, key=lambda cell: -squares[cell].visits)
    return set(ranked[:_ANNOTATED])


def _cell_text(square: Square, rate: bool) -> str:
    if not rate:
        return str(square.visits)
    return f"{square.wins / square.visits:.2f}" if square.visits else ""


def _pass_value(square: Square, rate: bool) -> float:
    if rate:
        return square.wins / square.visits if square.visits else float("nan")
    return float(square.visits)
