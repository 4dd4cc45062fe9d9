"""The longest pause a search in this process has lately seen, kept in reserve by the next ones.

On a loaded machine the operating system takes the CPU away from a process
for whole time slices — 10 to 25 ms with twice as many busy processes as
cores. A search that stops at its deadline's end still overruns when such a
pause falls between its last clock check and its answer. Within one search
:class:`~arena.search.clock.deadline.Deadline` learns the longest unit of work,
pauses included, but a search of 20 ms may see no pause before the one that
makes it late. :class:`RecentPauses` carries that knowledge across searches
(and agents: it measures the machine, not a search): each compiled MCTS search
reports its longest batch of simulations, pauses included; the level decays with a
half-life of 20 s once the load goes; and the next search of any agent (every
:class:`~arena.search.clock.deadline.Deadline` of a move) stops that much earlier, within
a cap that leaves it most of its time on a quiet machine (where the level is the
length of a batch, well under a millisecond) and a tenth of it under the heaviest
load.

>>> pauses = RecentPauses(half_life=1.0, clock=iter([0.0, 0.0, 1.0, 2.0]).__next__)
>>> pauses.seen(0.02)            # at t=0 a search saw a 20 ms pause
>>> pauses.level()               # at t=0
0.02
>>> pauses.reserve(0.1)          # at t=1: halved, and within the cap for 100 ms
0.01
>>> round(pauses.reserve(0.005), 6)  # at t=2: 5 ms, capped to 9/10 of a 5 ms search
0.0045

Tests: ``tests/search/test_fast_mcts_clock.py``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

HALF_LIFE = 20.0
"""Seconds for the remembered pause to halve (once the load goes, it is forgotten in
about a minute). Searches protected by the reserve rarely see a pause, so the level must
outlast the gaps between the searches that do."""
CAP = 0.9
"""At most this share of a search's time is kept in reserve. It binds when the pauses are
as long as the whole search, which no reserve protects: answering soon then at least
shortens the stretch a pause can fall in."""


class RecentPauses:
    """A decaying maximum of the pauses searches have seen (thread-safe)."""

    def __init__(
        self, half_life: float = HALF_LIFE, clock: Callable[[], float] = time.perf_counter
    ) -> None:
        self.half_life, self.clock = half_life, clock
        self._level, self._at = 0.0, 0.0
        self._lock = threading.Lock()

    def seen(self, seconds: float) -> None:
        """A search saw ``seconds`` between two reads of its clock (work and pause: a batch
        of the compiled MCTS is planned to last well under a millisecond)."""
        with self._lock:
            now = self.clock()
            self._level = max(self._decayed(now), seconds)
            self._at = now

    def _decayed(self, now: float) -> float:
        return self._level * 0.5 ** (max(0.0, now - self._at) / self.half_life)

    def level(self) -> float:
        """The remembered pause now."""
        with self._lock:
            return self._decayed(self.clock())

    def reserve(self, seconds: float) -> float:
        """How much earlier than its deadline a search of ``seconds`` should stop."""
        return min(self.level(), CAP * max(0.0, seconds))

    def forget(self) -> None:
        with self._lock:
            self._level = 0.0


PAUSES = RecentPauses()
"""The process's own record (the compiled MCTS reports to it and reads it)."""
