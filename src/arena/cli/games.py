"""``arena games``: every game with its parameters and defaults.

Tests: tests/cli/test_cli.py
"""

from __future__ import annotations

import argparse

from arena.games import all_games


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "games",
        help="list the games, their parameters and defaults",
        description="List every game with its parameters (name=default (type, range): meaning). "
        "Use them in a spec string: NAME:KEY=VALUE,...",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    for name, cls in all_games().items():
        print(f"{name}: {cls.summary}")
        for param in cls.params:
            print(f"    {param.describe()}")
    return 0
