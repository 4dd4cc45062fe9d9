"""``arena show GAME [MOVES...]``: the board after some moves, whose move, or the result.

Tests: tests/cli/test_cli.py
"""

from __future__ import annotations

import argparse

from arena.cli.common import add_game_argument
from arena.core.game import position
from arena.games import load_game


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "show",
        help="render the position after a sequence of moves",
        description="Play MOVES (in the game's notation) from the start and print the board, "
        "whose move it is and the legal moves, or the result when the game is over.",
        epilog="examples: arena show connect4 4453 | arena show othello d3 c5 | "
        "arena show go:size=5 c3 pass",
    )
    add_game_argument(p)
    p.add_argument("moves", nargs="*", metavar="MOVE", help="moves in the game's notation")
    p.add_argument(
        "--seed",
        type=int,
        default=None,
        help="seed of the initial position (games with random set-ups, e.g. colosseum)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    game = load_game(args.game)
    state = position(game, args.moves, args.seed)
    print(state.render())
    print(f"ply {state.ply}: {state.result_text()}")
    if not state.is_terminal():
        print("legal moves: " + " ".join(game.format_move(m) for m in state.legal_moves()))
    return 0
