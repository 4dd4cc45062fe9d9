"""``arena analyze GAME "MOVES" AGENT``: what an agent thinks of a position, and why.

Tests: tests/cli/test_cli.py
"""

from __future__ import annotations

import argparse

from arena.agents import load_agent
from arena.cli.common import add_game_argument
from arena.core.agent import start_game
from arena.core.errors import ArenaError
from arena.core.game import position
from arena.core.limit import Limit
from arena.games import load_game
from arena.search.report import format_search


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "analyze",
        help="show an agent's search of a position: every root move and its statistics",
        description="Play MOVES from the start, let AGENT search the position, and print a table "
        "of the root moves: visits, share, win rate, UCB and rank for MCTS; value (win/loss in N "
        "or the evaluation, with bounds) and depth for alpha-beta; then time, simulations or "
        "nodes per second and the principal variation.",
        epilog='example: arena analyze connect4 "4453" mcts:rollouts=2000 --top 7',
    )
    add_game_argument(p)
    p.add_argument(
        "moves", metavar="MOVES", help='moves so far, e.g. "4453" or "d3 c5" ("" = start)'
    )
    p.add_argument("agent", metavar="AGENT", help="agent spec, e.g. mcts:rollouts=1000 or ids")
    p.add_argument("--time", type=float, default=None, metavar="S", help="seconds to search")
    p.add_argument("--top", type=int, default=10, help="root moves to list (default 10)")
    p.add_argument("--seed", type=int, default=None, help="seed of the initial position")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    game = load_game(args.game)
    state = position(game, args.moves.replace(",", " ").split(), args.seed)
    if state.is_terminal():
        raise ArenaError(f"the game is over after these moves: {state.result_text()}")
    if args.time is not None and args.time <= 0:
        raise ArenaError(f"--time must be > 0, not {args.time}")
    agent = load_agent(args.agent)
    # As in a match: a new game, then the moves so far (programs are told them).
    start_game(agent, game, player=state.to_move, seed=args.seed)
    observe = getattr(agent, "observe", None)
    replay = game.initial_state(args.seed)
    for move in game.parse_moves(args.moves) if observe is not None else ():
        observe(replay, move)
        replay = replay.play(move)
    print(state.render())
    print(f"{state.result_text()}; {agent.spec} searching")
    try:
        move = agent.choose(state, Limit(time=args.time))
    finally:
        close = getattr(agent, "close", None)
        if callable(close):
            close()
    print(format_search(agent.last_search, args.top))
    print(f"chosen: {game.format_move(move)}")
    return 0
