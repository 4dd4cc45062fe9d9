"""``arena``: the command-line entry point.

Every command module exposes ``register(subparsers)``, which adds its parser
and sets ``func``. Errors from bad input (``ArenaError``, unreadable files)
become one line on stderr and exit status 2; nothing the user types should
produce a traceback.

Tests: tests/cli/test_cli.py
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Sequence

from arena import __version__
from arena.cli import (
    agents,
    analyze,
    bench,
    contest,
    experiment,
    games,
    gtp,
    perft,
    play,
    random_game,
    replay,
    results,
    serve,
    show,
    warmup,
    web,
)
from arena.core.errors import ArenaError

COMMANDS = (
    games,
    agents,
    show,
    perft,
    random_game,
    play,
    contest,
    results,
    replay,
    analyze,
    bench,
    experiment,
    serve,
    gtp,
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
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        command.register(sub)
    return parser


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP arrived: stop as for Ctrl-C (agents killed, the database write
    finished or rolled back), then exit with 128 + the signal's number."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _terminate(signum: int, _frame: object) -> None:
    raise Terminated(signum)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    # `timeout`, CI runners, service managers and Ray stop programs with SIGTERM, a closed
    # terminal sends SIGHUP: both must clean up like Ctrl-C instead of dying on the spot.
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _terminate)
    try:
        return int(args.func(args) or 0)
    except ArenaError as exc:
        print(f"arena: error: {exc}", file=sys.stderr)
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
