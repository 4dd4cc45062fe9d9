"""Getting the compiled MCTS ready: load from numba's disk cache, or compile with a notice.

Compilation is the user's time, so it is paid once per machine: every
function is compiled with ``cache=True`` and later processes (``--jobs``
workers, Ray, the next command) load it from the disk cache. When getting a
game ready takes longer than a cache load, one line goes to stderr —
``compiling fast kernels for go (first use, ~8 s)`` — and a spinner runs until
it is done. ``arena warmup [GAME...]`` does it ahead of time, off any clock.

numba is imported here only when a compiled engine is asked for, so ``import
arena`` stays fast.

Tests: ``tests/search/test_fast_mcts.py``, ``tests/games/test_go_ladders.py`` (knobs).
"""

from __future__ import annotations

import hashlib
import os
import random
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from importlib import import_module
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from arena.core.errors import SpecError
from arena.core.game import Game
from arena.core.kernel import Kernel
from arena.games import load_kernel
from arena.search.clock.deadline import quiet_gc
from arena.search.mcts.options import MCTSOptions

STILL_COMPILING_AFTER = 5.0
"""Seconds after which a game marked ready is announced anyway (its cache was removed)."""

FIRST_USE_SECONDS = {
    "tictactoe": 14,
    "connect4": 14,
    "gomoku": 17,
    "othello": 23,
    "go": 30,
    "colosseum": 17,
}
"""How long a game's first use compiled on the project's 2-core machine (``arena bench
compile``, 2026-11-23, load average about 3)."""

_ready: set[tuple[str, str]] = set()
"""(game spec, what was warmed) pairs."""


@cache
def _marker(game: str) -> Path:
    """The file that says ``game`` was compiled from the current sources (numba's cache
    files are its own business; this only decides whether to announce a compilation)."""
    package = Path(__file__).resolve().parents[2]
    numba = find_spec("numba")
    sources = [
        Path(numba.origin) if numba and numba.origin else package,  # a new numba: new stamp
        package / "search" / "mcts" / "kernel.py",
        package / "search" / "mcts" / "rave.py",
        package / "search" / "mcts" / "kernel_functions.py",
        package / "search" / "mcts" / "root_arrays.py",
        package / "search" / "clock" / "compiled.py",
        package / "core" / "kernel.py",
        *sorted((package / "games").glob("*/kernel.py")),
    ]
    stamp = "|".join(f"{path}:{path.stat().st_mtime_ns}" for path in sources if path.exists())
    digest = hashlib.sha1(stamp.encode()).hexdigest()[:16]
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "arena" / "compiled" / f"{game}-{digest}"


def first_use(game: str) -> float | None:
    """When ``game``'s compiled search has not been made from the current sources on this
    machine yet: about how many seconds its first use will compile (else None), for a
    front end to say so before it waits."""
    if _marker(game).exists():
        return None
    return float(FIRST_USE_SECONDS.get(game, 20))


@contextmanager
def compile_notice(game: str, stream: Any = None) -> Iterator[None]:
    """Announce the first-use compilation of ``game`` (one line and a spinner) and mark the
    game compiled when it is done."""
    done = threading.Event()
    status: list[Any] = []
    marker = _marker(game)
    wait = STILL_COMPILING_AFTER if marker.exists() else 0.0

    def announce() -> None:
        if done.wait(wait):
            return
        from rich.console import Console  # only when there is something to show

        console = Console(file=stream or sys.stderr)
        estimate = FIRST_USE_SECONDS.get(game, 20)
        console.print(
            f"compiling fast kernels for {game} (first use, ~{estimate} s)", highlight=False
        )
        if console.is_terminal:
            spinner = console.status(f"compiling {game}...")
            spinner.start()
            status.append(spinner)

    thread = threading.Thread(target=announce, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
        for spinner in status:
            spinner.stop()
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()
    except OSError:
        pass  # a read-only home: the notice shows again next time, nothing worse


def ready(game: Game) -> bool:
    """Whether this process has loaded ``game``'s compiled MCTS (making an engine for it
    then takes milliseconds, not a load from numba's cache)."""
    return any(spec == game.spec for spec, _ in _ready)


def fast_engine(
    options: MCTSOptions, game: Game, rng: random.Random, everything: bool = False
) -> Any:
    """The compiled engine for ``game`` (a ready :class:`~arena.search.mcts.driver.FastSearch`),
    or None when the game has no kernel. Loads (or compiles) what a search with these
    options runs — with ``everything``, what any search of the game runs."""
    with compile_notice(game.name), quiet_gc():
        # numba's hundred thousand objects all live on: the collector need not scan them.
        kernel = load_kernel(game)
        if kernel is None:
            return None
        set_knobs(kernel, options.knobs)
        if options.priors:
            set_weights(kernel, options.priors)
        # The compiled engine imports numba (0.2 s): only when a game asks for it.
        # ``parallel.engine`` picks the serial engine or a parallel one, and the serial
        # engine the plain one or MC-RAVE (``rave_driver.engine``).
        threaded = import_module("arena.search.mcts.parallel")
        options = threaded.resolved(options, kernel)  # threads and the parallel kind, once
        with import_module("arena.search.mcts.numba_cache").quick_loads():
            # What a search with these options loads: the simulation, and the copying of a
            # kept subtree (RAVE's search is another compiled function, and so is the shared
            # tree's).
            rave = "rave," if options.rave else ""
            kind = f",{threaded.kind(options)}"
            needs = rave + ("everything" if everything else f"{options.rollout},{options.reuse}")
            needs += kind
            if not {(game.spec, needs), (game.spec, rave + "everything" + kind)} & _ready:
                # A throwaway engine with its own generator: warming must not draw from
                # the agent's, or a seeded agent would play differently on first use.
                throwaway = threaded.engine(options, kernel, random.Random(0))
                throwaway.warm(game.initial_state(), everything)
                _ready.add((game.spec, needs))
        engine = threaded.engine(options, kernel, rng)
    return engine


def set_knobs(kernel: Kernel, knobs: dict[str, int]) -> None:
    """Turn ``knobs`` on in ``kernel``'s own ``params`` (a new array per ``load_kernel``, so
    one engine's knobs touch no other engine; its threads share them); a one-line
    :class:`SpecError` for a knob the kernel does not have."""
    for name, value in knobs.items():
        if name not in kernel.knobs:
            game = kernel.name.split(":")[0]
            raise SpecError(
                f"mcts: {name}={value} needs a game whose kernel reads it; {game} does not"
            )
        kernel.params[kernel.knobs[name]] = value


def set_weights(kernel: Kernel, path: str) -> None:
    """Load the fitted weights file ``path`` into ``kernel``'s own ``params`` (``mcts:priors=``);
    a one-line :class:`SpecError` for a game without fitted weights or a bad file."""
    if kernel.weights is None:
        game = kernel.name.split(":")[0]
        raise SpecError(
            f"mcts: priors= needs a game whose kernel reads fitted weights; {game} does not"
        )
    try:
        kernel.weights(path)
    except ValueError as exc:
        raise SpecError(f"mcts: priors={exc}") from None


def warmup(game: Game) -> float | None:
    """Compile (or load) everything the compiled MCTS runs for ``game``; the seconds it
    took, or None when the game has no kernel."""
    start = time.perf_counter()
    engine = fast_engine(MCTSOptions(reuse=True, threads=1), game, random.Random(0), True)
    if engine is not None:  # and the shared tree of the threads
        options = MCTSOptions(reuse=True, threads=2, parallel="tree")
        fast_engine(options, game, random.Random(0), everything=True)
    if engine is None:
        return None
    return time.perf_counter() - start
