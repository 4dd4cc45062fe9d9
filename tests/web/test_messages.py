"""The checks of a browser message's fields, and the shaping of error replies."""

from __future__ import annotations

import math

import pytest

from arena.web.messages import (
    MAX_ERROR,
    BadMessage,
    finite,
    number,
    optional_whole_number,
    shorten,
    whole_number,
)


@pytest.mark.parametrize("value", [None, "3", 3.0, True, -1, 11])
def test_a_whole_number_out_of_its_range_or_of_another_kind_is_refused(value: object) -> None:
    with pytest.raises(BadMessage, match=r"'ply' must be a whole number in 0\.\.10"):
        whole_number({"ply": value}, "ply", 0, 10)


def test_an_optional_number_may_be_missing_or_null() -> None:
    assert optional_whole_number({}, "seed", 0, 9) is None
    assert optional_whole_number({"seed": None}, "seed", 0, 9) is None
    assert optional_whole_number({"seed": 4}, "seed", 0, 9) == 4


@pytest.mark.parametrize("value", [math.nan, math.inf, False, "1", 11.0, -0.5])
def test_a_number_must_be_finite_and_in_range(value: object) -> None:
    with pytest.raises(BadMessage, match=r"'delay' must be a number in 0\.\.10"):
        number({"delay": value}, "delay", 0.0, 10.0)
    assert number({"delay": 2}, "delay", 0.0, 10.0) == 2.0


def test_error_replies_are_short_and_values_json_safe() -> None:
    assert len(shorten("x" * 10_000)) == MAX_ERROR and shorten("short") == "short"
    assert finite((1.0, -math.inf, {"a": [math.nan]}, "s")) == [1.0, None, {"a": [None]}, "s"]
