"""Fit the Othello engine's evaluation to game results (how its weights were made).

Usage (about a minute of one core per 1,500 games played, then the fit: 35 minutes and
15 GB for 3.4 million positions of Logistello's families):

    PYTHONPATH=src python scripts/fit_othello_weights.py --games 2000 --seed 3 --out /tmp/oth \
        --save /tmp/oth/positions-3.npz
    PYTHONPATH=src python scripts/fit_othello_weights.py --positions /tmp/oth/positions-*.npz \
        --iterations 800 --out /tmp/oth

1. **Games**: the engine plays itself at depth 4 (6 from 20 empty cells on), a
   random move in 15% of the first 24 plies, so the games differ; ``--save`` keeps
   their positions and labels, ``--positions`` fits saved ones instead of playing.
2. **Labels**: every position before 14 empty cells gets the exact final disc
   difference (empty cells to the winner) of the position at 14 empty cells,
   solved by :class:`arena.solvers.othello.solver.OthelloSolver`, for the side
   to move; the later positions get their own exact score.
3. **Fit**: ridge least squares (``scipy.sparse.linalg.lsqr``) of the label on
   the features of :mod:`arena.search.alphabeta.engines.othello.evaluation`, each feature's
   weight piecewise linear over five phases (``--phases``), plus one value per
   configuration and phase of each pattern family (``--families``, default
   Logistello's); configurations that a symmetry of the family's cells maps onto each
   other (an edge read either way, a corner block mirrored on its diagonal) share one.
   The last 5% of the positions are held out, and both parts' R^2 printed.
   Weights are scaled by 4 (a raw value of 4 is about one disc).

It writes the pattern file (``patterns.npz``: the families, their values and
the features' anchors) into ``--out``. The engine ships the fit of 3.36 million
positions of 60,000 games played by the engine with the edges and corner blocks
(``--games 500 --seed 1000 s + c --save`` for s = 1, 2 and ``--games 1000`` likewise for
s = 3, 4, c = 0-19, fitted in that order: s, then c; 800 iterations, damping 1):
R^2 0.545 fitted, 0.524 on the held-out games, where the edges and corner blocks before
it had 0.477 on the same positions. Each file was kept
only because it won matches against the previous one (see the module docstring of
``engines/othello/evaluation.py`` and docs/strength.md).
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import lsqr

import arena
from arena.core.arrays_file import read_arrays
from arena.search.alphabeta.engines.othello import evaluation as ev
from arena.search.alphabeta.engines.othello.engine import make_engine
from arena.solvers.othello.board import board_mask
from arena.solvers.othello.solver import OthelloSolver

PHASES = 5
LABEL_EMPTIES = 14


def play(games: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Positions (mover's and opponent's discs), their empty cells and labels."""
    game = arena.load_game("othello")
    engine = make_engine(game)
    assert engine is not None
    engine.probcut = 0
    solver = OthelloSolver(8, table_bits=20)
    rng = random.Random(seed)
    rows: list[tuple[int, int, int, int]] = []
    for _ in range(games):
        state = game.initial_state()
        engine.reset()
        seen = []
        while not state.is_terminal():
            empties = 64 - (state.black | state.white).bit_count()
            if empties <= LABEL_EMPTIES:
                break
            legal = state.legal_moves()
            me, opp = engine.bits(state)
            seen.append((int(me), int(opp), empties, state.to_move))
            if len(legal) == 1:
                move = legal[0]
            elif state.ply < 4 or (state.ply < 24 and rng.random() < 0.15):
                move = rng.choice(legal)
            else:
                move = engine.search_depth(state, 4 if empties > 20 else 6)[1]
            state = state.play(move)
        if state.is_terminal():
            black = state.score()
        else:
            me, opp = engine.bits(state)
            score = solver.solve_bits(int(me), int(opp)).score
            black = score if state.to_move == 0 else -score
        rows += [(me, opp, e, black if mover == 0 else -black) for me, opp, e, mover in seen]
        while not state.is_terminal():
            legal = state.legal_moves()
            if legal != (game.PASS,):  # type: ignore[attr-defined]
                me, opp = engine.bits(state)
                empties = 64 - (state.black | state.white).bit_count()
                if empties >= 5:
                    score = solver.solve_bits(int(me), int(opp)).score
                    rows.append((int(me), int(opp), empties, score))
            move = legal[0] if len(legal) == 1 else engine.search_depth(state, 6)[1]
            state = state.play(move)
    mes, opps, empties_, labels = zip(*rows, strict=True)
    return (
        np.array(mes, dtype=np.uint64),
        np.array(opps, dtype=np.uint64),
        np.array(empties_),
        np.array(labels, dtype=float),
    )


