"""``arena grade``: a rubric's criteria as statistical checks on one agent.

A :class:`Rubric` names the game, the clock and the criteria: "score at least P against
SPEC" (``--vs SPEC:P``), and optionally "never late" (every move within its limit). Each
score criterion plays the agent against SPEC with paired openings (every opening twice,
colours swapped) until the sequential test of :mod:`arena.stats.threshold` decides on the
pairs so far (each pair's points are one observation), or until ``max_games``; then it
is *met*, *not met* or *undecided*, with the 95 % interval of the score. The score is
wins + draws / 2 per game, forfeits counted as losses. A teacher keeps the rubric in a
TOML file next to the assignment (:meth:`Rubric.read`).

The time check replays each game's clocks from the record: the limit of a move is what
the agent could spend before losing on time (the move time, the first move's allowance, or
what was on its Fischer clock), the grace apart; a move over it is late, even when the
grace saved it from a forfeit.

Tests: tests/compete/test_grading.py, tests/cli/test_grade.py
"""

from __future__ import annotations

import math
import time
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.compete.openings import Openings
from arena.compete.plan import unique_names
from arena.compete.runner import Job, run_pool, run_ray, run_serial
from arena.compete.timecontrol import Clock, TimeControl
from arena.compete.tournament import Settings, jobs_for, validate
from arena.core.errors import ArenaError, SpecError, excerpt, read_text
from arena.core.game import Game
from arena.core.limit import DEFAULT_GRACE
from arena.core.words import plural
from arena.formats.record import GameRecord
from arena.games import load_game
from arena.remote.sandbox import Sandbox
from arena.stats.sprt import PAIR_SCORES, pair_index
from arena.stats.standings import first_mover
from arena.stats.tally import Tally
from arena.stats.threshold import DELTA, Outcome, ScoreTarget, score_interval

DEFAULT_OPENINGS = "random:plies=2"
"""Paired openings unless the rubric names others: two random plies keep even tiny games
(Tic-tac-toe) open, and vary the games of deterministic agents."""

DEFAULT_MAX_GAMES = 200
VISIBILITIES = ("hidden", "after_due_date", "after_published", "visible")
"""Gradescope's visibility settings of a test or of the whole result."""


@dataclass(frozen=True)
class Criterion:
    """ "Score at least ``target`` against ``opponent``", worth ``points``.

    >>> Criterion.parse("mcts:rollouts=50:0.45")
    Criterion(opponent='mcts:rollouts=50', target=0.45, points=1.0)
    >>> Criterion.parse("greedy")
    Traceback (most recent call last):
    ...
    arena.core.errors.SpecError: --vs 'greedy': expected SPEC:SCORE, e.g. greedy:0.9 (SCORE strictly between 0 and 1)
    """  # noqa: E501

    opponent: str
    target: float
    points: float = 1.0

    @classmethod
    def parse(cls, text: str) -> Criterion:
        """``SPEC:SCORE`` (``--vs greedy:0.9``): the last ``:`` separates the score."""
        spec, sep, score = text.strip().rpartition(":")
        usage = (
            f"--vs {excerpt(text)!r}: expected SPEC:SCORE, e.g. greedy:0.9 "
            "(SCORE strictly between 0 and 1)"
        )
        try:
            target = float(score)
        except ValueError:
            raise SpecError(usage) from None
        if not sep or not spec.strip() or not 0 < target < 1:
            raise SpecError(usage)
        return cls(spec.strip(), target)

    @property
    def name(self) -> str:
        return f"score >= {self.target:g} vs {self.opponent}"


