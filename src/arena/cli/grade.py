"""``arena grade``: check one agent against a rubric and report met / not met / undecided.

Exit status: 0 when every criterion is met, 1 when one is not met or undecided, 2 for
bad input (a spec, a rubric file, an option), as every arena command.

Tests: tests/cli/test_grade.py
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from arena.agents.registry import agent_names
from arena.compete.estimate import estimate_line
from arena.compete.grade import (
    DEFAULT_MAX_GAMES,
    Criterion,
    Placement,
    Rubric,
    grade,
)
from arena.compete.runner import cores
from arena.compete.submissions import classify
from arena.compete.timecontrol import TimeControl
from arena.core.errors import ArenaError
from arena.core.limit import DEFAULT_GRACE
from arena.formats.record import GameRecord
from arena.remote.sandbox import Sandbox
from arena.remote.sandbox import require as require_sandbox
from arena.stats.tally import Tally

EXAMPLES = """examples:
  arena grade go:size=5 py:my_agent.py:Agent --vs greedy:0.9 --vs mcts:0.45 --never-late
  arena grade connect4 py:agent.py:Agent --time move:1 --vs random:0.95 --gradescope results.json
  arena grade --rubric grade.toml py:agent.py:Agent --json report.json
  arena grade --rubric grade.toml "submissions/ada lovelace"   (a folder, as the league finds it)

The score of a criterion is wins + draws/2 per game (a forfeit is a loss), over paired
openings (each opening played twice, colours swapped). Each criterion plays until a
sequential test decides "score >= P" against "score < P" (an SPRT between P-delta and
P+delta, checked after each pair) or --max-games is reached (then: undecided).
Exit status 0: every criterion met; 1: one not met or undecided; 2: bad input."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "grade",
        help="check one agent against a rubric: score >= P vs each opponent, never late",
        description="Play AGENT against each opponent of a rubric until a sequential test "
        "decides whether it scores at least the rubric's score, and check every move's time "
        "against its limit. Prints a table; writes Gradescope's results.json and a plain JSON "
        "report on request.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "positional",
        nargs="+",
        metavar="GAME AGENT",
        help="the game spec and the agent: a spec, or a submission folder, found as "
        "'arena league' finds it (arena.toml, a course framework's files, a py: class); with "
        "--rubric, only AGENT: the game is the rubric's",
    )
    p.add_argument(
        "--rubric",
        default=None,
        metavar="FILE",
        help="a TOML file with the game, clock and criteria (see docs/grading.md); options "
        "given here replace its values",
    )
    p.add_argument(
        "--vs",
        action="append",
        default=[],
        metavar="SPEC:SCORE",
        help="a criterion: score at least SCORE (0..1) against SPEC, e.g. greedy:0.9 (repeatable)",
    )
    p.add_argument(
        "--never-late",
        action="store_true",
        default=None,
        help="a criterion: every move within its limit (one late move fails it)",
    )
    p.add_argument(
        "--time",
        default=None,
        metavar="CLOCK",
        help="15+1 (Fischer, the default), move:S (a fixed time per move) or a budget "
        "rollouts=N / depth=N / nodes=N",
    )
    p.add_argument(
        "--max-games",
        type=int,
        default=None,
        metavar="N",
        help=f"games per criterion at most (default {DEFAULT_MAX_GAMES}); undecided past it",
    )
    p.add_argument(
        "--openings",
        default=None,
        metavar="random:plies=N|FILE",
        help="the paired openings (default random:plies=2)",
    )
    p.add_argument(
        "--delta",
        type=float,
        default=None,
        help="half-width of the indifference zone around each score (default 0.05)",
    )
    p.add_argument(
        "--alpha",
        type=float,
        default=None,
        help="chance of 'met' for an agent scoring P-delta or less (default 0.05)",
    )
    p.add_argument(
        "--beta",
        type=float,
        default=None,
        help="chance of 'not met' for an agent scoring P+delta or more (default 0.05)",
    )
    p.add_argument(
        "--grace",
        type=float,
        default=None,
        metavar="MS",
        help="milliseconds a move may exceed its limit before it forfeits (default "
        f"{DEFAULT_GRACE * 1000:g}); such a move is still late for --never-late",
    )
    p.add_argument("--seed", type=int, default=None, help="seed of openings and agents")
    p.add_argument(
        "--jobs", type=int, default=1, metavar="N", help="games at once in worker processes"
    )
    p.add_argument("--ray", default=None, metavar="ADDRESS", help="run the games as Ray tasks")
    placement = p.add_mutually_exclusive_group()
    placement.add_argument(
        "--isolate",
        action="store_true",
        help="every built-in or py: agent in its own process under the cmd: rules",
    )
    placement.add_argument(
        "--in-process",
        action="store_true",
        help="py: agents in arena's own process (for a debugger)",
    )
    p.add_argument(
        "--sandbox",
        action="store_true",
        help="run every agent program (py:, cmd:, the course agents) in a bubblewrap sandbox, "
        "as a class's league does: a private copy of its folder, no network, the system "
        "read-only; an error, never an unsandboxed run, where bubblewrap cannot "
        "(docs/sandbox.md)",
    )
    p.add_argument(
        "--gradescope",
        default=None,
        metavar="FILE",
        help="write Gradescope's results.json here (e.g. /autograder/results/results.json)",
    )
    p.add_argument("--json", default=None, metavar="FILE", help="write the plain JSON report")
    p.add_argument(
        "--records",
        default=None,
        metavar="DIR",
        help="write every game to DIR/games.jsonl (step through one with 'arena replay')",
    )
    p.add_argument("--quiet", action="store_true", help="no line per game on stderr")
    p.set_defaults(func=run)


