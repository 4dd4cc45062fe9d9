"""Values in a transposition table: their bounds, and proven values stored as distances.

Every compiled engine stores a value with its bound: :data:`EXACT`, or only a
:data:`LOWER` bound (the search failed high) or an :data:`UPPER` one (it failed
low); the root rows they report carry the same flags.

A win found ``n`` plies below the root is ``WIN - n`` at the root, but the
same position reached at another ply is the same distance from its win. So a
proven value (at least ``proven`` in size) is stored with the ply added back
and read with the ply of the probe taken off; other values are stored as
they are. Generic over ints and floats (numba compiles one version for each).

The engines whose table is three arrays (Connect Four's and Gomoku's: ``keys``,
float ``values`` and int ``meta``) write an entry with :func:`store_entry` and
check one by XOR, as :func:`store_entry` says.

Tests: tests/search/test_engine_connect4.py, tests/search/test_engine_othello.py,
tests/search/test_lazy_smp.py (an entry two writers interleaved)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from arena.search.atomics import float_bits

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


@njit(cache=True, inline="always")
def store_entry(keys, values, meta, slot, key, value, data):  # type: ignore[no-untyped-def]
    """Write entry ``slot`` of a three-array table: ``value`` (a float), ``data`` (the
    packed depth, bound and move) and the key XOR both (lockless XOR hashing). Threads
    share the table without a lock; a reader loads each word once and takes the entry
    only if ``keys[slot] ^ meta ^ float_bits(value)`` gives its key back, so an entry
    whose words two writers interleaved (one's key, the other's value) is no match."""
    v = np.float64(value)
    keys[slot] = entry_key(key, v, data)
    values[slot] = v
    meta[slot] = data


@njit(cache=True, inline="always")
def entry_key(word, value, data):  # type: ignore[no-untyped-def]
    """The key an entry's words ``keys[slot]``, ``values[slot]``, ``meta[slot]`` (each
    read once) decode to (:func:`store_entry`); XOR is its own inverse, so the same
    function encodes a key."""
    return word ^ data ^ float_bits(np.float64(value))
