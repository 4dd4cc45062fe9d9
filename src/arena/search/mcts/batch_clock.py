"""The clock of the compiled MCTS's batches: when to stop, and who checks it.

The compiled search runs in batches of simulations, each sized to take a
fraction of a millisecond. Two things decide when a timed search stops:

- the *stop* moment: the :class:`~arena.search.clock.deadline.Deadline`'s end, which
  keeps a margin for the answer's way back and the reserve for the pauses this
  process has lately suffered (:mod:`arena.search.clock.pauses`), so a pause of the
  operating system after the last check does not make the answer late;
- the check: the compiled code reads a monotonic clock every few simulations
  (:mod:`arena.search.clock.compiled`) and ends its batch the moment *stop*
  passes, so no batch runs past it, however wrong its predicted length; Python
  checks between batches too. Where compiled code has no clock, Python stops
  before a batch that could cross *stop* (the deadline's longest unit so far).

>>> import numpy as np
>>> from arena.search.mcts import kernel as mk
>>> report = np.zeros(mk.REPORT_SIZE, np.int64)
>>> batch_clock(report, Deadline(None)), int(report[mk.UNTIL])
(inf, 0)

Tests: ``tests/search/test_fast_mcts.py``.
"""

from __future__ import annotations

from typing import Any

from arena.search.clock import compiled as compiled_clock
from arena.search.clock.deadline import Deadline
from arena.search.mcts import kernel as mk


def batch_clock(report: Any, deadline: Deadline) -> float:
    """The moment a search under ``deadline`` stops (``time.perf_counter`` seconds), also
    written to ``report[UNTIL]`` for the compiled batches."""
    if deadline.end == float("inf"):
        report[mk.UNTIL] = 0
        return deadline.end
    report[mk.UNTIL] = compiled_clock.deadline_ns(deadline.end)
    return deadline.end


def stop_between_batches(deadline: Deadline, stop: float) -> bool:
    """Whether to stop after a batch (and record it as a unit of work of ``deadline``)."""
    expired = deadline.tick()
    if deadline.end < stop:  # ``Deadline.stop()`` was called
        return True
    if compiled_clock.AVAILABLE:  # a batch stops itself at ``stop``
        return deadline.last >= stop
    return expired or deadline.last + deadline.longest >= stop
