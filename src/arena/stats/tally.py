"""Wins, draws and losses of one player: the one count behind standings, a match's
SPRT stop and the experiments' score rows.

>>> from arena.formats.record import GameRecord
>>> games = [GameRecord("tictactoe", ("a", "b"), returns=(1, -1)),
...          GameRecord("tictactoe", ("b", "a"), returns=(0, 0))]
>>> Tally.of(games, "a")
Tally(wins=1, draws=1, losses=0)
>>> Tally.of(games, "b").points, Tally.of(games, "a").score
(0.5, 0.75)

Tests: tests/stats/test_tally.py
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace

from arena.core.errors import ArenaError
from arena.formats.record import GameRecord


@dataclass(frozen=True)
class Tally:
    wins: int = 0
    draws: int = 0
    losses: int = 0

    def __iter__(self) -> Iterator[int]:
        """``wins, draws, losses = tally``, as the statistics functions take them."""
        return iter((self.wins, self.draws, self.losses))

    @classmethod
    def of(cls, records: Iterable[GameRecord], player: str) -> Tally:
        """The tally of ``player`` (its name in the records), whichever colour it had;
        forfeits count as the losses they are."""
        tally = cls()
        for record in records:
            tally = tally.add(record, player)
        return tally

    def add(self, record: GameRecord, player: str) -> Tally:
        """This tally after one more game of ``player``."""
        if player not in record.players:
            raise ArenaError(f"{player!r} did not play {' vs '.join(record.players)}")
        result = record.returns[record.players.index(player)]
        if result > 0:
            return replace(self, wins=self.wins + 1)
        if result < 0:
            return replace(self, losses=self.losses + 1)
        return replace(self, draws=self.draws + 1)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        return self.wins + self.draws / 2

    @property
    def score(self) -> float:
        """Points per game (0 before any game)."""
        return self.points / self.games if self.games else 0.0
