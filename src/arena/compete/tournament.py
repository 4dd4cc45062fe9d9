"""Matches and tournaments: plan the games, play the missing ones, keep every result.

One function serves ``arena match`` (two agents, N games) and ``arena
tournament`` (round robin or gauntlet): the settings name the games to play,
the database (when given) says which of them are done, and the runner plays
the rest in this process, in worker processes or on Ray.

Tests: tests/compete/test_tournament.py
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from arena.agents.registry import agent_class, agent_names, load_agent
from arena.compete.openings import Openings
from arena.compete.runner import Job, run_pool, run_ray, run_serial
from arena.compete.schedule import PlannedGame, plan, spec_of
from arena.compete.store import ResultsDB
from arena.compete.timecontrol import TimeControl
from arena.core.errors import ArenaError
from arena.core.spec import split_spec
from arena.formats.record import GameRecord
from arena.games import load_game
from arena.stats.sprt import SPRT


@dataclass(frozen=True)
class Settings:
    game: str
    agents: tuple[str, ...]
    """Unique names (a repeated spec carries a ``#2`` suffix)."""
    control: str = "15+1"
    rounds: int = 1
    games_per_pair: int | None = None
    gauntlet: bool = False
    openings: str | None = None
    grace: float = 0.05
    max_plies: int | None = None
    seed: int = 0
    isolate: bool = False
    """Every agent in its own process (how games run, not what they are)."""

    def identity(self) -> dict[str, Any]:
        """What makes two runs the same tournament (the number of games may grow)."""
        out = asdict(self)
        del out["rounds"], out["games_per_pair"], out["isolate"]
        out["agents"] = list(self.agents)
        return out


def seed_of(base: int, *parts: object) -> int:
    """A seed for one part of a run (a game and seat, a repeat, a C value...) derived
    from the run's ``--seed``: runs with the same seed repeat, and parts do not share
    random streams. Tournaments and experiments derive every seed with it.

    >>> seed_of(0, "c=0.5", 3) == seed_of(0, "c=0.5", 3) != seed_of(1, "c=0.5", 3)
    True
    """
    return zlib.crc32("/".join(map(str, (base, *parts))).encode()) & 0x7FFFFFFF


def seeded_spec(spec: str, game_id: str, seat: int, base_seed: int) -> str:
    """The agent spec with a seed derived from the game, when it takes one and has none.

    This makes a seeded tournament repeatable game by game (agents that stop
    on the clock still vary with the machine's speed).
    """
    name, raw = (
        split_spec(spec) if not spec.lower().startswith(("py:", "cmd:", "gtp:")) else ("", {})
    )
    if name not in agent_names() or "seed" in raw:
        return spec
    if not any(p.name == "seed" for p in agent_class(name).params):
        return spec
    seed = seed_of(base_seed, game_id, seat)
    return f"{spec}{',' if ':' in spec else ':'}seed={seed}"


def jobs_for(settings: Settings, planned: list[PlannedGame]) -> list[Job]:
    game = load_game(settings.game)
    book = Openings.parse(settings.openings, game) if settings.openings else Openings.none(game)
    out = []
    for p in planned:
        seed = settings.seed + p.position
        opening = book.get(settings.seed + p.position) if settings.openings else ()
        out.append(
            Job(
                game=settings.game,
                game_id=p.game_id,
                first=p.first,
                second=p.second,
                first_spec=seeded_spec(spec_of(p.first), p.game_id, 0, settings.seed),
                second_spec=seeded_spec(spec_of(p.second), p.game_id, 1, settings.seed),
                round=p.round,
                seed=seed,
                opening=tuple(opening),
                control=settings.control,
                grace=settings.grace,
                max_plies=settings.max_plies,
                isolate=settings.isolate,
            )
        )
    return out


def validate(settings: Settings) -> None:
    """Load everything once up front, so bad input fails before any game starts."""
    load_game(settings.game)
    TimeControl.parse(settings.control)
    for name in settings.agents:
        load_agent(spec_of(name))
    if len(settings.agents) < 2:
        raise ArenaError("at least two agents are needed")


@dataclass
class Outcome:
    records: list[GameRecord]
    """Every finished game of the tournament, earlier runs' included."""
    played: int
    """Games played by this run."""
    planned: int
    verdict: Any = None


def run(
    settings: Settings,
    db: ResultsDB | None = None,
    jobs: int = 1,
    ray: str | None = None,
    sprt: SPRT | None = None,
    on_record: Callable[[GameRecord, int, int], None] | None = None,
) -> Outcome:
    """Play the games of ``settings`` that ``db`` does not hold yet."""
    validate(settings)
    planned = plan(
        list(settings.agents), settings.rounds, settings.gauntlet, settings.games_per_pair
    )
    records: list[GameRecord] = []
    done: set[str] = set()
    if db is not None:
        db.bind(settings.identity())
        planned_ids = {p.game_id for p in planned}
        records = [r for r in db.records() if r.game_id in planned_ids]
        done = {r.game_id for r in records}
    todo = jobs_for(settings, [p for p in planned if p.game_id not in done])
    verdict = None
    a_name = settings.agents[0]

    def decided() -> bool:
        return verdict is not None and verdict.decision is not None

    def stop() -> bool:
        return decided()

    if ray:
        stream = run_ray(todo, ray, stop)
    elif jobs > 1:
        stream = run_pool(todo, jobs, stop)
    else:
        stream = run_serial(todo, stop)
    played = 0
    for job, record in stream:
        if db is not None:
            db.add(record, job.first, job.second, job.round)
        records.append(record)
        played += 1
        if sprt is not None:
            wins = sum(1 for r in records if r.returns[r.players.index(a_name)] > 0)
            losses = sum(1 for r in records if r.returns[r.players.index(a_name)] < 0)
            verdict = sprt.status(wins, len(records) - wins - losses, losses)
        if on_record is not None:
            on_record(record, len(records), len(planned))
    return Outcome(records, played, len(planned), verdict)
