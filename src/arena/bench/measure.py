"""Timing loops shared by the benchmarks.

Tests: tests/cli/test_cli.py
"""

from __future__ import annotations

import time
from collections.abc import Callable


def rate(step: Callable[[], object], seconds: float) -> float:
    """Calls of ``step`` per second, run for about ``seconds`` after one warm-up call."""
    step()
    count = 0
    clock = time.perf_counter
    start = clock()
    deadline = start + seconds
    while True:
        step()
        count += 1
        now = clock()
        if now >= deadline:
            return count / (now - start)
