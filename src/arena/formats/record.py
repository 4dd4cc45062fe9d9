"""``GameRecord``: everything about one finished game, as one JSON line.

>>> r = GameRecord(game="tictactoe", players=("random", "greedy"), moves=["b2", "a1"],
...                seconds=[0.001, 0.002], returns=(0, 0), reason="normal")
>>> GameRecord.from_json(r.to_json()) == r
True
>>> r.winner, r.points(0), r.forfeited
(None, 0.5, False)
>>> GameRecord("tictactoe", ("a", "b"), returns=(-1, 1), reason="time", loser=0).forfeited
True

Tests: tests/cli/test_replay.py, tests/formats/test_sgf.py, tests/formats/test_jsontext.py,
tests/compete/test_match.py
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from arena.core.errors import ArenaError
from arena.core.game import winner_of
from arena.formats.jsontext import NotJSON, loads

REASONS = ("normal", "time", "illegal", "crash", "resign", "adjudication")
"""How a game ended: by the rules, or by a forfeit (time, illegal move, crash),
a resignation, or adjudication by score at the ply cap."""

FORFEITS = ("time", "illegal", "crash")
"""The reasons that are forfeits: the loser broke the rules of play (overran its
clock, answered an illegal move, crashed). A resignation is the loser's choice and
adjudication the game's count, so neither is a forfeit."""


STDERR_CHARS = 2000
"""The most of a forfeiting agent's stderr a record keeps: the last lines, enough for a
traceback, bounded so that an agent printing without end cannot grow the database."""


def stderr_tail(text: str, limit: int = STDERR_CHARS) -> str:
    """The last whole lines of ``text`` within ``limit`` characters, blank lines dropped
    (a single line longer than ``limit`` keeps its end).

    >>> stderr_tail("a\\n\\nb\\nc\\n", limit=4)
    'b\\nc'
    >>> stderr_tail("x" * 10, limit=4)
    'xxxx'
    """
    kept: list[str] = []
    size = 0
    for line in reversed([line.rstrip() for line in text.splitlines() if line.strip()]):
        if size + len(line) + (1 if kept else 0) > limit:
            if not kept:
                kept.append(line[-limit:])
            break
        size += len(line) + (1 if kept else 0)
        kept.append(line)
    return "\n".join(reversed(kept))


@dataclass
class GameRecord:
    game: str
    """The game's spec."""
    players: tuple[str, str]
    """Agent specs: ``players[0]`` is the first player (Black; Go with a handicap starts
    with White to move)."""
    moves: list[str] = field(default_factory=list)
    """Every move in notation, the opening's included."""
    seconds: list[float] = field(default_factory=list)
    """Time used per move (0 for opening moves)."""
    returns: tuple[int, int] = (0, 0)
    reason: str = "normal"
    loser: int | None = None
    """The player who forfeited or resigned (for those reasons)."""
    detail: str = ""
    """What went wrong, for forfeits: the exception, the illegal move, the overrun."""
    opening_plies: int = 0
    seed: int | None = None
    """Seed of the initial position (games with random set-ups)."""
    nodes: list[int | None] = field(default_factory=list)
    """Nodes or simulations each move searched (None for agents that do not say)."""
    game_id: str = ""
    score: float | None = None
    """The game's margin for the first player at the end, where it has one."""
    names: tuple[str | None, str | None] | None = None
    """What programs called themselves (an Othello program's name line, a Colosseum
    agent's ``name``); None for agents that have no such name."""
    notes: list[str] = field(default_factory=list)
    """What else happened, short of a forfeit (a failed step replaced by a random walk)."""
    finished: bool = True
    """False for a game saved while it was being played (``save FILE`` at the terminal)."""
    last_seconds: float | None = None
    """Time the loser's last answer took when it ended the game without a move (a
    forfeit on time, an illegal move, a crash, a resignation): not in ``seconds``,
    which has one entry per move played, but counted by :meth:`timed_moves`."""
    stderr: str = ""
    """The end of what the loser wrote to stderr when it forfeited (a program's log: its
    traceback, its last prints; the traceback of an agent in arena's process), at most
    :data:`STDERR_CHARS` characters of whole lines; empty when there is nothing."""

    def __post_init__(self) -> None:
        self.players = tuple(self.players)  # type: ignore[assignment]
        self.returns = tuple(self.returns)  # type: ignore[assignment]
        if self.names is not None:
            self.names = tuple(self.names)  # type: ignore[assignment]

    @property
    def winner(self) -> int | None:
        return winner_of(self.returns)

    def points(self, seat: int) -> float:
        """What the game scored for the player in ``seat``: 1 for a win, 1/2 for a draw, 0."""
        return (self.returns[seat] + 1) / 2

    @property
    def forfeited(self) -> bool:
        """True when the game ended by a forfeit (:data:`FORFEITS`); ``loser`` forfeited."""
        return self.reason in FORFEITS

    def timed_moves(self, opener: int = 0) -> list[tuple[int, float]]:
        """``(seat, seconds)`` of every answer a player was timed on: the moves after the
        opening, and the last answer that forfeited or resigned the game. What every
        time column (seconds a move, the longest move) counts. ``opener``: the seat that
        made the first move (1 in Go with a handicap).

        >>> r = GameRecord("tictactoe", ("slow", "b"), moves=["b2", "a1"], seconds=[0.0, 0.01],
        ...                opening_plies=1, reason="time", loser=0, last_seconds=3.0)
        >>> r.timed_moves()
        [(1, 0.01), (0, 3.0)]
        """
        timed = [
            ((ply + opener) % 2, self.seconds[ply])
            # A record read from elsewhere may time fewer moves than it holds (SGF keeps none).
            for ply in range(self.opening_plies, min(len(self.moves), len(self.seconds)))
        ]
        if self.last_seconds is not None and self.loser is not None:
            timed.append((self.loser, self.last_seconds))
        return timed

    def to_json(self) -> str:
        data = asdict(self)
        if self.finished:
            del data["finished"]  # finished games read exactly as before the field existed
        if self.last_seconds is None:
            del data["last_seconds"]  # likewise
        if not self.stderr:
            del data["stderr"]  # likewise
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """The record of one JSON line, checked as :func:`read_record` does;
        :class:`NotARecord` (a ``ValueError``) for text that is not JSON, or not an object
        with a record's fields."""
        try:
            return read_record(text)
        except NotARecord:
            raise
        except ArenaError as exc:
            raise NotARecord(str(exc)[:200]) from None