@dataclass(frozen=True)
class Rubric:
    """What ``arena grade`` checks and how it plays (typed; text is parsed at the edge)."""

    game: Game
    criteria: tuple[Criterion, ...]
    control: TimeControl = field(default_factory=TimeControl)
    never_late: bool = False
    late_points: float = 1.0
    max_games: int = DEFAULT_MAX_GAMES
    openings: Openings | None = None
    delta: float = DELTA
    alpha: float = 0.05
    beta: float = 0.05
    grace: float = DEFAULT_GRACE
    max_plies: int | None = None
    seed: int = 0
    visibility: str | None = None
    """Gradescope's visibility of every test (None: Gradescope's default)."""

    def __post_init__(self) -> None:
        if isinstance(self.game, str):
            object.__setattr__(self, "game", load_game(self.game))
        if isinstance(self.control, str):
            object.__setattr__(self, "control", TimeControl.parse(self.control))
        if self.openings is None:
            object.__setattr__(self, "openings", Openings.parse(DEFAULT_OPENINGS, self.game))
        elif isinstance(self.openings, str):
            object.__setattr__(self, "openings", Openings.parse(self.openings, self.game))
        object.__setattr__(self, "criteria", tuple(self.criteria))
        if not self.criteria and not self.never_late:
            raise ArenaError("nothing to grade: give --vs SPEC:SCORE or --never-late")
        if self.max_games < 2:
            raise ArenaError(f"max games must be >= 2 (a pair of games), not {self.max_games}")
        if self.visibility is not None and self.visibility not in VISIBILITIES:
            raise ArenaError(
                f"visibility {self.visibility!r}: expected one of {', '.join(VISIBILITIES)}"
            )
        for criterion in self.criteria:  # checks the test's parameters once, up front
            self.test(criterion)

    def test(self, criterion: Criterion) -> ScoreTarget:
        return ScoreTarget(criterion.target, self.delta, self.alpha, self.beta)

    @classmethod
    def read(cls, path: str | Path, **overrides: Any) -> Rubric:
        """The rubric of a TOML file; ``overrides`` (the command line's) replace its values.

        Every problem is one line naming the file and the key.
        """
        where = str(path)
        text = read_text(path, f"rubric {where}")
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ArenaError(f"rubric {where}: not valid TOML: {exc}") from None
        try:
            fields = _rubric_fields(data)
            fields.update({k: v for k, v in overrides.items() if v is not None})
            return cls(**fields)
        except ArenaError as exc:
            raise ArenaError(f"rubric {where}: {exc}") from None


_KEYS = {
    "game": 'the game\'s spec, e.g. "go:size=5"',
    "time": 'the clock: "15+1", "move:2" or a budget "rollouts=100"',
    "criteria": "[[criteria]] tables with vs, score and points",
    "never_late": "true, or the points it is worth",
    "max_games": "games per criterion at most",
    "openings": '"random:plies=N" or a file of openings',
    "delta": "half-width of the indifference zone around each score",
    "alpha": "chance of 'met' for an agent below the zone",
    "beta": "chance of 'not met' for an agent above the zone",
    "grace_ms": "milliseconds a move may exceed its limit before it forfeits",
    "max_plies": "adjudicate longer games on the score",
    "seed": "seed of openings and agents",
    "visibility": "Gradescope's visibility of the tests",
}
_CRITERION_KEYS = ("vs", "score", "points")


