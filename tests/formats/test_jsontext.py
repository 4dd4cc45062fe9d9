"""JSON from outside: every failure is one ``NotJSON`` line, deep nesting included."""

from __future__ import annotations

import pytest

from arena.core.errors import ArenaError
from arena.formats.jsontext import NotJSON, loads
from arena.formats.record import GameRecord, NotARecord


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('{"game": ' + "[" * 100_000, "nested too deeply"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"a":' * 100_000, "nested too deeply"),
        ("{not json", "Expecting property name enclosed in double quotes"),
        (b"\xff\xfe\x00", None),
    ],
)
def test_every_failure_is_not_json(text: str | bytes, reason: str | None) -> None:
    with pytest.raises(NotJSON) as caught:
        loads(text)
    assert isinstance(caught.value, ArenaError) and isinstance(caught.value, ValueError)
    assert "\n" not in str(caught.value) and len(str(caught.value)) < 150
    if reason is not None:
        assert caught.value.reason == reason


def test_nesting_within_the_limit_still_reads() -> None:
    assert loads("[" * 200 + "]" * 200) is not None


@pytest.mark.parametrize(
    "line",
    [
        '{"game": ' + "[" * 100_000,
        "[1, 2]",
        '{"game": "go", "players": ["a", "b"], "moves": 1}',
        "7",
    ],
)
def test_a_record_that_is_not_one_is_a_value_error(line: str) -> None:
    with pytest.raises(ValueError) as caught:
        GameRecord.from_json(line)
    assert isinstance(caught.value, NotJSON | NotARecord)
