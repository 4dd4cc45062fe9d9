"""The transposition table: one 64-bit word per entry, keyed by position.

The entry of a key is ``entries[key % size]`` with ``size`` an odd prime; it
holds the low 56 bits of the key above one byte of bound (0: an empty slot).
By the Chinese remainder theorem ``(key % size, key % 2**56)`` determines any
key below ``size * 2**56``, and every layout's key has at most 63 bits, so a
hit is never a different position. Key and bound share one word so a probe
touches one cache line (two arrays would cost two misses in a table this big).

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


def new_table(size_bits: int = DEFAULT_BITS) -> np.ndarray:
    """An empty table of about ``2**size_bits`` entries (64 MB at the default 23).

    The size is read from the array at run time (a compile-time constant
    would survive in numba's cache after a change).
    """
    return np.zeros(prime_at_least(1 << size_bits), dtype=np.int64)


@njit(cache=True, inline="always")
def get(entries: np.ndarray, key: int) -> int:
    """The stored bound byte of ``key``, or 0."""
    e = entries[key % entries.size]
    if (e >> 8) & LOW56 == key & LOW56:
        return e & 255
    return 0


@njit(cache=True, inline="always")
def put(entries: np.ndarray, key: int, value: int) -> None:
    entries[key % entries.size] = ((key & LOW56) << 8) | value
