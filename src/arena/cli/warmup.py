"""``arena warmup [GAME...]``: compile the fast kernels, the compiled MCTS and what ``best``
plays each game with, ahead of use.

Compiled code goes to numba's disk cache, so every later process (matches,
``--jobs`` workers, Ray) loads it instead of compiling on someone's clock. ``best``'s own
searches are compiled code of their own (Go's MC-RAVE with its knowledge, the alpha-beta
engines of ``ids``) that the plain MCTS does not load: without them a first ``best`` game
of Go compiled for about three minutes after a warmup on the project's machine.

Games compile at once, each in a process of its own (``--jobs``; numba compiles on one
core). Code the games share (the MCTS itself) is compiled for each game's kernel apart;
numba rewrites a function's index file only when one of its compilations is done, so two
workers rarely meet there, and an entry lost that way is compiled again on first use.

Tests: tests/cli/test_cli.py
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import active_children, get_context

from arena.agents.best import best_spec
from arena.agents.registry import load_agent
from arena.compete.runner import die_with_parent
from arena.core.agent import start_game
from arena.core.errors import ArenaError
from arena.core.game import Game
from arena.games import NAMES, load_game
from arena.search.mcts.warmup import FIRST_USE_SECONDS, warmup

THREADS = (1, 2)
"""``best`` is made ready with one thread and with two (a shared tree, trees per thread and
Lazy SMP's helpers are compiled apart from the one-thread search)."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "warmup",
        help="compile the fast kernels, the compiled MCTS and best's searches ahead of use",
        description="Compile each game's kernel, the compiled MCTS and the searches `best` "
        "plays it with (one thread and two) into numba's disk cache (or load them, when they "
        "are there already), so that no search pays for compilation. Default: every game "
        "with a kernel.",
        epilog="example: arena warmup connect4 go:size=9",
    )
    p.add_argument("games", nargs="*", metavar="GAME", help="game specs (default: all)")
    p.add_argument(
        "--jobs",
        type=int,
        default=None,
        metavar="N",
        help="games compiled at once, each in a process of its own (default: the machine's "
        "cores, at most one a game)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    specs = args.games or list(NAMES)
    games = [load_game(spec) for spec in specs]  # a bad spec: one line, before any compiling
    if args.jobs is not None and args.jobs < 1:
        raise ArenaError(f"--jobs must be at least 1, not {args.jobs}")
    jobs = min(args.jobs or os.cpu_count() or 1, len(games))
    ready = 0
    for spec, seconds in warmed(games, jobs):
        if seconds is None:
            if args.games:
                raise ArenaError(f"{spec} has no compiled kernel: mcts runs it in Python")
            continue
        ready += 1
        print(f"{spec}: ready ({seconds:.1f} s)", flush=True)
    return 0 if ready else 1


def warmed(games: list[Game], jobs: int):  # type: ignore[no-untyped-def]
    """``(spec, seconds)`` of each game made ready (seconds None: no kernel), as each is
    done: here with one job, else in ``jobs`` processes of their own."""
    if jobs <= 1:
        for game in games:
            yield game.spec, warm(game.spec)
        return
    print(f"compiling {len(games)} games, {jobs} at once", flush=True)
    # The longest first (Go: 2.5 minutes of the 4 on the project's machine): the others
    # follow one another on the other cores, and those sharing code compile it once.
    games = sorted(games, key=lambda game: -FIRST_USE_SECONDS.get(game.name, 0))
    pool = ProcessPoolExecutor(jobs, mp_context=get_context("spawn"), initializer=die_with_parent)
    try:
        futures = {pool.submit(warm_quietly, game.spec): game.spec for game in games}
        for future in as_completed(futures):
            yield futures[future], future.result()
    except BaseException:
        # Interrupted, or a game failed: the other compilations are not waited for.
        pool.shutdown(wait=False, cancel_futures=True)
        for child in active_children():
            child.terminate()
        raise
    finally:
        pool.shutdown(wait=True)


def warm(spec: str) -> float | None:
    """Make ``spec`` ready: its kernel and compiled MCTS, then ``best``'s searches; the
    seconds it took (None: the game has no kernel)."""
    start = time.perf_counter()
    game = load_game(spec)
    if warmup(game) is None:
        return None
    warm_best(game)
    return time.perf_counter() - start


def warm_quietly(spec: str) -> float | None:
    """:func:`warm` in a worker process: its first-use notice and spinner would interleave
    with the other workers' (the coordinator prints each game's line)."""
    with contextlib.redirect_stderr(io.StringIO()):
        return warm(spec)


def warm_best(game: Game) -> None:
    """Load (or compile) what ``best`` runs for ``game``: its agent's ``reset`` gets its
    compiled search ready, as a match's start does."""
    for threads in THREADS:
        agent = load_agent(best_spec(game, threads))
        try:
            start_game(agent, game)
        finally:
            agent.close()
