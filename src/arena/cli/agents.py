"""``arena agents``: every agent with its parameters and defaults.

Tests: tests/cli/test_cli.py, tests/remote/pbrain/test_pbrain_client.py,
tests/remote/course/test_colosseum_agent.py,
tests/remote/course/test_cs410_agent.py
"""

from __future__ import annotations

import argparse

from arena.agents.registry import agent_class, agent_names
from arena.remote.colosseum_agent import ColosseumAgent
from arena.remote.command import CommandAgent
from arena.remote.cs410_agent import CS410Agent
from arena.remote.gtp.client import GTPAgent
from arena.remote.mcts_lab import MCTSLabAgent
from arena.remote.othello_ai import OthelloAIAgent
from arena.remote.pbrain.client import PbrainAgent


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "agents",
        help="list the agents, their parameters and defaults",
        description="List every agent with its parameters. Use them in a spec string: "
        "NAME:KEY=VALUE,... (e.g. mcts:c=0.5,rollouts=100), or load your own class with "
        "py:path/to/file.py:ClassName.",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    for name in agent_names():
        cls = agent_class(name)
        print(f"{name}: {cls.summary}")
        for param in cls.params:
            print(f"    {param.describe()}")
        for line in cls.notes:
            print(f"    {line}")
    print(
        "py:FILE.py:CLASS[:key=value,...]: your own class with a choose(state, limit) method "
        "(key=value go to its __init__; it plays in a process of its own)"
    )
    for program in (CommandAgent, GTPAgent):
        print(f"{program.prefix}:[OPTIONS:]COMMAND: {program.summary}")
    print("    options (e.g. cmd:memory=512,cpu=60:python my_agent.py):")
    for param in CommandAgent.params:
        print(f"    {param.describe()}")
    print(f"{PbrainAgent.prefix}:[OPTIONS:]COMMAND: {PbrainAgent.summary}")
    print("    options (and the cmd: options above; see docs/gomocup.md):")
    for param in PbrainAgent.params[: -len(CommandAgent.params)]:
        print(f"    {param.describe()}")
    for course in (OthelloAIAgent, ColosseumAgent, CS410Agent, MCTSLabAgent):
        print(f"{course.usage}: {course.summary}")
        print("    options (and the cmd: options above; see docs/course-agents.md):")
        for param in course.params[: -len(CommandAgent.params)]:
            print(f"    {param.describe()}")
    return 0
