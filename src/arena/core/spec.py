"""Spec strings: ``name[:key=value,...]`` for games (and, later, agents).

One parser and one parameter binder serve every kind of spec, so every error
reads the same way and lists what would have been valid.

>>> split_spec("connect4:rows=5,cols=6")
('connect4', {'rows': '5', 'cols': '6'})
>>> p = Param("rows", int, 6, "board rows", low=4, high=20)
>>> bind_params("connect4", (p,), {"rows": "8"})
{'rows': 8}
>>> bind_params("connect4", (p,), {"rows": "99"})
Traceback (most recent call last):
...
arena.core.errors.SpecError: connect4: rows=99 is out of range (4..20)

Tests: tests/core/test_game_api.py, tests/core/test_spec.py
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arena.core.errors import SpecError, excerpt

__all__ = [
    "Param",
    "SpecError",
    "bind_params",
    "format_spec",
    "split_pairs",
    "split_spec",
    "utf8_text",
    "with_params",
]


def file_path(raw: object) -> str:
    """A parameter naming a file: stripped, its case kept (a ``str`` parameter is
    lower-cased, and paths are case-sensitive).

    >>> file_path(" Nets/C4.npz ")
    'Nets/C4.npz'
    """
    text = str(raw).strip()
    if not text:
        raise SpecError("the file name is empty")
    return text


file_path.__name__ = "FILE"


def utf8_text(spec: str) -> str:
    """``spec``, unless it holds bytes that are not UTF-8 (a file or folder name in another
    encoding, which Python keeps as lone surrogates): a spec travels as text, in protocol
    lines, records and the results database, so it would fail there with a traceback.

    >>> utf8_text("py:ada/agent.py:A")
    'py:ada/agent.py:A'
    >>> utf8_text("py:caf\\udce9/agent.py:A")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    arena.core.errors.SpecError: 'py:caf\\udce9/agent.py:A' is not UTF-8 text (...): rename it
    """
    try:
        spec.encode("utf-8")
    except UnicodeEncodeError:
        shown = excerpt(spec.encode("utf-8", "backslashreplace").decode("utf-8"))
        raise SpecError(
            f"'{shown}' is not UTF-8 text (a file or folder name in another encoding): rename it"
        ) from None
    return spec


@dataclass(frozen=True)
class Param:
    """One declared parameter of a game (or agent) with its type, default and range."""

    name: str
    kind: type
    default: Any
    help: str
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] | None = None
    default_text: str | None = None
    """How to show a default of None (e.g. "drawn from the seed")."""

    def describe(self) -> str:
        """One line for listings: ``rows=6 (int, 4..20): board rows``."""
        if self.choices:
            domain = "|".join(self.choices)
        else:
            domain = self.kind.__name__
            if self.low is not None or self.high is not None:
                low = "" if self.low is None else _fmt(self.low)
                high = "" if self.high is None else _fmt(self.high)
                domain += f", {low}..{high}"
        shown = self.default_text or "none"
        default = shown if self.default is None else _fmt(self.default)
        return f"{self.name}={default} ({domain}): {self.help}"

    def convert(self, owner: str, raw: Any) -> Any:
        """Turn ``raw`` (a string from a spec, or a Python value) into a checked value."""
        value: Any
        if self.kind is str:
            value = str(raw).strip().lower()
        elif self.kind is bool:
            text = str(raw).strip().lower()
            if raw is True or text in ("1", "true", "yes", "on"):
                value = True
            elif raw is False or text in ("0", "false", "no", "off"):
                value = False
            else:
                raise SpecError(
                    f"{owner}: {self.name}={excerpt(str(raw))} is not a boolean (use 0 or 1)"
                )
        else:
            try:
                if self.kind is int and isinstance(raw, float) and not raw.is_integer():
                    raise ValueError
                value = self.kind(raw)
            except SpecError as exc:  # a kind that checks its values says what is wrong
                raise SpecError(f"{owner}: {exc}") from None
            except (TypeError, ValueError):
                article = "an" if self.kind is int else "a"
                raise SpecError(
                    f"{owner}: {self.name}={excerpt(str(raw))} is not {article} "
                    f"{self.kind.__name__}"
                ) from None
        if self.choices is not None and value not in self.choices:
            raise SpecError(
                f"{owner}: {self.name}={excerpt(str(raw))} is not one of {'|'.join(self.choices)}"
            )
        if (self.low is not None and value < self.low) or (
            self.high is not None and value > self.high
        ):
            low = "" if self.low is None else _fmt(self.low)
            high = "" if self.high is None else _fmt(self.high)
            raise SpecError(
                f"{owner}: {self.name}={excerpt(str(raw))} is out of range ({low}..{high})"
            )
        return value


def _fmt(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value)) if abs(value) >= 1 else str(value)
    return str(value)


def split_spec(text: str) -> tuple[str, dict[str, str]]:
    """Split ``name:key=value,...`` into the name and its raw ``key -> value`` strings."""
    if not isinstance(text, str) or not text.strip():
        raise SpecError("empty spec: expected name[:key=value,...]")
    name, _, rest = text.strip().partition(":")
    name = name.strip().lower()
    if not name:
        raise SpecError(f"spec {excerpt(text)!r} has no name: expected name[:key=value,...]")
    return name, split_pairs(rest, name)


def split_pairs(
    text: str, owner: str = "", keys: Collection[str] | None = None, separators: str = ","
) -> dict[str, str]:
    """The ``key=value`` items of ``text`` as raw strings: the one parser behind every
    mini-language (specs, budgets, SPRT settings, the line protocol's limits).

    Keys are lower-cased; items are split on any of ``separators``. With ``keys``
    an unknown key is an error; errors start with ``owner``.

    >>> split_pairs("elo0=0 ELO1=20", "SPRT", ("elo0", "elo1"), separators=", ")
    {'elo0': '0', 'elo1': '20'}
    >>> split_pairs("depth=2,depth=3", "budget")
    Traceback (most recent call last):
    ...
    arena.core.errors.SpecError: budget: parameter depth given twice
    """
    prefix = f"{owner}: " if owner else ""
    raw: dict[str, str] = {}
    # With white space among the separators a run such as ", " is one separator;
    # otherwise two commas in a row leave an empty, malformed item.
    fold = "+" if any(c.isspace() for c in separators) else ""
    items = re.split(f"[{re.escape(separators)}]{fold}", text.strip()) if text.strip() else []
    for item in items:
        key, eq, value = item.partition("=")
        key = key.strip().lower()
        if not eq or not key or not value.strip():
            raise SpecError(
                f"{prefix}malformed parameter {excerpt(item.strip())!r}: expected key=value"
            )
        if keys is not None and key not in keys:
            raise SpecError(f"{prefix}unknown parameter {excerpt(key)!r}; valid: {', '.join(keys)}")
        if key in raw:
            raise SpecError(f"{prefix}parameter {excerpt(key)} given twice")
        raw[key] = value.strip()
    return raw


def with_params(spec: str, **params: object) -> str:
    """``spec`` with parameters added at its end (the caller knows they are not there).

    >>> with_params("mcts", time=0.5, seed=3), with_params("mcts:c=1 ", seed=3)
    ('mcts:time=0.5,seed=3', 'mcts:c=1,seed=3')
    """
    text = spec.strip()
    extra = ",".join(f"{key}={value}" for key, value in params.items())
    return f"{text}{',' if ':' in text else ':'}{extra}"


def bind_params(
    owner: str, params: Sequence[Param], given: Mapping[str, Any], hint: str = ""
) -> dict[str, Any]:
    """Check ``given`` against the declared ``params`` and fill in the defaults; an
    unknown key's error ends with ``hint`` (where such a parameter goes instead)."""
    known = {p.name: p for p in params}
    for key in given:
        if key not in known:
            valid = ", ".join(p.describe() for p in params) or "none"
            more = f"; {hint}" if hint else ""
            raise SpecError(f"{owner}: unknown parameter {excerpt(key)!r}; valid: {valid}{more}")
    return {
        p.name: p.convert(owner, given[p.name]) if p.name in given else p.default for p in params
    }


def format_spec(name: str, values: Mapping[str, Any], params: Sequence[Param]) -> str:
    """The canonical spec string: every parameter that differs from its default, in order."""
    parts = [f"{p.name}={_fmt(values[p.name])}" for p in params if values[p.name] != p.default]
    return name + (":" + ",".join(parts) if parts else "")


def is_digits(text: str) -> bool:
    """True for a non-empty run of ASCII digits: what ``int`` may parse as a count.

    ``str.isdigit`` alone also admits characters such as ``'²'`` that ``int`` rejects,
    and ``int`` refuses more than 4,300 digits (Python's guard against slow parsing).

    >>> is_digits("42"), is_digits("²"), is_digits("-1"), is_digits(""), is_digits("9" * 5000)
    (True, False, False, False, False)
    """
    return text.isascii() and text.isdigit() and len(text) <= INT_DIGITS


INT_DIGITS = 4300
"""The most digits ``int`` parses (``sys.int_info.default_max_str_digits``)."""
