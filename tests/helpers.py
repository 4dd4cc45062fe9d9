"""Shared test helpers: walking games along random move sequences; a stopwatch of a thread's own
time (less its waits for a CPU), for time bounds that hold on a loaded machine."""

from __future__ import annotations

import os
import random
import shutil
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from arena.core.agent import start_game
from arena.core.game import Game, State

# Small but rule-complete variants used where every game is exercised.
GAME_SPECS = (
    "tictactoe",
    "tictactoe:m=4,n=3,k=3",
    "connect4",
    "connect4:rows=5,cols=6,k=3",
    "othello",
    "othello:size=6,rule=nomove-ends",
    "gomoku:size=9",
    "gomoku:size=7,k=4,overline=nowin",
    "go:size=5",
    "go:size=7,ko=simple",
    "colosseum:size=6",
    "colosseum",
)


def walk(game: Game, choices: Sequence[int], seed: int | None = None) -> Iterator[State]:
    """States along the line that picks ``choices[i] % len(legal)`` at ply i."""
    state = game.initial_state(seed)
    yield state
    for choice in choices:
        if state.is_terminal():
            return
        moves = state.legal_moves()
        state = state.play(moves[choice % len(moves)])
        yield state


def random_states(game: Game, count: int, seed: int = 0) -> list[State]:
    """``count`` states from random games (every ply of each game, all distinct lines)."""
    rng = random.Random(seed)
    out: list[State] = []
    while len(out) < count:
        state = game.initial_state(rng.randrange(1 << 30))
        out.append(state)
        while not state.is_terminal() and len(out) < count:
            state = state.play(rng.choice(state.legal_moves()))
            out.append(state)
    return out


def clustered_states(game: Game, count: int, seed: int) -> list[State]:
    """Positions of 8-20 random stones, each next to one already placed (random games
    over the whole board seldom make a three)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.play_moves([7 * 15 + 7])
        for _ in range(rng.randrange(7, 20)):
            placed = [c for c in range(225) if state.stone(c) is not None]  # type: ignore[attr-defined]
            r, c = divmod(rng.choice(placed), 15)
            r, c = r + rng.randrange(-1, 2), c + rng.randrange(-1, 2)
            if 0 <= r < 15 and 0 <= c < 15 and state.stone(r * 15 + c) is None:  # type: ignore[attr-defined]
                state = state.play(r * 15 + c)
            if state.is_terminal():
                break
        if not state.is_terminal():
            out.append(state)
    return out


def play_game(game: Game, agents: Sequence, limit, seed: int | None = None) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    """Play one game between two agents (first moves first); return the returns."""
    state = game.initial_state(seed)
    for agent in agents:
        start_game(agent, game)
    while not state.is_terminal():
        move = agents[state.to_move].choose(state, limit)
        for agent in agents:
            if hasattr(agent, "observe"):
                agent.observe(state, move)
        state = state.play(move)
    return state.returns()


def score_of(first_returns: list[tuple[int, int]], as_player: list[int]) -> float:
    """Points (win 1, draw 0.5) of one agent over games where it was ``as_player[i]``."""
    return sum((r[p] + 1) / 2 for r, p in zip(first_returns, as_player))


def chi2_limit(df: int) -> float:
    """The 0.999 quantile of chi-squared with ``df`` degrees of freedom (Wilson-Hilferty)."""
    return df * (1 - 2 / (9 * df) + 3.09 * (2 / (9 * df)) ** 0.5) ** 3


def first_move_chi2(game: Game, state: State, trials_per_move: int, seed: int) -> tuple[float, int]:
    """(chi-squared, degrees of freedom) of the fast playout's first move against the
    uniform law over ``state``'s legal moves."""
    legal = state.legal_moves()
    counts = dict.fromkeys(legal, 0)
    rng = random.Random(seed)
    trials = trials_per_move * len(legal)
    for _ in range(trials):
        moves: list[int] = []
        game.playout(state, rng, moves)
        counts[moves[0]] += 1
    expected = trials / len(legal)
    return sum((c - expected) ** 2 / expected for c in counts.values()), len(legal) - 1


def find_engine(name: str) -> str:
    """The path of an engine, or a skip — a failure in CI, which must not skip it silently."""
    path = shutil.which(name, path=os.environ.get("PATH", "") + os.pathsep + "/usr/games")
    if path is None:
        message = f"{name} is not installed (Debian: apt-get install {name.split('-')[-1]})"
        if os.environ.get("CI"):
            pytest.fail(f"{message}; CI must run this test")
        pytest.skip(message)
    return path


def running(folder: Path) -> list[str]:
    """Command lines of live processes that name ``folder``."""
    found = []
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            line = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            status = (proc / "status").read_text()
        except OSError:
            continue
        if str(folder) in line and "State:\tZ" not in status:
            found.append(line)
    return found


def cpu_wait() -> float:
    """Seconds this thread has spent ready to run but waiting for a CPU (the second field of
    Linux's ``/proc/thread-self/schedstat``); 0.0 where the system does not say."""
    try:
        with open("/proc/thread-self/schedstat") as stats:
            return int(stats.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


class Stopwatch:
    """The wall seconds since it was made, less those this thread waited meanwhile for a CPU
    it was ready to use: what a search on this thread took, whatever else the machine runs.
    A bound of a move's limit plus the referee's grace then holds on a loaded machine (the
    helpers' CPU share, both test workers compiling), and still fails a search that works
    past its deadline: that work is the thread's own, not waiting."""

    def __init__(self) -> None:
        self.wall, self.waited = time.perf_counter(), cpu_wait()

    def seconds(self) -> float:
        return time.perf_counter() - self.wall - (cpu_wait() - self.waited)
