"""JSON from outside (a records file, a browser's message): one-line errors, bounded nesting.

``json.loads`` raises ``RecursionError`` on text nested deeper than Python's
recursion limit (``[[[[...`` 100,000 deep is 100 KB): :func:`loads` turns that,
and every other way text fails to be JSON, into :class:`NotJSON`, one line.

>>> loads('{"game": "go"}')
{'game': 'go'}
>>> loads('{"game": ' + "[" * 100_000)
Traceback (most recent call last):
...
arena.formats.jsontext.NotJSON: not JSON: nested too deeply
>>> try:
...     loads('{"game": go}')
... except NotJSON as exc:
...     print(exc.reason)
Expecting value

Tests: tests/formats/test_jsontext.py
"""

from __future__ import annotations

import json
from typing import Any

from arena.core.errors import ArenaError


class NotJSON(ArenaError, ValueError):
    """Text that is not JSON; ``reason`` says why, without the text itself."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"not JSON: {reason}")
        self.reason = reason


def loads(text: str | bytes) -> Any:
    """The value of JSON ``text``, or :class:`NotJSON` (never ``RecursionError``)."""
    try:
        return json.loads(text)
    except RecursionError:
        raise NotJSON("nested too deeply") from None
    except json.JSONDecodeError as exc:
        raise NotJSON(exc.msg) from None
    except (ValueError, TypeError) as exc:  # bytes that are not UTF-8, a non-text argument
        raise NotJSON(str(exc).split("\n")[0][:100]) from None
