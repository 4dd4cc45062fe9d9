"""Fit the Othello engine's evaluation to game results (how its weights were made).

Usage (about 5 minutes of one core per 1,500 games, then a minute of fitting):

    PYTHONPATH=src python scripts/fit_othello_weights.py --games 2000 --seed 3 --out /tmp/oth

1. **Games**: the engine plays itself at depth 4 (6 from 20 empty cells on), a
   random move in 15% of the first 24 plies, so the games differ.
2. **Labels**: every position before 14 empty cells gets the exact final disc
   difference (empty cells to the winner) of the position at 14 empty cells,
   solved by :class:`arena.solvers.othello.solver.OthelloSolver`, for the side
   to move; the later positions get their own exact score.
3. **Fit**: ridge least squares (``scipy.sparse.linalg.lsqr``) of the label on
   the features of :mod:`arena.search.alphabeta.engines.othello_eval`, each feature's
   weight piecewise linear over five phases, plus one value per edge
   configuration and phase (an edge read either way is the same configuration)
   and per configuration of a corner's 3x3 block (the same mirrored on its
   diagonal).
   Weights are scaled by 4 (a raw value of 4 is about one disc).

It prints the anchors to paste into ``ANCHORS`` and writes the pattern tables
(``othello_patterns.npz``) into ``--out``. The engine ships weights fitted on
the positions of three runs (seeds 2, 3, 4 with 1,500, 2,000 and 2,500 games,
each played by the previous round's engine; 336,000 positions; R^2 0.46 on
held-out positions, against 0.37 for the features without patterns); each round
was kept only because it won matches against the previous weights (see the
module docstring of ``othello_eval``).
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import lsqr

import arena
from arena.search.alphabeta.engines import othello_eval as ev
from arena.search.alphabeta.engines.othello import make_engine
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


def reverse(pattern: int) -> int:
    digits = [(pattern // 3**k) % 3 for k in range(8)]
    return sum(digits[7 - k] * 3**k for k in range(8))


def transpose(pattern: int) -> int:
    digits = [(pattern // 3**k) % 3 for k in range(9)]
    return sum(digits[3 * (k % 3) + k // 3] * 3**k for k in range(9))


def fit(
    me: np.ndarray, opp: np.ndarray, empties: np.ndarray, labels: np.ndarray, damp: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(anchors, edges, corners)``: feature weights, edge and corner-block values by phase."""
    n = len(me)
    features = np.zeros((n, ev.FEATURES))
    edges = np.zeros((n, 4), dtype=np.int64)
    blocks = np.zeros((n, 4), dtype=np.int64)
    ev.feature_rows(me, opp, np.uint64(board_mask(8)), ev.masks(8), features, edges, blocks)
    canonical = np.array([min(p, reverse(p)) for p in range(ev.PATTERNS)])
    _, column_of = np.unique(canonical, return_inverse=True)
    kinds = column_of.max() + 1
    block_canonical = np.array([min(p, transpose(p)) for p in range(ev.CORNER_PATTERNS)])
    _, block_column_of = np.unique(block_canonical, return_inverse=True)
    block_kinds = block_column_of.max() + 1
    phase = np.clip(1 - empties / 60, 0, 1)
    points = np.linspace(0, 1, PHASES)
    hat = np.maximum(0, 1 - np.abs(phase[:, None] - points[None, :]) * (PHASES - 1))
    base = (features[:, :, None] * hat[:, None, :]).reshape(n, -1)
    width = base.shape[1]
    rows = [np.repeat(np.arange(n), width)]
    cols = [np.tile(np.arange(width), n)]
    vals = [base.ravel()]
    for e in range(4):
        for k in range(PHASES):
            rows.append(np.arange(n))
            cols.append(width + column_of[edges[:, e]] * PHASES + k)
            vals.append(hat[:, k])
            rows.append(np.arange(n))
            cols.append(width + (kinds + block_column_of[blocks[:, e]]) * PHASES + k)
            vals.append(hat[:, k])
    matrix = sp.csr_matrix(
        (np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
        shape=(n, width + (kinds + block_kinds) * PHASES),
    )
    coef = lsqr(matrix, labels, damp=damp, iter_lim=3000)[0]
    predicted = matrix @ coef
    print(f"{n} positions, R^2 {1 - ((labels - predicted) ** 2).mean() / labels.var():.3f}")
    anchors = coef[:width].reshape(ev.FEATURES, PHASES) * 4
    patterns = coef[width:].reshape(kinds + block_kinds, PHASES) * 4
    return anchors, patterns[:kinds][column_of], patterns[kinds:][block_column_of]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--damp", type=float, default=1.0)
    parser.add_argument("--out", type=Path, default=Path("."))
    args = parser.parse_args()
    anchors, edges, corners = fit(*play(args.games, args.seed), damp=args.damp)
    for row in anchors:
        print("        [" + ", ".join(f"{x:.1f}" for x in row) + "],")
    args.out.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        args.out / "othello_patterns.npz",
        edges=np.round(edges * 16).astype(np.int16),
        corners=np.round(corners * 16).astype(np.int16),
        scale=np.int64(16),
    )


if __name__ == "__main__":
    main()
