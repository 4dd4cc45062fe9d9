"""Search speed: MCTS simulations per second and alpha-beta nodes per second.

MCTS is measured from the empty board with one uniform random rollout per
simulation, in three implementations side by side in one process, each with
a budget grown until one search takes about ``--seconds``: our compiled
search (``engine=fast``, over the game's kernel, compiled or loaded from the
disk cache before the clock starts), our readable reference (``engine=python``), and OpenSpiel's C++
``MCTSBot`` with a ``RandomRolloutEvaluator(n_rollouts=1)`` (when the bench
extra is installed). Ratios are fast/C++ and fast/reference.

Alpha-beta is measured as nodes per second at a fixed depth from the start
position. On Connect Four it is also timed against easyAI's ``Negamax`` at
the same depth 6 (easyAI's own Connect Four, which scores only wins and
losses, so ours runs with ``eval=utility`` for the like-for-like ratio and
with its defaults — heuristic, table, ordering — for the figure users get).

``arena bench agents --sims N`` (:func:`fixed_budget`) measures what a move of exactly
``N`` simulations costs, the case where a search is short enough for its fixed cost to
show: per game, the real agent's ``choose()`` (``mcts:rollouts=N``, one thread, set-up and
the reading of the result included) against OpenSpiel's ``MCTSBot(max_simulations=N)``
with the same UCT constant and one random rollout, interleaved move by move from the
empty board and two fixed positions (seeded random plies), with the medians of each, their
ratio and our per-move overhead: ``choose()``'s wall time less the time spent inside the
compiled search (:attr:`~arena.search.mcts.driver.FastSearch.kernel_seconds`).

``arena bench compile`` (:func:`compile_times`) measures what compilation
costs the user: each game's first use in a fresh numba cache, and the warm
start of a short ``arena analyze``.

Tests: tests/cli/test_cli.py
"""

from __future__ import annotations

import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from arena.agents import load_agent
from arena.agents.openspiel import mapping
from arena.bench.measure import available, selected
from arena.core.errors import ArenaError
from arena.core.game import Game, State
from arena.core.limit import Limit
from arena.games import load_game


@dataclass(frozen=True)
class Case:
    spec: str
    openspiel: str | None
    depth: int


CASES = (
    Case("tictactoe", "tic_tac_toe", 9),
    Case("connect4", "connect_four", 6),
    Case("othello", "othello", 5),
    Case("go:size=5", "go(board_size=5,komi=7.5)", 3),
    Case("go:size=9", "go(board_size=9,komi=7.5)", 2),
    Case("gomoku", "gomoku", 2),
    Case("colosseum:size=8", None, 3),
)


def grown(search: Callable[[int], float], seconds: float, start: int = 100) -> tuple[float, int]:
    """(simulations per second, simulations) of ``search(sims) -> seconds`` with the budget
    grown until one search takes about ``seconds``."""
    sims = start
    while True:
        spent = search(sims)
        if spent >= seconds or sims >= 5_000_000:
            return sims / spent, sims
        sims = int(sims * min(10.0, max(2.0, seconds / max(spent, 1e-3))))


def our_mcts(spec: str, engine: str) -> Callable[[int], float]:
    """A search of ``sims`` simulations from the start by ``mcts:engine=ENGINE``; its seconds."""
    game = load_game(spec)
    state = game.initial_state(0)

    def search(sims: int) -> float:
        agent = load_agent(f"mcts:rollouts={sims},seed=1,engine={engine}")
        agent.reset(game)  # compiles or loads the compiled engine off the clock
        start = time.perf_counter()
        agent.choose(state, Limit())
        spent = time.perf_counter() - start
        assert agent.last_search is not None and agent.last_search.nodes == sims
        return spent

    return search


def openspiel_mcts(name: str) -> Callable[[int], float]:
    """A search of ``sims`` simulations by OpenSpiel's C++ MCTSBot (UCT, c = √2, one random
    rollout each) from the start; its seconds."""
    import pyspiel

    game = pyspiel.load_game(name)

    def search(sims: int) -> float:
        bot = pyspiel.MCTSBot(
            game,
            pyspiel.RandomRolloutEvaluator(1, 1),
            2**0.5,
            sims,
            4000,  # max_memory_mb: no cap below the tree of `sims` simulations
            False,  # solve
            1,  # seed
            False,  # verbose
        )
        state = game.new_initial_state()
        start = time.perf_counter()
        bot.step(state)
        return time.perf_counter() - start

    return search


