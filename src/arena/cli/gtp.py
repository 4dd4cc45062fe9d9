"""``arena gtp GAME AGENT``: serve an agent as a GTP engine on stdin and stdout.

Tests: tests/remote/gtp/test_engines.py
"""

from __future__ import annotations

import argparse
import os

from arena.agents import load_agent
from arena.cli.common import add_game_argument
from arena.core.errors import ArenaError
from arena.formats.sgf import from_sgf
from arena.games import load_game
from arena.remote.gtp.server import serve
from arena.remote.serve import controller_streams

_EPILOG = """\
Any GTP controller can run it as an engine, for example:
  GoGui       Program > New Program, command: arena gtp go:size=9 mcts:time=1
  Sabaki      Engines > Manage Engines, path: arena, arguments: gtp go:size=9 mcts:time=1
  twogtp      gogui-twogtp -black "arena gtp go:size=9 mcts:time=1" \\
                  -white "gnugo --mode gtp" -size 9 -games 10 -sgffile games
Othello speaks GRhino's dialect: vertices like D3 with row 1 at the top, and a
player without a move passes by itself (arena inserts that pass when the other
colour plays or is asked to move). Other games use their own move notation.
Black is the first player, white the second. The search time per move follows
the controller's time_settings / time_left; without them it is --time, or the
agent's own budget (e.g. mcts:rollouts=2000). Go handicap: go:handicap=N, or the
controller's fixed_handicap / set_free_handicap. Sabaki and Lizzie show the live
search through lz-analyze / kata-analyze, GoGui through its Analyze menu.
loadsgf reads only from the --sgf-dir folders. See docs/gtp.md."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "gtp",
        help="be a GTP engine: play AGENT over the Go Text Protocol on stdin/stdout",
        description="Speak GTP version 2 on stdin and stdout with AGENT playing GAME, so GoGui, "
        "Sabaki, gogui-twogtp or any GTP controller can use arena's agents. Only replies go to "
        "stdout; the agent's messages go to stderr. End of input or 'quit' ends it.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_argument(p, "game spec, e.g. go:size=9 or othello")
    p.add_argument("agent", metavar="AGENT", help="agent spec, e.g. mcts:time=1 or ids")
    p.add_argument(
        "--time",
        type=float,
        default=None,
        metavar="S",
        help="seconds per move when the controller sets no time (default: the agent's budget)",
    )
    p.add_argument(
        "--sgf-dir",
        action="append",
        default=[],
        metavar="DIR",
        help="a folder loadsgf may read SGF files from (repeat for several); without it "
        "loadsgf is refused, so a controller can never make the engine read other files",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.time is not None and not args.time > 0:
        raise ArenaError(f"--time must be > 0, not {args.time}")
    for folder in args.sgf_dir:
        if not os.path.isdir(folder):
            raise ArenaError(f"--sgf-dir {folder}: not a folder")
    game = load_game(args.game)
    # The protocol's streams first: what a py: file prints as it loads goes to stderr.
    inp, out = controller_streams()
    agent = load_agent(args.agent)
    return serve(
        game, agent, inp, out, move_time=args.time, sgf_dirs=args.sgf_dir, read_sgf=from_sgf
    )
