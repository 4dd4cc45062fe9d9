"""Nodes of each move's exact value (what ``arena solve`` prints) under other probe orders.

Usage (from the checkout; each strategy costs about a root solve's CPU per move):

    .venv/bin/python scripts/othello_probe_orders.py                       # FFO #40-#44
    .venv/bin/python scripts/othello_probe_orders.py --positions 40,42 \
        --strategies zero,bounds,gap12,oracle

Each position is solved once (the root, by the solver's galloping probes); its table
is saved, and each strategy then finds every move's value on a copy of it, by
null-window probes in the solver's own search:

- ``zero``: what ``arena solve`` does today, probes from 0 (``solution.gallop``);
- ``bounds``: the same probes, but only inside the bounds the root's solve left in
  the table for the move;
- ``up``: from the table's lower bound upwards (the first probe just above it);
- ``gapN``: the first probe at the root's value minus N (a move is usually a few
  discs worse than the best);
- ``oracle``: only the two probes every exact value needs, next to the value itself
  (taken from the ``zero`` run): what a perfect guess would cost, the floor of any
  probe order.

Nodes are deterministic, so one run on a loaded machine decides; every strategy must
give every move the same value (checked). See docs/solving.md.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from arena.formats.position import parse_position
from arena.games import load_game
from arena.solvers.othello import search
from arena.solvers.othello.solver import OthelloSolver, discs
from arena.solvers.solution import gallop

DATA = Path(__file__).resolve().parent.parent / "tests" / "solvers" / "data" / "othello_ffo.txt"
M64 = (1 << 64) - 1


def stored(table: np.ndarray, me: int, opp: int) -> tuple[int, int]:
    """The bounds the table holds for a position (the search's own hashing, no symmetry)."""
    h2, h1 = int(search.HASH2), int(search.HASH1)
    i = (((me ^ ((opp * h2) & M64)) * h1 & M64) >> 40) & (table.shape[0] - 2)
    for row in (i, i + 1):
        if int(table[row, 0]) == me and int(table[row, 1]) == opp:
            packed = int(table[row, 2])
            return (packed & 255) - 64, ((packed >> 8) & 255) - 64
    return -64, 64


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", default="40,41,42,43,44")
    parser.add_argument("--strategies", default="zero,bounds,up,gap8,gap12,oracle")
    args = parser.parse_args()
    names = {f"FFO#{n}" for n in args.positions.split(",")}
    strategies = args.strategies.split(",")
    game = load_game("othello")
    oth = OthelloSolver(8)
    totals = dict.fromkeys(["root", *strategies], 0)
    for fields in (line.split() for line in DATA.read_text().splitlines() if line.strip()):
        if fields[-1] not in names:
            continue
        state = parse_position(game, " ".join(fields[:2]))
        oth.reset()
        root = oth.solve(state)
        assert root.score == int(fields[2]), fields[-1]
        saved = oth.table.copy()
        totals["root"] += root.nodes
        line, reference = [f"{fields[-1]} root {root.nodes:,}"], None
        for name in strategies:
            oth.table[:] = saved
            values, nodes = [], 0
            for i, move in enumerate(state.legal_moves()):
                me, opp = discs(state.play(move))

                def probe(mid: int, left: float, me: int = me, opp: int = opp) -> tuple:
                    oth.stats[:] = (0, 1 << 62, 0, 0, 0)
                    value = search.probe(
                        np.uint64(me), np.uint64(opp), mid, mid + 1, oth.board, oth.corners,
                        oth.geo, oth.gap, search.NO_SYMMETRY, oth.table, oth.order, oth.stats,
                    )  # fmt: skip
                    return int(value), int(oth.stats[search.NODES]), False

                low, high = stored(oth.table, me, opp)
                if name == "zero":
                    found = gallop(probe, -64, 64, None, step=2)
                elif name == "bounds":
                    found = gallop(probe, low, high, None, step=2)
                elif name == "up":
                    found = gallop(probe, low, high, None, step=2, first=low + 2)
                elif name.startswith("gap"):
                    first = -root.score + int(name[3:])
                    found = gallop(probe, -64, 64, None, step=2, first=first)
                elif name == "oracle":
                    assert reference is not None, "oracle needs a strategy before it"
                    value = -reference[i]
                    for mid in (value - 1, value + 1):
                        got, spent, _ = probe(mid, -1.0)
                        assert (got > mid) == (mid < value)
                        nodes += spent
                    values.append(reference[i])
                    continue
                else:
                    raise SystemExit(f"unknown strategy {name}")
                values.append(-found.score)
                nodes += found.nodes
            reference = reference or values
            assert values == reference, (fields[-1], name, values, reference)
            totals[name] += root.nodes + nodes
            line.append(f"{name} {root.nodes + nodes:,}")
        print("  ".join(line), flush=True)
    print("all   " + "  ".join(f"{k} {v:,}" for k, v in totals.items()))


if __name__ == "__main__":
    main()