UCT_C = 2**0.5
"""The UCT constant of both searches compared (our default; OpenSpiel's MCTSBot takes it)."""
PLIES = (0, 2, 4)
"""The positions of the fixed-budget comparison: the empty board and two after as many
seeded random plies."""
MOVES = 7
"""Moves timed per position and side in the fixed-budget comparison (the medians' sample)."""


@dataclass(frozen=True)
class Position:
    """A position of the fixed-budget comparison: its label, ours, and the line to it."""

    label: str
    state: State
    line: tuple[int, ...]


def positions(game: Game, plies: tuple[int, ...] = PLIES) -> list[Position]:
    """The empty board and a position after each other number of ``plies``, played at random
    from a fixed seed (a line that ends the game, or reaches a forced move, is drawn again).

    >>> [p.label for p in positions(load_game("tictactoe"))]
    ['start', 'a1 a2', 'c3 c2 b2 a2']
    """
    found = []
    for count in plies:
        seed = 0
        while True:
            rng = random.Random(f"{game.spec} {count} {seed}")
            state, line = game.initial_state(0), []
            for _ in range(count):
                if state.is_terminal():
                    break
                move = rng.choice(state.legal_moves())
                line.append(move)
                state = state.play(move)
            if not state.is_terminal() and len(state.legal_moves()) > 1:
                break
            seed += 1
        label = " ".join(game.format_move(m) for m in line) or "start"
        found.append(Position(label, state, tuple(line)))
    return found


@dataclass(frozen=True)
class FixedMove:
    """The medians of one position's moves at a fixed budget (seconds)."""

    game: str
    position: str
    ours: float
    overhead: float
    """``choose()``'s wall time less the time inside the compiled search (median)."""
    theirs: float | None
    """OpenSpiel's ``MCTSBot.step`` (None where OpenSpiel lacks the game or is missing)."""

    @property
    def ratio(self) -> float | None:
        """Their time over ours: above 1 when ours is faster."""
        return None if self.theirs is None else self.theirs / self.ours


def our_fixed_move(game: Game, sims: int) -> Callable[[State], tuple[float, float]]:
    """One move of ``mcts:rollouts=sims`` (one thread) through ``choose()``, each a fresh
    search as a game's first move is: (its wall seconds, the seconds inside the compiled
    search)."""
    agent = load_agent(f"mcts:rollouts={sims},seed=1,threads=1")
    agent.reset(game)  # compiles or loads the compiled engine off the clock
    if getattr(agent.engine, "kernel_seconds", None) is None:
        raise ArenaError(f"bench: {game.spec} has no compiled MCTS to measure")

    limit = Limit()

    def move(state: State) -> tuple[float, float]:
        agent.reset(game)  # no tree kept from the last move of the same position
        start = time.perf_counter()
        agent.choose(state, limit)
        spent = time.perf_counter() - start
        kernel = agent.engine.kernel_seconds
        searched = agent.last_search
        if searched is None or searched.nodes != sims:
            raise ArenaError(f"bench: mcts searched {searched and searched.nodes}, not {sims}")
        return spent, kernel

    return move


def openspiel_fixed_move(game: Game, sims: int) -> Callable[[tuple[int, ...]], float]:
    """One move of OpenSpiel's C++ ``MCTSBot`` with ``max_simulations=sims`` (UCT with
    :data:`UCT_C`, one random rollout) at the position after ``line``: its seconds."""
    import pyspiel

    bridge = mapping(game)
    spiel_game = pyspiel.load_game(bridge.name)
    seeds = iter(range(1, 1 << 30))

    def move(line: tuple[int, ...]) -> float:
        state = spiel_game.new_initial_state()
        for m in line:
            state.apply_action(bridge.to_action(m))
        seed = next(seeds)
        bot = pyspiel.MCTSBot(
            spiel_game,
            pyspiel.RandomRolloutEvaluator(1, seed),
            UCT_C,
            sims,
            4000,  # max_memory_mb: no cap below the tree of `sims` simulations
            False,  # solve
            seed,
            False,  # verbose
        )
        start = time.perf_counter()
        bot.step(state)
        return time.perf_counter() - start

    return move


