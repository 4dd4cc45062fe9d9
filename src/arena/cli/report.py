"""``arena report DB --out DIR``: the pages and the gradebook of a results database.

Tests: tests/compete/test_report.py
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from arena.compete.pages import FORMATS, write
from arena.compete.report import gradebook, load
from arena.core.errors import ArenaError

DESCRIPTION = """\
Read the results database DB (from 'arena tournament --db' or 'arena league') and write
its reports into DIR.


  index.md           the standings: rank, Elo with its 95% interval, forfeits (.html
                     pages with --format html)
  players/NAME.md    one page per player: every game (opponent, colour, result, how it
                     ended, the moves and the seconds each took, the end of the stderr of
                     an agent that forfeited), its forfeits by kind, and what to fix
  games/N.json       each game's record (and N.sgf for Go, Othello and Gomoku)
  gradebook.csv      one row per player: rank, games, wins, draws, losses, score, Elo
                     and its interval, forfeits by kind

The database is only read: a report made while games are played shows those so far."""

EXAMPLES = """examples:
  arena report class.db --out report
  arena report class.db --out site --format html --csv grades.csv
  arena report class.db --csv grades.csv

Without --out, only the gradebook is written (to --csv, else printed). 'arena results DB'
prints the standings table; 'arena web --db DB' shows them live in a browser, each game
on the board."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "report",
        help="write a tournament's or league's report: standings, a page per player, a CSV",
        description=DESCRIPTION,
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("db", metavar="DB", help="results database written with --db")
    p.add_argument("--out", metavar="DIR", help="folder for the pages (made if missing)")
    p.add_argument(
        "--format",
        choices=FORMATS,
        default="md",
        help="pages in Markdown (md, the default) or as self-contained HTML pages (html)",
    )
    p.add_argument(
        "--csv", metavar="FILE", help="write the gradebook CSV here (default: DIR/gradebook.csv)"
    )
    p.add_argument("--title", default="", help="the report's title (default: DB's file name)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    report = load(args.db)
    if args.title:
        report.title = args.title
    if args.out is None:
        text = gradebook(report)
        if args.csv:
            try:
                Path(args.csv).write_text(text)
            except OSError as exc:
                raise ArenaError(f"cannot write {args.csv}: {exc.strerror or exc}") from None
        else:
            sys.stdout.write(text)
        return 0
    index = write(report, args.out, args.format, args.csv)
    players = len(report.players)
    print(
        f"wrote {index} ({players} player pages, {report.standings.games} games)", file=sys.stderr
    )
    return 0
