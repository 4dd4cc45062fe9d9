"""``arena results DB``: read a results database back.

Tests: tests/compete/test_tournament.py
"""

from __future__ import annotations

import argparse
import csv
import json
import sys

from arena.compete.store import open_existing
from arena.stats.standings import format_standings, standings


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "results",
        help="read a results database back: standings, or every game as CSV or JSON",
        description="Print the standings of the tournament in DB (table), or one row per game "
        '(csv), or {"games": [ROW, ...]} (json).',
    )
    p.add_argument("db", metavar="DB", help="results database written with --db")
    p.add_argument("--format", choices=("table", "csv", "json"), default="table")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    db = open_existing(args.db)
    try:
        if args.format == "json":
            print(json.dumps({"games": db.rows()}))
        elif args.format == "csv":
            rows = db.rows()
            writer = csv.DictWriter(sys.stdout, fieldnames=list(rows[0]) if rows else ["game_id"])
            writer.writeheader()
            writer.writerows(rows)
        else:
            settings = db.settings() or {}
            names = list(settings.get("agents", []))
            records = list(db.records())
            title = f"{settings.get('game', '?')}: {len(records)} games in {args.db}"
            print(format_standings(standings(records, names), title))
    finally:
        db.close()
    return 0
