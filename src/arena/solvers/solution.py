"""What a solve returns: bounds on the score, and the work it took.

Tests: tests/solvers/test_generic_solver.py

>>> Solution(3, 3, 100, 0.5).score
3
>>> Solution(-2, 5, 100, 0.5).exact
False
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

MAX_CHUNK = 0.05
"""Seconds a timed or stoppable solve runs between two looks at the clock and its stop
request: compiled probes hold the interpreter while they run (a web server's other
clients wait), and a stop must take effect within a tenth of a second."""


@dataclass(frozen=True)
class Solution:
    """The outcome of one solve: exact when ``low == high``."""

    low: int
    high: int
    nodes: int
    seconds: float

    @property
    def exact(self) -> bool:
        return self.low == self.high

    @property
    def score(self) -> int:
        """The exact score (raises if the search stopped before it was known)."""
        if not self.exact:
            raise ValueError(f"not solved: the score is in [{self.low}, {self.high}]")
        return self.low


def bisect(
    probe: Callable[[int, float], tuple[int, int, bool]],
    low: int,
    high: int,
    seconds: float | None,
    step: int = 1,
    stop: threading.Event | None = None,
) -> Solution:
    """Find a score in ``[low, high]`` by null-window probes (a binary search).

    ``probe(v, budget_seconds)`` answers whether the score is above ``v`` with
    ``(value, nodes, aborted)``: ``value <= v`` proves the score is at most
    ``value``, ``value > v`` that it is at least ``value``. A probe stopped by
    its budget is repeated (the table keeps its work) until ``seconds`` run out;
    the bounds proved so far are returned then. ``step``: the scores are
    multiples of it apart (probe midway between two). ``stop``: when it is set, the
    bounds proved so far are returned at the next probe (a probe that is repeated
    while its budget stops it checks it between budgets).
    """
    start = time.perf_counter()
    deadline = None if seconds is None else start + seconds
    nodes = 0
    while low < high:
        mid = low + (high - low) // 2
        # Lean towards 0 first: scores near a draw are the common ones, and
        # probes far from the true score are cheap.
        if mid <= 0 and _half(low) < mid:
            mid = _half(low)
        elif mid >= 0 and _half(high) > mid:
            mid = _half(high)
        if step > 1:
            mid = min(max(mid - mid % step + step // 2, low), high - 1)
        value, spent = _settle(probe, mid, deadline, stop)
        nodes += spent
        if value is None:  # out of time: the bounds proved so far
            return Solution(low, high, nodes, time.perf_counter() - start)
        if value <= mid:
            high = value
        else:
            low = value
    return Solution(low, high, nodes, time.perf_counter() - start)


def _settle(
    probe: Callable[[int, float], tuple[int, int, bool]],
    mid: int,
    deadline: float | None,
    stop: threading.Event | None = None,
) -> tuple[int | None, int]:
    """One probe at ``mid``, repeated while its budget stops it (the table keeps its
    work) and time is left: ``(value, nodes)``, or ``(None, nodes)`` when the time ran
    out or ``stop`` was set."""
    nodes = 0
    while True:
        left = None if deadline is None else deadline - time.perf_counter()
        if (left is not None and left <= 0) or (stop is not None and stop.is_set()):
            return None, nodes
        value, spent, aborted = probe(mid, left if left is not None else -1.0)
        nodes += spent
        if not aborted:
            return value, nodes


def _half(x: int) -> int:
    # Half, rounded towards zero.
    return int(x / 2)


def gallop(
    probe: Callable[[int, float], tuple[int, int, bool]],
    low: int,
    high: int,
    seconds: float | None,
    step: int = 1,
    stop: threading.Event | None = None,
    first: int = 0,
) -> Solution:
    """Find a score in ``[low, high]`` by null-window probes, starting next to 0.

    The first probe asks whether the score is at least 0 (the win/loss test);
    the next ones go from the bound the last one proved in the same direction,
    right next to it twice, then twice as far each time (an exponential
    search), and once the score is
    bracketed from both sides they halve the bracket (a binary search). Near
    the score every probe is costly, so probing near the bounds already
    proved beats :func:`bisect`'s leaps when the score is small, as a deep
    solve's usually is. ``probe``, ``step`` and ``stop`` as in :func:`bisect`;
    ``first``: the score the first probe asks about instead of 0 (a guess).

    >>> def probe(mid, left):   # the score is -4; each probe proves as little as it can
    ...     return (mid - 1 if -4 <= mid else mid + 1), 1, False
    >>> found = gallop(probe, -36, 36, None, step=2)   # probes -1, -3, -5
    >>> (found.score, found.nodes)
    (-4, 3)
    >>> gallop(probe, -36, 36, None, step=2, first=-4).nodes   # a right guess: -5, -3
    2
    >>> def far(mid, left):     # the score is +38
    ...     return (mid - 1 if 38 <= mid else mid + 1), 1, False
    >>> found = gallop(far, -64, 64, None, step=2)  # -1, 1, 3, 7, 15, 31, 63, 47, 39, 35, 37
    >>> (found.score, found.nodes)
    (38, 11)
    """
    start = time.perf_counter()
    deadline = None if seconds is None else start + seconds
    nodes = 0
    target, stride, direction, run, bracketed = first, step, 0, 0, False
    while low < high:
        if bracketed:
            target = low + (high - low) // 2
            target += (target - low) % step
        target = min(max(target, low + 1), high)
        mid = target - 1  # the probe asks "score > mid", i.e. "score >= target"
        value, spent = _settle(probe, mid, deadline, stop)
        nodes += spent
        if value is None:  # out of time: the bounds proved so far
            return Solution(low, high, nodes, time.perf_counter() - start)
        went = -1 if value <= mid else 1
        if value <= mid:
            high = value
        else:
            low = value
        if direction and went != direction:
            bracketed = True
        # Right next to the bound twice (fail-soft bounds are often the score
        # itself), then further each time.
        run = run + 1 if went == direction else 1
        stride = step if run < 3 else stride * 2
        direction = went
        target = high - stride + step if went < 0 else low + stride
    return Solution(low, high, nodes, time.perf_counter() - start)
