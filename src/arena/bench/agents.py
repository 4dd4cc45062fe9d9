"""Search speed: MCTS simulations per second and alpha-beta nodes per second.

MCTS is measured from the empty board with one uniform random rollout per
simulation, the same work OpenSpiel's Python ``MCTSBot`` does with a
``RandomRolloutEvaluator(n_rollouts=1)``; both are run in this process, one
after the other, with the same number of simulations.

Alpha-beta is measured as nodes per second at a fixed depth from the start
position. On Connect Four it is also timed against easyAI's ``Negamax`` at
the same depth 6 (easyAI's own Connect Four, which scores only wins and
losses, so ours runs with ``eval=utility`` for the like-for-like ratio and
with its defaults — heuristic, table, ordering — for the figure users get).

Tests: tests/cli/test_cli.py
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from arena.agents import load_agent
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


def our_mcts(spec: str, seconds: float) -> tuple[float, int]:
    """Simulations per second of ``mcts`` from the start, and the count used."""
    game = load_game(spec)
    state = game.initial_state(0)
    sims = 200
    while True:  # grow the budget until one search takes about the measuring time
        agent = load_agent(f"mcts:rollouts={sims},seed=1")
        start = time.perf_counter()
        agent.choose(state, Limit())
        spent = time.perf_counter() - start
        if spent >= seconds or sims >= 1_000_000:
            return agent.last_search.nodes / spent, sims
        sims = int(sims * min(10.0, max(2.0, seconds / max(spent, 1e-3))))


def openspiel_mcts(name: str, sims: int) -> float:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game(name)
    rng = np.random.RandomState(1)
    bot = mcts.MCTSBot(
        game,
        uct_c=2**0.5,
        max_simulations=sims,
        evaluator=mcts.RandomRolloutEvaluator(1, rng),
        random_state=rng,
        solve=False,
    )
    state = game.new_initial_state()
    start = time.perf_counter()
    bot.step(state)
    return sims / (time.perf_counter() - start)


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


def available(module: str) -> bool:
    try:
        __import__(module)
    except ImportError:
        return False
    return True


def run(seconds: float, only: list[str] | None = None, report=print) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    spiel = available("pyspiel")
    result: dict[str, Any] = {"mcts_sims_per_s": {}, "alphabeta_nodes_per_s": {}}
    if spiel:
        result["openspiel_python_mcts_sims_per_s"] = {}
        result["mcts_ratio"] = {}
    cases = [c for c in CASES if not only or c.spec in only or c.spec.split(":")[0] in only]
    report(
        f"{'game':<18}{'mcts sims/s':>13}"
        + (f"{'OpenSpiel':>11}{'ratio':>8}" if spiel else "")
        + f"{'alpha-beta':>13}  depth"
    )
    random.seed(0)
    for case in cases:
        sims_per_s, sims = our_mcts(case.spec, seconds)
        result["mcts_sims_per_s"][case.spec] = round(sims_per_s, 1)
        line = f"{case.spec:<18}{sims_per_s:>11,.0f}/s"
        if spiel:
            if case.openspiel:
                theirs = openspiel_mcts(case.openspiel, max(100, sims // 3))
                result["openspiel_python_mcts_sims_per_s"][case.spec] = round(theirs, 1)
                result["mcts_ratio"][case.spec] = round(sims_per_s / theirs, 2)
                line += f"{theirs:>9,.0f}/s{sims_per_s / theirs:>7.2f}x"
            else:
                line += f"{'-':>11}{'-':>8}"
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
