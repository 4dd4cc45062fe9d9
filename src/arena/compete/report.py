"""Reports from a results database: standings, one page per player, a gradebook CSV.

:func:`build` reads a database (any tournament's, or a league's) into a :class:`Report`:
the standings with Elo and 95% intervals (:func:`arena.stats.standings.standings`), and
for every player each of its games from its side (opponent, colour, result, how it
ended, its moves and the time each took, the stderr of a forfeit), its forfeits by
kind, and advice: sentences on what to fix, made from the forfeits and the results
(:func:`advice`). :func:`gradebook` writes the CSV a gradebook imports, and
:mod:`arena.compete.pages` writes the pages.

Player names are what the database stores: a tournament's agent specs, a league's
student folder names. What a league's settings add is read too (:func:`roster`): the spec
behind each name (``specs``, in the order of ``agents``), which names are reference
agents (``league.references``), and the submissions that did not play with the reason
(``league.refused``): each gets a page saying why and a row in the gradebook, never
left out.

Tests: tests/compete/test_report.py
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from arena.compete.store import ResultsDB, open_existing
from arena.compete.timecontrol import TimeControl
from arena.core.errors import ArenaError
from arena.core.words import plural
from arena.formats.record import FORFEITS, GameRecord
from arena.stats.standings import AgentLine, Standings, first_mover, standings

KINDS = {"time": "time", "illegal": "illegal move", "crash": "crash"}
"""Forfeits by kind, as the record names them and as people read them (one column each)."""

NEAR_LIMIT = 0.8
"""A move that used this share of its time is close to a forfeit on time: advice says so."""


@dataclass(frozen=True)
class Move:
    ply: int
    """1 for the game's first move."""
    move: str
    seconds: float | None
    """Time the move took (None for opening moves, played off the clock)."""
    mine: bool
    """Played by the player the page is about."""


@dataclass(frozen=True)
class Game:
    """One game from one player's side."""

    number: int
    """The game's number in the database (1 for the first stored)."""
    record: GameRecord
    seat: int
    """0: this player moved first; 1: second."""
    opponent: str
    round: int

    @property
    def points(self) -> float:
        return self.record.points(self.seat)

    @property
    def result(self) -> str:
        """``win``, ``draw`` or ``loss``."""
        points = self.points
        return "win" if points > 0.5 else "draw" if points == 0.5 else "loss"

    @property
    def colour(self) -> str:
        return "first" if self.seat == 0 else "second"

    @property
    def forfeited(self) -> bool:
        """This player lost the game by a forfeit."""
        return self.record.forfeited and self.record.loser == self.seat

    @property
    def how(self) -> str:
        """How the game ended, from this player's side: ``lost on time``, ``opponent
        crashed``, ``by the rules``..."""
        r = self.record
        if r.reason == "normal":
            return "by the rules"
        if r.reason == "adjudication":
            return "adjudicated at the move cap"
        words = {"time": "on time", "illegal": "by an illegal move", "crash": "by a crash"}
        if r.reason == "resign":
            return "resigned" if r.loser == self.seat else "opponent resigned"
        if r.loser == self.seat:
            return f"lost {words.get(r.reason, r.reason)}"
        return f"opponent lost {words.get(r.reason, r.reason)}"

    @property
    def moves(self) -> list[Move]:
        r = self.record
        opener = first_mover(r.game)
        return [
            Move(
                ply + 1,
                move,
                r.seconds[ply] if r.opening_plies <= ply < len(r.seconds) else None,
                (ply + opener) % 2 == self.seat,
            )
            for ply, move in enumerate(r.moves)
        ]

    @property
    def my_seconds(self) -> list[float]:
        """Every answer of this player that was timed, the one that forfeited included."""
        return [s for seat, s in self.record.timed_moves(first_mover(self.record.game))
                if seat == self.seat]  # fmt: skip

    @property
    def failed_move(self) -> int:
        """This player's own move number at which the game ended (its last answer)."""
        return sum(1 for m in self.moves if m.mine and m.seconds is not None) + 1


@dataclass
class Player:
    name: str
    line: AgentLine
    spec: str | None = None
    """The spec behind the name, where the settings keep it."""
    reference: bool = False
    """A reference agent of a league (not a student)."""
    refused: str | None = None
    """Why a league's submission did not play (no games, no rank); None for a player."""
    rank: int = 0
    games: list[Game] = field(default_factory=list)
    advice: list[str] = field(default_factory=list)

    @property
    def forfeits(self) -> dict[str, int]:
        """Games lost by a forfeit, by kind (every kind of :data:`KINDS`, zeros too)."""
        return {kind: self.line.forfeits.get(kind, 0) for kind in KINDS}


