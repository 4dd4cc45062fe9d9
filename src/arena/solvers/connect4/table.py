"""The transposition table: one 64-bit word per entry, keyed by position.

Tests: tests/solvers/test_connect4_solver.py

An entry holds the low 56 bits of the key above one byte of bound (0: an
empty slot), so a probe touches one cache line. Where the entry lives:

- keys of at most 56 bits (every board up to 7x7 and 8x6): a table of ``2**b``
  entries indexed by the top ``b`` bits of ``key * golden`` (Fibonacci
  hashing: one multiplication, which lets the search compute its children's
  slots cheaply and prefetch them); the stored 56 bits are the whole key;
- longer keys: ``key % size`` with ``size`` an odd prime (``shift`` 0). By the
  Chinese remainder theorem ``(key % size, key % 2**56)`` determines any key
  below ``size * 2**56``, and every layout's key has at most 63 bits.

Either way a hit is never a different position.

A stored byte encodes a bound on the score: ``1 .. span`` an upper bound,
``span+1 .. 2*span`` a lower bound, where ``span = max - min + 1`` of the
board's score range. Newer entries replace older ones (they come from
deeper, fresher searches more often than not).
"""

from __future__ import annotations

import numpy as np
from numba import njit

DEFAULT_BITS = 23


def prime_at_least(n: int) -> int:
    """The smallest prime >= n (n odd or even, n >= 2).

    >>> prime_at_least(1 << 23)
    8388617
    """

    def is_prime(m: int) -> bool:
        if m < 2 or m % 2 == 0:
            return m == 2
        f = 3
        while f * f <= m:
            if m % f == 0:
                return False
            f += 2
        return True

    while not is_prime(n):
        n += 1
    return n


LOW56 = (1 << 56) - 1
GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def new_table(key_bits: int, size_bits: int = DEFAULT_BITS) -> tuple[np.ndarray, int]:
    """An empty table of about ``2**size_bits`` entries (64 MB at the default 23)
    and its ``shift`` (0: indexed by a prime modulus).

    The size is read from the array at run time (a compile-time constant
    would survive in numba's cache after a change).
    """
    if key_bits <= 56:
        return np.zeros(1 << size_bits, dtype=np.int64), 64 - size_bits
    return np.zeros(prime_at_least(1 << size_bits), dtype=np.int64), 0


@njit(cache=True, inline="always")
def index(entries: np.ndarray, key: int, shift: int) -> int:
    """The slot of ``key``."""
    if shift:
        return np.int64((np.uint64(key) * GOLDEN) >> np.uint64(shift))
    return key % entries.size


@njit(cache=True, inline="always")
def get(entries: np.ndarray, key: int, shift: int) -> int:
    """The stored bound byte of ``key``, or 0."""
    e = entries[index(entries, key, shift)]
    if (e >> 8) & LOW56 == key & LOW56:
        return e & 255
    return 0


@njit(cache=True, inline="always")
def put(entries: np.ndarray, key: int, shift: int, value: int) -> None:
    entries[index(entries, key, shift)] = ((key & LOW56) << 8) | value
