"""``arena play GAME A B``: one game between two agents, move by move.

Tests: tests/cli/test_cli.py
"""

from __future__ import annotations

import argparse

from arena.agents import load_agent
from arena.cli.common import add_game_argument
from arena.compete.match import play_game
from arena.compete.timecontrol import TimeControl
from arena.core.errors import ArenaError
from arena.core.limit import Limit
from arena.games import load_game
from arena.search.report import format_search


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "play",
        help="play one game between two agents and print it (human: you)",
        description="Play one game: agent A moves first, agent B second. Prints every move "
        "with the time it took, the final board and the result. With 'human' as an agent you "
        "play at the terminal; 'undo' takes back your last move and the reply.",
        epilog="examples: arena play connect4 random random --seed 1 | "
        "arena play othello:size=6 human ids --move-time 2",
    )
    add_game_argument(p)
    p.add_argument("first", metavar="A", help="agent spec of the first player, e.g. human")
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
    if args.move_time <= 0:
        raise ArenaError(f"--move-time must be > 0, not {args.move_time}")
    agents = [load_agent(args.first), load_agent(args.second)]
    names = game.player_names
    print(f"{game.spec}: {agents[0].spec} ({names[0]}) vs {agents[1].spec} ({names[1]})")
    human = any(a.spec.startswith("human") for a in agents)

    def on_move(state, move, seconds, info) -> None:  # type: ignore[no-untyped-def]
        mover = state.to_move
        print(
            f"{state.ply + 1:>3}. {names[mover]:<8} {game.format_move(move):<8} "
            f"{seconds * 1000:8.1f} ms"
        )
        if args.show_search and info is not None and info.root:
            print(format_search(info, 5))
        if args.boards:
            print(state.play(move).render())

    # A person is not held to the clock; agents get the move time as their limit.
    control = TimeControl.parse(f"move:{1e6 if human else args.move_time}")
    if human:
        for i, agent in enumerate(agents):
            if not agent.spec.startswith("human"):
                agents[i] = _Limited(agent, args.move_time)
    record = play_game(
        game,
        agents,
        control,
        seed=args.seed,
        allow_undo=human,
        on_move=on_move,
        names=[a.spec for a in agents],
    )
    state = game.play_moves(
        [game.parse_move(m) for m in record.moves], game.initial_state(args.seed)
    )
    print(state.render())
    if record.reason != "normal":
        print(f"{names[record.loser]} loses: {record.reason} ({record.detail})")
    else:
        print(state.result_text())
    return 0


class _Limited:
    """An agent held to its own move time while a person, untimed, plays it."""

    def __init__(self, agent, seconds: float) -> None:  # type: ignore[no-untyped-def]
        self.agent, self.seconds = agent, seconds
        self.spec = agent.spec

    def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
        return getattr(self.agent, name)

    def choose(self, state, limit):  # type: ignore[no-untyped-def]
        return self.agent.choose(state, Limit(time=self.seconds))
