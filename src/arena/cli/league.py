"""``arena league FOLDER --game GAME``: every student's agent in a folder, and reference
agents, in one league into a results database that resumes.

Tests: tests/compete/test_league.py
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from arena.compete import league as leagues
from arena.compete import tournament
from arena.compete.openings import Openings
from arena.compete.plan import unique_names
from arena.compete.runner import cores
from arena.compete.schedule import ROUND_ROBIN_UP_TO, SCHEDULES, league_rounds
from arena.compete.store import ResultsDB
from arena.compete.submissions import MAX_BYTES, Submission, discover, unpack
from arena.compete.timecontrol import TimeControl
from arena.core.errors import ArenaError
from arena.core.limit import DEFAULT_GRACE
from arena.core.words import plural
from arena.formats.record import GameRecord
from arena.games import load_game
from arena.remote.sandbox import Sandbox
from arena.remote.sandbox import require as require_sandbox
from arena.stats.standings import format_standings, standings

EXAMPLES = """examples:
  arena league submissions --game connect4:rows=6,cols=5 --list
  arena league lab3 --game connect4:rows=6,cols=5 --time 2+0.1 --reference random,greedy --db l3.db
  arena league go --game go:size=5,komi=0.5,ko=simple --reference greedy,ids,mcts --jobs 2
  arena league zips --unzip unpacked --game othello:size=8 --move-time 10 --schedule nearest
  arena results l3.db

Run the same command again to resume (or with a larger --rounds to add rounds).

how a submission is found (each folder of FOLDER is one student; its name is theirs):
  arena.toml              spec = "py:bot.py:Bot" (or [agent] spec = ...), paths from the folder
  MCTS.py + game1.py      the Connect Four MCTS lab             -> mcts-lab: (connect4)
  agents.py, get_move     the Go final project                  -> cs410-agent: (go)
  student_agent.py        Colosseum Survival                    -> colosseum-agent: (colosseum)
  imports othello_shared  the Othello assignment program        -> othello-ai: (othello)
  a class with choose(self, state, limit)                       -> py:FILE:CLASS (any game)
