"""The checks of the fields of a browser's message, and the shaping of what goes back.

A field that is missing or out of range is a :class:`BadMessage`, which the
session answers with an ``error`` reply (the connection stays up).

>>> whole_number({"ply": 3}, "ply", 0, 10), number({"delay": 0.5}, "delay", 0.0, 10.0)
(3, 0.5)
>>> whole_number({"ply": True}, "ply", 0, 10)
Traceback (most recent call last):
...
arena.web.messages.BadMessage: 'ply' must be a whole number in 0..10, not True

Tests: tests/web/test_messages.py, tests/web/test_app.py
"""

from __future__ import annotations

import math
from typing import Any

from arena.core.errors import ArenaError

MAX_ERROR = 300
"""Characters of an error reply (a message may quote what the browser sent)."""


class BadMessage(ArenaError):
    """A message from the browser that is not valid."""


def whole_number(msg: dict[str, Any], key: str, low: int, high: int) -> int:
    """``msg[key]``, a whole number in ``low..high`` (not a bool)."""
    value = msg.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise BadMessage(f"{key!r} must be a whole number in {low}..{high}, not {value!r}")
    return value


def optional_whole_number(msg: dict[str, Any], key: str, low: int, high: int) -> int | None:
    """``msg[key]`` as :func:`whole_number` reads it, or None when it is missing or null."""
    return None if msg.get(key) is None else whole_number(msg, key, low, high)


def number(msg: dict[str, Any], key: str, low: float, high: float) -> float:
    """``msg[key]``, a finite number in ``low..high`` (not a bool)."""
    value = msg.get(key)
    ok = isinstance(value, int | float) and not isinstance(value, bool)
    if not ok or not math.isfinite(value) or not low <= value <= high:
        raise BadMessage(f"{key!r} must be a number in {low:g}..{high:g}, not {value!r}")
    return float(value)


def shorten(text: str, most: int = MAX_ERROR) -> str:
    """An error message of at most ``most`` characters (it may quote what was sent).

    >>> shorten("unknown game " + "x" * 1000, 30)
    'unknown game xxxxxxxxxxxxxx...'
    """
    return text if len(text) <= most else text[: most - 3] + "..."


def finite(data: Any) -> Any:
    """JSON-safe: infinities and NaN (which browsers' JSON.parse refuses) become None.

    >>> finite({"value": float("inf"), "root": [(1, float("nan"), 0.5)]})
    {'value': None, 'root': [[1, None, 0.5]]}
    """
    if isinstance(data, float):
        return data if math.isfinite(data) else None
    if isinstance(data, dict):
        return {k: finite(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [finite(v) for v in data]
    return data
