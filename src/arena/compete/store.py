"""The results database: one SQLite file per tournament, one row per finished game.

Every game is committed in its own transaction the moment it ends, keyed by
its planned ``game_id`` (unique), so a run killed at any moment loses only
the games in progress, and running the same command again plays only the
games still missing. The file also keeps the tournament's settings; a run
with other settings refuses it instead of mixing results.

Nothing is ever written to a file arena did not make: a file is written only
when it is new (absent or empty) or already holds exactly arena's tables; any
other SQLite file, or a file that is not SQLite, is refused untouched. Reading
(``arena results``) opens the file read-only.

One writer at a time: a run that writes holds a lock on the file (``flock``,
released by the system when the process ends, however it ends), and a second
run given the same ``--db`` meanwhile is refused in one line instead of
playing the same games again. Readers are never refused. A file another
program keeps locked is waited for :data:`LOCK_WAIT` seconds, then refused in
one line; so is anything stored that is not what arena writes (settings that
are not a JSON object, a row with a text where a number belongs).

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "t.db")
>>> db = ResultsDB(path)
>>> db.bind({"game": "connect4", "agents": ["a", "b"]})
>>> db.done_ids()
set()

Tests: tests/compete/test_tournament.py
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections.abc import Callable, Container, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from arena.core.errors import ArenaError, excerpt
from arena.formats.record import GameRecord, read_record

try:
    import fcntl
except ImportError:  # not on Windows: one writer at a time is then the user's care
    fcntl = None  # type: ignore[assignment]

SCHEMA = """
CREATE TABLE IF NOT EXISTS tournament (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    settings TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    game_id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    first TEXT NOT NULL,
    second TEXT NOT NULL,
    round INTEGER NOT NULL,
    result REAL NOT NULL,            -- the first player's score: 1, 0.5 or 0
    reason TEXT NOT NULL,
    plies INTEGER NOT NULL,
    record TEXT NOT NULL,            -- the whole GameRecord as JSON
    finished TEXT NOT NULL
);
"""

TABLES = frozenset({"tournament", "games"})

COLUMNS = ("game_id", "game", "first", "second", "round", "result", "reason", "plies", "finished")

_KINDS: dict[str, tuple[type, ...]] = {
    "game_id": (str,),
    "game": (str,),
    "first": (str,),
    "second": (str,),
    "round": (int,),
    "result": (int, float),
    "reason": (str,),
    "plies": (int,),
    "finished": (str,),
}
"""What each column holds when arena wrote the row (SQLite keeps any value in any column)."""

LOCK_WAIT = 10.0
"""Seconds to wait for a database another program keeps locked. Arena's own writes
hold it for milliseconds, so a longer lock is another program's."""


