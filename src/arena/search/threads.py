"""How many threads a search uses when its spec does not say (``threads=``).

The cores this process may run on, less the work the rest of the machine runs
(the one-minute load average, less the search's own thread), at least one; or
what :data:`THREADS_ENV` says. A match or tournament that plays games side by
side (``--jobs N``, ``--ray``) sets it to 1 in each worker: the games already
share the cores out, and a game's threads would only take them from the others
(:func:`one_per_game`).

No numba here: the command line and the match runner import it.

>>> import os
>>> os.environ[THREADS_ENV] = "1"; default_threads()
1
>>> del os.environ[THREADS_ENV]

Tests: ``tests/search/test_mcts_threads.py``, ``tests/compete/test_tournament.py``.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator
from contextlib import contextmanager

THREADS_ENV = "ARENA_THREADS"
"""An environment variable: the default ``threads`` of every search (a number >= 1)."""


def cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def default_threads() -> int:
    """The threads a search uses when ``threads`` is not given (see the module)."""
    given = os.environ.get(THREADS_ENV, "").strip()
    if given.isdigit() and int(given) >= 1:
        return int(given)
    try:
        others = max(0.0, os.getloadavg()[0] - 1.0)
    except OSError:  # no load average on this system
        others = 0.0
    return max(1, min(cores(), math.floor(cores() - others + 0.5)))


@contextmanager
def threads_by_default(count: int | None) -> Iterator[None]:
    """Within it, every search whose spec does not say ``threads=`` uses ``count`` threads
    (:data:`THREADS_ENV`, seen by worker processes started inside too); None: as before.

    >>> with threads_by_default(3):
    ...     default_threads()
    3
    """
    if count is None:
        yield
        return
    before = os.environ.get(THREADS_ENV)
    os.environ[THREADS_ENV] = str(count)
    try:
        yield
    finally:
        if before is None:
            del os.environ[THREADS_ENV]
        else:
            os.environ[THREADS_ENV] = before


def one_per_game() -> None:
    """In a worker that plays one of several games at once: searches default to one thread
    (unless :data:`THREADS_ENV` is set already, by the user)."""
    os.environ.setdefault(THREADS_ENV, "1")
