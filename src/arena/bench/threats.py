"""Gomoku's threat search (VCF and VCT): nodes per second, scanning near the stones and
scanning the whole board, in one run.

``arena bench threats`` draws ``--positions`` positions of clustered stones (each stone
next to one placed before, as in play: random games over the whole board seldom make a
three) and runs the compiled threat search of ``engines.gomoku.threats`` from each, as the
engine's threat thread does (VCF, then VCT with up to three threes, for the side to move)
and as its look at the opponent's threats does (for the other side, two threes), within
``--nodes`` nodes a search. Every search runs twice, interleaved: scanning only near the
stones (the engine's; ``rule[R_NEAR] = 1``) and scanning the whole board (the reference,
0). Both must search the same nodes and find the same wins: a difference is printed and
makes the exit status 1. The figures are nodes per second of each and their ratio, with
the machine's load before and after.

Tests: tests/bench/test_bench_threats.py
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable
from typing import Any

from arena.core.game import Game, State
from arena.games import load_game
from arena.search.alphabeta.engines.gomoku.threats import R_NEAR, ThreatSearch

SEARCHES = ((3, False), (2, True))
"""Each position's searches: (threes, for the opponent of the side to move)."""


def clustered(game: Game, count: int, seed: int) -> list[tuple[State, list[int]]]:
    """``count`` positions of 8-30 stones, each placed next to one before it, with the
    moves that made them."""
    rng = random.Random(seed)
    size = game.rows  # type: ignore[attr-defined]
    centre = (size // 2) * size + size // 2
    out: list[tuple[State, list[int]]] = []
    while len(out) < count:
        state = game.play_moves([centre])
        placed = [centre]
        for _ in range(rng.randrange(7, 30)):
            r, c = divmod(rng.choice(placed), size)
            r, c = r + rng.randrange(-1, 2), c + rng.randrange(-1, 2)
            cell = r * size + c
            if 0 <= r < size and 0 <= c < size and state.stone(cell) is None:  # type: ignore[attr-defined]
                state = state.play(cell)
                placed.append(cell)
                if state.is_terminal():
                    break
        if not state.is_terminal():
            out.append((state, placed))
    return out


def run(
    positions: int = 200,
    nodes: int = 2000,
    seed: int = 0,
    report: Callable[[str], None] = print,
) -> dict[str, Any]:
    game = load_game("gomoku")
    near, whole = ThreatSearch(game), ThreatSearch(game)
    whole.rule[R_NEAR] = 0
    states = clustered(game, positions, seed)
    before = os.getloadavg()[0]
    report(
        f"{os.cpu_count()} cores, load {before:.2f} before; {len(states)} positions "
        f"(seed {seed}), {len(SEARCHES)} searches each, at most {nodes:,} nodes a search"
    )
    seconds = {"near": 0.0, "whole": 0.0}
    total = wins = differ = 0
    for state, moves in states:
        for threes, other in SEARCHES:
            attacker = 1 - state.to_move if other else None
            found = {}
            for name, search in (("near", near), ("whole", whole)):
                start = time.perf_counter()
                result = search.search(state, threes, None, attacker=attacker, nodes=nodes)
                seconds[name] += time.perf_counter() - start
                found[name] = (None if result is None else (result.move, result.kind), search.nodes)
            total += near.nodes
            wins += found["near"][0] is not None
            if found["near"] != found["whole"]:
                differ += 1
                line = " ".join(game.format_move(m) for m in moves)
                report(f"differs after {line} (threes {threes}, other {other}): {found}")
    rate = {name: total / max(s, 1e-9) for name, s in seconds.items()}
    report(
        f"{total:,} nodes, {wins} wins found; near the stones {rate['near']:,.0f} nodes/s, "
        f"the whole board {rate['whole']:,.0f} nodes/s: {rate['near'] / rate['whole']:.2f}x"
    )
    after = os.getloadavg()[0]
    report(f"load {after:.2f} after; {differ} searches differ")
    return {
        "positions": len(states),
        "nodes": total,
        "wins": wins,
        "per_second": {name: round(r, 1) for name, r in rate.items()},
        "ratio": round(rate["near"] / rate["whole"], 3),
        "differ": differ,
        "load": [round(before, 2), round(after, 2)],
    }
