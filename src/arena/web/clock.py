"""A board's running clocks: whose clock runs, the flag timer, the times shown.

The accounting (charging a move, increments, first-move allowances, the grace and
whether a flag fell) is the referee's :class:`arena.compete.timecontrol.Clock`, one
per side, so the board and ``arena match`` decide alike. A :class:`BoardClock` adds
what a live board needs around it: the time the side to move has spent on its move
so far (the clock stops while the board looks back, and runs on from there), a timer
that fires when the running side's time is up, and the times to draw.

Time and the timer are given (``now``, ``later``), so the clock runs without an event
loop in tests:

>>> from arena.compete.timecontrol import TimeControl
>>> t = [0.0]
>>> clock = BoardClock(TimeControl.parse("move:2"), lambda side, fell: None,
...                    now=lambda: t[0], later=lambda wait, call, *args: None)
>>> clock.run(0, grace=0.0); t[0] = 1.5; clock.shown()
[0.5, 2.0]
>>> clock.charge(0, grace=0.0), clock.running
(False, None)

Tests: tests/web/test_clock.py, tests/web/test_app.py
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any, Protocol

from arena.compete.timecontrol import SHARE_MOVES, Clock, TimeControl
from arena.core.limit import Limit
from arena.web.catalog import MAX_SECONDS
from arena.web.messages import BadMessage

MAX_CLOCK = 7200.0
"""The longest clock the browser may set, in seconds (increments: at most 60 s)."""
FLAG_GRACE = 0.25
"""Seconds past zero before an agent's clock falls (its answer travels through a thread)."""


class Timer(Protocol):
    def cancel(self) -> None: ...


def check_clock(text: Any) -> TimeControl | None:
    """A clock from the browser (None: none), as ``arena match --time`` reads it: a Fischer
    clock ``"INITIAL+INCREMENT"`` or a hard time per move ``"move:SECONDS"``, either with a
    first-move allowance (``"move:2,first:30"``, the Colosseum course's clock)."""
    if text is None or text == "":
        return None
    usage = "'clock' is INITIAL+INCREMENT or move:SECONDS in seconds (e.g. '60+1'), ,first:S"
    if not isinstance(text, str) or len(text) > 40:
        raise BadMessage(usage)
    control = TimeControl.parse(text)
    if control.budget is not None or (control.initial is None and control.per_move is None):
        raise BadMessage(usage)
    longest = max(control.initial or 0.0, control.per_move or 0.0, control.first or 0.0)
    if longest > MAX_CLOCK or control.increment > MAX_SECONDS:
        raise BadMessage(f"a clock holds at most {MAX_CLOCK:g} s, increments at most 60 s")
    return control


def _call_later(wait: float, call: Callable[..., None], *args: Any) -> Timer:
    return asyncio.get_running_loop().call_later(wait, call, *args)


class BoardClock:
    """Both sides' clocks of one board under ``control`` (None: no clock; then every method
    is a no-op and :meth:`shown` is None).

    ``on_flag(side, fell)`` is called when the timer of ``side`` fires, with the clock
    stopped: ``fell`` tells whether its time is really up (the timer may be late, never
    early). ``now`` reads seconds; ``later(wait, call, *args)`` schedules a call and
    returns what cancels it (by default on the running asyncio loop).
    """

    def __init__(
        self,
        control: TimeControl | None,
        on_flag: Callable[[int, bool], None],
        now: Callable[[], float] = time.monotonic,
        later: Callable[..., Timer] = _call_later,
    ) -> None:
        self.control = control
        self.clocks = None if control is None else [Clock.start(control), Clock.start(control)]
        self.spent = [0.0, 0.0]
        """Seconds each side has spent on the move it is to make."""
        self.running: int | None = None
        """Whose clock runs now (since ``since``)."""
        self.since = 0.0
        self.flag: Timer | None = None
        self._on_flag, self._now, self._later = on_flag, now, later

    def stop(self) -> None:
        """Count the time since the running clock started against its side's move, and stop
        it (and its flag timer)."""
        if self.running is not None and self.clocks is not None:
            self.spent[self.running] += self._now() - self.since
        self.running = None
        if self.flag is not None:
            self.flag.cancel()
            self.flag = None

    def run(self, side: int, grace: float) -> None:
        """Run ``side``'s clock (the other stops), its flag falling ``grace`` seconds past
        zero."""
        self.stop()
        if self.clocks is None:
            return
        self.running, self.since = side, self._now()
        allowance = self.clocks[side].allowance()
        if allowance is None:
            return
        wait = max(0.0, allowance - self.spent[side]) + grace
        self.flag = self._later(wait, self._fire, side)

    def charge(self, side: int, grace: float) -> bool:
        """``side`` just moved at the end of the line: its clock stops and is charged the
        move (the increment added). True: it had run out of time, and lost."""
        self.stop()
        if self.clocks is None:
            return False
        spent, self.spent[side] = self.spent[side], 0.0
        return bool(self.clocks[side].charge(spent, grace))

    def move_limit(self, side: int, share: int = SHARE_MOVES) -> Limit | None:
        """The limit of ``side``'s agent for the move it is to make, with what its clock has
        left (at most :data:`~arena.web.catalog.MAX_SECONDS` a move); None without a clock.
        ``share``: the moves the default share divides the clock by, as the referee's
        (:func:`~arena.compete.timecontrol.moves_to_share`)."""
        if self.clocks is None:
            return None
        given = self.clocks[side].limit(share)
        time_left = (given.time or MAX_SECONDS) - self.spent[side]
        clock_left = None if given.clock is None else given.clock - self.spent[side]
        return Limit(
            time=max(0.001, min(time_left, MAX_SECONDS)),
            clock=None if clock_left is None else max(0.001, clock_left),
            increment=given.increment,
        )

    def shown(self) -> list[float] | None:
        """Each side's time left now, to draw (None without a clock)."""
        if self.clocks is None:
            return None
        spent = list(self.spent)
        if self.running is not None:
            spent[self.running] += self._now() - self.since
        return [round(clock.shown(s) or 0.0, 2) for clock, s in zip(self.clocks, spent)]

    def _fire(self, side: int) -> None:
        self.flag = None
        self.stop()
        allowance = None if self.clocks is None else self.clocks[side].allowance()
        self._on_flag(side, allowance is not None and self.spent[side] >= allowance)
