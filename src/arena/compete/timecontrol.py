"""Time controls: how much time each player has, and how much one move may use.

``15+1``      Fischer: 15 s on the clock, 1 s added after each move (the default).
``move:10``   a fixed 10 s per move (the Othello assignment's rule).
``rollouts=100`` (or ``depth=4``, ``nodes=5000``) a fixed budget of work and no clock.

>>> TimeControl.parse("15+1")
TimeControl(initial=15.0, increment=1.0, per_move=None, budget=None)
>>> TimeControl.parse("move:10").describe()
'10 s per move'
>>> TimeControl.parse("rollouts=100").budget
Limit(rollouts=100)
>>> str(TimeControl.parse("2.50+0.10")), str(TimeControl.moving(10)), str(TimeControl())
('2.5+0.1', 'move:10', '15+1')
>>> TimeControl.parse("15")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
arena.core.errors.SpecError: time control '15': expected INITIAL+INCREMENT (e.g. 15+1), ...

Tests: tests/compete/test_match.py
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.core.errors import SpecError
from arena.core.limit import Limit
from arena.core.spec import split_pairs

_BUDGETS = ("rollouts", "depth", "nodes")


@dataclass(frozen=True)
class TimeControl:
    """A parsed time control; ``str()`` gives its canonical text (what a results
    database stores), and :meth:`parse` reads that text back to an equal value."""

    initial: float | None = 15.0
    increment: float = 1.0
    per_move: float | None = None
    budget: Limit | None = None

    @classmethod
    def moving(cls, seconds: float) -> TimeControl:
        """A fixed time per move (``move:SECONDS``)."""
        if not seconds > 0:
            raise SpecError(f"time control: a move's time must be > 0, not {seconds:g}")
        return cls(initial=None, increment=0.0, per_move=float(seconds))

    @classmethod
    def budgeted(cls, budget: Limit) -> TimeControl:
        """No clock: a fixed amount of work per move (``rollouts=100``)."""
        return cls(initial=None, increment=0.0, budget=budget)

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """Read ``15+1``, ``move:10`` or a budget such as ``rollouts=100``.

        An error names what is wrong with the form the text was written in:

        >>> TimeControl.parse("rollouts=0")
        Traceback (most recent call last):
        ...
        arena.core.errors.SpecError: budget 'rollouts=0': rollouts must be a whole number > 0, not 0
        >>> TimeControl.parse("time=1")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        arena.core.errors.SpecError: budget 'time=1': unknown parameter 'time'; ... move:SECONDS)
        >>> TimeControl.parse("-5+1")
        Traceback (most recent call last):
        ...
        arena.core.errors.SpecError: time control '-5+1': the initial time must be > 0, not -5
        """
        t = text.strip().lower()
        if t.startswith("move:"):
            return cls._parse_moving(text, t[5:])
        if "=" in t:
            return cls._parse_budget(text, t)
        return cls._parse_fischer(text, t)

    @classmethod
    def _parse_moving(cls, text: str, seconds: str) -> TimeControl:
        try:
            value = float(seconds)
        except ValueError:
            raise SpecError(f"time control {text!r}: expected move:SECONDS, e.g. move:10") from None
        if not value > 0:
            raise SpecError(f"time control {text!r}: a move's time must be > 0, not {value:g}")
        return cls.moving(value)

    @classmethod
    def _parse_budget(cls, text: str, t: str) -> TimeControl:
        owner = f"budget {text!r}"
        try:
            fields = split_pairs(t, keys=_BUDGETS)
        except SpecError as problem:
            raise SpecError(
                f"{owner}: {problem} (a budget counts work; for seconds per move use move:SECONDS)"
            ) from None
        counts = {}
        for key, value in fields.items():
            try:
                counts[key] = int(value)
            except ValueError:
                counts[key] = 0
            if counts[key] < 1:
                raise SpecError(f"{owner}: {key} must be a whole number > 0, not {value}")
        return cls.budgeted(Limit(**counts))

    @classmethod
    def _parse_fischer(cls, text: str, t: str) -> TimeControl:
        usage = (
            f"time control {text!r}: expected INITIAL+INCREMENT (e.g. 15+1), "
            "move:SECONDS or a budget such as rollouts=100"
        )
        # The sign of the initial time is not a separator: '-5+1' is -5 and 1.
        base, plus, inc = t[1:].partition("+") if t.startswith("-") else t.partition("+")
        if t.startswith("-"):
            base = "-" + base
        if not plus:
            raise SpecError(usage)
        try:
            initial, increment = float(base), float(inc)
        except ValueError:
            raise SpecError(usage) from None
        if not initial > 0:
            raise SpecError(f"time control {text!r}: the initial time must be > 0, not {base}")
        if not increment >= 0:
            raise SpecError(f"time control {text!r}: the increment must be >= 0, not {inc}")
        return cls(initial=initial, increment=increment)

    def __str__(self) -> str:
        if self.budget is not None:
            return ",".join(
                f"{key}={getattr(self.budget, key)}"
                for key in _BUDGETS
                if getattr(self.budget, key) is not None
            )
        if self.per_move is not None:
            return f"move:{_number(self.per_move)}"
        return f"{_number(self.initial)}+{_number(self.increment)}"

    @property
    def timed(self) -> bool:
        return self.budget is None

    def describe(self) -> str:
        if self.budget is not None:
            return f"budget {self}"
        if self.per_move is not None:
            return f"{self.per_move:g} s per move"
        return f"{self.initial:g} s + {self.increment:g} s per move"

    def start(self) -> float | None:
        """Time on each clock at the start (None: no clock)."""
        return self.initial if self.budget is None and self.per_move is None else None

    def allotment(self, remaining: float | None, plies_left_estimate: int = 30) -> Limit:
        """The limit one move is searched with.

        A fixed move time or budget gives itself. On a Fischer clock the mover
        spends a share of what is left plus most of the increment, never more
        than the clock minus a safety margin — the agent's deadline is hard,
        but a move that overruns the clock still loses. The limit carries the
        clock and the increment too: agents that manage their own time decide
        from them (:mod:`arena.search.timing`), the others use ``time``.

        >>> TimeControl.parse("1+0.1").allotment(1.0)
        Limit(time=0.113333, clock=1.0, increment=0.1)
        """
        if self.budget is not None:
            return self.budget
        if self.per_move is not None:
            return Limit(time=self.per_move)
        assert remaining is not None
        share = remaining / max(plies_left_estimate, 1) + 0.8 * self.increment
        ceiling = max(remaining - max(0.05, 0.05 * remaining), 0.001)
        return Limit(
            time=round(max(0.001, min(share, ceiling)), 6),
            clock=max(remaining, 0.001),
            increment=self.increment or None,
        )


def _number(seconds: float | None) -> str:
    """Seconds as the shortest text that reads back to the same float."""
    assert seconds is not None
    return str(int(seconds)) if float(seconds).is_integer() else repr(float(seconds))