def rubric_of(args: argparse.Namespace) -> tuple[Rubric, str]:
    """The rubric and the agent's spec the arguments name."""
    control = TimeControl.parse(args.time) if args.time else None
    criteria = tuple(Criterion.parse(text) for text in args.vs)
    grace = None if args.grace is None else args.grace / 1000
    if args.grace is not None and args.grace < 0:
        raise ArenaError(f"--grace must be >= 0, not {args.grace:g}")
    overrides: dict[str, Any] = {
        "control": control,
        "never_late": args.never_late,
        "max_games": args.max_games,
        "openings": args.openings,
        "delta": args.delta,
        "alpha": args.alpha,
        "beta": args.beta,
        "grace": grace,
        "seed": args.seed,
    }
    if args.rubric is not None:
        if len(args.positional) != 1:
            raise ArenaError(
                "with --rubric give only AGENT (the game is the rubric's), e.g. "
                "arena grade --rubric grade.toml py:agent.py:Agent"
            )
        if criteria:
            raise ArenaError("the criteria come from --rubric or from --vs, not both")
        return Rubric.read(args.rubric, **overrides), args.positional[0]
    if len(args.positional) != 2:
        raise ArenaError("expected GAME AGENT (or --rubric FILE AGENT)")
    game, agent = args.positional
    fields = {k: v for k, v in overrides.items() if v is not None}
    return Rubric(game=game, criteria=criteria, **fields), agent


def run(args: argparse.Namespace) -> int:
    if args.jobs < 1:
        raise ArenaError(f"--jobs must be >= 1, not {args.jobs}")
    if args.sandbox and args.in_process:
        raise ArenaError("--sandbox runs py: agents in sandboxed processes: drop --in-process")
    if args.sandbox:
        require_sandbox()  # before anything else: the one line that says what is missing
    rubric, agent = rubric_of(args)
    agent = submitted(agent, rubric.game.name)
    outputs = [Path(f) for f in (args.gradescope, args.json) if f]
    if args.records:
        try:
            Path(args.records).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ArenaError(f"--records {args.records}: {exc.strerror or exc}") from None
    for path in outputs:  # a wrong path fails now, not after an hour of games
        if not path.parent.is_dir():
            raise ArenaError(f"{path}: no such folder {str(path.parent)!r}")
    if rubric.control.timed and (args.jobs > cores() or args.ray):
        print(
            f"arena: warning: {args.jobs if not args.ray else 'Ray'} timed games at once on "
            f"{cores()} cores: clocks are unfair when games share a core",
            file=sys.stderr,
        )

    cap = rubric.max_games - rubric.max_games % 2
    planned = cap * len(rubric.criteria) or 2
    estimate = estimate_line(rubric.game, rubric.control, planned, args.jobs, rubric.max_plies)
    if estimate and not args.quiet:  # the cap, before the test stops most criteria early
        print(f"arena: at most {estimate}; most criteria decide sooner", file=sys.stderr)

    def on_record(criterion: Criterion, record: GameRecord, tally: Tally) -> None:
        if args.quiet:
            return
        why = record.reason if record.reason == "normal" else f"{record.reason}: {record.detail}"
        result = {1: "1-0", -1: "0-1", 0: "1/2-1/2"}[record.returns[0]]
        print(
            f"{criterion.name}: game {tally.games} {' vs '.join(record.players)} {result} "
            f"({why}); score so far {tally.score:.3f}",
            file=sys.stderr,
            flush=True,
        )

    sandbox = Sandbox() if args.sandbox else None
    placement = Placement(args.jobs, args.ray, args.isolate, args.in_process, sandbox)
    report = grade(rubric, agent, placement, on_record)
    print(report.table())
    _write(args.gradescope, report.gradescope())
    _write(args.json, report.as_json())
    if args.records:
        lines = "".join(record.to_json() + "\n" for record in report.records)
        _write_text(str(Path(args.records) / "games.jsonl"), lines)
    return 0 if report.passed else 1


def submitted(agent: str, game: str) -> str:
    """The spec that plays for ``agent``: itself, or, when it names a folder, the spec
    ``arena league`` would find there, so a student grades the folder they hand in (a
    folder the league would refuse fails here with the league's reason)."""
    folder = Path(agent)
    if ":" in agent or agent in agent_names() or not folder.is_dir():
        return agent
    found = classify(folder.absolute(), game)
    if not found.ok:
        raise ArenaError(f"{agent}: {found.reason}")
    print(f"arena: {agent}: {found.spec} ({found.how})", file=sys.stderr)
    return str(found.spec)


def _write(path: str | None, data: dict[str, Any]) -> None:
    if path is not None:
        _write_text(path, json.dumps(data, indent=2) + "\n")


def _write_text(path: str, text: str) -> None:
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ArenaError(f"{path}: {exc.strerror or exc}") from None
