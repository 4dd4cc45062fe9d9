"""``arena play GAME A B``: one game between two agents, move by move."""

from __future__ import annotations

import argparse
import time

from arena.agents import load_agent, start_game
from arena.agents.report import format_search
from arena.cli.common import add_game_argument
from arena.errors import ArenaError
from arena.game import load_game
from arena.limit import Limit


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "play",
        help="play one game between two agents and print it",
        description="Play one game: agent A moves first, agent B second. Prints every move "
        "with the time it took, the final board and the result.",
        epilog="example: arena play connect4 random random --seed 1",
    )
    add_game_argument(p)
    p.add_argument("first", metavar="A", help="agent spec of the first player, e.g. random")
    p.add_argument("second", metavar="B", help="agent spec of the second player")
    p.add_argument(
        "--move-time",
        type=float,
        default=1.0,
        metavar="S",
        help="seconds each agent may think per move (default 1)",
    )
    p.add_argument("--seed", type=int, default=None, help="seed of the initial position")
    p.add_argument("--boards", action="store_true", help="print the board after every move")
    p.add_argument(
        "--show-search",
        action="store_true",
        help="after each move, print the agent's search table (why that move)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    game = load_game(args.game)
    agents = (load_agent(args.first), load_agent(args.second))
    if args.move_time <= 0:
        raise ArenaError(f"--move-time must be > 0, not {args.move_time}")
    limit = Limit(time=args.move_time)
    state = game.initial_state(args.seed)
    for agent in agents:
        start_game(agent, game)
    print(
        f"{game.spec}: {agents[0].spec} ({game.player_names[0]}) vs "
        f"{agents[1].spec} ({game.player_names[1]})"
    )
    while not state.is_terminal():
        mover = state.to_move
        start = time.perf_counter()
        move = agents[mover].choose(state, limit)
        spent = time.perf_counter() - start
        text = game.format_move(move)
        print(f"{state.ply + 1:>3}. {game.player_names[mover]:<8} {text:<8} {spent * 1000:8.1f} ms")
        if args.show_search:
            print(format_search(getattr(agents[mover], "last_search", None), 5))
        for agent in agents:
            agent.observe(state, move)
        state = state.play(move)
        if args.boards:
            print(state.render())
    print(state.render())
    print(state.result_text())
    return 0