A folder that is empty, has a syntax error, lacks the class its framework calls, holds a
file over --max-file-size, or is for another game is listed with the reason and left out.
"""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "league",
        help="a class league: every student's agent in a folder, plus reference agents",
        description="Find each student's agent in FOLDER (one sub-folder per student), "
        "add reference agents, and play them all on one game and clock with paired "
        "openings (each position twice, colours swapped), every game saved to a results "
        "database as it ends: run the same command again to resume. A class of up to "
        f"{ROUND_ROBIN_UP_TO} players plays a round robin; a larger one plays rounds in "
        "which each player meets the nearest-rated opponent it has met least (far fewer "
        "games than a round robin, and still Elo with 95% intervals for everyone). "
        "Student code runs sandboxed (bubblewrap: --no-sandbox to opt out) in processes of "
        "its own with the cmd: limits (a hard deadline, memory), never in arena's.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("folder", metavar="FOLDER", help="one sub-folder (or zip) per student")
    p.add_argument(
        "--game", required=True, metavar="GAME", help="the assignment's game spec (required)"
    )
    p.add_argument(
        "--reference",
        action="append",
        default=[],
        metavar="SPECS",
        help="reference agents, comma-separated (random,greedy,ids,mcts) or any spec; "
        "may be repeated",
    )
    clock = p.add_mutually_exclusive_group()
    clock.add_argument(
        "--time",
        default=None,
        metavar="INITIAL+INC",
        help="Fischer clock (default 15+1, the Go project's); move:S is a time per move",
    )
    clock.add_argument(
        "--move-time", type=float, default=None, metavar="S", help="a fixed time per move"
    )
    p.add_argument(
        "--schedule",
        choices=("auto", *SCHEDULES),
        default="auto",
        help=f"round-robin, or nearest-rated rounds; auto (the default): a round robin up to "
        f"{ROUND_ROBIN_UP_TO} players, nearest above",
    )
    p.add_argument(
        "--rounds",
        type=int,
        default=None,
        metavar="N",
        help="round robin: each pairing plays 2N games (default 1); nearest: N rounds of "
        "4 games a player (default log2(players) + 2, at least 6). More rounds later "
        "add to the same database",
    )
    p.add_argument(
        "--openings",
        default="random:plies=2",
        metavar="SPEC|FILE|none",
        help="starting positions, each played with both colours (default random:plies=2; "
        "none: the game's own start)",
    )
    p.add_argument(
        "--db",
        default="league.db",
        metavar="FILE",
        help="the results database (default league.db): each game is saved as it ends",
    )
    p.add_argument(
        "--unzip",
        default=None,
        metavar="DIR",
        help="FOLDER holds one zip per student (NAME.zip): unpack each into DIR/NAME once "
        "(folders of FOLDER are linked in beside them) and play DIR",
    )
    p.add_argument(
        "--max-file-size",
        type=float,
        default=MAX_BYTES / 1024 / 1024,
        metavar="MB",
        help=f"refuse a submission holding a larger file (default {MAX_BYTES // 2**20})",
    )
    p.add_argument(
        "--list",
        action="store_true",
        help="only list each folder's verdict (the spec found, or why none); play nothing",
    )
    p.add_argument(
        "--no-sandbox",
        action="store_true",
        help="run students' programs without the bubblewrap sandbox (by default each runs "
        "in one: a private copy of its own folder, the system read-only, no network, the "
        "other submissions and the database out of sight; docs/sandbox.md)",
    )
    p.add_argument("--jobs", type=int, default=1, metavar="N", help="games at once (default 1)")
    p.add_argument(
        "--ray", default=None, metavar="ADDRESS", help="run games as Ray tasks (auto, local, ...)"
    )
    p.add_argument(
        "--grace",
        type=float,
        default=DEFAULT_GRACE * 1000,
        metavar="MS",
        help=f"milliseconds a move may exceed the clock (default {DEFAULT_GRACE * 1000:g})",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of openings and pairings")
    p.add_argument("--quiet", action="store_true", help="no per-game lines")
    p.add_argument(
        "--json", action="store_true", help="print one JSON object last (tables to stderr)"
    )
    p.set_defaults(func=run)


def reference_specs(values: list[str]) -> list[str]:
    """The ``--reference`` specs: comma-separated, a spec's own ``key=value`` options kept
    with it.

    >>> reference_specs(["random,mcts:rollouts=50,c=1", "greedy"])
    ['random', 'mcts:rollouts=50,c=1', 'greedy']
    """
    out: list[str] = []
    for value in values:
        for piece in value.split(","):
            piece = piece.strip()
            if not piece:
                continue
            if out and "=" in piece and ":" not in piece and ":" in out[-1]:
                out[-1] = f"{out[-1]},{piece}"  # an option of the spec before
            else:
                out.append(piece)
    return out


def verdict_lines(found: list[Submission]) -> list[str]:
    """One line per submission: the spec it plays, or the reason it does not."""
    width = max([len(s.name) for s in found] + [4])
    lines = []
    for s in found:
        what = f"plays  {s.spec}  ({s.how})" if s.ok else f"REFUSED  {s.reason}"
        lines.append(f"  {s.name:<{width}}  {what}")
    return lines


def run(args: argparse.Namespace) -> int:
    for option, value, low in (("--jobs", args.jobs, 1), ("--rounds", args.rounds, 1)):
        if value is not None and value < low:
            raise ArenaError(f"{option} must be >= {low}, not {value}")
    if args.grace < 0:
        raise ArenaError(f"--grace must be >= 0, not {args.grace}")
    if not args.max_file_size > 0:
        raise ArenaError(f"--max-file-size must be > 0, not {args.max_file_size}")
    if not args.no_sandbox and not args.list:
        require_sandbox()  # before anything else: the one line that says what is missing
    game = load_game(args.game)
    err = sys.stderr
    out = err if args.json else sys.stdout
    folder = Path(args.folder)
    if not folder.is_dir():
        raise ArenaError(f"{args.folder}: no such folder (one sub-folder per student)")
    if args.unzip:
        for line in unpack(folder, args.unzip):
            print(f"arena: {line}", file=err)
        folder = Path(args.unzip)
    found = discover(folder, game.name, int(args.max_file_size * 1024 * 1024))
    playing = [s for s in found if s.ok]
    refused = [s for s in found if not s.ok]
    print(
        f"{folder}: {plural(len(found), 'submission')}, {len(playing)} playing, "
        f"{len(refused)} refused",
        file=out,
    )
    for line in verdict_lines(found):
        print(line, file=out)
    if args.list:
        if args.json:
            print(json.dumps({"submissions": [_submission_json(s) for s in found]}))
        return 0
    references = reference_specs(args.reference)
    names = unique_names([s.name for s in playing] + references)
    specs = [s.spec or "" for s in playing] + references
    schedule = args.schedule
    if schedule == "auto":
        schedule = "round-robin" if len(names) <= ROUND_ROBIN_UP_TO else "nearest"
    rounds = args.rounds or (1 if schedule == "round-robin" else league_rounds(len(names)))
    control = (
        TimeControl.moving(args.move_time)
        if args.move_time is not None
        else TimeControl.parse(args.time)
        if args.time
        else TimeControl()
    )
    openings = None if args.openings in ("", "none") else Openings.parse(args.openings, game)
    settings = tournament.Settings(
        game=game,
        agents=tuple(names),
        specs=tuple(specs),
        control=control,
        openings=openings,
        grace=args.grace / 1000,
        seed=args.seed,
        isolate=True,
        sandbox=None if args.no_sandbox else Sandbox(),
    )
    league = leagues.League(
        settings,
        schedule,
        rounds,
        references=tuple(names[len(playing) :]),
        refused=tuple(refused),
    )
    if control.timed and (args.jobs > cores() or args.ray):
        print(
            f"arena: warning: {args.jobs if not args.ray else 'Ray'} timed games at once on "
            f"{cores()} cores: clocks are unfair when games share a core",
            file=err,
        )
    print(
        f"{game.spec}, {control.describe()}, {len(names)} players "
        f"({len(playing)} students, {len(references)} reference), "
        f"{schedule} x {plural(rounds, 'round')}, "
        f"{'not sandboxed' if args.no_sandbox else 'sandboxed'}, results in {args.db}",
        file=out,
    )
    done = [0]

    def on_round(progress: leagues.Progress) -> None:
        if not args.quiet and schedule == "nearest":
            print(
                f"round {progress.round + 1}/{progress.rounds}: {plural(progress.games, 'game')}",
                file=out,
                flush=True,
            )

    def on_record(record: GameRecord, _done: int, _total: int) -> None:
        done[0] += 1
        if not args.quiet:
            print(_game_line(record, done[0]), file=out, flush=True)

    started = time.monotonic()
    db = ResultsDB(args.db)
    try:
        outcome = leagues.run(
            league, db, jobs=args.jobs, ray=args.ray, on_record=on_record, on_round=on_round
        )
    finally:
        db.close()
    table = standings(outcome.records, names)
    title = (
        f"{game.spec}, {control.describe()}: {len(outcome.records)} of {outcome.planned} "
        f"games ({outcome.played} played now in {time.monotonic() - started:.0f} s)"
    )
    print(format_standings(table, title), file=out)
    if refused:
        print("not playing:", file=out)
        for s in refused:
            print(f"  {s.name}: {s.reason}", file=out)
    if args.json:
        result: dict[str, Any] = table.as_json()
        result["submissions"] = [_submission_json(s) for s in found]
        result["schedule"] = schedule
        result["played"] = outcome.played
        result["planned"] = outcome.planned
        print(json.dumps(result))
    return 0


def _submission_json(s: Submission) -> dict[str, Any]:
    return {"name": s.name, "folder": s.folder, "spec": s.spec, "reason": s.reason, "how": s.how}


def _game_line(record: GameRecord, done: int) -> str:
    a, b = record.players
    score = {1: "1-0", -1: "0-1", 0: "1/2-1/2"}[record.returns[0]]
    why = record.reason if record.reason == "normal" else f"{record.reason}: {record.detail}"
    return f"{done:>5} {a} vs {b}: {score} ({why}, {plural(len(record.moves), 'ply')})"
