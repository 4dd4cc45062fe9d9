"""Values in a transposition table: their bounds, and proven values stored as distances.

Every compiled engine stores a value with its bound: :data:`EXACT`, or only a
:data:`LOWER` bound (the search failed high) or an :data:`UPPER` one (it failed
low); the root rows they report carry the same flags.

A win found ``n`` plies below the root is ``WIN - n`` at the root, but the
same position reached at another ply is the same distance from its win. So a
proven value (at least ``proven`` in size) is stored with the ply added back
and read with the ply of the probe taken off; other values are stored as
they are. Generic over ints and floats (numba compiles one version for each).

Tests: tests/search/test_engine_connect4.py, tests/search/test_engine_othello.py
"""

from __future__ import annotations

from numba import njit

EXACT, LOWER, UPPER = 0, 1, 2


@njit(cache=True, inline="always")
def to_table(value, ply, proven):  # type: ignore[no-untyped-def]
    """``value`` found ``ply`` plies from the root, as the table keeps it."""
    if value >= proven:
        return value + ply
    if value <= -proven:
        return value - ply
    return value


@njit(cache=True, inline="always")
def from_table(value, ply, proven):  # type: ignore[no-untyped-def]
    """A table's ``value`` read ``ply`` plies from the root."""
    if value >= proven:
        return value - ply
    if value <= -proven:
        return value + ply
    return value
