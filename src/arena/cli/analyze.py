"""``arena analyze GAME "MOVES" AGENT``: what an agent thinks of a position, and why.

Tests: tests/cli/test_cli.py
"""

from __future__ import annotations

import argparse
from typing import Any

from arena.agents import load_agent
from arena.cli.common import add_game_argument, add_position_option, position_from
from arena.compete.match import answer_problem
from arena.core.agent import Resign, end_game, start_game
from arena.core.crash import crash_text
from arena.core.errors import AgentFailure, ArenaError
from arena.core.game import Game, State
from arena.core.limit import Limit
from arena.games import load_game
from arena.search.report import for_analysis, format_search


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "analyze",
        help="show an agent's search of a position: every root move and its statistics",
        description="Play MOVES from the start, let AGENT search the position, and print a table "
        "of the root moves: visits, share, win rate, UCB and rank for MCTS; value (win/loss in N "
        "or the evaluation in the game's units, e.g. Othello's predicted discs) and depth for "
        "alpha-beta, with a line saying what the values are; then time, simulations or "
        "nodes per second and the principal variation. ids values each of the --top best "
        "moves exactly (multi-PV: an open-window search each) unless its spec sets multipv.",
        epilog='example: arena analyze connect4 "4453" mcts:rollouts=2000 --top 7',
    )
    add_game_argument(p)
    p.add_argument(
        "moves", metavar="MOVES", help='moves so far, e.g. "4453" or "d3 c5" ("" = start)'
    )
    p.add_argument("agent", metavar="AGENT", help="agent spec, e.g. mcts:rollouts=1000 or ids")
    p.add_argument("--time", type=float, default=None, metavar="S", help="seconds to search")
    p.add_argument("--top", type=int, default=10, help="root moves to list, >= 1 (default 10)")
    p.add_argument("--seed", type=int, default=None, help="seed of the initial position")
    add_position_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    game = load_game(args.game)
    state = position_from(game, args.moves.replace(",", " ").split(), args.seed, args.position)
    if state.is_terminal():
        raise ArenaError(f"the game is over after these moves: {state.result_text()}")
    if args.time is not None and args.time <= 0:
        raise ArenaError(f"--time must be > 0, not {args.time}")
    if args.top < 1:
        raise ArenaError(f"--top must be >= 1, not {args.top}")
    agent = load_agent(args.agent)
    for_analysis(agent, args.top)  # ids: an exact value for each listed move, not bounds
    try:
        move = _search(agent, game, state, args)
    except Resign as stop:  # a person typed quit, or the input ended
        print(f"no analysis: {agent.spec} gave no move ({stop or 'quit'})")
        return 0
    except AgentFailure as exc:  # a program timed out, crashed or answered garbage
        raise ArenaError(f"{agent.spec}: {exc.reason}: {exc.detail}") from None
    except Exception as exc:
        if getattr(args, "debug", False):
            raise
        # As the referee reports it: one line at the user's own frame.
        raise ArenaError(f"{agent.spec} crashed: {crash_text(exc)}") from None
    finally:
        end_game(agent)
    wrong = answer_problem(state, move)
    if wrong:
        raise ArenaError(f"{agent.spec}: {wrong}")
    info = getattr(agent, "last_search", None)  # users' classes need not report a search
    if info is not None:
        print(format_search(info, args.top))
    else:
        print(f"({agent.spec} reports no search: set self.last_search to an arena.SearchInfo)")
    print(f"chosen: {game.format_move(move)}")
    return 0


def _search(agent: Any, game: Game, state: State, args: argparse.Namespace) -> int:
    """As in a match: a new game, the moves so far (programs are told them), the search."""
    start_game(agent, game, player=state.to_move, seed=args.seed)
    # Programs are told the moves from the start; from a position string they
    # cannot be (the history is unknown), so only in-process agents see it.
    observe = getattr(agent, "observe", None) if args.position is None else None
    replay = game.initial_state(args.seed)
    for move in game.parse_moves(args.moves) if observe is not None else ():
        observe(replay, move)
        replay = replay.play(move)
    print(state.render())
    print(f"{state.result_text()}; {agent.spec} searching")
    return agent.choose(state, Limit(time=args.time))
