"""``arena perft GAME DEPTH``: count move sequences, the check every move generator must pass.

Tests: tests/cli/test_cli.py
"""

from __future__ import annotations

import argparse
import time

from arena.cli.common import add_game_argument
from arena.core.errors import ArenaError
from arena.core.game import position
from arena.core.perft import perft
from arena.games import load_game


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "perft",
        help="count the move sequences of each length up to DEPTH",
        description="Count the move sequences of length 1..DEPTH from the start position (or "
        "after --moves). A game that ends early contributes nothing; passes count as moves. "
        "The last line is the count at DEPTH alone.",
    )
    add_game_argument(p)
    p.add_argument("depth", type=int, metavar="DEPTH", help="sequence length (>= 0)")
    p.add_argument(
        "--moves",
        nargs="*",
        default=[],
        metavar="MOVE",
        help="count from the position after these moves",
    )
    p.add_argument("--seed", type=int, default=None, help="seed of the initial position")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.depth < 0:
        raise ArenaError(f"DEPTH must be >= 0, not {args.depth}")
    state = position(load_game(args.game), args.moves, args.seed)
    count = 1
    for depth in range(1, args.depth + 1):
        start = time.perf_counter()
        count = perft(state, depth)
        seconds = time.perf_counter() - start
        print(f"depth {depth:>2}  {count:>14,}  {seconds:8.2f} s")
    print(count)
    return 0
