"""``arena random GAME``: play and print one game of uniformly random moves.

Tests: tests/cli/test_cli.py
"""

from __future__ import annotations

import argparse
import random

from arena.cli.common import add_game_argument
from arena.games import load_game


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "random",
        help="play and print a game of random moves",
        description="Play a game of uniformly random legal moves and print the moves, "
        "the final board and the result. The same --seed gives the same game.",
    )
    add_game_argument(p)
    p.add_argument("--seed", type=int, default=None, help="random seed (default: fresh)")
    p.add_argument("--boards", action="store_true", help="print the board after every move")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    game = load_game(args.game)
    seed = args.seed if args.seed is not None else random.randrange(2**31)
    rng = random.Random(seed)
    state = game.initial_state(seed)
    moves = []
    while not state.is_terminal():
        move = rng.choice(state.legal_moves())
        moves.append(game.format_move(move))
        state = state.play(move)
        if args.boards:
            print(f"{state.ply}. {moves[-1]}\n{state.render()}\n")
    print(f"{game.spec} seed {seed}: {' '.join(moves)}")
    print(state.render())
    print(state.result_text())
    return 0
