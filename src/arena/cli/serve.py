"""``arena serve AGENT``: an agent as a program speaking the arena's line protocol.

Tests: tests/remote/test_subprocess.py
"""

from __future__ import annotations

import argparse

from arena.agents import load_agent
from arena.remote.serve import protocol_stdin, protocol_stdout, serve


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "serve",
        help="run an agent as a program on stdin/stdout (the arena's line protocol)",
        description="Serve AGENT over the arena's line protocol (see docs/protocol.md) on "
        "stdin/stdout, as cmd: agents do; anything the agent prints goes to stderr. This is "
        "what --isolate runs for every built-in or py: agent, so a hard deadline and memory "
        "limits hold for Python agents too.",
        epilog='example: arena match connect4 "cmd:arena serve mcts:time=1" ids',
    )
    p.add_argument("agent", metavar="AGENT", help="agent spec, e.g. mcts or py:mine.py:Mine")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # The protocol's stdout first: what the agent's file prints as it is imported (a
    # greeting, pygame's banner) then goes to stderr, not to the arena.
    out, inp = protocol_stdout(), protocol_stdin()
    return serve(load_agent(args.agent), stdin=inp, stdout=out)
