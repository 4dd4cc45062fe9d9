"""Time controls: how much time each player has, and how much one move may use.

``15+1``      Fischer: 15 s on the clock, 1 s added after each move (the default).
``move:10``   a fixed 10 s per move (the Othello assignment's rule).
``move:2,first:30``  2 s a move, but 30 s for each player's first move (the Colosseum
              course's rule); ``first:`` goes with a Fischer clock too (``15+1,first:30``).
``rollouts=100`` (or ``depth=4``, ``nodes=5000``) a fixed budget of work and no clock.

>>> TimeControl.parse("15+1")
TimeControl(initial=15.0, increment=1.0, per_move=None, budget=None, first=None)
>>> TimeControl.parse("move:10").describe()
'10 s per move'
>>> TimeControl.parse("rollouts=100").budget
Limit(rollouts=100)
>>> str(TimeControl.parse("2.50+0.10")), str(TimeControl.moving(10)), str(TimeControl())
('2.5+0.1', 'move:10', '15+1')
>>> control = TimeControl.parse("move:2,first:30")
>>> str(control), control.describe()
('move:2,first:30', '2 s per move, 30 s for each first move')
>>> TimeControl.parse("15")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
arena.core.errors.SpecError: time control '15': expected INITIAL+INCREMENT (e.g. 15+1), ...

Tests: tests/compete/test_match.py
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from arena.core.errors import SpecError, excerpt
from arena.core.game import State
from arena.core.limit import Limit
from arena.core.spec import split_pairs

SHARE_MOVES = 30
"""The moves the referee's default share (``Limit.time``) divides a clock by."""

_BUDGETS = ("rollouts", "depth", "nodes")


