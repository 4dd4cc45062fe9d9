"""64-bit position keys.

States hash their defining integers (bitboards, side to move, ...) through a
splitmix64-style mixer instead of keeping Zobrist tables up to date on every
move: the key is computed once, on demand, and cached by the state.

>>> hash_ints(1, 2) != hash_ints(2, 1)
True
>>> 0 <= hash_ints(1 << 300) < 1 << 64
True

Tests: tests/core/test_game_api.py
"""

from __future__ import annotations

MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def mix64(x: int) -> int:
    """The splitmix64 finaliser: a bijection on 64-bit ints with full avalanche."""
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
    return x ^ (x >> 31)


def hash_ints(*values: int) -> int:
    """A 64-bit hash of a sequence of non-negative ints of any size."""
    h = _GOLDEN
    for value in values:
        while True:
            h = mix64((h + _GOLDEN) ^ (value & MASK64))
            value >>= 64
            if not value:
                break
        h = mix64(h + 0x632BE59BD9B4E019)  # a separator, so (a, b) and (a + b<<64,) differ
    return h


def zobrist_table(count: int, seed: int) -> list[int]:
    """``count`` independent 64-bit random keys drawn from ``seed`` (deterministic)."""
    return [mix64((seed * 0x100000001B3 + i) * _GOLDEN & MASK64) for i in range(1, count + 1)]
