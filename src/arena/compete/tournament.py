"""Matches and tournaments: plan the games, play the missing ones, keep every result.

One function serves ``arena match`` (two agents, N games) and ``arena
tournament`` (round robin or gauntlet): the settings name the games to play,
the database (when given) says which of them are done, and the runner plays
the rest in this process, in worker processes or on Ray.

Tests: tests/compete/test_tournament.py
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from arena.agents.pyclass import check_loads
from arena.agents.registry import agent_class, agent_names, load_agent, prefixed
from arena.compete.openings import Openings
from arena.compete.plan import Plan, PlannedGame, Rounds, spec_of
from arena.compete.runner import Job, Watch, placed, prefixed_py, run_pool, run_ray, run_serial
from arena.compete.schedule import plan
from arena.compete.sprt_stop import SprtStop
from arena.compete.store import ResultsDB
from arena.compete.timecontrol import TimeControl
from arena.core.errors import ArenaError
from arena.core.game import Game
from arena.core.limit import DEFAULT_GRACE
from arena.core.spec import split_spec, with_params
from arena.formats.record import GameRecord
from arena.games import load_game
from arena.remote.command import CommandAgent
from arena.remote.sandbox import Sandbox, require
from arena.stats.sprt import SPRT, Verdict


@dataclass(frozen=True)
class Settings:
    """Everything that decides which games a match or tournament plays, as typed values.

    This is an edge: text given for ``game``, ``control`` or ``openings`` is parsed
    here, once, and the parsed values travel down to every game. :meth:`identity`
    is their canonical text, what a results database stores.

    >>> s = Settings(game="connect4:rows=6", agents=("random", "greedy"), control="2.0+0.10")
    >>> s.game.spec, str(s.control), s.identity()["control"]
    ('connect4', '2+0.1', '2+0.1')
    """

    game: Game
    agents: tuple[str, ...]
    """Unique names (a repeated spec carries a ``#2`` suffix)."""
    specs: tuple[str, ...] = ()
    """The spec behind each name, when the names are not specs (a league's players are
    the students' folder names); empty: each name is its own spec (:func:`spec_of`)."""
    control: TimeControl = field(default_factory=TimeControl)
    rounds: int = 1
    games_per_pair: int | None = None
    gauntlet: bool = False
    alternate: bool = True
    """Colours swapped from game to game; False: the first agent of each pairing moves
    first in every game (``arena match --colours fixed``: handicap games)."""
    openings: Openings | None = None
    grace: float = DEFAULT_GRACE
    max_plies: int | None = None
    seed: int = 0
    isolate: bool = False
    """Every agent in its own process (how games run, not what they are)."""
    in_process: bool = False
    """``py:`` agents in the referee's process (by default each has its own)."""
    sandbox: Sandbox | None = None
    """Every agent program in this sandbox (``--sandbox``, :mod:`arena.remote.sandbox`)."""

    def __post_init__(self) -> None:
        if isinstance(self.game, str):
            object.__setattr__(self, "game", load_game(self.game))
        if isinstance(self.control, str):
            object.__setattr__(self, "control", TimeControl.parse(self.control))
        if isinstance(self.openings, str):
            object.__setattr__(self, "openings", Openings.parse(self.openings, self.game))
        object.__setattr__(self, "agents", tuple(self.agents))
        object.__setattr__(self, "specs", tuple(self.specs))
        if self.specs and len(self.specs) != len(self.agents):
            raise ArenaError("settings: one spec for each agent name")

    def spec(self, name: str) -> str:
        """The spec that plays under the table name ``name``."""
        if self.specs and name in self.agents:
            return self.specs[self.agents.index(name)]
        return spec_of(name)

    def planned(self) -> Plan:
        """Every game these settings play, in order (:func:`arena.compete.schedule.plan`),
        made as they are asked for."""
        return plan(
            list(self.agents), self.rounds, self.gauntlet, self.games_per_pair, self.alternate
        )

    def identity(self) -> dict[str, Any]:
        """What makes two runs the same tournament (the number of games may grow),
        as canonical text."""
        return (
            {
                "game": self.game.spec,
                "agents": list(self.agents),
                "control": str(self.control),
                "gauntlet": self.gauntlet,
                "openings": None if self.openings is None else self.openings.spec,
                "grace": self.grace,
                "max_plies": self.max_plies,
                "seed": self.seed,
            }
            | ({"specs": list(self.specs)} if self.specs else {})
            | ({} if self.alternate else {"colours": "fixed"})
        )


def canonical_identity(stored: dict[str, Any]) -> dict[str, Any]:
    """A stored identity with its texts in canonical form.

    Databases written before the settings were typed hold the text as typed
    (``connect4:rows=6``, ``1.0+0.10``, ``random:plies=4``); read that way they
    still resume. A text that no longer parses (a removed openings file) stays
    as it is, so the comparison falls back to the text itself.
    """
    out = dict(stored)
    try:
        game = load_game(stored["game"])
        out["game"] = game.spec
        out["control"] = str(TimeControl.parse(stored["control"]))
        if stored.get("openings"):
            out["openings"] = Openings.parse(stored["openings"], game).spec
    except (ArenaError, KeyError, TypeError, AttributeError):
        pass
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
    name, raw = split_spec(spec) if not prefixed(spec) else ("", {})
    if name not in agent_names() or "seed" in raw:
        return spec
    if not any(p.name == "seed" for p in agent_class(name).params):
        return spec
    return with_params(spec, seed=seed_of(base_seed, game_id, seat))


def jobs_for(settings: Settings, planned: Iterable[PlannedGame]) -> Iterator[Job]:
    """The self-contained jobs that play ``planned`` games under ``settings``, one at a
    time as the runner takes them."""
    for p in planned:
        seed = settings.seed + p.position
        opening = settings.openings.get(seed) if settings.openings is not None else ()
        yield Job(
            game=settings.game.spec,
            game_id=p.game_id,
            first=p.first,
            second=p.second,
            first_spec=seeded_spec(settings.spec(p.first), p.game_id, 0, settings.seed),
            second_spec=seeded_spec(settings.spec(p.second), p.game_id, 1, settings.seed),
            round=p.round,
            seed=seed,
            opening=tuple(opening),
            control=settings.control,
            grace=settings.grace,
            max_plies=settings.max_plies,
            isolate=settings.isolate,
            in_process=settings.in_process,
            sandbox=settings.sandbox,
        )


MAX_GAMES = 1_000_000
"""The most games one run plans. Every finished game's record stays in memory for the
standings (1 to 10 KB each), so a million games already needs gigabytes; ``--games
10**12`` is refused at once instead of filling memory."""


def check_size(settings: Settings, asked: str = "", planned: Plan | Rounds | None = None) -> None:
    """Refuse a plan of more than :data:`MAX_GAMES` games (``planned``, or the settings'
    own); ``asked`` names the option that asked for it (``--games 1000000000000``)."""
    size = (settings.planned() if planned is None else planned).size
    if size > MAX_GAMES:
        what = f"{asked} plans" if asked else "these settings plan"
        raise ArenaError(
            f"{what} {size:,} games; one run plays at most {MAX_GAMES:,} "
            "(every result is kept in memory for the standings)"
        )


def validate(settings: Settings, planned: Plan | Rounds | None = None) -> None:
    """Load every agent once up front, so bad input fails before any game starts
    (the game, the clock and the openings are parsed already). A ``py:`` class that plays
    in a process of its own is loaded there (in the sandbox, if any), never in arena's."""
    if len(settings.agents) < 2:
        raise ArenaError("at least two agents are needed")
    check_size(settings, planned=planned)
    if settings.sandbox is not None:
        require()  # one line now, not a failure in every game
    for name in settings.agents:
        spec = settings.spec(name)
        if not prefixed_py(spec):
            load_agent(spec)
            continue
        agent = placed(spec, settings.isolate, settings.in_process, settings.sandbox)
        if isinstance(agent, CommandAgent):  # else loaded here, as it will play (--in-process)
            check_loads(agent, settings.game)


@dataclass
class Outcome:
    records: list[GameRecord]
    """Every finished game of the tournament, earlier runs' included: with a database,
    what the database holds at the end (what ``arena results`` reads)."""
    played: int
    """Games played and stored by this run."""
    planned: int
    sprt: SprtStop | None = None
    """The SPRT stop, when the run had one: its verdict and what it counted."""

    @property
    def verdict(self) -> Verdict | None:
        """Where the SPRT stands (None: no SPRT, or nothing counted yet)."""
        return None if self.sprt is None else self.sprt.verdict


def run(
    settings: Settings,
    db: ResultsDB | None = None,
    jobs: int = 1,
    ray: str | None = None,
    sprt: SPRT | None = None,
    on_record: Callable[[GameRecord, int, int], None] | None = None,
    watch: Watch | None = None,
    on_start: Callable[[int], None] | None = None,
    planned: Plan | Rounds | None = None,
    checked: bool = False,
    identity: dict[str, Any] | None = None,
) -> Outcome:
    """Play the games of ``settings`` that ``db`` does not hold yet.

    ``planned`` (a league's rounds) replaces the games the settings plan themselves;
    ``checked`` says the agents were loaded once already (a league's next round);
    ``identity`` is what ``db`` keeps instead of the settings' own (a league's adds its
    schedule).

    ``watch`` sees every move as it is played (a search table after each move):
    only when the games run one at a time in this process. ``on_start`` is told how many
    games are left to play once the settings are checked, before the first starts.
    """
    if watch is not None and (ray or jobs > 1):
        raise ArenaError("moves can be watched only when games run one at a time (jobs=1)")
    if planned is None:
        planned = settings.planned()
    if not checked:
        validate(settings, planned)
    records: list[GameRecord] = []
    done: set[str] = set()
    if db is not None:
        db.bind(identity or settings.identity(), canonical=canonical_identity)
        records = list(db.records(within=planned))
        done = {r.game_id for r in records}
    if on_start is not None:
        on_start(planned.size - len(done))
    todo = jobs_for(settings, (p for p in planned if p.game_id not in done))
    test = None
    if sprt is not None:
        if not isinstance(planned, Plan):
            raise ArenaError("an SPRT compares the two agents of one match, not a league")
        test = SprtStop(sprt, planned, settings.agents[0])
        for record in records:
            test.add(record)

    def stop() -> bool:
        return test is not None and test.decided

    if ray:
        stream = run_ray(todo, ray, stop)
    elif jobs > 1:
        stream = run_pool(todo, jobs, stop)
    else:
        stream = run_serial(todo, stop, watch)
    played = 0
    for job, record in stream:
        if db is not None and not db.add(record, job.first, job.second, job.round):
            continue  # stored already by another writer: the database's copy counts
        records.append(record)
        played += 1
        if test is not None:
            test.add(record)
        if on_record is not None:
            on_record(record, len(records), planned.size)
    if db is not None:
        # What is stored is the result: a row another program added counts once, as its own.
        records = list(db.records(within=planned))
    return Outcome(records, played, planned.size, test)
