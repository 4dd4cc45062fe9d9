"""``arena``: the command-line entry point.

Every command module exposes ``register(subparsers)``, which adds its parser
and sets ``func``. Errors from bad input (``ArenaError``, unreadable files)
become one line on stderr and exit status 2; nothing the user types should
produce a traceback.

Tests: tests/cli/test_cli.py
"""

from __future__ import annotations

import argparse
import logging
import os
import re
import signal
import sys
from collections.abc import Collection, Sequence

from arena import __version__
from arena.cli import (
    agents,
    analyze,
    bench,
    contest,
    experiment,
    games,
    grade,
    gtp,
    league,
    pbrain,
    perft,
    play,
    random_game,
    replay,
    report,
    results,
    serve,
    show,
    solve,
    train,
    warmup,
    web,
)
from arena.core.errors import ArenaError, clipped

COMMANDS = (
    games,
    agents,
    show,
    perft,
    random_game,
    play,
    contest,
    league,
    grade,
    results,
    report,
    replay,
    analyze,
    solve,
    bench,
    experiment,
    serve,
    gtp,
    pbrain,
    train,
    warmup,
    web,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="arena",
        description="Adversarial search in board games: rules, agents, matches and benchmarks.",
        epilog="Games are named by spec strings such as 'connect4:rows=6,cols=7,k=4'; "
        "'arena games' lists every game with its parameters. "
        "'arena COMMAND --help' explains one command.",
    )
    parser.add_argument("--version", action="version", version=f"arena {__version__}")
    parser.add_argument("--debug", action="store_true", help=DEBUG_HELP)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        command.register(sub)
    # Also after the command, where people type it (`arena play ... --debug`); SUPPRESS
    # keeps a flag given before the command.
    for command_parser in sub.choices.values():
        command_parser.add_argument(
            "--debug", action="store_true", default=argparse.SUPPRESS, help=DEBUG_HELP
        )
    return parser


DEBUG_HELP = (
    "show whole tracebacks: of an agent that crashes (one line at its own file otherwise) "
    "and of errors"
)


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP arrived: stop as for Ctrl-C (agents killed, the database write
    finished or rolled back), then exit with 128 + the signal's number."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _terminate(signum: int, _frame: object) -> None:
    raise Terminated(signum)


def attach_negative_values(argv: Sequence[str], takes_value: Collection[str]) -> list[str]:
    """``--time -5+1`` as ``--time=-5+1``: argparse takes a value that starts with a dash
    and is not a plain number for an option, and stops with "expected one argument";
    joined to its option (one of ``takes_value``) it reaches the option's own check,
    which says what is wrong.

    >>> attach_negative_values(["match", "--time", "-5+1", "--quiet", "-1"], {"--time"})
    ['match', '--time=-5+1', '--quiet', '-1']
    """
    out: list[str] = []
    for token in argv:
        if NEGATIVE.match(token) and out and out[-1] in takes_value:
            out[-1] = f"{out[-1]}={token}"
        else:
            out.append(token)
    return out


NEGATIVE = re.compile(r"-\.?\d")


def value_options(parser: argparse.ArgumentParser) -> set[str]:
    """The long options of ``parser`` and its sub-commands that take one value."""
    found: set[str] = set()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                found |= value_options(sub)
        elif action.nargs is None and action.option_strings:
            found |= {o for o in action.option_strings if o.startswith("--")}
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    words = sys.argv[1:] if argv is None else argv
    args = parser.parse_args(attach_negative_values(words, value_options(parser)))
    if args.debug:
        # The referee logs every crash of an agent with its traceback at DEBUG.
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("arena: debug: %(message)s"))
        logger = logging.getLogger("arena")
        logger.addHandler(handler)
        logger.setLevel(logging.DEBUG)
    # `timeout`, CI runners, service managers and Ray stop programs with SIGTERM, a closed
    # terminal sends SIGHUP: both must clean up like Ctrl-C instead of dying on the spot.
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _terminate)
    try:
        return int(args.func(args) or 0)
    except ArenaError as exc:
        if args.debug:
            raise
        print(f"arena: error: {clipped(str(exc))}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, as Unix tools do.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - flushing at exit must not fail
        return 0
    except OSError as exc:
        print(
            f"arena: error: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "),
            file=sys.stderr,
        )
        return 2
    except Terminated as stop:
        print(f"arena: stopped by {signal.Signals(stop.signum).name}", file=sys.stderr)
        return 128 + stop.signum
    except KeyboardInterrupt:
        print("arena: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
