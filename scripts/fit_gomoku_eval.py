"""Fit the Gomoku engine's evaluation to game results (how its constants were made).

Usage (a few seconds per hundred games; the databases are ``arena match --db`` files of
freestyle Gomoku, any agents):

    PYTHONPATH=src python scripts/fit_gomoku_eval.py GAMES.db [MORE.db ...]

1. **Positions**: every position of every game from ply 6 on, except the last two
   plies and those where the side to move completes a five or makes an open four (won
   at once: nothing for an evaluation to weigh).
2. **Features**, for the side to move and from the engine's own counts
   (:mod:`arena.search.alphabeta.engines.gomoku`): the windows it holds alone with 1, 2
   and 3 stones; the windows the opponent holds alone with 1 to 4 stones; the
   opponent's open-four cells as the engine counts them (``threat_cells``); and whether
   the side to move is the first player (the first mover's edge, fitted and dropped).
3. **Fit**: logistic regression of the result (1 a win for the side to move, 0 a loss,
   0.5 a draw) by Newton's method with a little ridge, on four fifths of the positions;
   the log-loss of the other fifth is printed beside that of the engine's evaluation as
   it is (its raw value, best scaled).

It prints the weights, then the engine's constants they make: the window values
scaled so that the opponent's two-stone window is worth 100 (``WINDOW``), the mover's
weight against the opponent's (``TEMPO``, the mean over two and three stones) and the
threat (``THREAT``). The engine ships the constants of a first fit on the same 800 games
of its own play at 0.5 s a move (13,657 positions; the threat counted by distinct cells),
rounded: (2, 100, 185, 1240), 1.25 and 60, where this script prints (-3, 100, 189, 1240),
1.22 and 68. They were kept because they won an SPRT against the constants before them
(docs/speed.md).

Tests: tests/search/test_engine_gomoku.py
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from pathlib import Path

import numpy as np

import arena
from arena.search.alphabeta.engines import gomoku

NAMES = ("own 1", "own 2", "own 3", "opp 1", "opp 2", "opp 3", "opp 4", "threats", "first")


def positions(paths: list[Path]) -> tuple[np.ndarray, np.ndarray]:
    """``(features, results)`` of the positions in the games of ``paths``."""
    game = arena.load_game("gomoku")
    search = gomoku.GomokuSearch(game)
    g, w, through, count = search.geo[:4]
    k = game.k  # type: ignore[attr-defined]
    rows: list[list[float]] = []
    results: list[float] = []
    for path in paths:
        if not path.is_file():
            raise SystemExit(f"fit_gomoku_eval: {path}: no such file")
        try:
            records = sqlite3.connect(f"file:{path}?mode=ro", uri=True).execute(
                "select record from games where game like 'gomoku%'"
            )
            games = [json.loads(text) for (text,) in records]
        except (sqlite3.Error, json.JSONDecodeError) as error:
            raise SystemExit(f"fit_gomoku_eval: {path}: not a match database ({error})") from None
        for record in games:
            moves = game.parse_moves(" ".join(record["moves"]))
            returns = record["returns"]
            state = game.initial_state()
            for ply, move in enumerate(moves, 1):
                state = state.play(move)
                if ply < 6 or ply >= len(moves) - 1 or state.is_terminal():
                    continue
                search.set_root(state)
                p, q = state.to_move, 1 - state.to_move
                cnt, board = search.cnt, search.board
                if search.c[gomoku.C_FOURS + p] or gomoku.threat_cells(
                    g, w, through, count, board, cnt, p
                ):
                    continue  # the mover wins at once
                alone_p = cnt[:, q] == 0
                alone_q = cnt[:, p] == 0
                row = [float(np.sum(alone_p & (cnt[:, p] == j))) for j in (1, 2, 3)]
                row += [float(np.sum(alone_q & (cnt[:, q] == j))) for j in range(1, k)]
                row.append(float(gomoku.threat_cells(g, w, through, count, board, cnt, q)))
                row.append(1.0 if p == 0 else -1.0)
                rows.append(row)
                results.append((returns[p] + 1) / 2)
    if not rows:
        raise SystemExit("fit_gomoku_eval: no Gomoku positions in these databases")
    return np.array(rows), np.array(results)


def fit(x: np.ndarray, y: np.ndarray, ridge: float = 1e-4) -> np.ndarray:
    """Logistic regression weights (the last one the intercept), by Newton's method."""
    scale = x.std(axis=0) + 1e-9
    z = np.concatenate([x / scale, np.ones((len(x), 1))], axis=1)
    theta = np.zeros(z.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-(z @ theta)))
        grad = z.T @ (p - y) / len(y) + ridge * theta
        hessian = (z * (p * (1 - p))[:, None]).T @ z / len(y) + ridge * np.eye(len(theta))
        theta -= np.linalg.solve(hessian, grad)
    return np.concatenate([theta[:-1] / scale, theta[-1:]])


def log_loss(logit: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(1 / (1 + np.exp(-logit)), 1e-12, 1 - 1e-12)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def engine_raw(x: np.ndarray) -> np.ndarray:
    """The engine's evaluation before its squash (:func:`gomoku.static`), as it is."""
    value = gomoku.window_values(5)
    own = sum(value[j] * x[:, j - 1] for j in (1, 2, 3))
    opp = sum(value[j] * x[:, 2 + j] for j in (1, 2, 3, 4))
    return gomoku.TEMPO * own - opp - gomoku.THREAT * x[:, 7]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("databases", type=Path, nargs="+", help="arena match --db files")
    parser.add_argument("--seed", type=int, default=0, help="the held-out fifth's draw")
    args = parser.parse_args()
    x, y = positions(args.databases)
    order = np.random.default_rng(args.seed).permutation(len(y))
    train, test = order[: len(y) * 4 // 5], order[len(y) * 4 // 5 :]
    theta = fit(x[train], y[train])
    held_out = log_loss(x[test] @ theta[:-1] + theta[-1], y[test])
    raw = engine_raw(x)
    engine = min(
        (log_loss(s * raw[test] + b * x[test, 8], y[test]), s)
        for s in np.geomspace(1e-5, 1e-1, 81)
        for b in np.linspace(-0.5, 0.5, 21)
    )[0]
    print(f"{len(y)} positions; held-out log-loss {held_out:.4f} (the engine's now {engine:.4f})")
    for name, weight in zip(NAMES, theta, strict=False):
        print(f"  {name:8s} {weight:+.4f}")
    unit = -theta[4] / 100  # the opponent's two-stone window: 100
    window = [round(-theta[2 + j] / unit) for j in (1, 2, 3, 4)]
    tempo = (theta[1] / -theta[4] + theta[2] / -theta[5]) / 2
    print(f"WINDOW = {tuple(float(v) for v in window)}")
    print(f"TEMPO = {tempo:.2f}")
    print(f"THREAT = {-theta[7] / unit:.1f}")


if __name__ == "__main__":
    sys.exit(main())
