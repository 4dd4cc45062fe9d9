"""The one key=value parser behind every mini-language (specs, budgets, SPRT, limits)."""

from __future__ import annotations

import pytest

from arena.core.errors import SpecError
from arena.core.spec import split_pairs, split_spec


def test_pairs_are_lower_cased_stripped_and_in_order() -> None:
    assert split_pairs(" Rows=5 , cols= 6") == {"rows": "5", "cols": "6"}
    assert split_pairs("") == {} and split_spec("connect4") == ("connect4", {})


def test_white_space_separators_fold_but_commas_do_not() -> None:
    assert split_pairs("a=1, b=2\tc=3", separators=", \t") == {"a": "1", "b": "2", "c": "3"}
    with pytest.raises(SpecError, match="malformed parameter ''"):
        split_pairs("a=1,,b=2")


@pytest.mark.parametrize(
    ("text", "keys", "message"),
    [
        ("a", None, "owner: malformed parameter 'a': expected key=value"),
        ("a=", None, "owner: malformed parameter 'a='"),
        ("=1", None, "owner: malformed parameter '=1'"),
        ("a=1,A=2", None, "owner: parameter a given twice"),
        ("c=1", ("a", "b"), "owner: unknown parameter 'c'; valid: a, b"),
    ],
)
def test_every_mistake_is_named_with_its_owner(
    text: str, keys: tuple[str, ...] | None, message: str
) -> None:
    with pytest.raises(SpecError) as info:
        split_pairs(text, "owner", keys)
    assert message in str(info.value) and "\n" not in str(info.value)
