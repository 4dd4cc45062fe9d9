"""GTP time keeping: ``time_settings`` and ``time_left`` turned into a per-move :class:`Limit`.

GTP (section 4.2) knows three systems, all set by ``time_settings MAIN BYO STONES``:
absolute (``BYO = 0``: MAIN seconds for the whole game), Canadian byo-yomi
(MAIN, then BYO seconds for every STONES moves) and none (``BYO > 0`` with
``STONES = 0``). The controller may correct our idea of the clock at any time
with ``time_left COLOUR TIME STONES`` (``STONES = 0``: still in main time).

>>> clock = GTPClock()
>>> clock.limit(0, 40) is None  # no time settings: the agent's own default
True
>>> clock.settings(60, 0, 0)
>>> clock.limit(0, 40)  # a share of the 60 s, with the clock as the hard bound
Limit(time=1.5, clock=60.0)
>>> clock.spend(0, 30.0); clock.limit(0, 5)
Limit(time=3.0, clock=30.0)
>>> clock.settings(0, 10, 5)  # byo-yomi only: 10 s for every 5 moves
>>> clock.limit(1, 40)
Limit(time=1.6, clock=10.0, moves_to_go=5)
>>> clock.settings(0, 1e300, 1)  # absurd: no limit, the engine's default time
>>> clock.limit(0, 40) is None
True

A clock of more than :data:`NO_LIMIT` seconds (a day) is taken as no limit: the
agent searches its default time, never for centuries (``time_settings 0 1e300 1``
or ``100000000 0 0`` would otherwise leave ``genmove`` unanswered).

Tests: tests/remote/gtp/test_server.py
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.core.limit import Limit

# Spend this share of the time per move in byo-yomi, keeping the rest as a margin
# for the answer's way back through the controller.
_BYO_SHARE = 0.8
_MIN_MOVES_LEFT = 10
_FLOOR = 0.001
NO_LIMIT = 86_400.0
"""Clocks beyond a day of thinking are no limit (the engine's default time)."""


@dataclass
class _Side:
    main: float = 0.0
    """Main time left."""
    period: float = 0.0
    """Time left in the current byo-yomi period (once main time is over)."""
    stones: int = 0
    """Moves still to play in the current period; 0 while in main time."""


class GTPClock:
    """Both players' clocks as far as the engine knows them."""

    def __init__(self) -> None:
        self.main = 0.0
        self.byo = 0.0
        self.stones = 0
        self.timed = False
        self.sides = (_Side(), _Side())

    def settings(self, main: float, byo: float, stones: int) -> None:
        """``time_settings``: both clocks start again. Values are checked by the caller."""
        self.main, self.byo, self.stones = main, byo, stones
        no_limits = (byo > 0 and stones == 0) or (main <= 0 and byo <= 0)
        self.timed = not no_limits
        self.sides = (_Side(main), _Side(main))
        for side in self.sides:
            self._enter_byo(side, 0.0)

    def time_left(self, player: int, seconds: float, stones: int) -> None:
        """``time_left``: the controller's word on ``player``'s clock."""
        side = self.sides[player]
        if stones == 0:
            side.main, side.stones = seconds, 0
        else:
            side.main, side.period, side.stones = 0.0, seconds, stones

    def spend(self, player: int, seconds: float) -> None:
        """``player`` used ``seconds`` on a move (our own bookkeeping between time_left)."""
        if not self.timed:
            return
        side = self.sides[player]
        if side.stones == 0:
            side.main -= seconds
            if side.main > 0 or self.stones == 0:
                return
            self._enter_byo(side, -side.main)
            return
        side.period -= seconds
        side.stones -= 1
        if side.stones == 0:
            self._enter_byo(side, 0.0)

    def _enter_byo(self, side: _Side, overrun: float) -> None:
        # Main time over (or none at all): a fresh period, less what the last move overran.
        if side.main <= 0 and self.stones > 0:
            side.main, side.period, side.stones = 0.0, self.byo - overrun, self.stones

    def limit(self, player: int, moves_left: int) -> Limit | None:
        """The per-move limit for ``player``, or None when there is no clock.

        In main time: what is left over ``max(10, moves_left)`` moves (plus the
        byo-yomi that follows, if any, as a bound). In byo-yomi: most of the
        period's time shared over its remaining moves.
        """
        if not self.timed:
            return None
        side = self.sides[player]
        if max(side.main, side.period, self.byo) > NO_LIMIT:
            return None
        togo = None
        if side.stones == 0:
            share = side.main / max(_MIN_MOVES_LEFT, moves_left)
            hard = side.main + (self.byo if self.stones > 0 else 0.0)
        else:
            share = _BYO_SHARE * side.period / side.stones
            hard = side.period
            togo = side.stones
        return Limit(
            time=max(_FLOOR, round(share, 6)), clock=max(_FLOOR, round(hard, 6)), moves_to_go=togo
        )
