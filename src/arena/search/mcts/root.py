"""The root of an MCTS search as plain statistics, the move it plays, and its report.

Both engines (the python reference and the compiled search) end a search with
a :class:`RootStats`; the final choice and the ``last_search`` report are
computed from it here, once, so the two engines answer alike.

Tests: ``tests/search/test_mcts.py``, ``tests/search/test_fast_mcts.py``.

>>> import random
>>> stats = RootStats(moves=[4, 0], visits=[70, 30], wins=[40.0, 21.0],
...                   proven=[Proof.UNKNOWN] * 2, total=100)
>>> final_move(stats, True, random.Random(0)), final_move(stats, False, random.Random(0))
(4, 0)
"""

from __future__ import annotations

import math
import random
from typing import NamedTuple

from arena.core.agent import SearchInfo
from arena.core.game import Game
from arena.search.mcts.tree import Proof


class RootStats(NamedTuple):
    """Every root move with its visits, wins (win 1, draw 1/2, for the player to move)
    and proof, in legal-move order. (Named tuples, this and :class:`Searched`: made in one
    step where a frozen dataclass sets each field by a call, on every move's clock.)"""

    moves: list[int]
    visits: list[int]
    wins: list[float]
    proven: list[Proof]
    total: int
    """The root's visits: the sum of its children's (+1 for a kept root's own simulation)."""
    wins_at_once: int | None = None
    """A move whose added child is a finished game won by the player to move."""


class Searched(NamedTuple):
    """What one search of an engine found."""

    stats: RootStats
    simulations: int
    depth: int
    pv: list[int]
    engine: str
    """``python`` or ``fast``: the engine that searched."""


def final_move(stats: RootStats, robust: bool, rng: random.Random) -> int:
    """The move to play: a proven win, a win at once, else the most visited (robust) or best
    rate (max) among moves not proven lost, ties broken at random."""
    moves, visits, wins, proven = stats.moves, stats.visits, stats.wins, stats.proven
    if Proof.WON in proven:
        return moves[proven.index(Proof.WON)]
    # A move that wins at once is known exactly, solver or not: never pass it up.
    if stats.wins_at_once is not None:
        return stats.wins_at_once
    candidates = [i for i in range(len(moves)) if proven[i] != Proof.LOST and visits[i]]
    if not candidates:
        candidates = [i for i in range(len(moves)) if visits[i]] or list(range(len(moves)))
    # The keys made in one pass (a draw each, in the candidates' order), then the first
    # largest: what ``max`` with a key function gives, without a Python call per move.
    draw = rng.random
    if robust:
        keys = [(visits[i], wins[i], draw()) for i in candidates]
    else:
        keys = [(wins[i] / visits[i] if visits[i] else -1, visits[i], draw()) for i in candidates]
    return moves[candidates[keys.index(max(keys))]]


_PROOF_TEXT = {Proof.UNKNOWN: "", Proof.WON: "win", Proof.LOST: "loss", Proof.DRAWN: "draw"}


def search_info(
    stats: RootStats,
    game: Game,
    c: float,
    seconds: float,
    depth: int,
    simulations: int,
    pv: list[int],
    engine: str | None = None,
) -> SearchInfo:
    """The ``last_search`` report: root moves by visits with win rate and UCB, the principal
    variation on the first row, depth and simulations."""
    visits, wins = stats.visits, stats.wins
    log_total = math.log(stats.total) if stats.total > 1 else 0.0
    order = sorted(range(len(stats.moves)), key=lambda i: (-visits[i], -wins[i]))
    rows = []
    for rank, i in enumerate(order, 1):
        n = visits[i]
        rate = wins[i] / n if n else None
        rows.append(
            {
                "move": game.format_move(stats.moves[i]),
                "visits": n,
                "win_rate": None if rate is None else round(rate, 4),
                "ucb": None if rate is None else round(rate + c * math.sqrt(log_total / n), 4),
                "rank": rank,
                "proven": _PROOF_TEXT[Proof(stats.proven[i])],
            }
        )
    if rows:
        rows[0]["pv"] = [game.format_move(m) for m in pv]
    best = order[0] if order else None
    value = wins[best] / visits[best] if best is not None and visits[best] else None
    return SearchInfo(
        seconds=seconds, depth=depth, nodes=simulations, value=value, root=rows, engine=engine
    )