class NotARecord(ArenaError, ValueError):
    """A line that is not a game record."""


def read_record(text: str) -> GameRecord:
    """A record from one line of JSON that may come from anywhere (a file, a database
    row): anything that is not a :class:`GameRecord` is an :class:`ArenaError` saying
    what is wrong, in one line.

    >>> read_record('{"game": "tictactoe", "players": ["a", "b"], "moves": ["b2"]}').moves
    ['b2']
    >>> read_record('{"game": "tictactoe", "players": "ab"}')
    Traceback (most recent call last):
    ...
    arena.formats.record.NotARecord: not a game record: 'players' must be two agents
    >>> read_record('[[[[')
    Traceback (most recent call last):
    ...
    arena.formats.record.NotARecord: not a JSON game record (Expecting value)
    """
    try:
        data = loads(text)
    except NotJSON as exc:
        raise NotARecord(f"not a JSON game record ({exc.reason})") from None
    return parse_record(data)


_FIELDS = frozenset(f.name for f in fields(GameRecord))


def parse_record(data: Any) -> GameRecord:
    """A GameRecord from decoded JSON, checking every field that reading, replaying and
    standings rely on; fields a later version may add are skipped, so old readers still
    read new files."""
    if not isinstance(data, dict):
        raise NotARecord("not a game record (a JSON object)")
    missing = {"game", "players"} - data.keys()
    if missing:
        raise NotARecord(f"not a game record: no {' or '.join(sorted(missing))}")
    returns = data.get("returns", [0, 0])
    names = data.get("names")
    checks = (
        ("game", isinstance(data["game"], str), "a game spec"),
        ("players", _list_of(data["players"], str) and len(data["players"]) == 2, "two agents"),
        ("moves", _list_of(data.get("moves", []), str), "a list of moves in notation"),
        ("seconds", _list_of(data.get("seconds", []), int, float), "a list of numbers"),
        ("nodes", _list_of(data.get("nodes", []), int, type(None)), "a list of counts"),
        ("returns", _list_of(returns, int) and len(returns) == 2, "two numbers"),
        ("reason", isinstance(data.get("reason", ""), str), "a word"),
        ("detail", isinstance(data.get("detail", ""), str), "text"),
        ("loser", data.get("loser") in (None, 0, 1), "0, 1 or null"),
        ("score", _number(data.get("score")) or data.get("score") is None, "a number"),
        ("opening_plies", _count(data.get("opening_plies", 0)), "a number of moves"),
        ("seed", _count(data.get("seed")) or data.get("seed") is None, "an integer"),
        ("game_id", isinstance(data.get("game_id", ""), str), "text"),
        (
            "names",
            names is None or (_list_of(names, str, type(None)) and len(names) == 2),
            "two names",
        ),
        ("notes", _list_of(data.get("notes", []), str), "a list of texts"),
        ("finished", isinstance(data.get("finished", True), bool), "true or false"),
        ("stderr", isinstance(data.get("stderr", ""), str), "text"),
    )
    for key, ok, what in checks:
        if not ok:
            raise NotARecord(f"not a game record: {key!r} must be {what}")
    return GameRecord(**{k: v for k, v in data.items() if k in _FIELDS})


def _list_of(value: Any, *types: type) -> bool:
    return isinstance(value, list) and all(
        isinstance(v, types) and not isinstance(v, bool) for v in value
    )


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
