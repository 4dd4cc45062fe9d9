"""Fit the Gomoku engine's evaluation to game results (how its constants were made).

Usage (a few seconds per hundred games; the databases are ``arena match --db`` files of
freestyle Gomoku, any agents):

    PYTHONPATH=src python scripts/fit_gomoku_eval.py GAMES.db [MORE.db ...]

1. **Positions**: every position of every game from ply 6 on, except the last two
   plies and those where the side to move completes a five or makes an open four (won
   at once: nothing for an evaluation to weigh).
2. **Features**, for the side to move and from the engine's own counts
   (:mod:`arena.search.alphabeta.engines.gomoku.engine`): the windows it holds alone with 1, 2
   and 3 stones; the windows the opponent holds alone with 1 to 4 stones; the
   opponent's open-four cells as the engine counts them (``threat_cells``); and whether
   the side to move is the first player (the first mover's edge, fitted and dropped).
3. **Fit**: logistic regression of the result (1 a win for the side to move, 0 a loss,
   0.5 a draw) by Newton's method with a little ridge, on the positions of four fifths
   of the games; the log-loss of the other fifth's is printed beside that of the
   engine's evaluation as it is (its raw value, best scaled).
4. **The other terms**, fitted in a second regression on top of the engine's window
   value as it is (a position's windows, tempo and threat with the shipped constants):
   the mover's four-three cells (``fork_cells``); the same window value over the
   windows along the edge alone (its weight, plus one, is ``EDGE``); and the stones on
   the first and second lines, the mover's counted ``TEMPO`` times (``LINES``).

5. **Patterns** (``--patterns``): a third regression on the empty cells' pattern classes
   (:mod:`arena.search.alphabeta.engines.gomoku.patterns`), counted for the side to move
   and for the opponent, in the engine's window units (the shipped evaluation's own
   scale, fitted): ``PATTERN_MOVER`` and ``PATTERN_OTHER`` of the pattern evaluation.
6. **Combinations** (``--combos OUT.npz``): a fourth regression on the same cells by class
   and by combination of their four shapes (:data:`patterns.COMBOS`, 715), with the
   ridge ``--ridge`` (on the standardized counts: it pulls each combination's weight
   toward its class's, which is all a combination never seen keeps); the held-out
   log-loss is printed beside the classes' alone, and the weights by combination (the
   class's plus the combination's own) are written to ``OUT.npz`` (``mover``, ``other``)
   in the units of the shipped pattern weights (the scale that fits them best), for
   ``gomoku_variant.py``'s ``combos=OUT.npz`` to play.
7. **Counts** (``--counts``, with ``--combos``): the same regression with, for each class
   and each side, whether any empty cell has it and how many do, up to
   :data:`gomoku.COUNT_CAP` -- what a sum over the cells cannot say (a second open three
   is worth more than the first; a side's fifth two, less); written beside the
   combinations (``counts``: :func:`gomoku.load_counts`).

It prints the weights, then the engine's constants they make: the window values
scaled so that the opponent's two-stone window is worth 100 (``WINDOW``), the mover's
weight against the opponent's (``TEMPO``, the mean over two and three stones) and the
threat (``THREAT``); then ``FORK``, ``EDGE`` and ``LINES`` in the shipped window
values' units. The engine ships the constants of a first fit on the same 800 games
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
from arena.search.alphabeta.engines.gomoku import engine as gomoku
from arena.search.alphabeta.engines.gomoku import patterns

NAMES = ("own 1", "own 2", "own 3", "opp 1", "opp 2", "opp 3", "opp 4", "threats", "first")
OWN_EDGE, OPP_EDGE, FORKS, LINE_STONES, CLASSES = 9, 12, 16, 17, 21
N_CLASSES = len(patterns.CLASSES)
N_COMBOS = len(patterns.COMBOS)
COMBOS = CLASSES + 2 * N_CLASSES
"""Columns past :data:`NAMES`: the windows along the edge (the mover's with 1..3 stones,
the opponent's with 1..4), the mover's four-three cells, the stones on the first
and second lines (the mover's, then the opponent's), and the empty cells of each pattern
class (the mover's, then the opponent's: ``patterns.CLASSES`` each), and of each
combination (``patterns.COMBOS``, from column :data:`COMBOS`, with ``--combos``)."""


def class_counts(
    board: np.ndarray, player: int, tables: tuple[np.ndarray, ...]
) -> tuple[np.ndarray, np.ndarray]:
    """How many empty cells of ``board`` have each class and each combination for
    ``player``."""
    shape, kind, nbr = tables
    code = (shape[player][patterns.keys(board, nbr)].astype(np.int64) * [1, 10, 100, 1000]).sum(1)
    code = code[board == 0]
    combos = np.bincount(patterns.combo_table()[code], minlength=N_COMBOS)
    return np.bincount(kind[code], minlength=N_CLASSES), combos


def positions(
    paths: list[Path], classes: bool = False, combos: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(features, results, games)`` of the positions in the games of ``paths`` (the
    game each position is from, numbered from 0); ``classes``: with the class counts;
    ``combos``: and the combinations' after them."""
    game = arena.load_game("gomoku")
    search = gomoku.GomokuSearch(game)
    g, w, through, count = search.geo[:4]
    k = game.k  # type: ignore[attr-defined]
    size = game.rows  # type: ignore[attr-defined]
    rows_, cols_ = np.divmod(np.arange(size * size), size)
    line = np.minimum(np.minimum(rows_, cols_), np.minimum(size - 1 - rows_, size - 1 - cols_))
    along = line[w].max(axis=1) == 0  # windows with every cell on the edge
    tables = (
        (patterns.shape_table(), patterns.class_table(), patterns.neighbours(size))
        if classes or combos
        else ()
    )
    rows: list[list[float]] = []
    results: list[float] = []
    games: list[int] = []
    for path in paths:
        if not path.is_file():
            raise SystemExit(f"fit_gomoku_eval: {path}: no such file")
        try:
            records = sqlite3.connect(f"file:{path}?mode=ro", uri=True).execute(
                "select record from games where game like 'gomoku%'"
            )
            records = [json.loads(text) for (text,) in records]
        except (sqlite3.Error, json.JSONDecodeError) as error:
            raise SystemExit(f"fit_gomoku_eval: {path}: not a match database ({error})") from None
        for number, record in enumerate(records, games[-1] + 1 if games else 0):
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
                alone_p = cnt[:, 2 + p] == 0  # the windows p holds (gomoku.FLANKS)
                alone_q = cnt[:, 2 + q] == 0
                row = [float(np.sum(alone_p & (cnt[:, p] == j))) for j in (1, 2, 3)]
                row += [float(np.sum(alone_q & (cnt[:, q] == j))) for j in range(1, k)]
                row.append(float(gomoku.threat_cells(g, w, through, count, board, cnt, q)))
                row.append(1.0 if p == 0 else -1.0)
                row += [float(np.sum(along & alone_p & (cnt[:, p] == j))) for j in (1, 2, 3)]
                row += [float(np.sum(along & alone_q & (cnt[:, q] == j))) for j in range(1, k)]
                row.append(float(gomoku.fork_cells(g, w, through, count, board, cnt, p)))
                for player in (p, q):
                    row += [float(np.sum((line == j) & (board == player + 1))) for j in (0, 1)]
                counted = [
                    class_counts(np.asarray(board, np.int64), player, tables)
                    for player in ((p, q) if classes or combos else ())
                ]
                for kinds, _ in counted:
                    row += list(kinds)
                for _, combo in counted if combos else ():
                    row += list(combo)
                rows.append(row)
                results.append((returns[p] + 1) / 2)
                games.append(number)
    if not rows:
        raise SystemExit("fit_gomoku_eval: no Gomoku positions in these databases")
    return np.array(rows), np.array(results), np.array(games)


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
    p = np.clip(1 / (1 + np.exp(-np.clip(logit, -500, 500))), 1e-12, 1 - 1e-12)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def windows_raw(x: np.ndarray, own: int = 0, opp: int = 3) -> np.ndarray:
    """The shipped window values of the windows counted in columns ``own`` (1..3 stones)
    and ``opp`` (1..4), the mover's counted ``TEMPO`` times."""
    value = gomoku.window_values(5)
    mine = sum(value[j] * x[:, own + j - 1] for j in (1, 2, 3))
    theirs = sum(value[j] * x[:, opp + j - 1] for j in (1, 2, 3, 4))
    return gomoku.TEMPO * mine - theirs


def engine_raw(x: np.ndarray) -> np.ndarray:
    """The engine's evaluation before its squash (:func:`gomoku.static`), as it is."""
    edge = (gomoku.EDGE - 1.0) * windows_raw(x, OWN_EDGE, OPP_EDGE)
    lines = x[:, LINE_STONES : LINE_STONES + 4] @ (
        np.array([gomoku.TEMPO, gomoku.TEMPO, -1.0, -1.0]) * np.tile(gomoku.LINES[:2], 2)
    )
    return windows_raw(x) + edge + lines - gomoku.THREAT * x[:, 7] + gomoku.FORK[0] * x[:, FORKS]


def others(x: np.ndarray) -> np.ndarray:
    """The second regression's features: the shipped windows, tempo and threat; the
    mover's four-three cells; the same windows along the edge; the stones on lines one
    and two (the mover's counted ``TEMPO`` times); and the first mover."""
    base = windows_raw(x) - gomoku.THREAT * x[:, 7]
    stones = x[:, LINE_STONES : LINE_STONES + 4]
    return np.column_stack(
        [
            base,
            x[:, FORKS],
            windows_raw(x, OWN_EDGE, OPP_EDGE),
            gomoku.TEMPO * stones[:, 0] - stones[:, 2],
            gomoku.TEMPO * stones[:, 1] - stones[:, 3],
            x[:, 8],
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("databases", type=Path, nargs="+", help="arena match --db files")
    parser.add_argument("--seed", type=int, default=0, help="the held-out fifth's draw")
    parser.add_argument(
        "--patterns", action="store_true", help="also fit the pattern evaluation's weights"
    )
    parser.add_argument(
        "--combos",
        type=Path,
        metavar="OUT.npz",
        help="also fit a weight a combination of four shapes and write them here",
    )
    parser.add_argument("--ridge", type=float, help="--combos: the ridge (default 0.03)")
    parser.add_argument(
        "--counts",
        action="store_true",
        help="--combos: also fit each class's presence and count (capped) for either side",
    )
    args = parser.parse_args()
    if args.combos is not None and args.combos.suffix != ".npz":
        parser.error(f"--combos {args.combos}: the weights are written as .npz")
    if args.ridge is not None and (args.combos is None or not args.ridge >= 0):
        parser.error(f"--ridge {args.ridge}: a ridge of 0 or more, for --combos")
    if args.counts and args.combos is None:
        parser.error("--counts: fitted with the combinations, give --combos OUT.npz")
    args.ridge = 0.03 if args.ridge is None else args.ridge
    x, y, games = positions(args.databases, args.patterns, args.combos is not None)
    held = np.random.default_rng(args.seed).random(games.max() + 1) < 0.2
    if held.all() or not held.any():  # too few games to hold a fifth out: every other one
        held = np.arange(games.max() + 1) % 2 == 1
    test, train = np.flatnonzero(held[games]), np.flatnonzero(~held[games])
    names = len(NAMES)
    theta = fit(x[train, :names], y[train])
    held_out = log_loss(x[test, :names] @ theta[:-1] + theta[-1], y[test])
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
    z = others(x)
    alone = z[:, [0, 5]]  # the shipped windows and threat, the first mover
    base = fit(alone[train], y[train])
    before = log_loss(alone[test] @ base[:-1] + base[-1], y[test])
    extra = fit(z[train], y[train])
    held_out = log_loss(z[test] @ extra[:-1] + extra[-1], y[test])
    print(f"the other terms: held-out log-loss {held_out:.4f} ({before:.4f} without them)")
    scale = extra[0]  # the shipped window values' unit
    print(f"FORK = ({extra[1] / scale:.1f}, 0.0)")
    print(f"EDGE = {1 + extra[2] / scale:.2f}")
    print(f"LINES = ({extra[3] / scale:.1f}, {extra[4] / scale:.1f}, 0.0)")
    if args.patterns:
        fit_patterns(x, y, raw, train, test)
    if args.combos is not None:
        fit_combos(x, y, train, test, args.ridge, args.combos, args.counts)


def fit_patterns(
    x: np.ndarray, y: np.ndarray, raw: np.ndarray, train: np.ndarray, test: np.ndarray
) -> None:
    """The pattern evaluation's weights (a class never seen, or NONE, is 0)."""
    counts = x[:, CLASSES : CLASSES + 2 * N_CLASSES]
    used = np.flatnonzero(counts[train].std(axis=0) > 0)
    used = used[used % N_CLASSES != 0]  # NONE: the empty board's cells, no weight
    theta = fit(counts[train][:, used], y[train])
    held_out = log_loss(counts[test][:, used] @ theta[:-1] + theta[-1], y[test])
    unit = min((log_loss(s * raw[train], y[train]), s) for s in np.geomspace(1e-5, 1e-1, 161))[1]
    weights = np.zeros(2 * N_CLASSES)
    weights[used] = theta[:-1] / unit  # in the engine's units: its raw value's logit scale
    print(f"patterns: held-out log-loss {held_out:.4f}")
    halves = (("PATTERN_MOVER", weights[:N_CLASSES]), ("PATTERN_OTHER", weights[N_CLASSES:]))
    for name, part in halves:
        print(f"{name} = ({', '.join(f'{v:.1f}' for v in part)})")


def count_features(kinds: np.ndarray) -> np.ndarray:
    """``--counts``' features of the class counts (the mover's classes, then the
    opponent's): whether each is there, then how many, capped (the layout of
    :func:`gomoku.load_counts`: presence and count for the mover, then for the opponent)."""
    mover, other = kinds[:, :N_CLASSES], kinds[:, N_CLASSES:]
    cap = gomoku.COUNT_CAP
    parts = [mover > 0, np.minimum(mover, cap), other > 0, np.minimum(other, cap)]
    return np.concatenate(parts, axis=1).astype(float)


def fit_combos(
    x: np.ndarray,
    y: np.ndarray,
    train: np.ndarray,
    test: np.ndarray,
    ridge: float,
    out: Path,
    counts: bool = False,
) -> None:
    """The weights by combination: the class counts and the combination counts together
    (the ridge pulls a combination's own part toward 0, its class's weight), scaled to
    the shipped pattern weights' units, written to ``out``; with ``counts``, the
    presence and capped count of each class too (:func:`count_features`)."""
    kinds = x[:, CLASSES : CLASSES + 2 * N_CLASSES]
    combos = x[:, COMBOS : COMBOS + 2 * N_COMBOS]
    used_kinds = np.flatnonzero(kinds[train].std(axis=0) > 0)
    used_kinds = used_kinds[used_kinds % N_CLASSES != 0]  # NONE: as in --patterns
    alone = fit(kinds[train][:, used_kinds], y[train])
    before = log_loss(kinds[test][:, used_kinds] @ alone[:-1] + alone[-1], y[test])
    used = np.flatnonzero(combos[train].std(axis=0) > 0)
    z = np.concatenate([kinds[:, used_kinds], combos[:, used]], axis=1)
    extra = count_features(kinds)
    used_extra = np.flatnonzero(extra[train].std(axis=0) > 0) if counts else np.array([], int)
    used_extra = used_extra[used_extra % N_CLASSES != 0]  # NONE: as in --patterns
    if counts:
        plain = fit(z[train], y[train], ridge)
        without = log_loss(z[test] @ plain[:-1] + plain[-1], y[test])
        z = np.concatenate([z, extra[:, used_extra]], axis=1)
    theta = fit(z[train], y[train], ridge)
    held_out = log_loss(z[test] @ theta[:-1] + theta[-1], y[test])
    print(
        f"combinations: held-out log-loss {held_out:.4f} ({before:.4f} by class alone;"
        f" {len(used)} of {2 * N_COMBOS} combinations seen, ridge {ridge})"
    )
    if counts:
        print(f"counts: {len(used_extra)} presence and count features; {without:.4f} without them")
    shipped = np.concatenate([gomoku.PATTERN_MOVER, gomoku.PATTERN_OTHER])
    raw = kinds[train] @ shipped
    unit = min((log_loss(s * raw, y[train]), s) for s in np.geomspace(1e-5, 1e-1, 161))[1]
    logit = shipped * unit  # a class never seen (the mover's open four, five) keeps its own
    logit[used_kinds] = theta[: len(used_kinds)]
    classes = patterns.combo_classes()
    weights = np.concatenate([logit[:N_CLASSES][classes], logit[N_CLASSES:][classes]])
    weights[used] += theta[len(used_kinds) : len(used_kinds) + len(used)]
    weights /= unit  # in the shipped pattern weights' units
    count_weights = np.zeros(extra.shape[1])
    count_weights[used_extra] = theta[len(used_kinds) + len(used) : -1] / unit
    np.savez(
        out,
        mover=weights[:N_COMBOS],
        other=weights[N_COMBOS:],
        **({"counts": count_weights.reshape(4, N_CLASSES)} if counts else {}),
    )
    print(f"wrote {out}: {N_COMBOS} weights for the mover's cells, {N_COMBOS} the opponent's")


if __name__ == "__main__":
    sys.exit(main())
