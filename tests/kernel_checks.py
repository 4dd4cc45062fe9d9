"""Checks of a compiled game kernel (``games/<game>/kernel.py``) against the State API.

Every game's kernel test can use these: move-for-move agreement along random
games, perft, the exact law of the random playout (chi-squared), that
rollouts only reach reachable ends, and a run of the same checks with
``NUMBA_DISABLE_JIT=1`` in a subprocess.
"""

from __future__ import annotations

import hashlib
import os
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Hashable
from fractions import Fraction
from importlib import import_module
from pathlib import Path
from typing import Any

import numpy as np

from arena.core.game import Game, State
from arena.core.kernel import ONGOING, Kernel
from arena.core.perft import perft
from arena.games import load_game
from helpers import chi2_limit

Key = Callable[[Any], Hashable]


def load_kernel(spec: str | Game) -> tuple[Game, Kernel]:
    """The game and its kernel (``arena.games.<name>.kernel.kernel(game)``)."""
    game = load_game(spec)
    return game, import_module(f"arena.games.{game.name}.kernel").kernel(game)


def expected_outcome(state: State) -> int:
    return state.returns()[0] if state.is_terminal() else ONGOING


def compare_random_games(
    game: Game, kernel: Kernel, games: int, seed: int = 0, same_encoding: bool = True
) -> int:
    """Play ``games`` random games with the State API and the kernel side by side;
    at every ply legal moves (same order), to_move and outcome must agree, and with
    ``same_encoding`` the kernel's position must equal ``encode`` of the state.
    Returns the number of plies checked."""
    rng = random.Random(seed)
    p, f = kernel.params, kernel.functions
    out = np.empty(kernel.max_moves, np.int64)
    plies = 0
    for number in range(games):
        state = game.initial_state(rng.randrange(1 << 30))
        s = kernel.encode(state)
        line: list[int] = []
        while True:
            where = f"{game.spec} game {number} after {line}"
            n = f["legal_moves"](p, s, out)
            legal = state.legal_moves()
            assert tuple(out[:n].tolist()) == legal, where
            assert f["to_move"](p, s) == state.to_move, where
            assert f["outcome"](p, s) == expected_outcome(state), where
            if same_encoding:
                assert np.array_equal(s, kernel.encode(state)), where
            plies += 1
            if state.is_terminal():
                break
            move = rng.choice(legal)
            line.append(move)
            state = state.play(move)
            f["play"](p, s, move)
    return plies


def perfts(kernel: Kernel, state: State, depth: int) -> list[int]:
    """The kernel's perft for depths 1..depth."""
    return [kernel.perft(state, d) for d in range(1, depth + 1)]


def final_law(state: State) -> dict[State, Fraction]:
    """The exact law of the end position of a uniformly random playout from ``state``."""
    memo: dict[State, dict[State, Fraction]] = {}

    def law(s: State) -> dict[State, Fraction]:
        if s.is_terminal():
            return {s: Fraction(1)}
        known = memo.get(s)
        if known is not None:
            return known
        moves = s.legal_moves()
        total: dict[State, Fraction] = {}
        for move in moves:
            for end, q in law(s.play(move)).items():
                total[end] = total.get(end, Fraction(0)) + q / len(moves)
        memo[s] = total
        return total

    return law(state)


def end_counts(
    kernel: Kernel, state: State, function: str, trials: int, seed: int, key: Key = tuple
) -> Counter[Hashable]:
    """How often ``function`` (playout or rollout) ends in each position, by ``key(s)``."""
    p, f = kernel.params, kernel.functions
    f["seed"](seed)
    start = kernel.encode(state)
    counts: Counter[Hashable] = Counter()
    for _ in range(trials):
        s = start.copy()
        result = f[function](p, s)
        assert result == f["outcome"](p, s) != ONGOING, "the playout stopped before the end"
        counts[key(s)] += 1
    return counts


