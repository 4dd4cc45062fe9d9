"""Proven values in a transposition table: stored as distances from the node.

A win found ``n`` plies below the root is ``WIN - n`` at the root, but the
same position reached at another ply is the same distance from its win. So a
proven value (at least ``proven`` in size) is stored with the ply added back
and read with the ply of the probe taken off; other values are stored as
they are. Generic over ints and floats (numba compiles one version for each).

Tests: tests/search/test_engine_connect4.py, tests/search/test_engine_othello.py
"""

from __future__ import annotations

from numba import njit


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
