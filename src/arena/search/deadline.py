"""Deadlines that hold: agents answer within ``Limit.time`` even on a loaded machine.

Two things make a search overrun its time: the last unit of work started
just before the deadline (a long rollout, a deep node), and a garbage
collection pause in the middle of the search. :class:`Deadline` learns the
cost of one unit of work as it goes and stops early enough to finish it; the
``quiet_gc`` context keeps the cyclic collector from scanning a large search
tree while the clock runs (trees are freed by reference counting anyway).

Tests: tests/search/test_search.py, tests/cli/test_cli.py (bench timing)
"""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator
from contextlib import contextmanager

_clock = time.perf_counter


class SearchTimeout(Exception):
    """Raised inside a search to unwind it when the deadline has passed."""


class Deadline:
    """The moment a search must stop, with a margin for returning the answer.

    The margin is 4 ms plus 5% of the limit (capped at 50 ms and at half the
    limit) — room for the answer to travel back on a busy machine; on top of it,
    ``tick`` remembers the longest unit of work seen and ``expired`` stops that
    much earlier, so the unit that would cross the deadline is never started.
    """

    __slots__ = ("end", "last", "longest", "start")

    def __init__(self, seconds: float | None, start: float | None = None) -> None:
        self.start = _clock() if start is None else start
        if seconds is None:
            self.end = float("inf")
        else:
            self.end = self.start + seconds - min(0.004 + 0.05 * seconds, 0.05, 0.5 * seconds)
        self.last = self.start
        self.longest = 0.0

    def tick(self) -> bool:
        """Record one unit of work; True when the next one may not finish in time.

        A unit is whatever happens between two calls (an MCTS iteration, an
        alpha-beta node with its evaluation); a pause of the process counts
        too, which makes the search more careful for the rest of the move.
        """
        now = _clock()
        spent = now - self.last
        if spent > self.longest:
            self.longest = spent
        self.last = now
        return now + self.longest >= self.end

    expired = tick

    def stop(self) -> None:
        """Make the deadline pass now (safe from another thread: the search stops at its
        next check)."""
        self.end = float("-inf")

    def elapsed(self) -> float:
        return _clock() - self.start


@contextmanager
def quiet_gc() -> Iterator[None]:
    """No cyclic garbage collection inside the block.

    On the way out, the objects still alive (a kept search tree) are moved
    to the permanent generation with ``gc.freeze`` — O(1) — so the next
    collection does not scan them on somebody's clock. ``release_gc`` gives
    them back and collects, between games.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


def release_gc() -> None:
    """Return frozen objects to the collector and collect (call between games)."""
    gc.unfreeze()
    gc.collect()
