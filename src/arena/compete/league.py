"""A class league: every student's agent and the reference agents, on one game and clock,
round robin or nearest-rated rounds, into a results database that resumes.

The league is a tournament (:mod:`arena.compete.tournament`) whose players are named by
the students' folder names, each with the spec found for it
(:mod:`arena.compete.submissions`), and whose plan is made round by round. A round
robin is one :class:`~arena.compete.plan.Plan`; a large class plays
:func:`~arena.compete.schedule.nearest_rated` rounds, each a plan made from the results
of the rounds before it. Because a round's pairings depend only on the earlier rounds'
stored results and the seed, a league killed at any moment (even by SIGKILL) and run
again replays the same plan: every stored game counts once, only the missing ones are
played.

What the results database holds, for the reports that read it: the tournament's
settings (``ResultsDB.settings()``) with ``agents`` (display names: the student's
folder name, or a reference agent's spec), ``specs`` (the spec behind each name, same
order), ``league`` (``schedule``, ``rounds``, ``references``: the names that are
reference agents, and ``refused``: ``{folder name: reason}`` for the submissions that
do not play), and one row per game keyed by its planned ``game_id``.

Tests: tests/compete/test_league.py
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from arena.agents.registry import load_agent
from arena.compete import tournament
from arena.compete.plan import Plan, Rounds
from arena.compete.schedule import nearest_rated, plan
from arena.compete.store import ResultsDB
from arena.compete.submissions import Submission
from arena.core.errors import ArenaError
from arena.formats.record import GameRecord
from arena.remote.sandbox import require


@dataclass(frozen=True)
class League:
    """Who plays, on what, and how the games are scheduled.

    ``settings`` is a tournament's, with a spec for each name; ``schedule`` is
    ``round-robin`` (every pairing, 2 games a round) or ``nearest`` (each player
    against the nearest-rated opponent it met least, 4 games a round).
    """

    settings: tournament.Settings
    schedule: str
    rounds: int
    references: tuple[str, ...] = ()
    refused: tuple[Submission, ...] = field(default=())

    def identity(self) -> dict[str, Any]:
        """What the results database keeps and checks on resume (more rounds may be asked
        later: the number of rounds is not part of it)."""
        return self.settings.identity() | {
            "league": {
                "schedule": self.schedule,
                "references": list(self.references),
                "refused": {s.name: s.reason for s in self.refused},
            }
        }


def check(settings: tournament.Settings, planned: Plan) -> None:
    """The plan's size, and the agents that are not students' ``py:`` classes loaded once
    (a ``py:`` class is imported only in its own process: loading it here would run a
    student's code in arena's; :mod:`arena.compete.submissions` parsed it instead)."""
    tournament.check_size(settings, planned=planned)
    if settings.sandbox is not None:
        require()  # one line now, not a failure in every game
    for name in settings.agents:
        spec = settings.spec(name)
        if not spec.strip().lower().startswith("py:"):
            load_agent(spec)


def game_round(game_id: str) -> int:
    """The round (starting position) of a planned game's id.

    >>> game_round("ada|bob smith|round=3|first=ada")
    3
    """
    head, _, _ = game_id.rpartition("|first=")
    return int(head.rpartition("|round=")[2])


@dataclass(frozen=True)
class Progress:
    """What :func:`run` reports as rounds start (``round``, ``rounds``, ``games`` planned
    in it)."""

    round: int
    rounds: int
    games: int


def run(
    league: League,
    db: ResultsDB,
    jobs: int = 1,
    ray: str | None = None,
    on_record: Callable[[GameRecord, int, int], None] | None = None,
    on_round: Callable[[Progress], None] | None = None,
) -> tournament.Outcome:
    """Play the league's missing games into ``db``; the outcome holds every game of its
    plan (earlier runs' included)."""
    settings = league.settings
    names = list(settings.agents)
    if len(names) < 2:
        raise ArenaError(
            f"a league needs at least two players, found {len(names)} "
            "(add reference agents with --reference)"
        )
    db.bind(league.identity(), canonical=tournament.canonical_identity)
    if league.schedule == "round-robin":
        whole = Plan(plan(names, 1).pairs, 2 * league.rounds)
        check(settings, whole)
        if on_round is not None:
            on_round(Progress(0, 1, whole.size))
        return tournament.run(
            settings,
            db,
            jobs=jobs,
            ray=ray,
            on_record=on_record,
            planned=whole,
            checked=True,
            identity=league.identity(),
        )
    if league.schedule != "nearest":
        raise ArenaError(f"unknown schedule {league.schedule!r}: round-robin or nearest")
    plans: list[Plan] = []
    played = 0
    check(settings, Plan(plan(names, 1).pairs, 2 * league.rounds))
    for r in range(league.rounds):
        so_far = Rounds(tuple(plans))
        earlier = [
            (rec.players[0], rec.players[1], rec.points(0)) for rec in db.records(within=so_far)
        ]
        round_plan = nearest_rated(names, earlier, r, seed=settings.seed)
        plans.append(round_plan)
        if on_round is not None:
            on_round(Progress(r, league.rounds, round_plan.size))
        outcome = tournament.run(
            settings,
            db,
            jobs=jobs,
            ray=ray,
            on_record=on_record,
            planned=round_plan,
            checked=True,
            identity=league.identity(),
        )
        played += outcome.played
    every = Rounds(tuple(plans))
    records = list(db.records(within=every))
    return tournament.Outcome(records, played, every.size)
