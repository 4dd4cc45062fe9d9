"""When a Monte-Carlo search on a game clock stops: before its time, or after it.

:func:`~arena.search.clock.time_management.move_time` gives a move its share of the
clock. A search that plays its most visited move can often tell sooner that more
simulations would not change the choice, and sometimes that its choice is still in
doubt when the share runs out. Two rules from Huang, Coulom and Lin (*Time management for
Monte-Carlo tree search applied to the game of Go*, TAAI 2010), where together they were
worth more than doubling a fixed share:

- :func:`settled` ("early stop"): the most visited move leads the second by more
  visits than the rest of the share can give, at the rate the search has run so far;
  the search stops and saves the rest of the clock for later moves.
- :func:`unstable` ("UNST"): when the share is spent, the most visited move is not the
  one with the best win rate (among moves visited enough to tell); the search goes on,
  up to :data:`EXTEND` of the share more, until it is again or the time runs out.

:func:`extended` is the longest a search may run under them: the share and
:data:`EXTEND` of it, never past what ``move_time``'s ceiling allows. These rules are
the clock's part of ``mcts:manage=1`` (:mod:`arena.search.mcts.agent`).

>>> settled(first=900, second=300, done=1_000, elapsed=0.8, allotted=1.0)  # 600 > 250 more
True
>>> settled(first=900, second=700, done=1_000, elapsed=0.8, allotted=1.0)
False
>>> unstable([500, 450, 3], [0.50, 0.56, 1.0])  # the 3-visit move is too thin to count
True
>>> unstable([500, 450, 3], [0.56, 0.50, 1.0])
False

Tests: tests/search/test_timing.py
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.core.limit import Limit
from arena.search.clock.time_management import ceiling

EXTEND = 0.5
"""How much longer than its share an unstable search may think, as a share of it."""

ENOUGH = 0.1
"""A move counts for :func:`unstable` with at least this share of the most visited's visits."""


def settled(*, first: int, second: int, done: int, elapsed: float, allotted: float) -> bool:
    """Whether ``second`` (the runner-up's visits) can no longer reach ``first`` (the most
    visited move's) if every simulation left in the share went to it, at the rate of the
    ``done`` simulations in ``elapsed`` seconds so far."""
    if done <= 0 or elapsed <= 0.0:
        return False
    still = done / elapsed * max(0.0, allotted - elapsed)
    return first - second > still


def unstable(visits: Sequence[int], rates: Sequence[float]) -> bool:
    """Whether a move with at least :data:`ENOUGH` of the most visited move's visits has a
    better win rate than it (for the player to move)."""
    if not visits:
        return False
    top = max(range(len(visits)), key=visits.__getitem__)
    enough = ENOUGH * visits[top]
    return any(
        n >= enough and rate > rates[top]
        for i, (n, rate) in enumerate(zip(visits, rates, strict=True))
        if i != top and n > 0
    )


def extended(limit: Limit, allotted: float) -> float:
    """The longest a search with a share of ``allotted`` seconds may run when unstable:
    :data:`EXTEND` more, within the clock's ceiling (``allotted`` without a clock).

    >>> extended(Limit(time=1.0, clock=60.0), 1.0), extended(Limit(time=1.0), 1.0)
    (1.5, 1.0)
    >>> extended(Limit(time=1.0, clock=2.0), 0.5)  # 30% of a 2 s clock at most
    0.6
    """
    if limit.clock is None:
        return allotted
    return max(allotted, min(allotted * (1.0 + EXTEND), ceiling(limit.clock, limit.increment)))
