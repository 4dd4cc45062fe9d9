"""The results database: one SQLite file per tournament, one row per finished game.

Every game is committed in its own transaction the moment it ends, keyed by
its planned ``game_id`` (unique), so a run killed at any moment loses only
the games in progress, and running the same command again plays only the
games still missing. The file also keeps the tournament's settings; a run
with other settings refuses it instead of mixing results.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "t.db")
>>> db = ResultsDB(path)
>>> db.bind({"game": "connect4", "agents": ["a", "b"]})
>>> db.done_ids()
set()

Tests: tests/compete/test_tournament.py
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from arena.core.errors import ArenaError
from arena.formats.record import GameRecord

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

COLUMNS = ("game_id", "game", "first", "second", "round", "result", "reason", "plies", "finished")


class ResultsDB:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            # Autocommit mode: each game is written in an explicit transaction of its own.
            self.conn = sqlite3.connect(self.path, isolation_level=None, timeout=30)
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=NORMAL")
            self.conn.executescript(SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise ArenaError(f"{self.path}: not a results database ({exc})") from None

    def settings(self) -> dict[str, Any] | None:
        row = self.conn.execute("SELECT settings FROM tournament WHERE id = 1").fetchone()
        return None if row is None else json.loads(row[0])

    def bind(
        self,
        settings: dict[str, Any],
        canonical: Callable[[dict[str, Any]], dict[str, Any]] = dict,
    ) -> None:
        """Record the settings of a new database, or check that they match an old one's
        (read through ``canonical``: the form ``settings`` are given in)."""
        stored = self.settings()
        if stored is None:
            self.conn.execute(
                "INSERT INTO tournament (id, settings, created) VALUES (1, ?, ?)",
                (json.dumps(settings, sort_keys=True), datetime.now(UTC).isoformat()),
            )
            return
        stored = canonical(stored)
        if stored != json.loads(json.dumps(settings, sort_keys=True)):
            differ = sorted(
                k for k in set(stored) | set(settings) if stored.get(k) != settings.get(k)
            )
            shown = "; ".join(
                f"{k}: {stored.get(k)!r} here, {settings.get(k)!r} asked" for k in differ[:3]
            )
            raise ArenaError(
                f"{self.path} holds another tournament ({shown}); use another --db file"
            )

    def done_ids(self) -> set[str]:
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
        return True

    def _transaction(self):  # type: ignore[no-untyped-def]
        conn = self.conn

        class Transaction:
            def __enter__(self) -> None:
                conn.execute("BEGIN IMMEDIATE")

            def __exit__(self, kind, value, tb) -> None:  # type: ignore[no-untyped-def]
                conn.execute("ROLLBACK" if kind else "COMMIT")

        return Transaction()

    def records(self) -> Iterator[GameRecord]:
        for (text,) in self.conn.execute("SELECT record FROM games ORDER BY rowid"):
            yield GameRecord.from_json(text)

    def rows(self) -> list[dict[str, Any]]:
        query = f"SELECT {', '.join(COLUMNS)} FROM games ORDER BY rowid"
        return [dict(zip(COLUMNS, row)) for row in self.conn.execute(query)]

    def close(self) -> None:
        self.conn.close()


def open_existing(path: str | Path) -> ResultsDB:
    """A database that must already exist (for reading results)."""
    if not Path(path).is_file():
        raise ArenaError(f"{path}: no such results database")
    db = ResultsDB(path)
    if db.settings() is None:
        raise ArenaError(f"{path}: not a results database (no tournament in it)")
    return db
