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

_BUDGETS = ("rollouts", "depth", "nodes")


@dataclass(frozen=True)
class TimeControl:
    initial: float | None = 15.0
    increment: float = 1.0
    per_move: float | None = None
    budget: Limit | None = None

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        t = text.strip().lower()
        usage = (
            f"time control {text!r}: expected INITIAL+INCREMENT (e.g. 15+1), "
            "move:SECONDS or a budget such as rollouts=100"
        )
        try:
            if t.startswith("move:"):
                seconds = float(t[5:])
                if not seconds > 0:
                    raise ValueError
                return cls(initial=None, increment=0.0, per_move=seconds)
            if "=" in t:
                fields = {}
                for item in t.split(","):
                    key, _, value = item.partition("=")
                    if key.strip() not in _BUDGETS:
                        raise SpecError(f"{usage}; budgets: {', '.join(_BUDGETS)}")
                    fields[key.strip()] = int(value)
                return cls(initial=None, increment=0.0, budget=Limit(**fields))
            base, plus, inc = t.partition("+")
            if not plus:
                raise ValueError
            initial, increment = float(base), float(inc)
            if not initial > 0 or increment < 0:
                raise ValueError
            return cls(initial=initial, increment=increment)
        except (ValueError, TypeError):
            raise SpecError(usage) from None

    @property
    def timed(self) -> bool:
        return self.budget is None

    def describe(self) -> str:
        if self.budget is not None:
            return f"budget {self.budget!r}"
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
        but a move that overruns the clock still loses.
        """
        if self.budget is not None:
            return self.budget
        if self.per_move is not None:
            return Limit(time=self.per_move)
        assert remaining is not None
        share = remaining / max(plies_left_estimate, 1) + 0.8 * self.increment
        ceiling = max(remaining - max(0.05, 0.05 * remaining), 0.001)
        return Limit(time=max(0.001, min(share, ceiling)), clock=max(remaining, 0.001))