@dataclass(frozen=True)
class TimeControl:
    """A parsed time control; ``str()`` gives its canonical text (what a results
    database stores), and :meth:`parse` reads that text back to an equal value."""

    initial: float | None = 15.0
    increment: float = 1.0
    per_move: float | None = None
    budget: Limit | None = None
    first: float | None = None
    """Seconds for each player's first move, timed on its own, off the clock (None: none)."""

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
        base, comma, extra = t.partition(",first:")
        if comma:
            return cls._parse_first(text, cls.parse(base), extra)
        if t.startswith("move:"):
            return cls._parse_moving(text, t[5:])
        if "=" in t:
            return cls._parse_budget(text, t)
        return cls._parse_fischer(text, t)

    @classmethod
    def _parse_first(cls, text: str, base: TimeControl, seconds: str) -> TimeControl:
        """``BASE,first:SECONDS``: a first-move allowance on a clock or a move time.

        >>> TimeControl.parse("rollouts=10,first:30")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        arena.core.errors.SpecError: time control 'rollouts=10,first:30': first: goes after ...)
        >>> TimeControl.parse("move:2,first:0")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        arena.core.errors.SpecError: time control 'move:2,first:0': the first move's time ...
        """
        if base.budget is not None or base.first is not None:
            raise SpecError(
                f"time control {text!r}: first: goes after a clock or a move time counted in "
                "seconds (move:2,first:30 or 15+1,first:30)"
            )
        try:
            value = float(seconds)
        except ValueError:
            raise SpecError(
                f"time control {text!r}: expected first:SECONDS, e.g. move:2,first:30"
            ) from None
        if not value > 0 or value != value:
            raise SpecError(
                f"time control {text!r}: the first move's time must be > 0, not {seconds}"
            )
        return replace(base, first=value)

    @classmethod
    def _parse_moving(cls, text: str, seconds: str) -> TimeControl:
        try:
            value = float(seconds)
        except ValueError:
            raise SpecError(
                f"time control {excerpt(text)!r}: expected move:SECONDS, e.g. move:10"
            ) from None
        if not value > 0:
            raise SpecError(
                f"time control {excerpt(text)!r}: a move's time must be > 0, not {value:g}"
            )
        return cls.moving(value)

    @classmethod
    def _parse_budget(cls, text: str, t: str) -> TimeControl:
        owner = f"budget {excerpt(text)!r}"
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
                raise SpecError(f"{owner}: {key} must be a whole number > 0, not {excerpt(value)}")
        return cls.budgeted(Limit(**counts))

    @classmethod
    def _parse_fischer(cls, text: str, t: str) -> TimeControl:
        usage = (
            f"time control {excerpt(text)!r}: expected INITIAL+INCREMENT (e.g. 15+1), "
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
            raise SpecError(
                f"time control {excerpt(text)!r}: the initial time must be > 0, not {base}"
            )
        if not increment >= 0:
            raise SpecError(
                f"time control {excerpt(text)!r}: the increment must be >= 0, not {inc}"
            )
        return cls(initial=initial, increment=increment)

    def __str__(self) -> str:
        if self.first is not None:
            return f"{replace(self, first=None)},first:{_number(self.first)}"
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
        if self.first is not None:
            return f"{replace(self, first=None).describe()}, {self.first:g} s for each first move"
        if self.budget is not None:
            return f"budget {self}"
        if self.per_move is not None:
            return f"{self.per_move:g} s per move"
        return f"{self.initial:g} s + {self.increment:g} s per move"

    def start(self) -> float | None:
        """Time on each clock at the start (None: no clock)."""
        return self.initial if self.budget is None and self.per_move is None else None

    def allotment(
        self,
        remaining: float | None,
        plies_left_estimate: int = SHARE_MOVES,
        *,
        first_move: bool = False,
    ) -> Limit:
        """The limit one move is searched with.

        A player's first move under ``first:`` has that allowance as its move time, off
        the clock.

        A fixed move time or budget gives itself. On a Fischer clock the mover
        spends a share of what is left plus most of the increment, never more
        than the clock minus a safety margin — the agent's deadline is hard,
        but a move that overruns the clock still loses. The limit carries the
        clock and the increment too: agents that manage their own time decide
        from them (:mod:`arena.search.clock.time_management`), the others use ``time``.

        >>> TimeControl.parse("1+0.1").allotment(1.0)
        Limit(time=0.113333, clock=1.0, increment=0.1)
        """
        if self.budget is not None:
            return self.budget
        if first_move and self.first is not None:
            return Limit(time=self.first)
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

    def overrun(
        self, remaining: float | None, spent: float, grace: float, *, first_move: bool = False
    ) -> str:
        """Why a move of ``spent`` seconds loses on time ("" when it does not).

        >>> TimeControl.parse("move:2,first:30").overrun(None, 25.0, 0.05, first_move=True)
        ''
        >>> TimeControl.parse("move:2,first:30").overrun(None, 25.0, 0.05)
        '25.000 s for a 2 s move'
        """
        if first_move and self.first is not None:
            if spent > self.first + grace:
                return f"{spent:.3f} s for a {self.first:g} s first move"
            return ""
        if self.per_move is not None and spent > self.per_move + grace:
            return f"{spent:.3f} s for a {self.per_move:g} s move"
        if remaining is not None and spent > remaining + grace:
            return f"{spent:.3f} s with {remaining:.3f} s on the clock"
        return ""


@dataclass
class Clock:
    """One player's time in a game under ``control``: the limit of each move and its charge.

    >>> clock = Clock.start(TimeControl.parse("10+1,first:30"))
    >>> clock.limit(), clock.charge(25.0, grace=0.05), clock.remaining
    (Limit(time=30.0), '', 10.0)
    >>> clock.limit().clock, clock.charge(4.0, grace=0.05), clock.remaining
    (10.0, '', 7.0)
    >>> clock.charge(7.5, grace=0.05)
    '7.500 s with 7.000 s on the clock'
    """

    control: TimeControl
    remaining: float | None
    """Seconds on the clock (None: no clock)."""
    moves: int = 0
    """Moves this player has made in the game."""

    @classmethod
    def start(cls, control: TimeControl) -> Clock:
        return cls(control, control.start())

    @property
    def first_move(self) -> bool:
        """Whether the next move is the player's first under a ``first:`` allowance."""
        return self.control.first is not None and self.moves == 0

    def limit(self, plies_left_estimate: int = SHARE_MOVES) -> Limit:
        """The limit of the player's next move (``plies_left_estimate``: the moves its
        default share divides the clock by, :func:`moves_to_share`)."""
        return self.control.allotment(
            self.remaining, plies_left_estimate, first_move=self.first_move
        )

    def allowance(self) -> float | None:
        """Seconds the next move may take before it loses on time, the grace apart (None:
        no limit): the first-move allowance, the move time, or what is on the clock.

        >>> clock = Clock.start(TimeControl.parse("10+1,first:30"))
        >>> clock.allowance(), clock.charge(2.0, grace=0.05), clock.allowance()
        (30.0, '', 10.0)
        """
        if self.first_move:
            return self.control.first
        if self.control.per_move is not None:
            return self.control.per_move
        return self.remaining

    def shown(self, spent: float = 0.0) -> float | None:
        """What a clock face shows with ``spent`` seconds into the move (None: no clock): the
        time left on the clock, or of the first move's allowance while it lasts."""
        left = self.allowance() if self.first_move or self.remaining is None else self.remaining
        return None if left is None else max(0.0, left - spent)

    def charge(self, spent: float, grace: float) -> str:
        """Charge a move of ``spent`` seconds: why it lost on time, or "" (then the clock
        loses ``spent`` and gains the increment; a first move under ``first:`` is free)."""
        over = self.control.overrun(self.remaining, spent, grace, first_move=self.first_move)
        if over:
            return over
        if self.remaining is not None and not self.first_move:
            self.remaining = self.remaining - spent + self.control.increment
        self.moves += 1
        return ""


def _number(seconds: float | None) -> str:
    """Seconds as the shortest text that reads back to the same float."""
    assert seconds is not None
    return str(int(seconds)) if float(seconds).is_integer() else repr(float(seconds))


def moves_to_share(state: State) -> int:
    """The moves the referee divides the mover's clock by for its default share: 30, or
    the player's half of the plies the position expects (``State.expected_plies_left``)
    when that is more, so an agent that only reads ``Limit.time`` lasts a 19x19 Go game.

    >>> import arena
    >>> moves_to_share(arena.load_game("connect4").initial_state())
    30
    >>> moves_to_share(arena.load_game("go:size=19").initial_state())
    180
    """
    expected = state.expected_plies_left()
    return SHARE_MOVES if expected is None else max(SHARE_MOVES, int(expected / 2))
