"""Time safety: do agents answer within ``Limit.time``? Many moves, every game.

Each agent answers positions taken from random games of every game, at
limits from 20 ms to 1 s; the benchmark counts the moves that took longer
than the limit (the target is none) and the distribution of time used over
time allowed. It runs minutes by design: overruns are rare events.

Tests: tests/cli/test_cli.py
"""

from __future__ import annotations

import random
import time
from typing import Any

from arena.agents import load_agent
from arena.core.agent import start_game
from arena.core.game import State
from arena.core.limit import Limit
from arena.games import load_game

GAMES = ("tictactoe", "connect4", "othello", "gomoku", "go:size=9", "go:size=19", "colosseum")
AGENTS = (
    "ids",
    "mcts",
    "mcts:expand=all,rollout=heuristic",
    "alphabeta:depth=12",
    "greedy",
    "best",  # what users play: ids, the solver, and Go's MC-RAVE with tactical rollouts
)
# Limits and their share of the moves: short limits get most moves, so the whole run
# spends a comparable time at each limit.
LIMITS = ((0.02, 0.60), (0.05, 0.24), (0.1, 0.10), (0.2, 0.04), (0.5, 0.012), (1.0, 0.008))


def positions(spec: str, count: int, rng: random.Random) -> list[State]:
    game = load_game(spec)
    out: list[State] = []
    while len(out) < count:
        state = game.initial_state(rng.randrange(1 << 20))
        line = []
        while not state.is_terminal():
            line.append(state)
            state = state.play(rng.choice(state.legal_moves()))
        out.extend(rng.sample(line, min(len(line), 3)))
    return out[:count]


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return 0.0
    index = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[index]


def run(
    moves: int, seed: int = 0, report=print, agents: tuple[str, ...] = AGENTS
) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    ratios: list[float] = []
    overruns: list[dict[str, Any]] = []
    per_limit: dict[float, list[float]] = {}
    plan = [(limit, max(1, round(moves * share))) for limit, share in LIMITS]
    total = sum(n for _, n in plan)
    done = 0
    started = time.perf_counter()
    # Each random game gives three positions, used in turn (a Go 19x19 game takes 0.2 s).
    pools: dict[str, list[State]] = {}
    for limit, count in plan:
        for i in range(count):
            spec = GAMES[i % len(GAMES)]
            agent_spec = agents[(i // len(GAMES)) % len(agents)]
            pool = pools.setdefault(spec, [])
            if not pool:
                pool.extend(positions(spec, 3, rng))
            state = pool.pop()
            agent = load_agent(agent_spec)
            start_game(agent, state.game)  # as a match does, before the clock starts
            start = time.perf_counter()
            agent.choose(state, Limit(time=limit))
            spent = time.perf_counter() - start
            ratio = spent / limit
            ratios.append(ratio)
            per_limit.setdefault(limit, []).append(ratio)
            if spent > limit:
                overruns.append(
                    {"game": spec, "agent": agent_spec, "limit": limit, "seconds": round(spent, 4)}
                )
                report(
                    f"overrun: {agent_spec} on {spec}: {spent * 1000:.1f} ms "
                    f"for {limit * 1000:.0f} ms"
                )
            done += 1
            if done % 500 == 0:
                report(
                    f"{done}/{total} moves, {len(overruns)} overruns, "
                    f"{time.perf_counter() - started:.0f} s"
                )
    ratios.sort()
    result = {
        "moves": done,
        "overruns": len(overruns),
        "overrun_moves": overruns[:50],
        "used_over_limit": {
            "p50": round(percentile(ratios, 0.5), 4),
            "p99": round(percentile(ratios, 0.99), 4),
            "max": round(ratios[-1], 4) if ratios else 0.0,
        },
        "by_limit": {
            f"{limit:g}": {
                "moves": len(v),
                "p99": round(percentile(sorted(v), 0.99), 4),
                "max": round(max(v), 4),
            }
            for limit, v in per_limit.items()
        },
    }
    report(
        f"{done} moves over {len(GAMES)} games and {len(agents)} agents at limits "
        f"{', '.join(f'{x * 1000:g} ms' for x, _ in LIMITS)}"
    )
    report(
        f"overruns: {len(overruns)}; time used / limit: p50 {result['used_over_limit']['p50']:.3f}"
        f"  p99 {result['used_over_limit']['p99']:.3f}  max {result['used_over_limit']['max']:.3f}"
    )
    for limit, row in result["by_limit"].items():
        report(
            f"  {float(limit) * 1000:>6g} ms: {row['moves']:>5} moves, p99 {row['p99']:.3f}, "
            f"max {row['max']:.3f}"
        )
    return result
