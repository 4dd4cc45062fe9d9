"""``arena pbrain [GAME] AGENT``: serve an agent as a Gomocup brain on stdin and stdout.

Tests: tests/remote/pbrain/test_pbrain_server.py
"""

from __future__ import annotations

import argparse

from arena.agents import load_agent
from arena.core.errors import ArenaError
from arena.games import load_game
from arena.remote.pbrain.protocol import PbrainError, check_game
from arena.remote.pbrain.server import serve
from arena.remote.serve import controller_streams

_EPILOG = """\
A Gomocup manager runs it as a brain, for example:
  liskvork / gomoku managers on Linux: the brain command  arena pbrain gomoku best
  Piskvork (Windows): a pbrain-arena.exe wrapper, or a batch file that runs
                  arena pbrain gomoku best  (see docs/gomocup.md)
Commands: START n (boards of 5 to 25; Gomocup plays 15 and 20), RECTSTART n,n, INFO
(timeout_turn, timeout_match, time_left, rule: 0 freestyle, 1 exactly five), BEGIN,
TURN x,y, BOARD ... DONE, PLAY x,y, TAKEBACK x,y, RESTART, ABOUT, END. x is the
column and y the row, both from 0 at the top-left. A move takes at most
timeout_turn and a share of time_left, less a reserve; with neither it is --time,
or the agent's own budget. Only protocol lines go to stdout; the agent's prints
and messages go to stderr. See docs/gomocup.md."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "pbrain",
        help="be a Gomocup brain: play AGENT over the Gomoku AI protocol on stdin/stdout",
        description="Speak the Gomocup (pbrain) protocol on stdin and stdout with AGENT "
        "playing Gomoku, so Piskvork, liskvork or any Gomocup manager can run arena's "
        "agents. Only answers go to stdout; the agent's messages go to stderr. END or the "
        "end of input ends it.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "game",
        metavar="GAME",
        nargs="?",
        default="gomoku",
        help="gomoku spec for the rules before the manager's INFO rule, e.g. "
        "gomoku:overline=nowin (default: gomoku, freestyle); START sets the size",
    )
    p.add_argument("agent", metavar="AGENT", help="agent spec, e.g. best or mcts:time=1")
    p.add_argument(
        "--time",
        type=float,
        default=None,
        metavar="S",
        help="seconds per move when the manager sets no time (default: the agent's budget)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.time is not None and not args.time > 0:
        raise ArenaError(f"--time must be > 0, not {args.time}")
    game = load_game(args.game)
    try:
        check_game(game)
    except PbrainError as exc:
        raise ArenaError(f"arena pbrain: {exc}") from None
    # The protocol's streams first: what a py: file prints as it loads goes to stderr.
    inp, out = controller_streams()
    agent = load_agent(args.agent)
    return serve(game, agent, inp, out, move_time=args.time)
