"""Random playouts per second for every game, and OpenSpiel's C++ games driven from Python.

OpenSpiel is measured with two loops, because the choice of loop moves its
figure by a factor of three to five:

* ``numpy``: ``state.apply_action(np_random.choice(state.legal_actions()))`` — the
  loop of OpenSpiel's own Python ``RandomRolloutEvaluator``, the reference the
  targets in our issues were set against;
* ``python``: the same with ``random.Random.choice``, the fastest plain loop.

Our figure is ``Game.playout`` from the initial state: uniformly random legal
moves to the end under the same rules (Go: passes are moves, game length capped
at 2·size², as OpenSpiel's default). For games with a compiled kernel
(``games/<game>/kernel.py``), the ``kernel`` column is its ``playout`` run in
batches from compiled code, as a compiled search calls it, and ``×`` its ratio
to ``Game.playout``; compilation happens (or the disk cache loads) before the
measurement starts.

Tests: tests/cli/test_cli.py
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from arena.bench.measure import available, rate, selected
from arena.core.kernel import kernel_playouts
from arena.games import load_game, load_kernel


@dataclass(frozen=True)
class Case:
    spec: str
    openspiel: str | None


CASES = (
    Case("tictactoe", "tic_tac_toe"),
    Case("connect4", "connect_four"),
    Case("othello", "othello"),
    Case("go:size=5", "go(board_size=5,komi=7.5)"),
    Case("go:size=9", "go(board_size=9,komi=7.5)"),
    Case("gomoku", "gomoku"),
    Case("colosseum:size=8", None),
)


def ours(spec: str, seconds: float, seed: int = 0) -> float:
    game = load_game(spec)
    start = game.initial_state(seed)
    rng = random.Random(seed)
    playout = game.playout
    return rate(lambda: playout(start, rng), seconds)


def kernel_rate(spec: str, seconds: float, seed: int = 0) -> float | None:
    """Compiled kernel playouts per second from the initial state (None: no kernel)."""
    game = load_game(spec)
    kernel = load_kernel(game)
    if kernel is None:
        return None
    p, s = kernel.params, kernel.encode(game.initial_state(seed))
    playout = kernel.functions["playout"]
    kernel.functions["seed"](seed)
    # Batches long enough that the call from Python costs nothing, short enough for ``rate``.
    batch = max(1, 200_000 // kernel.max_plies)
    return rate(lambda: kernel_playouts(playout, p, s, batch), seconds) * batch


def openspiel_loops(name: str, seconds: float, seed: int = 0) -> dict[str, float]:
    import numpy as np
    import pyspiel

    game = pyspiel.load_game(name)
    np_random = np.random.RandomState(seed)
    py_random = random.Random(seed)

    def with_numpy() -> None:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(np_random.choice(state.legal_actions()))

    def with_python() -> None:
        state = game.new_initial_state()
        choice = py_random.choice
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))

    return {"numpy": rate(with_numpy, seconds), "python": rate(with_python, seconds)}


def run(seconds: float, only: list[str] | None = None, report=print) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    """Measure every case; ``report`` receives one line per game as it finishes."""
    spiel = available("numpy", "pyspiel")
    result: dict[str, Any] = {
        "playouts_per_s": {},
        "kernel_playouts_per_s": {},
        "kernel_ratio": {},
        "seconds_per_measure": seconds,
    }
    if spiel:
        result["openspiel_playouts_per_s"] = {}
        result["openspiel_python_random_playouts_per_s"] = {}
        result["ratio"] = {}
        result["ratio_vs_python_random"] = {}
    cases = selected(CASES, only)
    report(
        f"{'game':<18}{'arena':>11}{'kernel':>13}{'×':>7}"
        + (f"{'OpenSpiel':>12}{'ratio':>8}{'OS(py rng)':>12}{'ratio':>8}" if spiel else "")
    )
    for case in cases:
        mine = ours(case.spec, seconds)
        result["playouts_per_s"][case.spec] = round(mine, 1)
        line = f"{case.spec:<18}{mine:>9,.0f}/s"
        compiled = kernel_rate(case.spec, seconds)
        if compiled is None:
            line += f"{'-':>13}{'':>7}"
        else:
            result["kernel_playouts_per_s"][case.spec] = round(compiled, 1)
            result["kernel_ratio"][case.spec] = round(compiled / mine, 1)
            line += f"{compiled:>11,.0f}/s{compiled / mine:>6.1f}x"
        if spiel and case.openspiel:
            theirs = openspiel_loops(case.openspiel, seconds)
            result["openspiel_playouts_per_s"][case.spec] = round(theirs["numpy"], 1)
            result["openspiel_python_random_playouts_per_s"][case.spec] = round(theirs["python"], 1)
            result["ratio"][case.spec] = round(mine / theirs["numpy"], 2)
            result["ratio_vs_python_random"][case.spec] = round(mine / theirs["python"], 2)
            line += (
                f"{theirs['numpy']:>10,.0f}/s{mine / theirs['numpy']:>7.2f}x"
                f"{theirs['python']:>10,.0f}/s{mine / theirs['python']:>7.2f}x"
            )
        report(line)
    if not spiel:
        report("OpenSpiel is not installed: pip install -e '.[bench]' to compare with it")
    return result
