"""Which games a match, tournament or league plays: schedules that make plans.

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

from itertools import combinations

from arena.compete.plan import Plan


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
