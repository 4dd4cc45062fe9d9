"""``arena bench``: speed figures (benchmarks, never tests)."""

from __future__ import annotations

import argparse
import json
import sys

from arena.errors import ArenaError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "bench",
        help="measure speed: random playouts per second, with OpenSpiel alongside",
        description="Benchmarks run in one process on this machine; ratios are measured in the "
        "same run. Install the 'bench' extra (pip install -e '.[bench]') to compare with "
        "OpenSpiel.",
    )
    kinds = p.add_subparsers(dest="kind", metavar="KIND", required=True)
    playouts = kinds.add_parser(
        "playouts",
        help="random playouts per second for each game",
        description="Random playouts per second from the start position for each game "
        "(Tic-tac-toe, Connect Four, Othello, Go 5x5 and 9x9, Gomoku, Colosseum), and "
        "OpenSpiel's C++ games driven from Python in the same run when it is installed.",
    )
    playouts.add_argument(
        "--seconds", type=float, default=2.0, help="seconds of measurement per figure (default 2)"
    )
    playouts.add_argument(
        "--games", nargs="*", metavar="GAME", help="only these games (names or specs as listed)"
    )
    playouts.add_argument(
        "--json", action="store_true", help="print one JSON object as the last line"
    )
    playouts.set_defaults(func=run_playouts)


def run_playouts(args: argparse.Namespace) -> int:
    from arena.bench import playouts

    if args.seconds <= 0:
        raise ArenaError(f"--seconds must be > 0, not {args.seconds}")
    known = {c.spec for c in playouts.CASES} | {c.spec.split(":")[0] for c in playouts.CASES}
    for name in args.games or ():
        if name not in known:
            raise ArenaError(f"unknown benchmark game {name!r}; valid: {', '.join(sorted(known))}")
    report = (lambda line: print(line, file=sys.stderr)) if args.json else print
    result = playouts.run(args.seconds, args.games, report)
    if args.json:
        print(json.dumps(result))
    return 0
