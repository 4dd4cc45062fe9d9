"""Time safety: do agents answer within ``Limit.time``? Many moves, every game.

Each agent answers positions taken from random games of every game, at
limits from 20 ms to 1 s; the benchmark counts the moves that took longer
than the limit (the target is none) and the distribution of time used over
time allowed. It runs minutes by design: overruns are rare events.

Every built-in agent is timed by default (``human`` aside; ``az`` on the games a
network ships for). Each move is a new
agent, started on its game off the clock as a match starts it (``reset``), so
each agent's first move on each game in the process is a cold one (its
compiled code loaded, its tables new): those moves are counted apart too
(``cold``). ``threads``: every search whose spec does not say ``threads=`` searches
on that many threads (``mcts``, ``ids``, ``best``: the parallel searches must keep time
too). An agent that cannot play a game (a student's Othello agent on
Connect Four) is left out of that game with one line, or stops the run with
one line when the game was asked for by name (``games`` given).

Tests: tests/bench/test_bench_timing.py, tests/cli/test_cli.py
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from arena.agents import load_agent
from arena.core.agent import start_game
from arena.core.crash import crash_text
from arena.core.errors import ArenaError
from arena.core.game import State
from arena.core.limit import Limit
from arena.games import load_game
from arena.search.threads import threads_by_default

GAMES = ("tictactoe", "connect4", "othello", "gomoku", "go:size=9", "go:size=19", "colosseum")
AGENTS = (
    "random",
    "greedy",
    "minimax",
    "alphabeta:depth=12",
    "ids",
    "mcts",
    "mcts:expand=all,rollout=heuristic",
    "solver",
    "az",  # the network shipped for the game (Connect Four, Othello 6x6): left out of others
    "best",  # what users play: ids, the solver, and Go's MC-RAVE with tactical rollouts
)
# Limits and their share of the moves: short limits get most moves, so the whole run
# spends a comparable time at each limit.
LIMITS = ((0.02, 0.60), (0.05, 0.24), (0.1, 0.10), (0.2, 0.04), (0.5, 0.012), (1.0, 0.008))


def limits_for(times: Sequence[float] | None) -> tuple[tuple[float, float], ...]:
    """The limits and their shares of the moves: :data:`LIMITS`, or ``times`` in equal shares.

    >>> limits_for([0.05])
    ((0.05, 1.0),)
    >>> limits_for(None) == LIMITS
    True
    """
    if not times:
        return LIMITS
    return tuple((t, 1.0 / len(times)) for t in sorted(set(times)))


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


class Pairs:
    """The (agent, game) pairs in turn, games varying fastest, less those an agent
    cannot play."""

    def __init__(self, agents: Sequence[str], games: Sequence[str]) -> None:
        self.pairs = [(a, g) for a in agents for g in games]
        self.unplayable: dict[tuple[str, str], str] = {}
        self.next = 0

    def take(self) -> tuple[str, str]:
        for _ in range(len(self.pairs)):
            pair = self.pairs[self.next % len(self.pairs)]
            self.next += 1
            if pair not in self.unplayable:
                return pair
        raise ArenaError("no agent can play any of the games: " + self.reasons())

    def reasons(self) -> str:
        return "; ".join(f"{a} on {g}: {why}" for (a, g), why in self.unplayable.items())


def answer(agent_spec: str, state: State, limit: float) -> float:
    """Seconds ``agent_spec`` (a new agent, started off the clock) takes to answer ``state``."""
    agent = load_agent(agent_spec)
    start_game(agent, state.game)  # as a match does, before the clock starts
    start = time.perf_counter()
    agent.choose(state, Limit(time=limit))
    return time.perf_counter() - start


def run(
    moves: int,
    seed: int = 0,
    report: Callable[[str], None] = print,
    agents: Sequence[str] = AGENTS,
    games: Sequence[str] | None = None,
    times: Sequence[float] | None = None,
    threads: int | None = None,
) -> dict[str, Any]:
    """Time ``moves`` moves (see the module). ``games``: these game specs instead of
    :data:`GAMES`, each of which every agent must play; ``times``: these limits (seconds)
    in equal shares instead of :data:`LIMITS`; ``threads``: the searches' threads where a
    spec does not say (else the default: the cores free)."""
    if threads is not None:
        report(f"every search on {threads} thread(s) unless its spec says threads=")
    with threads_by_default(threads):
        result = _timed(moves, seed, report, agents, games, times)
    result["threads"] = threads
    return result


def _timed(
    moves: int,
    seed: int,
    report: Callable[[str], None],
    agents: Sequence[str],
    games: Sequence[str] | None,
    times: Sequence[float] | None,
) -> dict[str, Any]:
    """:func:`run` under its threads."""
    named = games is not None
    specs = tuple(games) if games else GAMES
    for spec in specs:
        load_game(spec)  # a bad spec is one line, before any move is timed
    rng = random.Random(seed)
    ratios: list[float] = []
    overruns: list[dict[str, Any]] = []
    per_limit: dict[float, list[float]] = {}
    cold: list[float] = []
    cold_overruns = 0
    seen: set[tuple[str, str]] = set()
    limits = limits_for(times)
    plan = [(limit, max(1, round(moves * share))) for limit, share in limits]
    total = sum(n for _, n in plan)
    done = 0
    started = time.perf_counter()
    turns = Pairs(agents, specs)
    # Each random game gives three positions, used in turn (a Go 19x19 game takes 0.2 s).
    pools: dict[str, list[State]] = {}
    for limit, count in plan:
        timed = 0
        while timed < count:
            agent_spec, spec = turns.take()
            pool = pools.setdefault(spec, [])
            if not pool:
                pool.extend(positions(spec, 3, rng))
            state = pool.pop()
            try:
                spent = answer(agent_spec, state, limit)
            except Exception as exc:  # the agent's own failure: it cannot play this game
                why = crash_text(exc) if not isinstance(exc, ArenaError) else str(exc)
                if named:
                    raise ArenaError(f"{agent_spec} cannot play {spec}: {why}") from None
                turns.unplayable[(agent_spec, spec)] = why
                report(f"skipped: {agent_spec} cannot play {spec} ({why})")
                continue
            timed += 1
            ratio = spent / limit
            ratios.append(ratio)
            per_limit.setdefault(limit, []).append(ratio)
            first = (agent_spec, spec) not in seen
            if first:
                seen.add((agent_spec, spec))
                cold.append(ratio)
            if spent > limit:
                cold_overruns += first
                overruns.append(
                    {
                        "game": spec,
                        "agent": agent_spec,
                        "limit": limit,
                        "seconds": round(spent, 4),
                        "cold": first,
                    }
                )
                report(
                    f"overrun: {agent_spec} on {spec}: {spent * 1000:.1f} ms "
                    f"for {limit * 1000:.0f} ms{' (its first move on the game)' if first else ''}"
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
                "p50": round(percentile(sorted(v), 0.5), 4),
                "p99": round(percentile(sorted(v), 0.99), 4),
                "max": round(max(v), 4),
            }
            for limit, v in per_limit.items()
        },
        "cold": {
            "moves": len(cold),
            "overruns": cold_overruns,
            "max": round(max(cold), 4) if cold else 0.0,
        },
        "skipped": [
            {"agent": a, "game": g, "reason": why} for (a, g), why in turns.unplayable.items()
        ],
    }
    report(
        f"{done} moves over {len(specs)} games and {len(agents)} agents at limits "
        f"{', '.join(f'{x * 1000:g} ms' for x, _ in limits)}"
    )
    report(
        f"overruns: {len(overruns)}; time used / limit: p50 {result['used_over_limit']['p50']:.3f}"
        f"  p99 {result['used_over_limit']['p99']:.3f}  max {result['used_over_limit']['max']:.3f}"
    )
    for limit, row in result["by_limit"].items():
        report(
            f"  {float(limit) * 1000:>6g} ms: {row['moves']:>5} moves, p50 {row['p50']:.3f}, "
            f"p99 {row['p99']:.3f}, max {row['max']:.3f}"
        )
    report(
        f"cold (each agent's first move on each game): {len(cold)} moves, "
        f"{cold_overruns} overruns, max {result['cold']['max']:.3f}"
    )
    if turns.unplayable:
        report(f"left out (cannot play): {', '.join(f'{a} on {g}' for a, g in turns.unplayable)}")
    return result
