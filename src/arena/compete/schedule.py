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

Tests: tests/compete/test_tournament.py, tests/compete/test_plan.py
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations

from arena.compete.plan import Plan
from arena.stats.ratings import fit


def plan(
    agents: list[str],
    rounds: int,
    gauntlet: bool = False,
    games_per_pair: int | None = None,
    alternate: bool = True,
) -> Plan:
    """The games of a round robin (or a gauntlet: the first agent against each other one).

    A round plays every pairing from one new position, once with each colour.
    ``games_per_pair`` (a match's ``--games N``) overrides: N games, colours
    alternating, each position used for two consecutive games; with ``alternate``
    False each pairing's first agent is the first player in all of them, each from a new
    position. Games are ordered round by round, so a run stopped early is balanced
    across agents.
    """
    pairs = [(agents[0], b) for b in agents[1:]] if gauntlet else list(combinations(agents, 2))
    count = games_per_pair if games_per_pair is not None else 2 * rounds
    return Plan(tuple(pairs), max(count, 0), alternate=alternate)


SCHEDULES = ("round-robin", "nearest")
"""The schedules a league can play: every pairing each round, or each player against the
nearest-rated opponents it has met least (:func:`nearest_rated`)."""

ROUND_ROBIN_UP_TO = 16
"""The most players a league plays in a round robin by default: 16 players are 240 games
a round with colours swapped; a larger class plays :func:`nearest_rated` rounds."""


def league_rounds(players: int) -> int:
    """How many nearest-rated rounds a class of ``players`` plays by default: two more
    than the doublings in the class, and at least 6. Each round is 4 games per player
    (2 positions, colours swapped), so a class of 40 plays 640 games instead of a round
    robin's 1,560, and is ranked with a rank correlation near 0.94 and 95 % intervals
    that cover the true strength about nine times in ten (a simulated class:
    ``tests/compete/test_plan.py``); a class of 150 plays 3,000 instead of 22,350.

    >>> league_rounds(12), league_rounds(40), league_rounds(150), league_rounds(1000)
    (6, 8, 10, 12)
    """
    return max(6, math.ceil(math.log2(max(players, 2))) + 2)


def nearest_rated(
    players: Sequence[str],
    results: Iterable[tuple[str, str, float]],
    round_: int,
    seed: int = 0,
    per_pair: int = 4,
) -> Plan:
    """One round of a large league: each player against a nearest-rated opponent.

    The players are rated from ``results`` (``(a, b, score of a)`` of every earlier game)
    with the Bradley-Terry fit of :func:`arena.stats.ratings.fit`, then taken best first;
    each unpaired player meets, of the next :data:`WINDOW` unpaired players below it, the
    one it has met least often, the nearest in rating among those. With an odd number of
    players the bye goes to one of those with the fewest games. Round 0 (no ratings yet)
    is a random pairing, drawn from ``seed``.

    Why this schedule (rather than Swiss pairing by points, or a round robin): a game
    between players of equal strength is a coin toss whose outcome carries the most
    information about their difference (the Fisher information ``p (1 - p)`` is largest at
    ``p = 1/2``), so the intervals shrink fastest per game played; the ratings, unlike a
    Swiss score, count whom each point was won against, draws and forfeits included; and
    "met least often first" keeps every player meeting new opponents, so the graph of who
    played whom stays connected and every rating is measured on one scale. It is the
    Elo matchmaking of a course's own arena of student bots. A class of ``n`` plays
    ``2 n`` games a round (``per_pair`` 4: two positions, colours swapped) for
    :func:`league_rounds` rounds, instead of the round robin's ``n (n - 1)``.

    The pairing depends only on the earlier rounds' results and the seed, so a league
    that stops and resumes plays the same round again.

    >>> p = nearest_rated(["a", "b", "c", "d"], [("a", "b", 1), ("c", "d", 1)], 1)
    >>> sorted(tuple(sorted(pair)) for pair in p.pairs)
    [('a', 'c'), ('b', 'd')]
    >>> p.first_round, p.size
    (2, 8)
    """
    names = list(dict.fromkeys(players))
    results = [(a, b, s) for a, b, s in results if a in names and b in names]
    rng = random.Random(f"{seed}/nearest/{round_}")
    tiebreak = {name: rng.random() for name in names}
    ratings = {name: r.elo for name, r in fit(results).items()} if results else {}
    met: Counter[frozenset[str]] = Counter(frozenset((a, b)) for a, b, _ in results)
    games: Counter[str] = Counter()
    for a, b, _ in results:
        games[a] += 1
        games[b] += 1
    order = sorted(names, key=lambda n: (-ratings.get(n, 0.0), tiebreak[n]))
    if round_ == 0 or not results:
        order = sorted(names, key=lambda n: tiebreak[n])
    if len(order) % 2:
        bye = min(order, key=lambda n: (games[n], tiebreak[n]))
        order.remove(bye)
    pairs: list[tuple[str, str]] = []
    free = order
    while free:
        a, rest = free[0], free[1:]
        candidates = rest[:WINDOW]
        b = min(
            candidates,
            key=lambda n: (met[frozenset((a, n))], abs(ratings.get(a, 0) - ratings.get(n, 0))),
        )
        rest.remove(b)
        # Who is listed first alternates, so each plays first as often in a round's pair.
        pairs.append((a, b) if (round_ + len(pairs)) % 2 == 0 else (b, a))
        free = rest
    # Each round starts from new positions: a pair that meets again plays new games.
    return Plan(tuple(pairs), per_pair, first_round=round_ * ((per_pair + 1) // 2))


WINDOW = 4
"""How far down the rating order a player looks for an opponent it has met less."""
