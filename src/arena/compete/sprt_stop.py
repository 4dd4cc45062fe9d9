"""A match's SPRT stop (``arena match --sprt``): on pairs of games when the openings are paired.

A match with colours alternating plays each opening twice, once with each colour, and the
two games of a pair are not independent: where the opening decides the game for whoever
moves first (Gomoku's random openings: each side won its own game in 46 of 50 pairs), the
pair splits whoever is stronger; a deterministic agent that wins an opening with one
colour often wins it with the other. Counted game by game (the trinomial model), the first
kind of pair makes the test slow to decide and the second makes it decide wrongly more
often than ``alpha`` says (docs/grading.md: 18% instead of 5% on simulated pairs whose
games always end alike). So, as fishtest tests engines on paired openings, the unit is the
pair (the pentanomial model: :meth:`~arena.stats.sprt.SPRT.llr_pairs`), counted in the
plan's order: pair 0, pair 1, ... as each is complete, whatever order ``--jobs`` finishes
the games in, and the test stops at the first pair whose LLR leaves Wald's bounds. Games
still under way then, and an odd last game, do not change the verdict.

With colours fixed (``--colours fixed``: every opening once) the games are independent
and the test counts them one by one, in the order they end.

>>> from arena.compete.plan import Plan
>>> from arena.formats.record import GameRecord
>>> from arena.stats.sprt import SPRT
>>> plan = Plan((("a", "b"),), per_pair=200)
>>> stop = SprtStop(SPRT(0, 20), plan, "a")
>>> for game in plan[:6]:  # each side wins when it moves first: the pairs split
...     stop.add(GameRecord("gomoku", (game.first, game.second), returns=(1, -1),
...                         game_id=game.game_id))
>>> stop.pairs, stop.unit
((0, 0, 3, 0, 0), '3 pairs of games')

Tests: tests/compete/test_sprt_stop.py
"""

from __future__ import annotations

from arena.compete.plan import Plan, parse_game_id
from arena.core.words import plural
from arena.formats.record import GameRecord
from arena.stats.sprt import PAIR_SCORES, SPRT, Verdict, pair_index
from arena.stats.tally import Tally


class SprtStop:
    """The test of ``player`` (the match's first agent) against its opponent over the
    games of ``plan`` as they end (:meth:`add`); :attr:`verdict` is None before the
    first complete pair (or game), then where the test stands, fixed at its decision."""

    def __init__(self, sprt: SPRT, plan: Plan, player: str) -> None:
        self.sprt = sprt
        self.player = player
        self.paired = plan.alternate
        self._pairings = frozenset(plan.pairs)
        self._next = plan.first_round
        """The position of the next pair to count, in the plan's order."""
        self._points: dict[int, list[float]] = {}
        """The points of the games of each position not yet counted."""
        self._pairs = [0] * len(PAIR_SCORES)
        self.tally = Tally()
        """Every game added (what the colours-fixed test counts)."""
        self.verdict: Verdict | None = None

    @property
    def decided(self) -> bool:
        return self.verdict is not None and self.verdict.decision is not None

    @property
    def pairs(self) -> tuple[int, ...]:
        """The pairs counted so far that scored 0, 1/2, 1, 3/2 and 2 points for the player."""
        return tuple(self._pairs)

    @property
    def unit(self) -> str:
        """What the test has counted: ``"12 pairs of games"`` or ``"25 games"``."""
        if self.paired:
            return plural(sum(self._pairs), "pair") + " of games"
        return plural(self.tally.games, "game")

    def add(self, record: GameRecord) -> None:
        """Count one finished game of the plan (after the decision: nothing changes)."""
        if self.decided:
            return
        self.tally = self.tally.add(record, self.player)
        if not self.paired:
            self.verdict = self.sprt.status(*self.tally)
            return
        parsed = parse_game_id(record.game_id, self._pairings)
        if parsed is None:
            return  # not a game of this plan
        result = record.returns[record.players.index(self.player)]
        points = 1.0 if result > 0 else 0.0 if result < 0 else 0.5
        self._points.setdefault(parsed[2], []).append(points)
        while len(self._points.get(self._next, ())) >= 2:
            pair = self._points.pop(self._next)
            self._next += 1
            self._pairs[pair_index(pair[0] + pair[1])] += 1
            self.verdict = self.sprt.status_pairs(self._pairs)
            if self.decided:
                return
