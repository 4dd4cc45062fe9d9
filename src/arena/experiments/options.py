"""Checking experiment options: lists of numbers and counts, with one-line errors.

Options are parsed as text by argparse and checked here, inside the command,
so a bad value is one line on stderr (``ArenaError``), not a usage dump.

>>> floats("0.1, 0.5,1.41", "--c")
[0.1, 0.5, 1.41]
>>> ints("8,64", "--rollouts", low=1)
[8, 64]
>>> floats("", "--c")
Traceback (most recent call last):
...
arena.core.errors.ArenaError: --c: expected a comma-separated list of numbers, got ''
>>> count(-3, "--games")
Traceback (most recent call last):
...
arena.core.errors.ArenaError: --games must be >= 1, not -3

Tests: tests/experiments/test_framework.py
"""

from __future__ import annotations

import math

from arena.core.errors import ArenaError


def floats(text: str, option: str, low: float | None = None, strict: bool = False) -> list[float]:
    """A comma-separated list of finite numbers, each ``>= low`` (``> low`` when strict)."""
    try:
        values = [float(item) for item in text.split(",")]
    except ValueError:
        values = []
    if not values or not all(math.isfinite(v) for v in values):
        raise ArenaError(f"{option}: expected a comma-separated list of numbers, got {text!r}")
    if low is not None:
        for v in values:
            if v < low or (strict and v == low):
                raise ArenaError(f"{option}: {v:g} must be {'>' if strict else '>='} {low:g}")
    return values


def ints(text: str, option: str, low: int | None = None) -> list[int]:
    """A comma-separated list of integers, each ``>= low``."""
    try:
        values = [int(item) for item in text.split(",")]
    except ValueError:
        values = []
    if not values:
        raise ArenaError(f"{option}: expected a comma-separated list of integers, got {text!r}")
    if low is not None:
        for v in values:
            count(v, option, low)
    return values


def count(value: int, option: str, low: int = 1) -> int:
    """``value`` when it is at least ``low``."""
    if value < low:
        raise ArenaError(f"{option} must be >= {low}, not {value}")
    return value


def positive(value: float, option: str) -> float:
    """``value`` when it is a finite number above zero."""
    if not (math.isfinite(value) and value > 0):
        raise ArenaError(f"{option} must be > 0, not {value:g}")
    return value


def even_games(games: int) -> int:
    """``--games`` when it is a positive even number (so colours are balanced)."""
    count(games, "--games", 2)
    if games % 2:
        raise ArenaError(f"--games must be even so each side moves first equally, not {games}")
    return games
