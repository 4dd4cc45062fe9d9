"""Counts in words for messages: ``1 ply``, ``2 plies``, never ``1 plies``.

>>> plural(1, "ply"), plural(2, "ply"), plural(0, "move"), plural(1, "game")
('1 ply', '2 plies', '0 moves', '1 game')

Tests: tests/core/test_words.py
"""

from __future__ import annotations

IRREGULAR = {"ply": "plies"}
"""Nouns whose plural is not the noun with an ``s``."""


def plural(n: int, noun: str) -> str:
    """``n`` and ``noun``, the noun in the plural unless ``n`` is 1."""
    return f"{n} {noun if n == 1 else IRREGULAR.get(noun, noun + 's')}"
