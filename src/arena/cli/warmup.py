"""``arena warmup [GAME...]``: compile the fast kernels, the compiled MCTS and what ``best``
plays each game with, ahead of use.

Compiled code goes to numba's disk cache, so every later process (matches,
``--jobs`` workers, Ray) loads it instead of compiling on someone's clock. ``best``'s own
searches are compiled code of their own (Go's MC-RAVE with its knowledge, the alpha-beta
engines of ``ids``) that the plain MCTS does not load: without them a first ``best`` game
of Go compiled for about three minutes after a warmup on the project's machine.

Tests: tests/cli/test_cli.py
"""

from __future__ import annotations

import argparse
import time

from arena.agents.best import best_spec
from arena.agents.registry import load_agent
from arena.core.agent import start_game
from arena.core.errors import ArenaError
from arena.core.game import Game
from arena.games import NAMES, load_game
from arena.search.mcts.warmup import warmup

THREADS = (1, 2)
"""``best`` is made ready with one thread and with two (a shared tree, trees per thread and
Lazy SMP's helpers are compiled apart from the one-thread search)."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "warmup",
        help="compile the fast kernels (and the compiled MCTS) for games ahead of use",
        description="Compile each game's kernel, the compiled MCTS and the searches `best` "
        "plays it with (one thread and two) into numba's disk cache (or load them, when they "
        "are there already), so that no search pays for compilation. Default: every game "
        "with a kernel.",
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
        warm_best(game)
        ready += 1
        print(f"{game.spec}: ready ({time.perf_counter() - start:.1f} s)")
    return 0 if ready else 1


def warm_best(game: Game) -> None:
    """Load (or compile) what ``best`` runs for ``game``: its agent's ``reset`` gets its
    compiled search ready, as a match's start does."""
    for threads in THREADS:
        agent = load_agent(best_spec(game, threads))
        try:
            start_game(agent, game)
        finally:
            agent.close()
