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

from dataclasses import dataclass
from itertools import combinations

from arena.core.spec import is_digits


@dataclass(frozen=True)
class PlannedGame:
    game_id: str
    first: str
    second: str
    round: int
    position: int
    """Index of the starting position: the opening number and the seed of the initial state."""


def plan(
    agents: list[str], rounds: int, gauntlet: bool = False, games_per_pair: int | None = None
) -> list[PlannedGame]:
    """The games of a round robin (or a gauntlet: the first agent against each other one).

    A round plays every pairing from one new position, once with each colour.
    ``games_per_pair`` (a match's ``--games N``) overrides: N games, colours
    alternating, each position used for two consecutive games. Games are
    ordered round by round, so a run stopped early is balanced across agents.
    """
    pairs = [(agents[0], b) for b in agents[1:]] if gauntlet else list(combinations(agents, 2))
    count = games_per_pair if games_per_pair is not None else 2 * rounds
    out = []
    for k in range(count):
        position, swap = divmod(k, 2)
        for a, b in pairs:
            first, second = (b, a) if swap else (a, b)
            game_id = f"{a}|{b}|round={position}|first={first}"
            out.append(PlannedGame(game_id, first, second, position, position))
    return out


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
