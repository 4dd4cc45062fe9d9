"""``arena warmup [GAME...]``: compile the fast kernels and the compiled MCTS ahead of use.

Compiled code goes to numba's disk cache, so every later process (matches,
``--jobs`` workers, Ray) loads it instead of compiling on someone's clock.

Tests: tests/cli/test_cli.py
"""

from __future__ import annotations

import argparse
import time

from arena.core.errors import ArenaError
from arena.games import NAMES, load_game
from arena.search.mcts.warmup import warmup


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "warmup",
        help="compile the fast kernels (and the compiled MCTS) for games ahead of use",
        description="Compile each game's kernel and the compiled MCTS into numba's disk cache "
        "(or load them, when they are there already), so that no search pays for compilation. "
        "Default: every game with a kernel.",
        epilog="example: arena warmup connect4 go:size=9",
    )
    p.add_argument("games", nargs="*", metavar="GAME", help="game specs (default: all)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    specs = args.games or list(NAMES)
    games = [load_game(spec) for spec in specs]
    ready = 0
    for game in games:
        start = time.perf_counter()
        seconds = warmup(game)
        if seconds is None:
            if args.games:
                raise ArenaError(f"{game.spec} has no compiled kernel: mcts runs it in Python")
            continue
        ready += 1
        print(f"{game.spec}: ready ({time.perf_counter() - start:.1f} s)")
    return 0 if ready else 1