def _rubric_fields(data: dict[str, Any]) -> dict[str, Any]:
    """The :class:`Rubric` fields of a parsed TOML document, checked key by key."""
    unknown = sorted(set(data) - set(_KEYS))
    if unknown:
        raise ArenaError(f"unknown key {unknown[0]!r}; valid: {', '.join(_KEYS)}")
    if "game" not in data:
        raise ArenaError("missing key 'game' (e.g. game = \"connect4\")")
    fields: dict[str, Any] = {"game": _typed(data, "game", str)}
    if "time" in data:
        fields["control"] = TimeControl.parse(_typed(data, "time", str))
    criteria = data.get("criteria", [])
    if not isinstance(criteria, list) or not all(isinstance(c, dict) for c in criteria):
        raise ArenaError("'criteria' must be [[criteria]] tables (vs = \"greedy\", score = 0.9)")
    fields["criteria"] = tuple(_criterion(i, c) for i, c in enumerate(criteria, 1))
    late = data.get("never_late", False)
    if isinstance(late, bool):
        fields["never_late"] = late
    elif isinstance(late, int | float) and late >= 0:
        fields["never_late"], fields["late_points"] = True, float(late)
    else:
        raise ArenaError(f"'never_late' must be true, false or points >= 0, not {late!r}")
    for key, kind in (("max_games", int), ("max_plies", int), ("seed", int)):
        if key in data:
            fields[key] = _typed(data, key, kind)
    for key in ("delta", "alpha", "beta"):
        if key in data:
            fields[key] = float(_typed(data, key, int | float))
    if "grace_ms" in data:
        grace = float(_typed(data, "grace_ms", int | float))
        if grace < 0:
            raise ArenaError(f"'grace_ms' must be >= 0, not {grace:g}")
        fields["grace"] = grace / 1000
    if "openings" in data:
        fields["openings"] = _typed(data, "openings", str)
    if "visibility" in data:
        fields["visibility"] = _typed(data, "visibility", str)
    return fields


def _typed(data: dict[str, Any], key: str, kind: Any) -> Any:
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, kind):
        raise ArenaError(f"{key!r}: {value!r} is not {_KEYS.get(key, key)}")
    return value


def _criterion(number: int, table: dict[str, Any]) -> Criterion:
    where = f"criteria #{number}"
    unknown = sorted(set(table) - set(_CRITERION_KEYS))
    if unknown:
        raise ArenaError(f"{where}: unknown key {unknown[0]!r}; valid: vs, score, points")
    vs, score, points = table.get("vs"), table.get("score"), table.get("points", 1)
    if not isinstance(vs, str) or not vs.strip():
        raise ArenaError(f"{where}: 'vs' must name the opponent's spec, e.g. vs = \"greedy\"")
    if isinstance(score, bool) or not isinstance(score, int | float) or not 0 < score < 1:
        raise ArenaError(f"{where}: 'score' must be a number strictly between 0 and 1")
    if isinstance(points, bool) or not isinstance(points, int | float) or points < 0:
        raise ArenaError(f"{where}: 'points' must be a number >= 0")
    return Criterion(vs.strip(), float(score), float(points))


# --- results ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class CriterionResult:
    criterion: Criterion
    outcome: Outcome
    tally: Tally
    """Every game played against the opponent (games in flight at the decision included)."""
    decided_after: int | None
    """Games when the test decided (None: undecided at the cap)."""
    llr: float
    bounds: tuple[float, float]
    forfeits: dict[str, int]
    """The agent's forfeits by reason (time, illegal, crash)."""

    @property
    def interval(self) -> tuple[float, float]:
        return score_interval(*self.tally)

    @property
    def points(self) -> float:
        return self.criterion.points if self.outcome == "met" else 0.0

    def explain(self) -> str:
        """One line: the result, the score with its interval, how it was decided."""
        t = self.tally
        low, high = self.interval
        how = (
            f"the test decided after {self.decided_after} games (LLR {self.llr:.2f}, bounds "
            f"{self.bounds[0]:.2f} and {self.bounds[1]:.2f})"
            if self.decided_after is not None
            else f"no decision within {t.games} games (LLR {self.llr:.2f}, bounds "
            f"{self.bounds[0]:.2f} and {self.bounds[1]:.2f}): the score is close to "
            f"{self.criterion.target:g}, or the game cap too small to tell"
        )
        lost = ", ".join(f"{n} by {why}" for why, n in sorted(self.forfeits.items()))
        return (
            f"{self.criterion.name}: {self.outcome.upper()}. Score {t.score:.3f} "
            f"(95% interval {low:.3f} to {high:.3f}) over {t.games} games: {t.wins} won, "
            f"{t.draws} drawn, {t.losses} lost{f' ({lost} forfeited)' if lost else ''}; {how}."
        )