@dataclass
class Report:
    title: str
    game: str
    control: TimeControl | None
    standings: Standings
    players: list[Player]
    """Best first (by Elo, then points); a league's submissions that did not play last."""
    settings: dict[str, Any]

    @property
    def ranked(self) -> list[Player]:
        """The players who played (a league's refused submissions left out), best first."""
        return [p for p in self.players if p.refused is None]

    def player(self, name: str) -> Player:
        for p in self.players:
            if p.name == name:
                return p
        raise ArenaError(f"no player {name!r} in the results")


def build(db: ResultsDB, title: str = "") -> Report:
    """The report of everything ``db`` holds."""
    settings = db.settings() or {}
    names = list(settings.get("agents", []))
    records = list(db.records())
    rows = {row["game_id"]: row for row in db.rows()}
    return from_records(records, names, settings, rows, title or str(db.path.name))


def from_records(
    records: list[GameRecord],
    names: list[str],
    settings: dict[str, Any],
    rows: dict[str, dict[str, Any]] | None = None,
    title: str = "",
) -> Report:
    """The report of ``records`` played by ``names`` under ``settings`` (the database's)."""
    table = standings(records, names)
    control = _control(settings.get("control"))
    specs, references, refused = roster(settings)
    players = {
        name: Player(name, line, spec=specs.get(name), reference=name in references)
        for name, line in table.agents.items()
    }
    for number, record in enumerate(records, start=1):
        row = (rows or {}).get(record.game_id, {})
        for seat, name in enumerate(record.players):
            players[name].games.append(
                Game(number, record, seat, record.players[1 - seat], int(row.get("round", 0)))
            )
    ranked = sorted(players.values(), key=_rank_key)
    for rank, player in enumerate(ranked, start=1):
        player.rank = rank
        player.advice = advice(player, control)
    for name, reason in refused.items():
        if name not in players:  # a folder that did not play: last, unranked, and why
            ranked.append(
                Player(name, AgentLine(name), refused=reason, advice=[f"Did not play: {reason}"])
            )
    return Report(title, str(settings.get("game", "?")), control, table, ranked, settings)


def roster(settings: dict[str, Any]) -> tuple[dict[str, str], set[str], dict[str, str]]:
    """What a league's settings say of its players: the spec behind each name, the names
    of reference agents, and ``{folder: reason}`` of the submissions that did not play;
    empty for a tournament's. Anything not of the expected shape is left out.

    >>> roster({"agents": ["ada", "greedy"], "specs": ["py:ada/agent.py:Agent", "greedy"],
    ...         "league": {"references": ["greedy"], "refused": {"bob": "no agent found"}}})
    ({'ada': 'py:ada/agent.py:Agent', 'greedy': 'greedy'}, {'greedy'}, {'bob': 'no agent found'})
    """
    names, given = settings.get("agents"), settings.get("specs")
    specs: dict[str, str] = {}
    if _texts(names) and _texts(given) and len(given) == len(names):
        specs = dict(zip(names, given, strict=True))
    league = settings.get("league") if isinstance(settings.get("league"), dict) else {}
    references = set(league["references"]) if _texts(league.get("references")) else set()
    refused_ = league.get("refused")
    refused = (
        {k: v for k, v in refused_.items() if isinstance(k, str) and isinstance(v, str)}
        if isinstance(refused_, dict)
        else {}
    )
    return specs, references, refused


