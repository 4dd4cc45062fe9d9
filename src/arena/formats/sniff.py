"""Which format a records file is in: its name first, then its content.

A file named ``*.sgf`` is SGF and ``*.json``/``*.jsonl`` JSON lines of game
records, whatever they hold, so that the error for a broken file speaks of
the format the user meant; another name is decided by the content (an SGF
collection starts with ``(``).

>>> format_of("games.sgf", b'{"game": "go"}'), format_of("games.jsonl", b"(;GM[1])")
('SGF', 'JSON')
>>> format_of("games.txt", b"  (;GM[1]SZ[9])"), format_of("games", b'{"game": "go"}')
('SGF', 'JSON')

Tests: tests/cli/test_replay.py
"""

from __future__ import annotations

from pathlib import PurePath

BY_SUFFIX = {".sgf": "SGF", ".json": "JSON", ".jsonl": "JSON", ".ndjson": "JSON"}


def format_of(name: str, data: bytes) -> str:
    """``"SGF"`` or ``"JSON"``: by the file's suffix when it has a known one, else by content."""
    by_name = BY_SUFFIX.get(PurePath(name).suffix.lower())
    if by_name is not None:
        return by_name
    return "SGF" if looks_like_sgf(data) else "JSON"


def looks_like_sgf(data: bytes) -> bool:
    """Content that starts as an SGF collection does."""
    return data.lstrip()[:1] == b"("
