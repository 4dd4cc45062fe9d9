"""Fit Multi-ProbCut's tries for the Othello engine (how ``othello.probcut.FITTED`` was made).

Usage (about 35 minutes on two cores for 800 positions to depth 12):

    PYTHONPATH=src python scripts/fit_othello_probcut.py --positions 800 --depth 12 \\
        --jobs 2 --save /tmp/mpc.npz
    PYTHONPATH=src python scripts/fit_othello_probcut.py --data /tmp/mpc.npz --gaps 4 2

1. **Positions**: games of the engine against itself at depth 3, a random move in 15%
   of the plies (and the first two), each stopped at a random ply from 4 to 46 (14 to 56
   empty cells), one position a game where the mover has a placement.
2. **Searches**: each position searched at every depth from 1 to ``--depth``, ProbCut
   off, the table cleared before each (so no depth borrows a deeper one's values); the
   rows ``(empties, value at depth 1, ..., value at depth D)`` are saved to ``--save``
   (``rows``, with the ``positions`` as ``(mover, opponent)`` bitboards).
3. **Fit**, for each gap ``g`` of ``--gaps``: over every pair of depths ``(d, d - g)``
   from ``--first`` on, the least-squares line ``deep = slope * shallow + offset``; then
   the residuals' standard deviation in cells of (depth, five empty cells), and the
   least-squares plane of their logarithms through (empties, depth), weighted by the
   positions in each cell: a spread times a share per empty cell and per ply. Nodes
   deeper than ``--depth`` take the spread at ``--depth`` (it falls with the depth and
   must not be carried beyond its data). Proven values (a won or lost game inside the
   horizon) are left out.

It prints one :class:`~arena.search.alphabeta.engines.othello.probcut.Try` for each gap
(for ``FITTED``), and the table of spreads by stage it came from. The engine ships the fit
of 800 positions to depth 12 (``--positions 800 --depth 12 --seed 5``).

Tests: tests/search/test_othello_probcut.py
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from multiprocessing import get_context
from pathlib import Path

import numpy as np

import arena
from arena.core.arrays_file import read_arrays
from arena.search.alphabeta.engines.othello.engine import OthelloEngine, make_engine
from arena.search.alphabeta.engines.othello.probcut import AT_DEPTH, AT_EMPTIES, Try
from arena.search.alphabeta.engines.othello.search import PROVEN

BUCKET = 5
"""Empty cells per cell of the spread's table (``--cell``)."""
MIN_CELL = 8
"""Positions a cell needs for its spread to count."""


def new_engine() -> OthelloEngine:
    engine = make_engine(arena.load_game("othello"))
    assert engine is not None
    engine.probcut = 0
    return engine


def positions(count: int, seed: int) -> list[tuple[int, int]]:
    """``(mover, opponent)`` bitboards of ``count`` positions of noisy self-play."""
    game = arena.load_game("othello")
    engine = new_engine()
    rng = random.Random(seed)
    out: list[tuple[int, int]] = []
    while len(out) < count:
        state = game.initial_state()
        stop = rng.randint(4, 46)
        for ply in range(stop):
            if state.is_terminal():
                break
            legal = state.legal_moves()
            if ply < 2 or rng.random() < 0.15 or legal == (game.PASS,):  # type: ignore[attr-defined]
                move = rng.choice(legal)
            else:
                engine.reset()
                move = engine.search_depth(state, 3)[1]
            state = state.play(move)
        if not state.is_terminal() and state.legal_moves() != (game.PASS,):  # type: ignore[attr-defined]
            me, opp = engine.bits(state)
            out.append((int(me), int(opp)))
    return out


_ENGINE: OthelloEngine | None = None


def searched(task: tuple[int, int, int]) -> list[int]:
    """``[empties, value at depth 1, ..., value at depth D]`` of one position (a pool's task)."""
    global _ENGINE
    me, opp, depth = task
    if _ENGINE is None:
        _ENGINE = new_engine()
    row = [64 - (me | opp).bit_count()]
    for d in range(1, depth + 1):
        _ENGINE.reset()
        row.append(_ENGINE.search_bits(me, opp, d))
    return row


def search_all(tasks: list[tuple[int, int]], depth: int, jobs: int) -> np.ndarray:
    work = [(me, opp, depth) for me, opp in tasks]
    start = time.perf_counter()
    rows: list[list[int]] = []
    with get_context("spawn").Pool(jobs) as pool:
        for row in pool.imap(searched, work):
            rows.append(row)
            if len(rows) % 50 == 0:
                took = time.perf_counter() - start
                print(f"{len(rows)} positions, {took:.0f} s", file=sys.stderr, flush=True)
    return np.array(rows, dtype=np.int64)


