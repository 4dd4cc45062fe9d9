"""``arena match`` and ``arena tournament``: play many games and say who is stronger.

Both take the same clock, opening, database and parallelism options; a match
is a tournament of two agents with ``--games N``.

Tests: tests/compete/test_tournament.py
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
from pathlib import Path
from typing import Any

from arena.cli.common import add_start_arguments, move_line, search_table, start_moves
from arena.compete import tournament
from arena.compete.estimate import estimate_line
from arena.compete.match import MoveHook
from arena.compete.openings import Openings
from arena.compete.plan import unique_names
from arena.compete.runner import Job, cores
from arena.compete.store import ResultsDB
from arena.compete.timecontrol import TimeControl
from arena.core.errors import ArenaError
from arena.core.game import Game, State
from arena.core.limit import DEFAULT_GRACE
from arena.core.words import plural
from arena.formats.record import GameRecord
from arena.formats.sgf import to_sgf
from arena.games import load_game
from arena.remote.sandbox import Sandbox
from arena.remote.sandbox import require as require_sandbox
from arena.search.clock.deadline import limit_note
from arena.stats.sprt import SPRT
from arena.stats.standings import format_standings, standings

MATCH_EXAMPLES = """examples:
  arena match connect4 mcts:rollouts=200 alphabeta --games 20 --time 5+0.1
  arena match othello:size=6 ids greedy --move-time 1 --games 10 --db othello.db
  arena match connect4 mcts:rollouts=20 mcts:rollouts=10 --budget rollouts=1 --games 40
  arena match connect4 ids alphabeta --sprt elo0=0,elo1=50 --games 400 --jobs 2
  arena match go:size=19,handicap=4,komi=0.5 "gtp:gnugo --mode gtp" best --colours fixed"""

TOURNAMENT_EXAMPLES = """examples:
  arena tournament connect4 random greedy alphabeta ids mcts --rounds 2 --time 2+0.1 --db t.db
  arena tournament othello:size=6 ids mcts greedy --gauntlet --openings random:plies=4
  arena tournament go:size=5 mcts ids random --rounds 4 --jobs 2 --ray auto"""


def _common(p: argparse.ArgumentParser) -> None:
    clock = p.add_mutually_exclusive_group()
    clock.add_argument(
        "--time",
        default=None,
        metavar="INITIAL+INC",
        help="Fischer clock: seconds at the start + seconds added per move (default 15+1); "
        "move:SECONDS is a fixed time per move, as --move-time",
    )
    clock.add_argument(
        "--move-time",
        type=float,
        default=None,
        metavar="S",
        help="a fixed time per move, e.g. 10 (the Othello assignment)",
    )
    clock.add_argument(
        "--budget",
        default=None,
        metavar="WORK",
        help="no clock; a fixed amount of work per move: rollouts=N, depth=N or nodes=N",
    )
    p.add_argument(
        "--grace",
        type=float,
        default=DEFAULT_GRACE * 1000,
        metavar="MS",
        help="milliseconds a move may exceed the clock before it loses "
        f"(default {DEFAULT_GRACE * 1000:g})",
    )
    p.add_argument(
        "--openings",
        default=None,
        metavar="random:plies=N|FILE",
        help="start from these positions, each played with both colours: "
        "random:plies=N[,seed=S,balance=B,judge=D] draws N random moves the heuristic "
        "(judge=D: a depth-D search) does not judge lopsided; FILE: one opening a line "
        "(docs/matches.md)",
    )
    add_start_arguments(p)
    p.add_argument(
        "--max-plies",
        type=int,
        default=None,
        metavar="N",
        help="end longer games by adjudication on the game's score",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of positions and agents (default 0)")
    placement = p.add_mutually_exclusive_group()
    placement.add_argument(
        "--isolate",
        action="store_true",
        help="run every built-in or py: agent in its own process under the cmd: rules: a hard "
        "deadline (killed past the clock plus the grace), memory limit, crash = forfeit "
        "(py: agents always have a process of their own and the hard deadline)",
    )
    placement.add_argument(
        "--in-process",
        action="store_true",
        help="run py: agents in arena's own process (for a debugger); a choose() that never "
        "returns then hangs the match",
    )
    p.add_argument(
        "--sandbox",
        action="store_true",
        help="run every agent program (cmd:, py:, the course agents, gtp:, pbrain:) in a "
        "bubblewrap sandbox, for students' code: a private copy of its own folder, the system "
        "read-only, "
        "a private 64 MB /tmp, no network, at most 64 processes, nothing else of the machine "
        "visible; an error, never an unsandboxed run, where bubblewrap cannot "
        "(docs/sandbox.md)",
    )
    p.add_argument(
        "--db",
        default=None,
        metavar="FILE",
        help="SQLite results database: each game is saved as it ends; running the "
        "same command again resumes, playing only the missing games (one run writes a "
        "file at a time; 'arena results FILE' reads it any time)",
    )
    p.add_argument(
        "--records",
        default=None,
        metavar="DIR",
        help="also write every game to DIR/games.jsonl (and DIR/games.sgf for Go, "
        "Gomoku and Othello)",
    )
    p.add_argument(
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="games played at once in worker processes (default 1)",
    )
    p.add_argument(
        "--ray",
        default=None,
        metavar="ADDRESS",
        help="run the games as Ray tasks: auto, local, or ray://HOST:PORT",
    )
    p.add_argument(
        "--sprt",
        default=None,
        metavar="elo0=0,elo1=20,alpha=0.05,beta=0.05",
        help="stop as soon as a sequential test decides whether the first agent is "
        "stronger (two agents only); with colours alternating it counts pairs of games "
        "(each opening with both colours: the pentanomial model) in the plan's order, "
        "with --colours fixed single games",
    )
    p.add_argument(
        "--show-search",
        action="store_true",
        help="print every move and its search table (games one at a time: not with --jobs N "
        "or --ray)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar or per-game lines")
    p.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object as the last line (the tables go to stderr)",
    )


def register(sub: argparse._SubParsersAction) -> None:
    m = sub.add_parser(
        "match",
        help="play N games between two agents, colours alternating",
        description="Play GAMES games between agents A and B with colours alternating (each "
        "starting position twice, colours swapped; --colours fixed for handicap games), "
        "under a clock with forfeits for time, "
        "illegal moves and crashes, then print W/D/L, score, the Elo difference with its 95% "
        "interval, forfeits and time per move.",
        epilog=MATCH_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    m.add_argument("game", metavar="GAME", help="game spec (see 'arena games')")
    m.add_argument("first", metavar="A", help="agent spec (see 'arena agents')")
    m.add_argument("second", metavar="B", help="agent spec")
    m.add_argument(
        "--games",
        type=int,
        default=10,
        metavar="N",
        help=f"games (default 10; at most {tournament.MAX_GAMES:,} in one run)",
    )
    m.add_argument(
        "--colours",
        choices=("alternate", "fixed"),
        default="alternate",
        help="alternate (default): each starting position twice, colours swapped; fixed: A "
        "is the first player (Black) in every game, each game from a new starting "
        "position (a handicap game: with go:handicap=N, A is Black and has the stones, "
        "and White moves first)",
    )
    _common(m)
    m.set_defaults(func=run_match)

    t = sub.add_parser(
        "tournament",
        help="round robin or gauntlet with Elo ratings",
        description="Every pairing plays one new position per round, once with each colour. "
        "Prints standings with Elo ratings and 95% intervals (a Bradley-Terry fit with one virtual "
        "draw per pairing; 0 is the average of the agents) and the head-to-head matrix.",
        epilog=TOURNAMENT_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    t.add_argument("game", metavar="GAME", help="game spec (see 'arena games')")
    t.add_argument("agents", nargs="+", metavar="AGENT", help="two or more agent specs")
    t.add_argument(
        "--rounds",
        type=int,
        default=1,
        metavar="N",
        help="rounds: each pairing plays 2N games (default 1)",
    )
    t.add_argument(
        "--gauntlet",
        action="store_true",
        help="the first agent plays each of the others; they do not play each other",
    )
    _common(t)
    t.set_defaults(func=run_tournament)


def _control(args: argparse.Namespace) -> TimeControl:
    """The clock options, parsed (the one place they are)."""
    if args.move_time is not None:
        if args.move_time <= 0:
            raise ArenaError(f"--move-time must be > 0, not {args.move_time}")
        return TimeControl.moving(args.move_time)
    if args.budget is not None:
        return TimeControl.parse(args.budget)
    return TimeControl.parse(args.time) if args.time else TimeControl()


def run_match(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise ArenaError(f"--games must be >= 1, not {args.games}")
    return _run(
        args,
        [args.first, args.second],
        rounds=1,
        games=args.games,
        gauntlet=False,
        alternate=args.colours == "alternate",
    )


def run_tournament(args: argparse.Namespace) -> int:
    if args.rounds < 1:
        raise ArenaError(f"--rounds must be >= 1, not {args.rounds}")
    if len(args.agents) < 2:
        raise ArenaError("a tournament needs at least two agents")
    return _run(args, args.agents, rounds=args.rounds, games=None, gauntlet=args.gauntlet)


def _run(
    args: argparse.Namespace,
    specs: list[str],
    rounds: int,
    games: int | None,
    gauntlet: bool,
    alternate: bool = True,
) -> int:
    if args.jobs < 1:
        raise ArenaError(f"--jobs must be >= 1, not {args.jobs}")
    if args.grace < 0:
        raise ArenaError(f"--grace must be >= 0, not {args.grace}")
    if args.max_plies is not None and args.max_plies < 1:
        raise ArenaError(f"--max-plies must be >= 1, not {args.max_plies}")
    if args.show_search and (args.jobs > 1 or args.ray):
        raise ArenaError(
            "--show-search prints each move as it is played, so games run one at a time: "
            "drop --jobs/--ray or --show-search"
        )
    if args.sandbox and args.in_process:
        raise ArenaError("--sandbox runs py: agents in sandboxed processes: drop --in-process")
    if args.sandbox:
        require_sandbox()  # before anything else: the one line that says what is missing
    sprt = SPRT.parse(args.sprt) if args.sprt else None
    if sprt is not None and len(specs) != 2:
        raise ArenaError("--sprt compares two agents: give exactly two")
    names = unique_names(specs)
    game = load_game(args.game)
    settings = tournament.Settings(
        game=game,
        agents=tuple(names),
        control=_control(args),
        rounds=rounds,
        games_per_pair=games,
        gauntlet=gauntlet,
        alternate=alternate,
        openings=_openings(args, game),
        grace=args.grace / 1000,
        max_plies=args.max_plies,
        seed=args.seed,
        isolate=args.isolate,
        in_process=args.in_process,
        sandbox=Sandbox() if args.sandbox else None,
    )
    tournament.check_size(
        settings, f"--games {games}" if games is not None else f"--rounds {rounds}"
    )
    err = sys.stderr
    out = err if args.json else sys.stdout
    if settings.control.timed and (args.jobs > cores() or args.ray):
        print(
            f"arena: warning: {args.jobs if not args.ray else 'Ray'} timed games at once on "
            f"{cores()} cores: clocks are unfair when games share a core",
            file=err,
        )

    def on_start(games_left: int) -> None:
        # A long run says so before it starts (ten Othello games at 10 s a move: most of an
        # hour), once the agents are known to load and the games already stored are counted.
        jobs = 1 if args.ray else args.jobs
        estimate = estimate_line(game, settings.control, games_left, jobs, args.max_plies)
        if estimate and not args.quiet:
            if progress is not None:  # above the running progress bar
                progress.console.print(f"arena: {estimate}", highlight=False, markup=False)
            else:
                print(f"arena: {estimate}", file=err)

    per_move = settings.control.per_move
    note = limit_note(per_move, os.getloadavg()[0], cores()) if per_move else ""
    if note:  # a short limit buys less search than it says: say so where it is set
        print(f"arena: note: {note}", file=err)
    db = ResultsDB(args.db) if args.db else None
    progress, task = _progress(args, out)
    running = _RunningScore(names)
    records_out = _RecordsDir(args.records) if args.records else None

    def on_record(record: GameRecord, done: int, total: int) -> None:
        if records_out is not None:
            records_out.write(record)
        if not args.quiet:
            show(_game_line(record, done, total))
            if progress is not None:
                running.add(record)
                progress.update(task, completed=done, total=total, score=running.text())

    watched = itertools.count(1)

    def watch(job: Job) -> MoveHook:
        first, second = game.player_names
        show(f"game {next(watched)}: {job.first} ({first}) vs {job.second} ({second})")

        def on_move(state: State, move: int, seconds: float, info: Any) -> None:
            mover = (job.first, job.second)[state.to_move]
            show(move_line(state, move, seconds, mover))
            show(search_table(info))

        return on_move

    def show(text: str) -> None:
        if progress is not None:
            progress.console.print(text, highlight=False, markup=False)
        else:
            print(text, file=out, flush=True)

    try:
        if progress is not None:
            progress.start()
        outcome = tournament.run(
            settings,
            db,
            jobs=args.jobs,
            ray=args.ray,
            sprt=sprt,
            on_record=on_record,
            watch=watch if args.show_search else None,
            on_start=on_start,
        )
    finally:
        if progress is not None:
            progress.stop()
        if db is not None:
            db.close()
        if records_out is not None:
            records_out.close()
    table = standings(outcome.records, names)
    title = (
        f"{game.spec}, {settings.control.describe()}: "
        f"{len(outcome.records)} of {outcome.planned} games"
        f"{f' ({outcome.played} played now)' if args.db else ''}"
    )
    print(format_standings(table, title), file=out)
    named = program_names(outcome.records)
    if named:
        print("programs: " + "; ".join(f"{k} is {v!r}" for k, v in named.items()), file=out)
    result: dict[str, Any] = table.as_json()
    if named:
        result["programs"] = named
    if outcome.sprt is not None and outcome.verdict is not None:
        v, test = outcome.verdict, outcome.sprt
        meaning = {
            "H1": f": {names[0]} is stronger",
            "H0": f": {names[0]} is not stronger",
        }.get(v.decision, "")
        print(f"SPRT {args.sprt} over {test.unit}: {v}{meaning}", file=out)
        result["sprt"] = {
            "llr": v.llr,
            "lower": v.lower,
            "upper": v.upper,
            "decision": v.decision,
            "model": "pentanomial" if test.paired else "trinomial",
            "pairs" if test.paired else "games": (
                list(test.pairs) if test.paired else test.tally.games
            ),
        }
    if args.json:
        print(json.dumps(result))
    return 0


def _game_line(record: GameRecord, done: int, total: int) -> str:
    a, b = record.players
    score = {1: "1-0", -1: "0-1", 0: "1/2-1/2"}[record.returns[0]]
    why = record.reason if record.reason == "normal" else f"{record.reason}: {record.detail}"
    notes = "".join(f"; note: {note}" for note in record.notes)
    return (
        f"{done:>4}/{total} {a} vs {b}: {score} ({why}, {plural(len(record.moves), 'ply')}{notes})"
    )


def program_names(records: list[GameRecord]) -> dict[str, str]:
    """The names programs gave themselves (an Othello program's name line), by table name."""
    named: dict[str, str] = {}
    for record in records:
        for player, name in zip(record.players, record.names or (), strict=False):
            if name:
                named[player] = name
    return named


def _progress(args: argparse.Namespace, out: Any) -> tuple[Any, Any]:
    if args.quiet or not getattr(out, "isatty", lambda: False)():
        return None, None
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    progress = Progress(
        "games",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        TextColumn("{task.fields[score]}"),
        console=Console(file=out),
        transient=True,
    )
    return progress, progress.add_task("games", total=None, score="")


def _openings(args: argparse.Namespace, game: Game) -> Openings | None:
    """``--openings``, or the one position ``--moves``/``--sgf`` name, or None."""
    line = start_moves(game, args.moves, args.sgf)
    if line and args.openings:
        raise ArenaError("--openings and --moves/--sgf both say where games start: give one")
    if line:
        return Openings.line(game, line)
    return Openings.parse(args.openings, game) if args.openings else None


class _RunningScore:
    """The score so far, for the progress line: ``ids 5.5-2.5 mcts``, or the leader."""

    def __init__(self, names: list[str]) -> None:
        self.names = names
        self.points = dict.fromkeys(names, 0.0)
        self.games = dict.fromkeys(names, 0)

    def add(self, record: GameRecord) -> None:
        for seat, name in enumerate(record.players):
            if name in self.points:
                self.points[name] += record.points(seat)
                self.games[name] += 1

    def text(self) -> str:
        if len(self.names) == 2:
            a, b = self.names
            return f"{a} {self.points[a]:g}-{self.points[b]:g} {b}"
        leader = max(self.names, key=lambda n: (self.points[n], -self.games[n]))
        return f"leads: {leader} {self.points[leader]:g}/{self.games[leader]}"


class _RecordsDir:
    """``DIR/games.jsonl`` (every game) and ``DIR/games.sgf`` (games SGF can hold)."""

    def __init__(self, path: str) -> None:
        self.dir = Path(path)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.jsonl = open(self.dir / "games.jsonl", "a")  # noqa: SIM115 - kept open for the run
        self.sgf = None

    def write(self, record: GameRecord) -> None:
        self.jsonl.write(record.to_json() + "\n")
        self.jsonl.flush()
        if record.game.split(":")[0] in ("go", "gomoku", "othello"):
            if self.sgf is None:
                self.sgf = open(self.dir / "games.sgf", "a")  # noqa: SIM115
            self.sgf.write(to_sgf(record) + "\n")
            self.sgf.flush()

    def close(self) -> None:
        self.jsonl.close()
        if self.sgf is not None:
            self.sgf.close()
