"""``arena play GAME A B``: one game between two agents, move by move.

Tests: tests/cli/test_cli.py, tests/cli/test_play.py
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from pathlib import Path

from arena.agents import load_agent
from arena.agents.human import HumanAgent
from arena.cli.common import (
    add_game_argument,
    add_position_option,
    add_start_arguments,
    move_line,
    position_from,
    start_moves,
)
from arena.compete.match import play_game
from arena.compete.runner import placed, prefixed_py
from arena.compete.timecontrol import Clock, TimeControl, moves_to_share
from arena.core.errors import AgentFailure, ArenaError
from arena.core.game import Game
from arena.core.limit import DEFAULT_GRACE, Limit
from arena.formats.record import GameRecord
from arena.formats.sgf import to_sgf
from arena.games import load_game
from arena.search.report import format_search


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "play",
        help="play one game between two agents and print it (human: you)",
        description="Play one game: agent A moves first, agent B second. Prints every move "
        "with the time it took, the final board and the result. With 'human' as an agent you "
        "play at the terminal; 'undo' takes back your last move and the reply, 'save FILE' writes "
        "the game so far (SGF for a .sgf name, else arena's JSON record).",
        epilog="examples: arena play connect4 random random --seed 1 | "
        "arena play othello:size=6 human ids --move-time 2",
    )
    add_game_argument(p)
    p.add_argument("first", metavar="A", help="agent spec of the first player, e.g. human")
    p.add_argument("second", metavar="B", help="agent spec of the second player")
    clock = p.add_mutually_exclusive_group()
    clock.add_argument(
        "--move-time",
        type=float,
        default=None,
        metavar="S",
        help="seconds each agent may think per move (default 1)",
    )
    clock.add_argument(
        "--time",
        default=None,
        metavar="CONTROL",
        help="the agents' time control instead: a Fischer clock (15+1), move:SECONDS, and a "
        "first-move allowance (move:2,first:30: the Colosseum course's rule); a person is "
        "never timed",
    )
    p.add_argument("--seed", type=int, default=None, help="seed of the initial position")
    add_start_arguments(p)
    add_position_option(p)
    p.add_argument("--boards", action="store_true", help="print the board after every move")
    p.add_argument(
        "--in-process",
        action="store_true",
        help="run py: agents in arena's own process (for a debugger); by default each has a "
        "process of its own and loses on time past the move time plus the grace",
    )
    p.add_argument(
        "--show-search",
        action="store_true",
        help="after each move, print the agent's search table (why that move)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    game = load_game(args.game)
    if args.move_time is not None and args.move_time <= 0:
        raise ArenaError(f"--move-time must be > 0, not {args.move_time}")
    given = (
        TimeControl.parse(args.time)
        if args.time is not None
        else TimeControl.moving(args.move_time or 1.0)
    )
    if not given.timed:
        raise ArenaError(f"--time {args.time}: play takes a clock or a move time, not a budget")
    opening = start_moves(game, args.moves, args.sgf)
    start = None
    if args.position is not None:
        if opening:
            raise ArenaError("--position cannot be combined with --moves or --sgf")
        start = position_from(game, [], args.seed, args.position)
        if start.is_terminal():
            raise ArenaError(f"the game is over in that position: {start.result_text()}")
    agents = [load_agent(args.first), load_agent(args.second)]  # bad specs fail here, at once
    # A py: agent plays in a process of its own (it cannot hang the game), or here in its folder.
    agents = [
        placed(spec, in_process_py=args.in_process) if prefixed_py(spec) else agent
        for spec, agent in zip((args.first, args.second), agents, strict=True)
    ]
    humans = [isinstance(a, HumanAgent) for a in agents]
    sides = side_labels(game, [a.spec for a in agents], humans)
    print(f"{game.spec}: {sides[0]} vs {sides[1]}")
    legend = legend_text(game.marks, sides)
    played: list[int] = list(opening)
    seconds: list[float] = [0.0] * len(opening)

    def on_move(state, move, spent, info) -> None:  # type: ignore[no-untyped-def]
        del played[state.ply :], seconds[state.ply :]  # an undo took moves back
        played.append(move)
        seconds.append(spent)
        print(move_line(state, move, spent, game.player_names[state.to_move]))
        if args.show_search and info is not None and info.root:
            print(format_search(info, 5))
        if args.boards:
            print(state.play(move).render())
            print(legend)

    def save(path: str) -> str:
        record = GameRecord(
            game=game.spec,
            players=(agents[0].spec, agents[1].spec),
            moves=[game.format_move(m) for m in played],
            seconds=seconds[:],
            opening_plies=len(opening),
            finished=False,
        )
        return save_record(record, path, f"arena play {game.spec} {args.first} {args.second}")

    # A person is not held to the clock; agents get the move time as their limit.
    control = TimeControl.moving(1e6) if any(humans) else given
    for i, agent in enumerate(agents):
        if isinstance(agent, HumanAgent):
            agent.legend = legend
            agent.saver = save
        elif any(humans):
            agents[i] = _Limited(agent, given)
    record = play_game(
        game,
        agents,
        control,
        seed=args.seed,
        opening=opening,
        allow_undo=any(humans),
        on_move=on_move,
        names=[a.spec for a in agents],
        start=start,
    )
    state = game.play_moves(
        [game.parse_move(m) for m in record.moves],
        game.initial_state(args.seed) if start is None else start,
    )
    print(state.render())
    print(legend)
    if record.reason != "normal":
        print(f"{sides[record.loser]} loses: {record.reason} ({record.detail})")
    else:
        print(state.result_text(sides))
    return 0


def legend_text(marks: Sequence[str], sides: Sequence[str]) -> str:
    """What each mark on the board stands for; a side named by its own mark (Colosseum's
    ``A``) is not named twice.

    >>> legend_text(["X", "O"], ["Red (you)", "Yellow (mcts)"])
    'X Red (you)  O Yellow (mcts)'
    >>> legend_text(["A", "B"], ["A (you)", "B (random)"])
    'A (you)  B (random)'
    """
    return "  ".join(
        side if side.split(" ")[0] == mark else f"{mark} {side}" for mark, side in zip(marks, sides)
    )


def side_labels(game: Game, specs: Sequence[str], humans: Sequence[bool]) -> list[str]:
    """``Red (you)``, ``Yellow (mcts)``: each side's name with who plays it.

    >>> from arena.games import load_game
    >>> side_labels(load_game("connect4"), ["human", "mcts:rollouts=200"], [True, False])
    ['Red (you)', 'Yellow (mcts:rollouts=200)']
    """
    who = ["you" if human and sum(humans) == 1 else spec for spec, human in zip(specs, humans)]
    return [f"{name} ({player})" for name, player in zip(game.player_names, who)]


def save_record(record: GameRecord, path: str, command: str) -> str:
    """Write ``record`` to ``path``: SGF for a ``.sgf`` name (Go, Othello, Gomoku), else
    arena's JSON record; returns what to tell the person."""
    moves = " ".join(record.moves)
    try:
        if path.lower().endswith(".sgf"):
            Path(path).write_text(to_sgf(record), encoding="utf-8")
            again = f"{command} --sgf {path}"
        else:
            Path(path).write_text(record.to_json() + "\n", encoding="utf-8")
            again = f"{command} --moves '{moves}'"
    except (OSError, ArenaError) as exc:
        return f"not saved: {getattr(exc, 'strerror', None) or exc}"
    return f"saved {len(record.moves)} moves to {path}; to go on later: {again}"


class _Limited:
    """An agent held to its own clock while a person, untimed, plays it."""

    def __init__(self, agent, control: TimeControl) -> None:  # type: ignore[no-untyped-def]
        self.agent, self.clock = agent, Clock.start(control)
        self.spec = agent.spec

    def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
        return getattr(self.agent, name)

    def choose(self, state, limit: Limit):  # type: ignore[no-untyped-def]
        started = time.perf_counter()
        move = self.agent.choose(state, self.clock.limit(moves_to_share(state)))
        over = self.clock.charge(time.perf_counter() - started, DEFAULT_GRACE)
        if over:
            raise AgentFailure("time", over)
        return move