def fit(
    rows: np.ndarray, gap: int, first: int, bucket: int = BUCKET
) -> tuple[Try, list[tuple[int, int, int, float]]]:
    """The try of ``gap`` fitted to the rows, and its cells ``(depth, empties, n, spread)``."""
    empties = rows[:, 0]
    values = rows[:, 1:]
    deepest = values.shape[1]
    xs, ys, ds, es = [], [], [], []
    for d in range(max(first, gap + 1), deepest + 1):
        x, y = values[:, d - gap - 1], values[:, d - 1]
        ok = (np.abs(x) < PROVEN) & (np.abs(y) < PROVEN)
        xs.append(x[ok])
        ys.append(y[ok])
        ds.append(np.full(ok.sum(), d))
        es.append(empties[ok])
    if not xs:
        raise ValueError(f"no depth pairs {gap} apart from depth {first} to {deepest}")
    x, y, d, e = (np.concatenate(a).astype(np.float64) for a in (xs, ys, ds, es))
    slope, offset = np.polyfit(x, y, 1)
    residual = y - (slope * x + offset)
    cells: list[tuple[int, int, int, float]] = []
    for depth in np.unique(d):
        for low in range(0, 61, bucket):
            sel = (d == depth) & (e >= low) & (e < low + bucket)
            if sel.sum() >= MIN_CELL:
                cells.append((int(depth), low, int(sel.sum()), float(residual[sel].std())))
    if len(cells) < 3:
        raise ValueError(f"too few positions to fit the spread of gap {gap} ({len(cells)} cells)")
    table = np.array(cells, dtype=np.float64)
    weight = np.sqrt(table[:, 2])
    design = np.column_stack(
        [np.ones(len(table)), table[:, 1] + bucket / 2 - AT_EMPTIES, table[:, 0] - AT_DEPTH]
    )
    plane, *_ = np.linalg.lstsq(design * weight[:, None], np.log(table[:, 3]) * weight, rcond=None)
    found = Try(
        gap=gap,
        first=max(first, gap + 1),
        slope=round(float(slope), 3),
        offset=round(float(offset)),
        sigma=round(float(np.exp(plane[0]))),
        per_empty=round(float(np.exp(plane[1])), 4),
        per_depth=round(float(np.exp(plane[2])), 4),
        last=deepest,
    )
    return found, cells


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Fit Multi-ProbCut's tries for the Othello engine (see the docstring)."
    )
    parser.add_argument("--positions", type=int, default=800, help="positions to search")
    parser.add_argument("--depth", type=int, default=12, help="deepest search (plies)")
    parser.add_argument("--seed", type=int, default=5, help="seed of the games")
    parser.add_argument("--jobs", type=int, default=2, help="processes searching")
    parser.add_argument("--save", type=Path, help="write the searched rows here (.npz)")
    parser.add_argument("--data", type=Path, help="fit saved rows instead of searching")
    parser.add_argument("--gaps", type=int, nargs="+", default=[4], help="shallower by (plies)")
    parser.add_argument("--first", type=int, default=6, help="shallowest depth that may cut")
    parser.add_argument(
        "--cell", type=int, default=BUCKET, help="empty cells per cell of the spread's table"
    )
    args = parser.parse_args(argv)
    if args.positions < 1 or args.depth < 2 or args.jobs < 1:
        parser.error("--positions and --jobs must be at least 1, --depth at least 2")
    if any(g < 1 for g in args.gaps) or args.cell < 1:
        parser.error("--gaps and --cell must be at least 1")
    if args.data is not None:
        try:
            data = read_arrays(args.data, "a file of searched positions")
        except ValueError as exc:
            parser.error(f"--data {exc}")
        if "rows" not in data:
            parser.error(f"--data {args.data}: no 'rows' array (not written by --save)")
        rows = data["rows"]
        if rows.ndim != 2 or rows.shape[1] < 3:
            parser.error(f"--data {args.data}: rows of shape {rows.shape}, not (n, 1 + depths)")
    else:
        boards = positions(args.positions, args.seed)
        rows = search_all(boards, args.depth, args.jobs)
        if args.save is not None:
            np.savez(args.save, rows=rows, positions=np.array(boards, dtype=np.uint64))
    for gap in args.gaps:
        try:
            found, cells = fit(rows, gap, args.first, args.cell)
        except ValueError as exc:
            print(f"fit_othello_probcut: {exc}", file=sys.stderr)
            return 1
        print(f"gap {gap}: {len(rows)} positions, spread by depth and empty cells (n):")
        for depth, low, n, spread in cells:
            high = low + args.cell - 1
            print(f"  depth {depth:2d}, {low:2d}-{high:2d} empties: {spread:6.0f} ({n})")
        print(f"    {found!r},")
    return 0


if __name__ == "__main__":
    sys.exit(main())
