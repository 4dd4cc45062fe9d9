"""What a search needs but cannot build within a move's limit, built beside it.

The first move of an agent that nobody started (``load_agent("ids").choose(state,
Limit(time=0.05))`` with no ``reset(game)``) used to load the game's compiled code and
allocate its tables inside the limit: 0.2-7 s on a 0.05 s move (numba's disk cache
loads on a loaded machine; a first compilation takes longer). A timed move that finds
its compiled engine not ready asks :class:`Background` for it: the engine is built on a
thread of its own (numba's loading and LLVM's linking spend much of their time outside
the interpreter lock), the move is answered by the readable search within its limit, and
the next move uses the engine once it is ready.

The thread is not a daemon: a script that ends while an engine is being built waits for
the build (seconds at most) before the interpreter shuts down. A daemon thread was cut off
inside numba's compiled code as the interpreter tore itself down, and the process died of
a segmentation fault after its last line had run (seen once in CI on ``az`` cold).

``reset(game)`` still builds it at once, off the clock; a search with no time limit (a
budget of simulations or a depth) builds it at once too, so its moves stay reproducible.

>>> import time
>>> slow = Background()
>>> slow.get("k", lambda: time.sleep(0.05) or "engine") is None  # not ready: building
True
>>> slow.wait("k")
'engine'
>>> slow.get("k", lambda: "never built twice")
'engine'

Tests: tests/search/test_cold_start.py
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any


class Background:
    """Values built once each on threads of their own, keyed; a failure is raised by the
    :meth:`get` (or :meth:`wait`) after it. The program's end waits for a build under way."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._threads: dict[Hashable, threading.Thread] = {}
        self._values: dict[Hashable, Any] = {}
        self._errors: dict[Hashable, BaseException] = {}

    def get(self, key: Hashable, build: Callable[[], Any], wait: float = 0.0) -> Any:
        """The value for ``key`` if it is built (within ``wait`` seconds: a quick build,
        a table of Tic-tac-toe, is used at once); else None, and its building goes on."""
        with self._lock:
            if key in self._values:
                return self._values[key]
            if key in self._errors:
                raise self._errors.pop(key)
            thread = self._threads.get(key)
            if thread is None:
                thread = threading.Thread(
                    target=self._build, args=(key, build), name=f"build {key}", daemon=False
                )
                self._threads[key] = thread
                thread.start()
        if wait <= 0:
            return None
        thread.join(wait)
        with self._lock:
            if key in self._errors:
                raise self._errors.pop(key)
            return self._values.get(key)

    def _build(self, key: Hashable, build: Callable[[], Any]) -> None:
        try:
            value = build()
        except BaseException as error:
            with self._lock:
                self._errors[key] = error
                del self._threads[key]
            return
        with self._lock:
            self._values[key] = value
            del self._threads[key]

    def wait(self, key: Hashable, timeout: float | None = None) -> Any:
        """The value for ``key`` once its building ends (None: not started, or timed out)."""
        with self._lock:
            thread = self._threads.get(key)
        if thread is not None:
            thread.join(timeout)
        with self._lock:
            if key in self._errors:
                raise self._errors.pop(key)
            return self._values.get(key)

    def forget(self, key: Hashable) -> None:
        """Drop a built value (a thread still building keeps building)."""
        with self._lock:
            self._values.pop(key, None)
            self._errors.pop(key, None)