def fixed_budget(
    sims: int,
    only: list[str] | None = None,
    report=print,
    moves: int = MOVES,  # type: ignore[no-untyped-def]
) -> dict[str, Any]:
    """Per game and position, the median time of a move of exactly ``sims`` simulations: ours
    through ``choose()`` and OpenSpiel's ``MCTSBot``, interleaved move by move (each side
    first in turn), with the ratio and our per-move overhead."""
    spiel = available("pyspiel")
    median = statistics.median
    result: dict[str, Any] = {"sims": sims, "moves": moves, "load": os.getloadavg()[0], "rows": []}
    rows: list[FixedMove] = []
    report(
        f"mcts:rollouts={sims} (one thread) through choose() against OpenSpiel's MCTSBot "
        f"(max_simulations={sims}), UCT c={UCT_C:.3g}, one random rollout; medians of "
        f"{moves} moves each, interleaved; load {result['load']:.2f}"
    )
    report(f"{'game':<18}{'position':<24}{'mcts':>10}{'OpenSpiel':>12}{'ratio':>8}{'overhead':>11}")
    for case in selected(CASES, only):
        game = load_game(case.spec)
        ours = our_fixed_move(game, sims)
        theirs = openspiel_fixed_move(game, sims) if spiel and case.openspiel else None
        for position in positions(game):
            ours(position.state)  # a first move of each, untimed: caches and lazy set-up
            if theirs is not None:
                theirs(position.line)
            walls, overheads, times = [], [], []
            for turn in range(moves):
                if theirs is not None and turn % 2:
                    times.append(theirs(position.line))
                wall, kernel = ours(position.state)
                walls.append(wall)
                overheads.append(wall - kernel)
                if theirs is not None and not turn % 2:
                    times.append(theirs(position.line))
            row = FixedMove(
                case.spec,
                position.label,
                median(walls),
                median(overheads),
                median(times) if times else None,
            )
            rows.append(row)
            result["rows"].append(
                {
                    "game": row.game,
                    "position": row.position,
                    "mcts_ms": round(row.ours * 1e3, 4),
                    "openspiel_ms": None if row.theirs is None else round(row.theirs * 1e3, 4),
                    "ratio": None if row.ratio is None else round(row.ratio, 3),
                    "overhead_us": round(row.overhead * 1e6, 1),
                }
            )
            report(
                f"{row.game:<18}{row.position[:23]:<24}{row.ours * 1e3:>7.2f} ms"
                + (
                    f"{row.theirs * 1e3:>9.2f} ms{row.ratio:>7.2f}x"  # type: ignore[operator]
                    if row.theirs is not None
                    else f"{'-':>12}{'-':>8}"
                )
                + f"{row.overhead * 1e6:>8.0f} us"
            )
    if rows:
        result["overhead_us_median"] = round(median(r.overhead for r in rows) * 1e6, 1)
        compared = [r for r in rows if r.ratio is not None]
        lowest = min(compared, key=lambda r: r.ratio or 0.0) if compared else None
        if lowest is not None:
            result["lowest_ratio"] = round(lowest.ratio or 0.0, 3)
        report(
            (
                f"lowest ratio {lowest.ratio:.2f}x ({lowest.game}, {lowest.position}); "
                if lowest is not None
                else ""
            )
            + f"overhead median {result['overhead_us_median']:.0f} us a move; "
            f"load {os.getloadavg()[0]:.2f} at the end"
        )
    if not spiel:
        report("OpenSpiel is not installed: pip install -e '.[bench]' to compare with it")
    return result


def our_alphabeta(spec: str, depth: int, options: str = "") -> tuple[float, float]:
    """(nodes per second, seconds) of one fixed-depth search from the start."""
    game = load_game(spec)
    agent = load_agent(f"alphabeta:depth={depth}{',' + options if options else ''}")
    state = game.initial_state(0)
    start = time.perf_counter()
    agent.choose(state, Limit())
    spent = time.perf_counter() - start
    return agent.last_search.nodes / spent, spent


def easyai_connect4_seconds(depth: int) -> float:
    from easyAI import AI_Player, Negamax
    from easyAI.games.ConnectFour import ConnectFour

    ai = Negamax(depth)
    game = ConnectFour([AI_Player(ai), AI_Player(ai)])
    start = time.perf_counter()
    ai(game)
    return time.perf_counter() - start


