"""Loading compiled functions from numba's disk cache without preparing to compile.

Before it loads a cached function, numba refreshes its CPU target: it imports
and registers every typing and lowering registry it has (NumPy, math, typed
containers, linear algebra — which imports SciPy's BLAS when SciPy is
installed), about 0.15–0.3 s on the project's machine. A load needs none of
that: it maps the cached machine code into the JIT and resolves its symbols
(numba's runtime, its helper library, the hash secret), and compiling still
refreshes the target first (numba's ``CompilerBase`` does so before every
compilation). :func:`quick_loads` makes loads inside the block do just the
part they need, which takes a warm start of ``arena analyze ... mcts`` from
about 0.6 s over the Python engine to about 0.3 s.

If this numba lacks the private methods relied on, loads take numba's own path
(slower, never wrong).

Tests: ``tests/search/test_numba_cache.py``.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from numba.core import caching
from numba.core.runtime import nrt

_lock = threading.Lock()
_depth = 0
_numba_load = caching.Cache.load_overload
SUPPORTED = all(
    hasattr(caching.Cache, name) for name in ("_guard_against_spurious_io_errors", "_index_key")
) and hasattr(nrt.rtsys, "initialize")
"""Whether this numba has what :func:`quick_loads` uses."""


def _load_overload(self: Any, sig: Any, target_context: Any) -> Any:
    """numba's ``Cache.load_overload`` with only the symbols the cached code may link
    against set up, instead of the target's whole refresh: numba's runtime, and the hash
    secret (registered by importing ``numba.cpython.hashing``, itself tens of ms) when the
    machine code names it."""
    if not all(hasattr(self, name) for name in ("_enabled", "_cache_file", "_impl")):
        return _numba_load(self, sig, target_context)
    nrt.rtsys.initialize(target_context)
    with self._guard_against_spurious_io_errors():
        if not self._enabled:
            return None
        data = self._cache_file.load(self._index_key(sig, target_context.codegen()))
        if data is None:
            return None  # not cached: numba compiles (and refreshes the target first)
        if _names_hash_secret(data):
            import numba.cpython.hashing  # noqa: F401
        return self._impl.rebuild(target_context, data)
    return None  # an I/O error swallowed by the guard: compile instead


def _names_hash_secret(data: Any) -> bool:
    """Whether a cached compile result's machine code refers to the hash secret (True when
    its layout is not the one expected: the safe answer)."""
    try:
        machine_code = data[0][2][0]  # (library (name, kind, (object code, bitcode)), ...)
    except (IndexError, TypeError):
        return True
    return not isinstance(machine_code, bytes) or HASH_SECRET in machine_code


HASH_SECRET = b"_numba_hashsecret_"


@contextmanager
def quick_loads() -> Iterator[None]:
    """Cache loads inside the block skip numba's target refresh (see the module).

    Cache misses still compile as usual (numba refreshes the target then).
    Nested and concurrent blocks are fine: the last one out restores numba.
    """
    global _depth
    if not SUPPORTED:
        yield
        return
    with _lock:
        _depth += 1
        caching.Cache.load_overload = _load_overload  # type: ignore[method-assign]
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if not _depth:
                caching.Cache.load_overload = _numba_load  # type: ignore[method-assign]
