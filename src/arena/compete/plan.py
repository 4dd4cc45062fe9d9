"""The plan of games: one value that a tournament, a league and the results database share.

A :class:`Plan` is the games of some pairings, each pairing playing the same
number of games from consecutive starting positions, colours swapped from one
game to the next (or, with ``alternate=False``, the first agent of a pairing
first in every game: a handicap match's stronger side always White). Round
robin, gauntlet, a match's ``--games N``, and each round of a league's Swiss /
nearest-rated schedule (:mod:`arena.compete.schedule`) are plans of this kind; a
league's whole run is a :class:`Rounds` of them. Every
planned game has a stable ``game_id`` (``a|b|round=R|first=X``) that the results
database keys its rows on, so a run that stops resumes by asking ``game_id in plan``.

>>> p = Plan((("a", "b"), ("a", "c"), ("b", "c")), per_pair=2)
>>> p.size, p[0].game_id, p[1].game_id
(6, 'a|b|round=0|first=a', 'a|c|round=0|first=a')
>>> later = Plan((("a", "c"),), per_pair=2, first_round=3)
>>> [g.game_id for g in later]
['a|c|round=3|first=a', 'a|c|round=3|first=c']
>>> "a|c|round=3|first=c" in later, "a|c|round=2|first=c" in later
(True, False)

Tests: tests/compete/test_plan.py, tests/compete/test_tournament.py
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
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
    """The games of some pairings, made one at a time as they are asked for.

    A plan of any size costs the same memory (its pairings), so a huge ``--games``
    never fills memory before the first game: :attr:`size` says how many games
    there are, iterating yields them in order, and ``game_id in plan`` is answered
    from the id alone (a database's stored games are matched against it that way).
    Game ``k`` of a pairing starts from position ``first_round + k // 2`` with the
    colours swapped when ``k`` is odd; its round is its position.

    >>> p = Plan((("a", "b"), ("a", "c"), ("b", "c")), per_pair=4)
    >>> p.size, p[6].game_id, "a|c|round=1|first=c" in p, "a|c|round=2|first=a" in p
    (12, 'a|b|round=1|first=a', True, False)

    With ``alternate=False`` game ``k`` starts from position ``first_round + k``, the
    pairing's first agent first every time:

    >>> fixed = Plan((("a", "b"),), per_pair=3, alternate=False)
    >>> [g.game_id for g in fixed], "a|b|round=1|first=b" in fixed
    (['a|b|round=0|first=a', 'a|b|round=1|first=a', 'a|b|round=2|first=a'], False)
    """

    pairs: tuple[tuple[str, str], ...]
    per_pair: int
    """Games each pairing plays: positions ``first_round, first_round, first_round + 1,
    ...``, colours alternating."""
    first_round: int = 0
    """The round (and starting position) of each pairing's first game."""
    alternate: bool = True
    """Colours swapped from one game to the next, each position played twice; False: the
    pairing's first agent is the first player (Black) in every game, each position played
    once."""

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
        parsed = parse_game_id(game_id, self._pair_set)
        if parsed is None:
            return False
        a, b, position, first = parsed
        if not self.alternate:
            return first == a and 0 <= position - self.first_round < self.per_pair
        k = 2 * (position - self.first_round) + (first == b)
        return 0 <= k < self.per_pair

    @cached_property
    def _pair_set(self) -> frozenset[tuple[str, str]]:
        return frozenset(self.pairs)

    def _game(self, k: int, a: str, b: str) -> PlannedGame:
        offset, swap = divmod(k, 2) if self.alternate else (k, 0)
        position = self.first_round + offset
        first, second = (b, a) if swap else (a, b)
        return PlannedGame(
            f"{a}|{b}|round={position}|first={first}", first, second, position, position
        )


def parse_game_id(
    game_id: object, pairs: frozenset[tuple[str, str]]
) -> tuple[str, str, int, str] | None:
    """``(a, b, round, first)`` of a planned game's id whose pairing is in ``pairs``;
    None for any other text.

    >>> parse_game_id("x|y|z|round=2|first=z", frozenset({("x|y", "z")}))
    ('x|y', 'z', 2, 'z')
    >>> parse_game_id("x|y|round=02|first=x", frozenset({("x", "y")})) is None
    True
    """
    if not isinstance(game_id, str):
        return None
    # Names may hold "|" themselves: the round and the first player are the last two parts.
    head, _, first = game_id.rpartition("|first=")
    pair, _, position = head.rpartition("|round=")
    if not is_digits(position) or position != str(int(position)):
        return None
    a, sep, b = pair.partition("|")
    while sep and (a, b) not in pairs:
        more, sep, b = b.partition("|")
        a = f"{a}|{more}"
    if not sep or first not in (a, b):
        return None
    return a, b, int(position), first


@dataclass(frozen=True)
class Rounds(Sequence[PlannedGame]):
    """Plans played one after another (a league's rounds): still one plan of games, with
    a size, an order and ``game_id in rounds``.

    >>> r = Rounds((Plan((("a", "b"),), 2), Plan((("b", "c"),), 2, first_round=1)))
    >>> r.size, [g.game_id for g in r][-1], "b|c|round=1|first=b" in r
    (4, 'b|c|round=1|first=c', True)
    """

    plans: tuple[Plan, ...]

    @property
    def size(self) -> int:
        return sum(p.size for p in self.plans)

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
        for p in self.plans:
            if 0 <= index < p.size:
                return p[index]
            index -= p.size
        raise IndexError(index)

    def __iter__(self) -> Iterator[PlannedGame]:
        for p in self.plans:
            yield from p

    def __contains__(self, game_id: object) -> bool:
        return any(game_id in p for p in self.plans)


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
