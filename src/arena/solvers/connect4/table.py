"""The transposition table: one byte of bound per entry, keyed by position.

An entry is ``keys[i]`` (the low 32 bits of the key) and ``vals[i]`` (a bound,
0 for an empty slot) at ``i = key % size`` with ``size`` an odd prime. By the
Chinese remainder theorem the pair ``(key % size, key % 2**32)`` determines
any key below ``size * 2**32``, so a hit is never a different position as long
as keys have at most ``log2(size) + 32`` bits: 55 bits at the default size,
enough for every board the layout holds up to 7x6 and beyond (larger keys
make :func:`new_table` use 64-bit keys instead).

A stored value encodes a bound on the score (see :func:`encode`):
``1 .. span`` an upper bound, ``span+1 .. 2*span`` a lower bound, where
``span = max - min + 1`` of the board's score range. Newer entries replace
older ones (they come from deeper, fresher searches more often than not).
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


def new_table(key_bits: int, size_bits: int = DEFAULT_BITS) -> tuple[np.ndarray, np.ndarray]:
    """Empty ``(keys, vals)`` of about ``2**size_bits`` entries, for keys of ``key_bits`` bits.

    The default takes 42 MB; the size is read from the array at run time
    (a compile-time constant would survive in numba's cache after a change).
    """
    size = prime_at_least(1 << size_bits)
    dtype = np.uint32 if key_bits <= size_bits + 32 else np.int64
    return np.zeros(size, dtype=dtype), np.zeros(size, dtype=np.uint8)


@njit(cache=True, inline="always")
def get(keys: np.ndarray, vals: np.ndarray, key: int) -> int:
    """The stored value of ``key``, or 0."""
    i = key % keys.size
    stored = np.int64(keys[i])
    if keys.itemsize == 4:
        if stored == key & 0xFFFFFFFF:
            return vals[i]
    elif stored == key:
        return vals[i]
    return 0


@njit(cache=True, inline="always")
def put(keys: np.ndarray, vals: np.ndarray, key: int, value: int) -> None:
    i = key % keys.size
    keys[i] = key & 0xFFFFFFFF if keys.itemsize == 4 else key
    vals[i] = value