def run(seconds: float, only: list[str] | None = None, report=print) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    spiel = available("pyspiel")
    result: dict[str, Any] = {
        "mcts_sims_per_s": {},
        "mcts_python_sims_per_s": {},
        "mcts_fast_over_python": {},
        "alphabeta_nodes_per_s": {},
    }
    if spiel:
        result["openspiel_cpp_mcts_sims_per_s"] = {}
        result["mcts_fast_over_openspiel_cpp"] = {}
    cases = selected(CASES, only)
    report(
        f"{'game':<18}{'fast mcts':>12}{'reference':>12}{'ratio':>8}"
        + (f"{'OpenSpiel C++':>15}{'ratio':>8}" if spiel else "")
        + f"{'alpha-beta':>13}  depth"
    )
    random.seed(0)
    for case in cases:
        fast, _ = grown(our_mcts(case.spec, "fast"), seconds, 1000)
        python, _ = grown(our_mcts(case.spec, "python"), seconds)
        result["mcts_sims_per_s"][case.spec] = round(fast, 1)
        result["mcts_python_sims_per_s"][case.spec] = round(python, 1)
        result["mcts_fast_over_python"][case.spec] = round(fast / python, 2)
        line = f"{case.spec:<18}{fast:>10,.0f}/s{python:>10,.0f}/s{fast / python:>7.1f}x"
        if spiel:
            if case.openspiel:
                theirs, _ = grown(openspiel_mcts(case.openspiel), seconds)
                result["openspiel_cpp_mcts_sims_per_s"][case.spec] = round(theirs, 1)
                result["mcts_fast_over_openspiel_cpp"][case.spec] = round(fast / theirs, 2)
                line += f"{theirs:>13,.0f}/s{fast / theirs:>7.2f}x"
            else:
                line += f"{'-':>15}{'-':>8}"
        nodes_per_s, _ = our_alphabeta(case.spec, case.depth)
        result["alphabeta_nodes_per_s"][case.spec] = round(nodes_per_s, 1)
        line += f"{nodes_per_s:>11,.0f}/s  {case.depth}"
        report(line)
    if (not only or "connect4" in only) and available("easyAI"):
        theirs = easyai_connect4_seconds(6)
        _, like = our_alphabeta("connect4", 6, "eval=utility")
        _, ours = our_alphabeta("connect4", 6)
        result["easyai_connect4_depth6_seconds"] = round(theirs, 4)
        result["alphabeta_connect4_depth6_seconds"] = {
            "eval=utility": round(like, 4),
            "default": round(ours, 4),
        }
        result["alphabeta_vs_easyai_ratio"] = round(theirs / like, 2)
        report(
            f"Connect Four depth 6 from the start: easyAI Negamax {theirs * 1000:.0f} ms; "
            f"alphabeta eval=utility {like * 1000:.0f} ms ({theirs / like:.1f}x), "
            f"alphabeta defaults {ours * 1000:.0f} ms ({theirs / ours:.1f}x)"
        )
    if not spiel:
        report("OpenSpiel is not installed: pip install -e '.[bench]' to compare with it")
    return result


def _seconds(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, env=env, check=True, capture_output=True)
    return time.perf_counter() - start


def compile_times(only: list[str] | None = None, report=print) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    """First-use compilation per game (``arena warmup GAME`` in a fresh numba cache, every
    game's compiled code included, numba's import too), and the warm start of ``arena
    analyze connect4 "" mcts:rollouts=1000`` with each engine (best of three)."""
    arena = [sys.executable, "-m", "arena"]
    env = dict(os.environ)
    result: dict[str, Any] = {"first_use_seconds": {}, "warm_start_seconds": {}}
    games = [name for name in ("tictactoe", "connect4", "othello", "go", "gomoku", "colosseum")]
    games = [g for g in games if not only or g in only]
    with tempfile.TemporaryDirectory() as cache:
        for name in games:
            fresh = {**env, "NUMBA_CACHE_DIR": cache, "XDG_CACHE_HOME": cache}
            shutil.rmtree(cache, ignore_errors=True)
            seconds = _seconds([*arena, "warmup", name], fresh)
            result["first_use_seconds"][name] = round(seconds, 1)
            report(f"first use of {name}: {seconds:.1f} s (compiled into an empty cache)")
    _seconds([*arena, "warmup", "connect4"], env)
    for engine in ("fast", "python"):
        command = [*arena, "analyze", "connect4", "", f"mcts:rollouts=1000,engine={engine}"]
        best = min(_seconds(command, env) for _ in range(3))
        result["warm_start_seconds"][engine] = round(best, 2)
        report(
            f"warm start, arena analyze connect4 mcts:rollouts=1000 engine={engine}: {best:.2f} s"
        )
    return result