class ResultsDB:
    """A results database: ``ResultsDB(path)`` to write games (the file is made when new),
    ``ResultsDB(path, readonly=True)`` to read an existing one without changing a byte."""

    def __init__(self, path: str | Path, readonly: bool = False, wait: float = LOCK_WAIT) -> None:
        self.path = Path(path)
        self.wait = wait
        self._lock: int | None = None
        if not readonly:
            self._lock = _writer_lock(self.path)
        try:
            new = self.path.stat().st_size == 0 if self._lock is not None else False
            if not new:
                self._check_tables(readonly)  # looking only: a foreign file is refused untouched
            with self.errors():
                if readonly:
                    self.conn = _read_only(self.path, wait)
                    return
                # Autocommit mode: each game is written in an explicit transaction of its own.
                self.conn = sqlite3.connect(self.path, isolation_level=None, timeout=wait)
                self.conn.execute("PRAGMA journal_mode=WAL")
                self.conn.execute("PRAGMA synchronous=NORMAL")
                self.conn.executescript(SCHEMA)
        except BaseException:
            self._unlock()
            raise

    @contextlib.contextmanager
    def errors(self) -> Iterator[None]:
        """SQLite's errors as one line naming the file (a lock held too long, a damaged
        file); what the caller does inside is its own."""
        try:
            yield
        except sqlite3.OperationalError as exc:
            text = str(exc)
            if "locked" in text or "busy" in text:
                raise ArenaError(
                    f"{self.path} is locked by another program (waited {self.wait:g} s): "
                    "try again when it is done"
                ) from None
            raise ArenaError(f"{self.path}: {text}") from None
        except sqlite3.DatabaseError as exc:
            raise ArenaError(f"{self.path}: not a results database ({exc})") from None

    def _check_tables(self, readonly: bool) -> None:
        """Refuse a file that is not arena's results database, looking only."""
        if not self.path.is_file():
            raise ArenaError(_missing(self.path))
        try:
            conn = _read_only(self.path, self.wait)
            try:
                found = {
                    name
                    for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
                }
            finally:
                conn.close()
        except sqlite3.OperationalError:
            with self.errors():
                raise
        except sqlite3.DatabaseError as exc:
            raise ArenaError(f"{self.path}: not a results database ({exc})") from None
        if found != TABLES:
            held = ", ".join(sorted(found)) or "no tables"
            advice = "" if readonly else "; it is left as it is: give --db a new file"
            raise ArenaError(f"{self.path}: not a results database (it holds {held}){advice}")

    def settings(self) -> dict[str, Any] | None:
        """The stored settings (None in a new database): a JSON object with the game's
        spec and the agents' names at least, or the file is refused."""
        with self.errors():
            row = self.conn.execute("SELECT settings FROM tournament WHERE id = 1").fetchone()
        if row is None:
            return None
        try:
            stored = json.loads(row[0]) if isinstance(row[0], str | bytes) else None
        except (ValueError, RecursionError):
            stored = None
        if not isinstance(stored, dict):
            what = f"{excerpt(repr(row[0]))}, not a JSON object"
            raise ArenaError(f"{self.path}: not a results database (its settings are {what})")
        agents = stored.get("agents")
        if not isinstance(stored.get("game"), str) or not (
            isinstance(agents, list) and all(isinstance(a, str) for a in agents)
        ):
            raise ArenaError(
                f"{self.path}: not a results database (its settings name no game spec and agents)"
            )
        return stored

    def bind(
        self,
        settings: dict[str, Any],
        canonical: Callable[[dict[str, Any]], dict[str, Any]] = dict,
    ) -> None:
        """Record the settings of a new database, or check that they match an old one's
        (read through ``canonical``: the form ``settings`` are given in)."""
        stored = self.settings()
        # Writing is checked now, not after the first game: a file another program keeps
        # locked is refused before anything is played.
        with self.errors(), self._transaction():
            if stored is None:
                self.conn.execute(
                    "INSERT INTO tournament (id, settings, created) VALUES (1, ?, ?)",
                    (json.dumps(settings, sort_keys=True), datetime.now(UTC).isoformat()),
                )
        if stored is None:
            return
        stored = canonical(stored)
        if stored != json.loads(json.dumps(settings, sort_keys=True)):
            differ = sorted(
                k for k in set(stored) | set(settings) if stored.get(k) != settings.get(k)
            )
            shown = "; ".join(
                f"{k}: {excerpt(repr(stored.get(k)))} here, {excerpt(repr(settings.get(k)))} asked"
                for k in differ[:3]
            )
            raise ArenaError(
                f"{self.path} holds another tournament ({shown}); use another --db file"
            )

    def count(self) -> int:
        """How many games are stored (one cheap query: what a live page polls)."""
        with self.errors():
            return int(self.conn.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    def done_ids(self) -> set[str]:
        with self.errors():
            return {row[0] for row in self.conn.execute("SELECT game_id FROM games")}

    def add(self, record: GameRecord, first: str, second: str, round_: int) -> bool:
        """Store one finished game; False when its game_id is already there."""
        try:
            with self._transaction():
                self.conn.execute(
                    "INSERT INTO games (game_id, game, first, second, round, result, reason,"
                    " plies, record, finished) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        record.game_id,
                        record.game,
                        first,
                        second,
                        round_,
                        record.points(0),
                        record.reason,
                        len(record.moves),
                        record.to_json(),
                        datetime.now(UTC).isoformat(),
                    ),
                )
        except sqlite3.IntegrityError:
            return False
        except sqlite3.Error:
            with self.errors():
                raise
        return True

    def _transaction(self):  # type: ignore[no-untyped-def]
        conn = self.conn

        class Transaction:
            def __enter__(self) -> None:
                conn.execute("BEGIN IMMEDIATE")

            def __exit__(self, kind, value, tb) -> None:  # type: ignore[no-untyped-def]
                conn.execute("ROLLBACK" if kind else "COMMIT")

        return Transaction()

    def records(self, within: Container[str] | None = None) -> Iterator[GameRecord]:
        """Every stored game, in the order they were stored (only those whose ``game_id``
        is ``within`` a plan of games, :mod:`arena.compete.plan`, when given); a row whose
        record is not a game record is refused, naming the game."""
        with self.errors():
            rows = self.conn.execute("SELECT game_id, record FROM games ORDER BY rowid")
            for game_id, text in rows:
                if within is not None and game_id not in within:
                    continue
                try:
                    if not isinstance(text, str):
                        raise ArenaError(f"not a JSON game record ({type(text).__name__})")
                    yield read_record(text)
                except ArenaError as exc:
                    raise ArenaError(f"{self.path}, game {_shown(game_id)}: {exc}") from None

    def rows(self) -> list[dict[str, Any]]:
        """Every stored game's columns (without the record), checked to hold what arena
        writes in them."""
        query = f"SELECT {', '.join(COLUMNS)} FROM games ORDER BY rowid"
        with self.errors():
            out = [dict(zip(COLUMNS, row)) for row in self.conn.execute(query)]
        for row in out:
            for column, kinds in _KINDS.items():
                value = row[column]
                if not isinstance(value, kinds):
                    raise ArenaError(
                        f"{self.path}, game {_shown(row['game_id'])}: {column} holds "
                        f"{excerpt(repr(value))}, not {'a number' if int in kinds else 'text'}"
                    )
        return out

    def close(self) -> None:
        try:
            self.conn.close()
        finally:
            self._unlock()

    def _unlock(self) -> None:
        # After the connection: closing any descriptor of the file releases SQLite's own
        # POSIX locks on it, so ours is closed last.
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None


