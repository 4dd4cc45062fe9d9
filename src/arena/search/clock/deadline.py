"""Deadlines that hold: agents answer within ``Limit.time`` even on a loaded machine.

Two things make a search overrun its time: the last unit of work started
just before the deadline (a long rollout, a deep node), and a garbage
collection pause in the middle of the search. :class:`Deadline` learns the
cost of one unit of work as it goes and stops early enough to finish it; the
``quiet_gc`` context keeps the cyclic collector from scanning a large search
tree while the clock runs (trees are freed by reference counting anyway).

Tests: tests/search/test_search.py, tests/cli/test_cli.py (bench timing)
"""

from __future__ import annotations

import gc
import time

from arena.search.clock.pauses import PAUSES

_clock = time.perf_counter


class SearchTimeout(Exception):
    """Raised inside a search to unwind it when the deadline has passed."""


ANSWER = 0.001
"""Seconds every timed search keeps for its answer's way back (the report, the
return to the referee: 20-300 microseconds measured, Go 19x19's root rows the most)."""
SHARE = 0.02
"""And this share of its time, for the stretch of work or the pause the search has
not yet seen (its :meth:`Deadline.tick` learns the ones it has)."""


def answer_margin(seconds: float) -> float:
    """Seconds before the end of a search of ``seconds`` at which it stops:
    :data:`ANSWER` plus :data:`SHARE` of the time, at most 50 ms and half the time.

    What the clock really costs is a fraction of a millisecond, so short limits
    are nearly all search (a fixed 4 ms used to take 40% of a 10 ms move):

    >>> [round(answer_margin(s) * 1000, 2) for s in (0.002, 0.01, 0.02, 0.05, 1.0, 10.0)]
    [1.0, 1.2, 1.4, 2.0, 21.0, 50.0]
    """
    return min(ANSWER + SHARE * seconds, 0.05, 0.5 * seconds)


MOST = 0.95
"""The largest share of a search's time its margin keeps."""
BUSY_PAUSES = "10-30 ms"
"""How long the operating system stops a process on a machine with more busy processes
than cores (measured on 2 cores at load 4-9)."""


def limit_note(seconds: float, load: float = 0.0, cores: int = 1) -> str:
    """What a limit of ``seconds`` a move buys when that is much less than it says: the
    share kept for the answer, and on a busy machine (``load`` at least ``cores``) the
    pauses no search can use. "" when the limit is long enough.

    >>> limit_note(0.5, load=0.5, cores=2)
    ''
    >>> limit_note(0.005)
    '0.005 s a move: agents keep 1.1 ms of it for the answer and search about 78%'
    >>> print(limit_note(0.02, load=6.0, cores=2))  # doctest: +NORMALIZE_WHITESPACE
    0.02 s a move on a busy machine (load 6.0 on 2 cores): the system pauses a process for
    10-30 ms at a time, which agents keep in reserve once they have seen it (up to 9/10 of
    the move) and which can still make a move late; the referee forgives --grace
    """
    if seconds <= 0:
        return ""
    if load >= cores and seconds < 0.25:
        return (
            f"{seconds:g} s a move on a busy machine (load {load:.1f} on {cores} cores): the "
            f"system pauses a process for {BUSY_PAUSES} at a time, which agents keep in "
            "reserve once they have seen it (up to 9/10 of the move) and which can still "
            "make a move late; the referee forgives --grace"
        )
    kept = answer_margin(seconds)
    if kept / seconds < 0.1:
        return ""
    return (
        f"{seconds:g} s a move: agents keep {kept * 1000:.1f} ms of it for the answer "
        f"and search about {100 * (1 - kept / seconds):.0f}%"
    )