@dataclass(frozen=True)
class LateMove:
    game_id: str
    ply: int
    """The move's number in the game (1 = the first move, the opening's counted)."""
    seconds: float
    limit: float
    opponent: str = ""
    first: bool = True
    """Whether the agent had the first move of the game."""

    def where(self) -> str:
        """The move for people: ``move 3, playing first against random``."""
        side = "first" if self.first else "second"
        return f"move {self.ply}, playing {side} against {self.opponent}"


@dataclass(frozen=True)
class Timing:
    """The agent's time on every move it was timed on, against each move's limit."""

    clocked: bool
    """False under a budget of work (no clock): nothing to check."""
    moves: int = 0
    slowest: LateMove | None = None
    """The move nearest its limit (largest seconds / limit)."""
    late: tuple[LateMove, ...] = ()
    time_forfeits: int = 0

    @property
    def outcome(self) -> Outcome:
        return "met" if not self.late and not self.time_forfeits else "not met"

    def explain(self) -> str:
        if not self.clocked:
            return "never late: MET. No clock (a budget of work per move): no move can be late."
        slow = self.slowest
        slowest = (
            f"the slowest move took {slow.seconds:.3f} s of its {slow.limit:.3f} s "
            f"({100 * slow.seconds / slow.limit:.0f}%, {slow.where()})"
            if slow is not None
            else "no move was timed"
        )
        late = "; ".join(
            f"{m.seconds:.3f} s for a {m.limit:.3f} s limit ({m.where()})" for m in self.late[:3]
        )
        more = f" and {len(self.late) - 3} more" if len(self.late) > 3 else ""
        return (
            f"never late: {self.outcome.upper()}. {plural(self.moves, 'move')} timed, "
            f"{len(self.late)} over their limit, {plural(self.time_forfeits, 'game')} lost on "
            f"time; {slowest}." + (f" Late: {late}{more}." if late else "")
        )


def timing(records: list[GameRecord], agent: str, control: TimeControl) -> Timing:
    """Every timed answer of ``agent`` (its name in the records) against its limit.

    >>> from arena.compete.timecontrol import TimeControl
    >>> r = GameRecord("tictactoe", ("me", "you"), moves=["b2", "a1", "c3"],
    ...                seconds=[0.4, 0.1, 0.6], game_id="g")
    >>> t = timing([r], "me", TimeControl.parse("move:0.5"))
    >>> t.moves, [(m.ply, m.seconds) for m in t.late], t.outcome
    (2, [(3, 0.6)], 'not met')
    """
    if not control.timed:
        return Timing(clocked=False)
    moves, late, forfeits = 0, [], 0
    slowest: LateMove | None = None
    for record in records:
        seat = record.players.index(agent)
        if record.reason == "time" and record.loser == seat:
            forfeits += 1
        opener = first_mover(record.game)
        clocks = [Clock.start(control), Clock.start(control)]
        ply = record.opening_plies
        for mover, seconds in record.timed_moves(opener):
            ply += 1
            limit = clocks[mover].allowance()
            clocks[mover].charge(seconds, grace=math.inf)  # replays; never refuses
            if mover != seat or limit is None:
                continue
            moves += 1
            other = record.players[1 - seat]
            move = LateMove(record.game_id, ply, seconds, limit, other, seat == opener)
            if limit <= 0 or seconds > limit:
                late.append(move)
            if slowest is None or seconds * slowest.limit > slowest.seconds * limit:
                slowest = move
    return Timing(True, moves, slowest, tuple(late), forfeits)