def canonical(family: int) -> np.ndarray:
    """``out[config]``: the column of each configuration of ``family``: configurations
    that a symmetry of the board taking the family's cells to themselves maps onto each
    other (an edge read either way, a corner block mirrored on its diagonal) share one."""
    cells = ev.FAMILY_CELLS[family]
    n = len(cells)
    where = {cell: k for k, cell in enumerate(cells)}
    digits = (np.arange(3**n)[:, None] // 3 ** np.arange(n)[None, :]) % 3
    least = np.arange(3**n)
    for g in range(8):
        moved = [ev.symmetry(g, r, c) for r, c in cells]
        if set(moved) != set(cells):
            continue
        # the digit at cell k moves to cell moved[k]
        target = np.array([where[cell] for cell in moved])
        least = np.minimum(least, (digits * 3 ** target[None, :]).sum(axis=1))
    return np.unique(least, return_inverse=True)[1]


def fit(
    me: np.ndarray,
    opp: np.ndarray,
    empties: np.ndarray,
    labels: np.ndarray,
    damp: float,
    families: tuple[int, ...] = ev.LOGISTELLO,
    phases: int = PHASES,
    held_out: float = 0.05,
    iterations: int = 3000,
) -> tuple[np.ndarray, np.ndarray]:
    """``(anchors, values)``: the features' weights and every configuration's value, by
    phase, fitted to all but the last ``held_out`` of the positions (the R^2 of those
    is printed too)."""
    n = len(me)
    m = ev.masks(8, families)
    counts = [int((ev.IMAGES[f] >= 0).sum()) for f in families]
    features = np.zeros((n, ev.FEATURES))
    indices = np.zeros((n, sum(counts)), dtype=np.int64)
    ev.feature_rows(me, opp, np.uint64(board_mask(8)), m, np.array(families), features, indices)
    # Each weight is piecewise linear over the phases: a position's value of a feature
    # (or an instance's 1) goes to the two anchors around its phase, split by distance.
    phase = np.clip(1 - empties / 60, 0, 1) * (phases - 1)
    low = np.minimum(phase.astype(np.int64), phases - 2)
    share = phase - low
    columns, values = [], []
    # (int32 and float32: a few million positions of 110 entries each must fit in memory)
    low32, share32 = low.astype(np.int32), share.astype(np.float32)
    rest32 = (1 - share).astype(np.float32)
    for f in range(ev.FEATURES):
        value = features[:, f].astype(np.float32)
        columns += [f * phases + low32, f * phases + low32 + 1]
        values += [value * rest32, value * share32]
    width = ev.FEATURES * phases
    column_of = []
    j = 0
    for family, count in zip(families, counts, strict=True):
        canon = canonical(family)
        column_of.append((width, canon))
        for _ in range(count):
            cols = (width + canon[indices[:, j]] * phases).astype(np.int32) + low32
            columns += [cols, cols + 1]
            values += [rest32, share32]
            j += 1
        width += (canon.max() + 1) * phases
    per_row = len(columns)
    matrix = sp.csr_matrix(
        (
            np.stack(values, axis=1).ravel(),
            np.stack(columns, axis=1).ravel(),
            np.arange(0, n * per_row + 1, per_row),
        ),
        shape=(n, width),
    )
    del columns, values
    train = int(n * (1 - held_out))
    coef = lsqr(matrix[:train], labels[:train], damp=damp, iter_lim=iterations)[0]
    predicted = matrix @ coef
    for name, part in (("fitted", slice(0, train)), ("held-out", slice(train, n))):
        error = ((labels[part] - predicted[part]) ** 2).mean()
        print(f"{name}: {len(labels[part])} positions, R^2 {1 - error / labels[part].var():.3f}")
    anchors = coef[: ev.FEATURES * phases].reshape(ev.FEATURES, phases) * 4
    tables = [coef[start:].reshape(-1, phases)[canon] * 4 for start, canon in column_of]
    return anchors, np.vstack(tables)


SAVED = ("me", "opp", "empties", "labels")
"""The arrays of a file of ``--save``."""


def load(paths: list[Path]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Positions saved by ``--save`` (one file per run), in the order given; a file that
    is not one raises a one-line :class:`ValueError`."""
    parts = []
    for path in paths:
        data = read_arrays(path, "a file of --save")
        missing = [key for key in SAVED if key not in data]
        if missing:
            raise ValueError(f"{path}: not a file of --save (no '{missing[0]}')")
        parts.append(data)
    return tuple(  # type: ignore[return-value]
        np.concatenate([part[key] for part in parts]) for key in SAVED
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games to play (default 2000)")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--damp", type=float, default=1.0, help="ridge damping (default 1)")
    parser.add_argument("--out", type=Path, default=Path("."), help="where the file goes")
    parser.add_argument(
        "--save", type=Path, help="also write the games' positions and labels to this .npz"
    )
    parser.add_argument(
        "--positions", type=Path, nargs="+", help="fit these saved positions; play no games"
    )
    parser.add_argument(
        "--families",
        default=",".join(ev.FAMILY_NAMES[f] for f in ev.LOGISTELLO),
        help="pattern families, comma-separated (default: Logistello's: %(default)s)",
    )
    parser.add_argument("--phases", type=int, default=PHASES, help="anchors over the game")
    parser.add_argument("--iterations", type=int, default=3000, help="lsqr's limit")
    args = parser.parse_args()
    if args.phases < 2:
        parser.error(f"--phases: at least 2 (the opening and the end), not {args.phases}")
    if args.iterations < 1:
        parser.error(f"--iterations: at least 1, not {args.iterations}")
    try:
        families = tuple(ev.FAMILY_NAMES.index(name) for name in args.families.split(","))
    except ValueError:
        parser.error(f"--families: not in {', '.join(ev.FAMILY_NAMES)}: {args.families}")
    if args.positions:
        missing = [str(path) for path in args.positions if not path.is_file()]
        if missing:
            parser.error(f"--positions: no such file: {missing[0]}")
        try:
            data = load(args.positions)
        except ValueError as exc:
            parser.error(f"--positions: {exc}")
    else:
        data = play(args.games, args.seed)
        if args.save:
            np.savez(args.save, **dict(zip(SAVED, data, strict=True)))
    anchors, values = fit(
        *data, damp=args.damp, families=families, phases=args.phases, iterations=args.iterations
    )
    for row in anchors:
        print("        [" + ", ".join(f"{x:.1f}" for x in row) + "],")
    args.out.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        args.out / "patterns.npz",
        families=np.array(families, dtype=np.int64),
        values=np.round(np.clip(values * 16, -32767, 32767)).astype(np.int16),
        anchors=anchors,
        scale=np.int64(16),
    )


if __name__ == "__main__":
    main()