def _texts(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _control(text: Any) -> TimeControl | None:
    try:
        return TimeControl.parse(text) if isinstance(text, str) else None
    except ArenaError:
        return None


def _rank_key(p: Player) -> tuple[float, float, str]:
    # Elo first: a league's schedule gives players different opponents, and the fit weighs
    # them; points break ties (and rank alone where nothing was fitted).
    elo = p.line.elo if p.line.elo is not None and math.isfinite(p.line.elo) else -math.inf
    return (-elo, -p.line.tally.points, p.name)


def advice(player: Player, control: TimeControl | None = None) -> list[str]:
    """What to fix, in sentences, most urgent first: forfeits (time, crash, illegal), moves
    close to the time limit, opponents never beaten; a sentence of praise when nothing
    is wrong."""
    games = player.games
    if not games:
        return ["No games were played yet."]
    out: list[str] = []
    n = len(games)
    limit = _move_limit(control)
    lost = {kind: [g for g in games if g.forfeited and g.record.reason == kind] for kind in KINDS}
    if lost["time"]:
        g = max(lost["time"], key=lambda g: g.record.last_seconds or 0.0)
        used = g.record.last_seconds
        took = "" if used is None else f" took {used:.2f} s"
        if used is not None and limit is not None:
            took += f" of the {limit:g} s a move may take"
        if _NO_ANSWER.search(g.record.detail):  # stopped at its deadline: a hang, or far over
            took = " got no answer in time" + (f" (stopped after {used:.2f} s)" if used else "")
        out.append(
            f"{_of(len(lost['time']), n)} lost on time: in game {g.number} your agent's move "
            f"{g.failed_move}{took} ({g.record.detail}). Answer earlier: stop the search "
            "with a margin (at most about 80% of the time the limit gives), and check the "
            "time inside the search, not only between iterations."
        )
    if lost["crash"]:
        g = lost["crash"][0]
        out.append(
            f"{_of(len(lost['crash']), n)} lost by a crash, first in game {g.number} on its "
            f"move {g.failed_move}: {_first_line(g.record.detail)}. Fix it, and play your "
            "agent locally against random until it finishes every game."
        )
    if lost["illegal"]:
        g = lost["illegal"][0]
        out.append(
            f"{_of(len(lost['illegal']), n)} lost by an illegal move, first in game {g.number}: "
            f"{_first_line(g.record.detail)}. Answer only moves of the position's legal moves, "
            "in the game's notation."
        )
    if not lost["time"] and limit is not None:
        slow = [(s, g) for g in games for s in g.my_seconds if s >= NEAR_LIMIT * limit]
        if slow:
            seconds, g = max(slow, key=lambda x: x[0])
            out.append(
                f"Close to the time limit: {plural(len(slow), 'move')} used over "
                f"{NEAR_LIMIT:.0%} of the {limit:g} s a move may take (the longest "
                f"{seconds:.2f} s, in game {g.number}); a slower machine would forfeit them."
            )
    beaten_by = _never_scored_against(games)
    if beaten_by:
        shown = ", ".join(f"{name} ({plural(k, 'game')})" for name, k in beaten_by)
        out.append(
            f"Lost every game played to the end against {shown}: replay those games move by "
            "move (arena replay games/N.json --step, or open them in arena web) to see where "
            "your agent goes wrong."
        )
    if not out:
        tally = player.line.tally
        out.append(
            f"No forfeits: all {plural(n, 'game')} were played to the end, "
            f"{tally.wins} won, {tally.draws} drawn, {tally.losses} lost."
        )
    return out


_NO_ANSWER = re.compile(r": no .{1,40} within [0-9.]+ s")
"""How a program's forfeit on time reads when it was stopped at its deadline without an
answer (``cmd:python a.py: no move within 0.550 s``)."""


def _of(k: int, n: int) -> str:
    return f"{k} of {plural(n, 'game')}"


def _first_line(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else "no detail"
    return line if len(line) <= 300 else line[:297] + "..."


def _move_limit(control: TimeControl | None) -> float | None:
    """Seconds a move may take under ``control``, where that is fixed (``move:10``)."""
    if control is None or control.per_move is None:
        return None
    return control.per_move


def _never_scored_against(games: Iterable[Game]) -> list[tuple[str, int]]:
    """Opponents met in at least two games played to the end (not forfeited by this
    player: those have advice of their own) that were all lost."""
    met: dict[str, list[float]] = {}
    for g in games:
        if not g.forfeited:
            met.setdefault(g.opponent, []).append(g.points)
    return [(name, len(p)) for name, p in sorted(met.items()) if len(p) >= 2 and not any(p)]


GRADEBOOK = (
    "rank",
    "player",
    "reference",
    "spec",
    "refused",
    "games",
    "wins",
    "draws",
    "losses",
    "points",
    "score",
    "elo",
    "elo_low",
    "elo_high",
    *(f"forfeits_{kind}" for kind in KINDS),
    "forfeits",
    "max_move_seconds",
)
"""The gradebook CSV's columns: one row per player, best first."""


def gradebook_rows(report: Report) -> list[dict[str, Any]]:
    """The gradebook's rows (see :data:`GRADEBOOK`)."""
    out = []
    for p in report.players:
        line, tally = p.line, p.line.tally
        out.append(
            {
                "rank": p.rank or "",
                "player": p.name,
                "reference": "yes" if p.reference else "",
                "spec": p.spec or "",
                "refused": p.refused or "",
                "games": tally.games,
                "wins": tally.wins,
                "draws": tally.draws,
                "losses": tally.losses,
                "points": tally.points,
                "score": round(tally.score, 4),
                "elo": _elo(line.elo),
                "elo_low": _elo(line.elo_low),
                "elo_high": _elo(line.elo_high),
                **{f"forfeits_{kind}": k for kind, k in p.forfeits.items()},
                "forfeits": sum(line.forfeits.get(k, 0) for k in FORFEITS),
                "max_move_seconds": round(max(line.move_seconds, default=0.0), 3),
            }
        )
    return out


def gradebook(report: Report) -> str:
    """The gradebook as CSV text (a header, then one row per player, best first)."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(GRADEBOOK), lineterminator="\n")
    writer.writeheader()
    writer.writerows(gradebook_rows(report))
    return buffer.getvalue()


def _elo(x: float | None) -> str:
    if x is None:
        return ""
    if not math.isfinite(x):
        return "inf" if x > 0 else "-inf"
    return f"{x:.0f}"


def load(path: str) -> Report:
    """The report of the database at ``path`` (opened read-only; one-line errors)."""
    db = open_existing(path)
    try:
        return build(db)
    finally:
        db.close()