def playout_law_chi2(
    kernel: Kernel, state: State, trials: int, seed: int, key: Key = tuple
) -> tuple[float, int]:
    """(chi-squared, degrees of freedom) of the kernel playout's end positions against
    the exact law of uniformly random play (ends with expected counts below 5 pooled).
    An end outside the law's support fails at once."""
    law = {key(kernel.encode(end)): q for end, q in final_law(state).items()}
    counts = end_counts(kernel, state, "playout", trials, seed, key)
    impossible = set(counts) - set(law)
    assert not impossible, f"{len(impossible)} end positions that random play cannot reach"
    chi2, df, pooled_observed, pooled_expected = 0.0, -1, 0, 0.0
    for end, q in law.items():
        expected = float(q) * trials
        if expected < 5:
            pooled_observed += counts[end]
            pooled_expected += expected
            continue
        chi2 += (counts[end] - expected) ** 2 / expected
        df += 1
    if pooled_expected > 0:
        chi2 += (pooled_observed - pooled_expected) ** 2 / pooled_expected
        df += 1
    return chi2, df


def assert_playout_uniform(
    kernel: Kernel, state: State, trials: int, seed: int = 0, key: Key = tuple
) -> None:
    chi2, df = playout_law_chi2(kernel, state, trials, seed, key)
    assert df >= 1, "pick a start with more than one possible end"
    assert chi2 < chi2_limit(df), f"chi2={chi2:.1f} > {chi2_limit(df):.1f} (df={df})"


def assert_rollout_reachable(
    kernel: Kernel, state: State, trials: int, seed: int = 0, key: Key = tuple
) -> Counter[Hashable]:
    """Every end a rollout reaches is an end of some legal continuation; returns the counts."""
    support = {key(kernel.encode(end)) for end in final_law(state)}
    counts = end_counts(kernel, state, "rollout", trials, seed, key)
    assert set(counts) <= support, "the rollout reached a position no legal game reaches"
    return counts


def random_start(game: Game, accept: Callable[[State], bool], seed: int) -> State:
    """The first non-terminal state along random games for which ``accept`` holds
    (e.g. a few empty cells left, so :func:`final_law` stays small)."""
    rng = random.Random(seed)
    while True:
        state = game.initial_state(rng.randrange(1 << 30))
        while not state.is_terminal():
            if accept(state):
                return state
            state = state.play(rng.choice(state.legal_moves()))


def seeded_ends(game: Game, kernel: Kernel, function: str, trials: int, seed: int) -> str:
    """A digest of the end positions of ``trials`` seeded runs of ``function`` from the
    initial state (equal with and without JIT when both draw the same random numbers)."""
    p, f = kernel.params, kernel.functions
    f["seed"](seed)
    digest = hashlib.sha256()
    for _ in range(trials):
        s = kernel.encode(game.initial_state(seed))
        f[function](p, s)
        digest.update(s.astype("<i8").tobytes())
    return digest.hexdigest()[:16]


def run_without_jit(code: str, timeout: float = 240) -> str:
    """Run ``code`` (Python, with ``tests/`` importable) in a subprocess with
    ``NUMBA_DISABLE_JIT=1``; fail with its stderr unless it exits 0. Returns stdout."""
    tests = Path(__file__).parent
    paths = [str(tests.parent / "src"), str(tests), os.environ.get("PYTHONPATH", "")]
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "PYTHONPATH": os.pathsep.join(paths)}
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=timeout
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def assert_perft_matches_reference(spec: str, ply: int, depth: int) -> None:
    """From a random position at ``ply`` (seeded by ``ply``), the kernel's perft equals
    ``arena.perft`` at every depth up to ``depth``."""
    game, kernel = load_kernel(spec)
    state = random_start(game, lambda s: s.ply == ply, seed=ply)
    reference = [perft(state, d) for d in range(1, depth + 1)]
    assert perfts(kernel, state, depth) == reference
