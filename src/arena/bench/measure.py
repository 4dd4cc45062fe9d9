"""Timing loops and case selection shared by the benchmarks.

Tests: tests/cli/test_cli.py
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Collection, Sequence
from typing import Protocol, TypeVar


class _Named(Protocol):
    @property
    def spec(self) -> str: ...


C = TypeVar("C", bound=_Named)


def names(cases: Sequence[_Named]) -> set[str]:
    """What ``--games`` accepts for ``cases``: each spec and each game's name."""
    return {c.spec for c in cases} | {c.spec.split(":")[0] for c in cases}


def selected(cases: Sequence[C], only: Collection[str] | None) -> list[C]:
    """The cases ``only`` names by spec or by game name; all of them without ``only``."""
    return [c for c in cases if not only or c.spec in only or c.spec.split(":")[0] in only]


def available(*modules: str) -> bool:
    """True when every module imports (the optional libraries compared with)."""
    try:
        for module in modules:
            importlib.import_module(module)
    except ImportError:
        return False
    return True


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