class Deadline:
    """The moment a search must stop, with a margin for returning the answer.

    The margin is :func:`answer_margin` plus the reserve for the pauses this
    process has lately suffered (:data:`arena.search.clock.pauses.PAUSES`: none on a
    quiet machine, the operating system's time slices on a busy one), at most
    :data:`MOST` of the time (``margin=`` sets another: 0 for a part of a move,
    such as an exact solve, whose caller answers with the time left); on top of
    it, ``tick`` remembers the longest unit of work seen and ``expired`` stops
    that much earlier, so the unit that would cross the deadline is never started.
    """

    __slots__ = ("end", "last", "longest", "reserve", "start")

    def __init__(
        self, seconds: float | None, start: float | None = None, margin: float | None = None
    ) -> None:
        self.start = _clock() if start is None else start
        self.reserve = 0.0
        """The pause reserve this deadline keeps (:meth:`finish` learns from it)."""
        if seconds is None:
            self.end = float("inf")
        else:
            if margin is None:
                self.reserve = PAUSES.reserve(seconds)
                margin = min(answer_margin(seconds) + self.reserve, MOST * seconds)
            kept = margin
            self.end = self.start + seconds - kept
        self.last = self.start
        self.longest = 0.0

    def tick(self) -> bool:
        """Record one unit of work; True when the next one may not finish in time.

        A unit is whatever happens between two calls (an MCTS iteration, an
        alpha-beta node with its evaluation); a pause of the process counts
        too, which makes the search more careful for the rest of the move.
        """
        now = _clock()
        spent = now - self.last
        if spent > self.longest:
            self.longest = spent
        self.last = now
        return now + self.longest >= self.end

    expired = tick

    def stop(self) -> None:
        """Make the deadline pass now (safe from another thread: the search stops at its
        next check)."""
        self.end = float("-inf")

    def elapsed(self) -> float:
        return _clock() - self.start

    def finish(self, longest: float = 0.0) -> float:
        """The search answers now: its seconds so far. What it suffered teaches the
        process's pause reserve (:data:`~arena.search.clock.pauses.PAUSES`), so the next
        search of any agent keeps it: an answer later than :attr:`end` (a pause after the
        last look at the clock), as the reserve it would have needed, and ``longest``, the
        longest stretch between two looks a compiled search measured (pauses included).
        The stretches :meth:`tick` sees are not taught: the first includes the search's
        setup (a table, a first compilation), which is no pause.

        >>> from arena.search.clock.pauses import PAUSES
        >>> PAUSES.forget()
        >>> late = Deadline(0.05, start=_clock() - 1.0)  # its end passed a second ago
        >>> round(late.finish(), 1), PAUSES.level() > 0.9
        (1.0, True)
        >>> PAUSES.forget()
        """
        now = _clock()
        if self.end != float("inf") and self.end != float("-inf"):
            seen = longest
            # Late is past the end the reserve protected (``end + reserve``); the answer
            # then needed a reserve of ``now - end``. Measuring from ``end`` alone and
            # adding the reserve counted it twice: every answer's own work after ``end``
            # raised the reserve by that much again, search after search, until the cap
            # left ``best`` 4/10 of its time (0.077 s of 0.2 s, median, at load 5-7).
            if now > self.end + self.reserve:
                seen = max(seen, now - self.end)
            if seen > 0:
                PAUSES.seen(seen)
        return now - self.start


class QuietGC:
    """The context of :func:`quiet_gc` (a class, not a generator: entered on every move's
    clock, where a generator's start and ``StopIteration`` cost more once caches are cold)."""

    __slots__ = ("enabled",)

    def __enter__(self) -> None:
        self.enabled = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc: object) -> None:
        gc.freeze()
        if self.enabled:
            gc.enable()


def quiet_gc() -> QuietGC:
    """No cyclic garbage collection inside the block.

    On the way out, the objects still alive (a kept search tree) are moved
    to the permanent generation with ``gc.freeze`` — O(1) — so the next
    collection does not scan them on somebody's clock. ``release_gc`` gives
    them back and collects, between games, once enough have piled up.

    >>> before = gc.isenabled()
    >>> with quiet_gc():
    ...     gc.isenabled()
    False
    >>> gc.isenabled() == before
    True
    """
    return QuietGC()


GARBAGE_ROOM = 100_000
"""Objects frozen since :func:`release_gc` last collected that it leaves frozen. A full
collection scans every object the process holds -- with numba's compiled code loaded about
120,000, 0.13 s -- and it ran before every game: 60 games of Connect Four with 10 and 20
rollouts a move took 17 s in a fresh process and 158 s in the test suite's, whose heap is
larger. Only cyclic garbage waits for the collection (reference counting frees the rest
frozen or not), so at most this many objects' worth of it is kept: a large search tree
left behind passes the mark at once and is collected at the next game."""

_frozen_after_collection = [0]
"""``gc.get_freeze_count()`` after :func:`release_gc`'s last collection (or lower, when
frozen objects were freed since)."""


def release_gc(room: int = GARBAGE_ROOM) -> bool:
    """Between games: when ``room`` objects or more were frozen since the last collection,
    return them to the collector, collect, and freeze what is left (the long-lived objects:
    compiled code, tables) so the next collections do not scan it again. Whether it
    collected.

    >>> release_gc(room=0)  # collects (room 0: always), then freezes what is alive
    True
    >>> release_gc()  # nothing frozen since
    False
    """
    frozen = gc.get_freeze_count()
    # Frozen objects freed by reference counting lower the count: measure from its lowest.
    _frozen_after_collection[0] = min(_frozen_after_collection[0], frozen)
    if room > 0 and frozen - _frozen_after_collection[0] < room:
        return False
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    _frozen_after_collection[0] = gc.get_freeze_count()
    return True