def _shown(game_id: Any) -> str:
    return excerpt(game_id) if isinstance(game_id, str) else excerpt(repr(game_id))


def _missing(path: Path) -> str:
    """Why there is no database at ``path``: a folder that does not exist is named."""
    folder = path.parent
    if not folder.is_dir():
        return f"{path}: no such folder {folder}"
    return f"{path}: no such results database"


def _writer_lock(path: Path) -> int:
    """Open (or make, empty) the file and take the one writer's lock on it, or refuse.

    ``flock`` locks are apart from SQLite's own (POSIX) locks, and the system drops
    them when the process ends, even killed: a crashed run never leaves a stale lock.
    """
    if path.is_dir():
        raise ArenaError(f"{path} is a folder: give --db a file")
    if not path.parent.is_dir():
        raise ArenaError(_missing(path))
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CREAT, 0o644)
    except OSError as exc:
        raise ArenaError(f"{path}: cannot open ({exc.strerror})") from None
    if fcntl is None:
        return fd
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise ArenaError(
            f"{path} is being written by another arena run: wait for it to end "
            "(then run again to add to it), or give --db another file "
            "(--jobs N plays games at once in one run)"
        ) from None
    except OSError:
        pass  # a file system without flock (some network mounts): not locked
    return fd


def _read_only(path: Path, wait: float = LOCK_WAIT) -> sqlite3.Connection:
    """A connection that cannot write: SQLite's read-only URI mode."""
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=wait)


def open_existing(path: str | Path) -> ResultsDB:
    """A database that must already exist, opened read-only (for reading results)."""
    if not Path(path).is_file():
        raise ArenaError(_missing(Path(path)))
    db = ResultsDB(path, readonly=True)
    if db.settings() is None:
        raise ArenaError(f"{path}: not a results database (no tournament in it)")
    return db
