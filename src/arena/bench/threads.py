"""Search speed per thread count: MCTS simulations/s and ``ids`` nodes/s with 1, 2, ... threads.

``arena bench threads --threads 1,2`` searches the start position of each game
(MCTS: one uniform random rollout per simulation, from the empty board;
``ids``: a fixed time from the game's start, its compiled engine) with every
thread count in turn, ``--rounds`` times interleaved so that a change of the
machine's load falls on every count alike, and prints simulations (nodes)
per second and the ratio to one thread. MCTS runs both ways of sharing the
work (``parallel=tree``: one shared tree; ``parallel=root``: a tree per
thread); ``--parallel`` keeps one. The machine's one-minute load average is
printed before and after: a core the rest of the machine uses is not this
search's to gain. So each row also shows the work per second of processor time
(``cpu``: simulations per CPU second of all threads, relative to the first
count's): the cost of sharing the work (the lock, memory traffic), which the
load does not change; on a machine with the cores free, the speed-up is about
the thread count times it.

Tests: tests/bench/test_threads_bench.py
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from arena.agents import load_agent
from arena.bench.measure import selected
from arena.core.limit import Limit
from arena.games import load_game
from arena.search.clock.deadline import Deadline
from arena.search.mcts import warmup as compiled
from arena.search.mcts.options import MCTSOptions


@dataclass(frozen=True)
class Case:
    spec: str
    ids: bool
    """Whether the game has a compiled alpha-beta engine (``ids``) to measure too."""


CASES = (
    Case("tictactoe", False),
    Case("connect4", True),
    Case("othello", True),
    Case("go:size=5", False),
    Case("go:size=9", False),
    Case("gomoku", True),
    Case("colosseum:size=8", False),
)


def mcts_rate(spec: str, threads: int, parallel: str, seconds: float) -> Callable[[], float]:
    """A search of about ``seconds`` from the start by the compiled MCTS; its simulations/s."""
    game = load_game(spec)
    state = game.initial_state(0)
    options = MCTSOptions(threads=threads, parallel=parallel)
    engine = compiled.fast_engine(options, game, random.Random(1))  # compiled off the clock

    def measure() -> tuple[float, float]:
        engine.reset()
        start, cpu = time.perf_counter(), time.process_time()
        found = engine.search(state, float("inf"), Deadline(seconds, margin=0.0))
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        return found.simulations / wall, found.simulations / max(cpu, 1e-9)

    return measure


def ids_rate(spec: str, threads: int, seconds: float) -> Callable[[], float]:
    """A search of ``seconds`` from the start by ``ids`` (its compiled engine); its nodes/s
    (every thread's nodes)."""
    game = load_game(spec)
    state = game.initial_state(0)
    agent = load_agent(f"ids:threads={threads},exact=0")
    agent.reset(game)

    def measure() -> tuple[float, float]:
        agent.reset(game)  # an empty table: every search does the same work
        start, cpu = time.perf_counter(), time.process_time()
        agent.choose(state, Limit(time=seconds))
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        info = agent.last_search
        nodes = info.nodes if info is not None else 0
        return nodes / wall, nodes / max(cpu, 1e-9)

    return measure


def run(  # type: ignore[no-untyped-def]
    seconds: float,
    only: list[str] | None = None,
    report=print,
    threads: Sequence[int] = (1, 2),
    kinds: Sequence[str] = ("tree", "root", "ids"),
    rounds: int = 3,
) -> dict[str, Any]:
    before = os.getloadavg()[0]
    report(
        f"{os.cpu_count()} cores, load {before:.2f} before; {rounds} rounds of {seconds:g} s "
        f"per figure, thread counts interleaved"
    )
    results: dict[str, Any] = {}
    for case in selected(CASES, only):
        for kind in kinds:
            if kind == "ids" and not case.ids:
                continue
            if kind == "ids":
                measures = {n: ids_rate(case.spec, n, seconds) for n in threads}
            else:
                measures = {n: mcts_rate(case.spec, n, kind, seconds) for n in threads}
            rates = {n: 0.0 for n in threads}
            per_cpu = {n: 0.0 for n in threads}
            for _ in range(rounds):
                for n in threads:
                    wall, cpu = measures[n]()
                    rates[n] += wall / rounds
                    per_cpu[n] += cpu / rounds
            what = "ids nodes/s" if kind == "ids" else f"mcts {kind} sims/s"
            base, base_cpu = rates[threads[0]] or 1.0, per_cpu[threads[0]] or 1.0
            row = "  ".join(
                f"{n}t {rates[n]:>9,.0f} {rates[n] / base:.2f}x (cpu {per_cpu[n] / base_cpu:.2f})"
                for n in threads
            )
            report(f"{case.spec:<18} {what:<16} {row}")
            results.setdefault(case.spec, {})[kind] = {
                str(n): {"per_second": round(rates[n], 1), "per_cpu_second": round(per_cpu[n], 1)}
                for n in threads
            }
    after = os.getloadavg()[0]
    report(f"load {after:.2f} after")
    return {"load": [round(before, 2), round(after, 2)], "rates": results}