@dataclass(frozen=True)
class GradeReport:
    agent: str
    rubric: Rubric
    results: tuple[CriterionResult, ...]
    timing: Timing | None
    """The time check, when the rubric asks for it."""
    seconds: float
    records: tuple[GameRecord, ...] = ()

    @property
    def passed(self) -> bool:
        """Every criterion met (the exit status 0)."""
        return all(r.outcome == "met" for r in self.results) and (
            self.timing is None or self.timing.outcome == "met"
        )

    @property
    def score(self) -> float:
        late = self.rubric.late_points if self.timing and self.timing.outcome == "met" else 0.0
        return sum(r.points for r in self.results) + late

    @property
    def max_score(self) -> float:
        late = self.rubric.late_points if self.timing is not None else 0.0
        return sum(r.criterion.points for r in self.results) + late

    def table(self) -> str:
        """The report for people: one row per criterion, then a line per criterion."""
        r = self.rubric
        head = (
            f"arena grade {self.agent} on {r.game.spec}, {r.control.describe()}; openings "
            f"{r.openings.spec if r.openings else 'none'}, each played with both colours; "
            f"at most {r.max_games} games per criterion"
        )
        rows = [("criterion", "result", "score", "95% interval", "W-D-L", "games", "points")]
        for res in self.results:
            t, (low, high) = res.tally, res.interval
            rows.append(
                (
                    res.criterion.name,
                    res.outcome,
                    f"{t.score:.3f}",
                    f"{low:.3f}-{high:.3f}",
                    f"{t.wins}-{t.draws}-{t.losses}",
                    str(t.games),
                    f"{res.points:g}/{res.criterion.points:g}",
                )
            )
        if self.timing is not None:
            slow = self.timing.slowest
            rows.append(
                (
                    "never late",
                    self.timing.outcome,
                    f"{slow.seconds:.3f}s/{slow.limit:.3f}s" if slow else "-",
                    f"{len(self.timing.late)} late",
                    f"{self.timing.time_forfeits} on time",
                    f"{self.timing.moves} moves",
                    f"{r.late_points if self.timing.outcome == 'met' else 0:g}/{r.late_points:g}",
                )
            )
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        lines = [head, ""]
        for row in rows:
            lines.append("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
        lines.append("")
        lines.extend(res.explain() for res in self.results)
        if self.timing is not None:
            lines.append(self.timing.explain())
        verdict = "every criterion met" if self.passed else "NOT every criterion met"
        lines.append(
            f"total: {self.score:g} of {self.max_score:g} points; {verdict} "
            f"({self.seconds:.0f} s, {len(self.records)} games)"
        )
        return "\n".join(lines)

    def as_json(self) -> dict[str, Any]:
        """The plain JSON report (``--json FILE``)."""
        r = self.rubric
        out: dict[str, Any] = {
            "agent": self.agent,
            "game": r.game.spec,
            "control": str(r.control),
            "openings": r.openings.spec if r.openings else None,
            "max_games": r.max_games,
            "test": {"delta": r.delta, "alpha": r.alpha, "beta": r.beta},
            "passed": self.passed,
            "score": self.score,
            "max_score": self.max_score,
            "seconds": round(self.seconds, 3),
            "criteria": [
                {
                    "name": res.criterion.name,
                    "vs": res.criterion.opponent,
                    "target": res.criterion.target,
                    "outcome": res.outcome,
                    "score": res.tally.score,
                    "interval": list(res.interval),
                    "wins": res.tally.wins,
                    "draws": res.tally.draws,
                    "losses": res.tally.losses,
                    "games": res.tally.games,
                    "decided_after": res.decided_after,
                    "llr": res.llr,
                    "bounds": list(res.bounds),
                    "forfeits": dict(res.forfeits),
                    "points": res.points,
                    "max_points": res.criterion.points,
                }
                for res in self.results
            ],
        }
        if self.timing is not None:
            t = self.timing
            out["never_late"] = {
                "outcome": t.outcome,
                "clocked": t.clocked,
                "moves": t.moves,
                "late": [vars(m) for m in t.late],
                "slowest": vars(t.slowest) if t.slowest else None,
                "time_forfeits": t.time_forfeits,
                "points": r.late_points if t.outcome == "met" else 0.0,
                "max_points": r.late_points,
            }
        return out

    def gradescope(self) -> dict[str, Any]:
        """Gradescope's ``results.json``: one test per criterion, pass or fail.

        The format: https://gradescope-autograders.readthedocs.io/en/latest/specs/
        (top-level ``score``, ``execution_time``, ``output``; ``tests`` with ``name``,
        ``score``, ``max_score``, ``status``, ``output``, optionally ``visibility``).
        """
        tests = []
        for number, res in enumerate(self.results, 1):
            tests.append(
                self._test(
                    number,
                    res.criterion.name,
                    res.outcome,
                    res.points,
                    res.criterion.points,
                    res.explain(),
                )
            )
        if self.timing is not None:
            t, points = self.timing, self.rubric.late_points
            tests.append(
                self._test(
                    len(tests) + 1,
                    "never late",
                    t.outcome,
                    points if t.outcome == "met" else 0.0,
                    points,
                    t.explain(),
                )
            )
        out: dict[str, Any] = {
            "score": self.score,
            "execution_time": max(1, round(self.seconds)),
            "output": self.table(),
            "tests": tests,
        }
        if self.rubric.visibility is not None:
            out["visibility"] = self.rubric.visibility
        return out

    def _test(
        self, number: int, name: str, outcome: str, score: float, most: float, output: str
    ) -> dict[str, Any]:
        test: dict[str, Any] = {
            "name": name,
            "number": str(number),
            "score": score,
            "max_score": most,
            "status": "passed" if outcome == "met" else "failed",
            "output": output,
            "output_format": "text",
        }
        if self.rubric.visibility is not None:
            test["visibility"] = self.rubric.visibility
        return test


# --- playing -----------------------------------------------------------------------------------

OnRecord = Callable[[Criterion, GameRecord, Tally], None]


@dataclass(frozen=True)
class Placement:
    """How the games run: parallel jobs or Ray, and where agents' code runs."""

    jobs: int = 1
    ray: str | None = None
    isolate: bool = False
    in_process: bool = False
    sandbox: Sandbox | None = None
    """Every agent program in this sandbox (``--sandbox``, :mod:`arena.remote.sandbox`)."""


def grade(
    rubric: Rubric,
    agent: str,
    placement: Placement = Placement(),
    on_record: OnRecord | None = None,
) -> GradeReport:
    """Play every criterion of ``rubric`` for ``agent`` and check the clock."""
    started = time.monotonic()
    for criterion in rubric.criteria:  # every opponent loads before the first game: a typo
        validate(_settings(rubric, agent, criterion, placement, games=2))  # in the last fails now
    results = []
    records: list[GameRecord] = []
    names: set[str] = set()
    for criterion in rubric.criteria:
        result, played, name = _criterion_games(rubric, agent, criterion, placement, on_record)
        results.append(result)
        records.extend(played)
        names.add(name)
    check = None
    if rubric.never_late:
        if not rubric.criteria:  # only the clock to check: one pair of games against itself
            criterion = Criterion(agent, 0.5, 0.0)
            settings = _settings(rubric, agent, criterion, placement, games=2)
            validate(settings)
            for _, record in _stream(
                settings, jobs_for(settings, settings.planned()), placement, lambda: False
            ):
                records.append(record)
            names.update(settings.agents)  # both seats are the agent
        check = _timing_of(records, names, rubric.control)
    return GradeReport(
        agent, rubric, tuple(results), check, time.monotonic() - started, tuple(records)
    )


def _timing_of(records: list[GameRecord], names: set[str], control: TimeControl) -> Timing:
    """The agent's timing over every game, under whichever table name it had in each."""
    parts = [timing([r for r in records if name in r.players], name, control) for name in names]
    if not control.timed:
        return Timing(clocked=False)
    late = tuple(m for p in parts for m in p.late)
    slowest = None
    for p in parts:
        s = p.slowest
        if s is not None and (
            slowest is None or s.seconds * slowest.limit > slowest.seconds * s.limit
        ):
            slowest = s
    return Timing(
        True, sum(p.moves for p in parts), slowest, late, sum(p.time_forfeits for p in parts)
    )


def _settings(
    rubric: Rubric, agent: str, criterion: Criterion, placement: Placement, games: int
) -> Settings:
    return Settings(
        game=rubric.game,
        agents=tuple(unique_names([agent, criterion.opponent])),
        control=rubric.control,
        games_per_pair=games,
        openings=rubric.openings,
        grace=rubric.grace,
        max_plies=rubric.max_plies,
        seed=rubric.seed,
        isolate=placement.isolate,
        in_process=placement.in_process,
        sandbox=placement.sandbox,
    )


def _stream(
    settings: Settings, todo: Iterator[Job], placement: Placement, stop: Callable[[], bool]
) -> Iterator[tuple[Job, GameRecord]]:
    if placement.ray:
        return run_ray(todo, placement.ray, stop)
    if placement.jobs > 1:
        return run_pool(todo, placement.jobs, stop)
    return run_serial(todo, stop)


def _criterion_games(
    rubric: Rubric,
    agent: str,
    criterion: Criterion,
    placement: Placement,
    on_record: OnRecord | None,
) -> tuple[CriterionResult, list[GameRecord], str]:
    """Play until the test decides on a prefix of complete pairs, or the cap."""
    games = rubric.max_games - rubric.max_games % 2  # whole pairs, never past the cap
    settings = _settings(rubric, agent, criterion, placement, games)
    me = settings.agents[0]
    test = rubric.test(criterion)
    planned = settings.planned()
    index = {p.game_id: i for i, p in enumerate(planned)}
    done: dict[int, GameRecord] = {}
    checked = 0  # games of the prefix already tested
    decision: Outcome | None = None
    stopped = [False]  # read by the runner between games
    decided_after: int | None = None
    tally = Tally()
    for _, record in _stream(settings, jobs_for(settings, planned), placement, lambda: stopped[0]):
        done[index[record.game_id]] = record
        tally = tally.add(record, me)
        if on_record is not None:
            on_record(criterion, record, tally)
        # The test sees the games in the plan's order, a pair at a time, whatever order
        # parallel games finish in: its decision does not depend on --jobs.
        while decision is None and checked + 2 <= games and {checked, checked + 1} <= done.keys():
            checked += 2
            decision = test.decide(pair_counts([done[i] for i in range(checked)], me))
            if decision is not None:
                decided_after, stopped[0] = checked, True
    records = [done[i] for i in sorted(done)]
    verdict = test.status(pair_counts(records[: decided_after or checked], me))
    forfeits: dict[str, int] = {}
    for record in records:
        if record.forfeited and record.players[record.loser or 0] == me:
            forfeits[record.reason] = forfeits.get(record.reason, 0) + 1
    result = CriterionResult(
        criterion,
        decision or "undecided",
        tally,
        decided_after,
        verdict.llr,
        (verdict.lower, verdict.upper),
        forfeits,
    )
    return result, records, me


def pair_counts(records: list[GameRecord], agent: str) -> tuple[int, ...]:
    """How many pairs of consecutive games (an opening with both colours) scored 0, 1/2, 1,
    3/2 and 2 points for ``agent``: what the sequential test counts.

    >>> won = GameRecord("tictactoe", ("me", "you"), returns=(1, -1))
    >>> drawn = GameRecord("tictactoe", ("you", "me"), returns=(0, 0))
    >>> pair_counts([won, drawn, won, won], "me")
    (0, 0, 0, 1, 1)
    """
    counts = [0] * len(PAIR_SCORES)
    for k in range(0, len(records) - 1, 2):
        pair = records[k : k + 2]
        counts[pair_index(sum(r.points(r.players.index(agent)) for r in pair))] += 1
    return tuple(counts)
