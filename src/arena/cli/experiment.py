"""``arena experiment NAME [--out DIR] [--seed N] [--jobs N] [--quiet] [options]``.

One sub-command per experiment (``arena experiment c-sweep --help`` lists its
options with their defaults). An experiment whose module cannot be imported
still appears, and running it says why in one line, so one broken module never
breaks the rest of the command line.

Tests: tests/experiments/test_framework.py
"""

from __future__ import annotations

import argparse
import datetime
import inspect
import os
import shlex
import sys
import time
from pathlib import Path
from types import ModuleType

from arena.core.errors import ArenaError
from arena.experiments import experiment_names, load
from arena.experiments.options import count
from arena.experiments.report import Report, pyplot, run_note

_COMMON = ("out", "seed", "jobs", "quiet")


class _Formatter(argparse.ArgumentDefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter):
    """Defaults after each option's help (not for flags and unset ones); the description's
    line breaks kept."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.default is None or action.default is False:
            return action.help
        return super()._get_help_string(action)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "experiment",
        help="rerun an experiment: a figure (PNG), its numbers (CSV) and a report (markdown)",
        description="Run one experiment and write OUT/NAME.png, OUT/NAME.csv and OUT/NAME.md "
        "(the command, the tables and the figures). Results are the same for the same --seed, "
        "except measured times. 'arena experiment NAME --help' lists the experiment's options.",
        epilog="example: arena experiment visits-vs-c --simulations 2000 --out figures/visits",
    )
    experiments = p.add_subparsers(dest="experiment", metavar="NAME", required=True)
    for name in experiment_names():
        try:
            module = load(name)
            _add_options(argparse.ArgumentParser(), module, name)  # fails here, not below
        except Exception as exc:  # a module still being written must not break 'arena'
            _register_unavailable(experiments, name, exc)
            continue
        q = experiments.add_parser(
            name,
            help=module.SUMMARY,
            description=_description(module),
            formatter_class=_Formatter,
        )
        _add_options(q, module, name)
        q.set_defaults(func=lambda args, module=module, parser=q: _run(module, parser, args))


def _add_options(parser: argparse.ArgumentParser, module: ModuleType, name: str) -> None:
    for attribute in ("NAME", "SUMMARY", "add_arguments", "run"):
        if not hasattr(module, attribute):
            raise ArenaError(f"{module.__name__} has no {attribute}")
    parser.add_argument(
        "--out", metavar="DIR", default=f"experiments/{name}", help="directory for the files"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of every agent and game")
    if plays_games(module):  # searches timed or counted one at a time have nothing to share
        parser.add_argument("--jobs", type=int, default=1, metavar="N", help="games played at once")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    module.add_arguments(parser)


def plays_games(module: ModuleType) -> bool:
    """Whether the experiment plays games (and so takes ``--jobs``): ``PLAYS_GAMES``."""
    return bool(getattr(module, "PLAYS_GAMES", True))


def _description(module: ModuleType) -> str:
    """The summary, then the module's docstring after its title paragraph (which may span
    lines) and before its first example or its ``Tests:`` line, without the reST quotes."""
    doc = inspect.cleandoc(module.__doc__ or "").split(">>>")[0].split("\nTests:")[0]
    body = doc.partition("\n\n")[2].strip().replace("``", "")
    summary = sentence(module.SUMMARY)
    return f"{summary}\n\n{body}" if body else summary


def sentence(summary: str) -> str:
    """A one-line summary (lower case, as in a list of commands) as a sentence.

    >>> sentence("time for 1k ... 128k MCTS iterations per game")
    'Time for 1k ... 128k MCTS iterations per game.'
    """
    text = summary.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _register_unavailable(
    experiments: argparse._SubParsersAction, name: str, exc: Exception
) -> None:
    reason = (str(exc) or type(exc).__name__).splitlines()[0]
    # '+' as the only prefix: every argument, '--seed' or '-h' alike, lands in 'rest',
    # so running it reaches the one-line error below instead of a usage message.
    q = experiments.add_parser(
        name, help=f"(not available: {reason})", prefix_chars="+", add_help=False
    )
    q.add_argument("rest", nargs="*", help=argparse.SUPPRESS)

    def unavailable(args: argparse.Namespace) -> int:
        raise ArenaError(f"experiment {name} is not available: {type(exc).__name__}: {reason}")

    q.set_defaults(func=unavailable)


def _run(module: ModuleType, parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    if plays_games(module):
        count(args.jobs, "--jobs")
    args.out = Path(args.out)
    pyplot()  # every experiment draws: without matplotlib, fail now, not after its games
    report = Report(args.out, module.NAME, _command(parser, args), quiet=args.quiet)
    load = os.getloadavg()[0]
    started = time.perf_counter()
    module.run(args, report)
    seconds = time.perf_counter() - started
    report.text(run_note(seconds, load, os.cpu_count() or 1, datetime.date.today()))
    for path in report.files:
        print(path)
    if not args.quiet:
        print(f"{module.NAME}: {len(report.files)} files in {seconds:.1f} s", file=sys.stderr)
    return 0


def _command(parser: argparse.ArgumentParser, args: argparse.Namespace) -> str:
    """The command line with every option spelt out (defaults too), so it reruns the same
    experiment even if the defaults change later."""
    words = ["arena", "experiment", args.experiment]
    for action in parser._actions:
        if action.dest in ("help", "quiet") or action.help == argparse.SUPPRESS:
            continue
        value = getattr(args, action.dest, None)
        if value is None or value is False:
            continue
        if not action.option_strings:
            words.extend(_values(value))
            continue
        flag = max(action.option_strings, key=len)
        if value is True and action.nargs == 0:
            words.append(flag)
        else:
            words.extend([flag, *_values(value)])
    return shlex.join(words)


def _values(value: object) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list | tuple) else [str(value)]
