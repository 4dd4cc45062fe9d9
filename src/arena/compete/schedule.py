"""Which games a match or tournament plays: pairings, rounds, openings and colours.

Every position (an opening, and for Colosseum the seeded board) is played
twice with the colours swapped, so neither agent gains from moving first and
two deterministic agents do not replay one game over and over. Each planned
game has a stable ``game_id`` — the results database uses it to resume.

>>> games = plan(["a", "b", "c"], rounds=1)
>>> len(games), games[0].game_id
(6, 'a|b|round=0|first=a')
>>> [(g.first, g.second) for g in plan(["a", "b"], rounds=1)]
[('a', 'b'), ('b', 'a')]

Tests: tests/compete/test_tournament.py
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations
from typing import overload

from arena.core.spec import is_digits


@dataclass(frozen=True)
class PlannedGame:
    game_id: str
    first: str
    second: str
    round: int
    position: int
    """Index of the starting position: the opening number and the seed of the initial state."""


@dataclass(frozen=True)
class Plan(Sequence[PlannedGame]):
    """The games of a match or tournament, made one at a time as they are asked for.

    A plan of any size costs the same memory (its pairings), so a huge ``--games``
    never fills memory before the first game: :attr:`size` says how many games
    there are, iterating yields them in order, and ``game_id in plan`` is answered
    from the id alone (a database's stored games are matched against it that way).

    >>> p = plan(["a", "b", "c"], rounds=2)
    >>> p.size, p[6].game_id, "a|c|round=1|first=c" in p, "a|c|round=2|first=a" in p
    (12, 'a|b|round=1|first=a', True, False)
    """

    pairs: tuple[tuple[str, str], ...]
    per_pair: int
    """Games each pairing plays: positions ``0, 0, 1, 1, ...``, colours alternating."""

    @property
    def size(self) -> int:
        """How many games (unlike ``len``, any size: a refused ``--games 10**30`` too)."""
        return self.per_pair * len(self.pairs)

    def __len__(self) -> int:
        return self.size

    @overload
    def __getitem__(self, index: int) -> PlannedGame: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[PlannedGame]: ...

    def __getitem__(self, index: int | slice) -> PlannedGame | Sequence[PlannedGame]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.size))]
        if index < 0:
            index += self.size
        if not 0 <= index < self.size:
            raise IndexError(index)
        k, which = divmod(index, len(self.pairs))
        return self._game(k, *self.pairs[which])

    def __iter__(self) -> Iterator[PlannedGame]:
        for k in range(self.per_pair):
            for a, b in self.pairs:
                yield self._game(k, a, b)

    def __contains__(self, game_id: object) -> bool:
        if not isinstance(game_id, str):
            return False
        # Names may hold "|" themselves: the round and the first player are the last two parts.
        head, _, first = game_id.rpartition("|first=")
        pair, _, position = head.rpartition("|round=")
        if not is_digits(position) or position != str(int(position)):
            return False
        a, sep, b = pair.partition("|")
        while sep and (a, b) not in self._pair_set:
            more, sep, b = b.partition("|")
            a = f"{a}|{more}"
        if not sep or first not in (a, b):
            return False
        return 2 * int(position) + (first == b) < self.per_pair

    @cached_property
    def _pair_set(self) -> frozenset[tuple[str, str]]:
        return frozenset(self.pairs)

    @staticmethod
    def _game(k: int, a: str, b: str) -> PlannedGame:
        position, swap = divmod(k, 2)
        first, second = (b, a) if swap else (a, b)
        return PlannedGame(
            f"{a}|{b}|round={position}|first={first}", first, second, position, position
        )


def plan(
    agents: list[str], rounds: int, gauntlet: bool = False, games_per_pair: int | None = None
) -> Plan:
    """The games of a round robin (or a gauntlet: the first agent against each other one).

    A round plays every pairing from one new position, once with each colour.
    ``games_per_pair`` (a match's ``--games N``) overrides: N games, colours
    alternating, each position used for two consecutive games. Games are
    ordered round by round, so a run stopped early is balanced across agents.
    """
    pairs = [(agents[0], b) for b in agents[1:]] if gauntlet else list(combinations(agents, 2))
    count = games_per_pair if games_per_pair is not None else 2 * rounds
    return Plan(tuple(pairs), max(count, 0))


def unique_names(specs: list[str]) -> list[str]:
    """Agent names for the tables: a spec given twice gets ``#2``, ``#3``, ...

    >>> unique_names(["mcts", "random", "mcts"])
    ['mcts', 'random', 'mcts#2']
    """
    seen: dict[str, int] = {}
    out = []
    for spec in specs:
        seen[spec] = seen.get(spec, 0) + 1
        out.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
    return out


def spec_of(name: str) -> str:
    """The agent spec behind a table name (``mcts#2`` -> ``mcts``)."""
    base, sep, suffix = name.rpartition("#")
    return base if sep and is_digits(suffix) else name
