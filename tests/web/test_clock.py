"""The board's running clocks without a browser or an event loop: a fake time and timer."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from arena.compete.timecontrol import TimeControl
from arena.web.clock import FLAG_GRACE, BoardClock, check_clock
from arena.web.messages import BadMessage


@dataclass
class Timer:
    at: float
    call: Callable[..., None]
    args: tuple[Any, ...]
    cancelled: bool = False

    def cancel(self) -> None:
        self.cancelled = True


@dataclass
class FakeLoop:
    """Seconds that pass when told to, and the timers due by then."""

    now: float = 0.0
    timers: list[Timer] = field(default_factory=list)

    def time(self) -> float:
        return self.now

    def later(self, wait: float, call: Callable[..., None], *args: Any) -> Timer:
        timer = Timer(self.now + wait, call, args)
        self.timers.append(timer)
        return timer

    def advance(self, seconds: float) -> None:
        self.now += seconds
        for timer in list(self.timers):
            if not timer.cancelled and timer.at <= self.now:
                self.timers.remove(timer)
                timer.call(*timer.args)

    def pending(self) -> list[Timer]:
        return [t for t in self.timers if not t.cancelled]


def board_clock(text: str | None) -> tuple[BoardClock, FakeLoop, list[tuple[int, bool]]]:
    loop, flags = FakeLoop(), []
    control = None if text is None else TimeControl.parse(text)
    on_flag = lambda side, fell: flags.append((side, fell))  # noqa: E731
    clock = BoardClock(control, on_flag, loop.time, loop.later)
    return clock, loop, flags


def test_a_side_is_charged_only_while_its_clock_runs() -> None:
    clock, loop, _ = board_clock("60+0")
    clock.run(0, grace=0.0)
    loop.advance(3.0)
    clock.stop()  # the board looks back: the clock stops
    loop.advance(100.0)
    assert clock.shown() == [57.0, 60.0] and clock.running is None
    clock.run(0, grace=0.0)  # and runs on from there
    loop.advance(2.0)
    assert clock.shown() == [55.0, 60.0] and clock.running == 0
    clock.run(1, grace=0.0)  # the other side's turn: the first clock stops
    loop.advance(1.0)
    assert clock.shown() == [55.0, 59.0] and clock.running == 1


def test_a_move_adds_the_increment_and_the_next_move_starts_afresh() -> None:
    clock, loop, _ = board_clock("10+1")
    clock.run(0, grace=0.0)
    loop.advance(3.0)
    assert clock.charge(0, grace=0.0) is False
    assert clock.shown() == [8.0, 10.0] and clock.running is None and clock.spent == [0.0, 0.0]


def test_the_flag_falls_when_the_time_and_the_grace_are_up() -> None:
    clock, loop, flags = board_clock("move:2")
    clock.run(1, grace=FLAG_GRACE)
    loop.advance(2.0)
    assert flags == []  # the grace is not over yet
    loop.advance(FLAG_GRACE)
    assert flags == [(1, True)] and clock.running is None and clock.flag is None


def test_a_stopped_clock_has_no_flag_timer_and_a_move_in_time_cancels_it() -> None:
    clock, loop, flags = board_clock("move:2")
    clock.run(0, grace=0.0)
    loop.advance(1.0)
    assert clock.charge(0, grace=0.0) is False
    loop.advance(10.0)
    assert flags == [] and loop.pending() == []


def test_a_move_that_comes_after_the_time_is_up_loses() -> None:
    clock, loop, _ = board_clock("move:2")
    clock.run(0, grace=FLAG_GRACE)
    loop.now += 2.5  # the event loop was busy: the flag timer has not fired yet
    assert clock.charge(0, grace=FLAG_GRACE) is True


def test_the_first_move_allowance_is_the_first_moves_limit_and_off_the_clock() -> None:
    clock, loop, _ = board_clock("move:2,first:30")
    limit = clock.move_limit(0)
    assert limit is not None and limit.time == pytest.approx(30.0)
    clock.run(0, grace=0.0)
    loop.advance(20.0)
    clock.stop()
    limit = clock.move_limit(0)
    assert limit is not None and limit.time == pytest.approx(10.0)  # what is left of it
    assert clock.charge(0, grace=0.0) is False
    limit = clock.move_limit(0)
    assert limit is not None and limit.time == pytest.approx(2.0)


def test_a_long_clock_still_limits_a_move_to_the_boards_most() -> None:
    clock, _, _ = board_clock("3600+0")
    limit = clock.move_limit(0)
    assert limit is not None and limit.time is not None and limit.time <= 60.0
    assert limit.clock == pytest.approx(3600.0)


def test_without_a_clock_nothing_runs() -> None:
    clock, loop, flags = board_clock(None)
    clock.run(0, grace=FLAG_GRACE)
    loop.advance(1000.0)
    assert clock.shown() is None and clock.running is None and clock.move_limit(0) is None
    assert clock.charge(0, grace=0.0) is False and flags == [] and loop.timers == []


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("rollouts=100", "'clock' is INITIAL"),
        (60, "'clock' is INITIAL"),
        ("9000+0", "at most 7200 s"),
        ("60+61", "increments at most 60 s"),
    ],
)
def test_a_clock_the_board_cannot_keep_is_refused(text: Any, error: str) -> None:
    with pytest.raises(BadMessage, match=error):
        check_clock(text)


def test_a_clock_from_the_browser_reads_as_arena_match_reads_it() -> None:
    assert check_clock("") is None and check_clock(None) is None
    assert check_clock("move:2,first:30") == TimeControl.parse("move:2,first:30")
