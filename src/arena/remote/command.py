"""``cmd:COMMAND LINE``: an agent that is a program speaking :mod:`arena.remote.protocol`.

>>> from arena.agents import load_agent
>>> agent = load_agent("cmd:memory=512:sh my_agent.sh --fast")
>>> agent.label, agent.argv[1:], agent.config["memory"]
('cmd:sh my_agent.sh', ['my_agent.sh', '--fast'], 512)
>>> load_agent("cmd:python my_agent.py").argv[0] == sys.executable  # arena's own Python
True
>>> print(isolated("mcts:rollouts=100"))  # doctest: +ELLIPSIS
cmd:... -m arena serve mcts:rollouts=100
>>> load_agent("cmd:speed=9:sh my_agent.sh")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
arena.core.errors.SpecError: cmd: unknown parameter 'speed'; valid: memory=4096 ...

Tests: tests/remote/test_subprocess.py
"""

from __future__ import annotations

import shlex
import sys
import time
from typing import Any

from arena.core.game import Game, State
from arena.core.limit import Limit
from arena.remote.external import PROGRAM_PREFIXES, ExternalAgent, find_program
from arena.remote.process import split_command
from arena.remote.protocol import ProtocolError, format_hello, format_turn, parse_answer

MAX_CHATTER = 100
"""Lines a program may print before its 'ready' (banners, a module's prints)."""

SERVED_STARTUP = 60.0
"""Seconds a process serving one of arena's agents (``--isolate``'s ``arena serve AGENT``,
a ``py:`` file's own process) may take to say it is ready, off the clock: a student's file
may import a large library, and a built-in agent loads its compiled code before its
'ready', which on first use compiles for 14-30 s on 2 cores (more on a busy machine). The
``cmd:`` default of 10 s forfeited every game of ``--isolate mcts`` on a cold cache."""


class CommandAgent(ExternalAgent):
    prefix = "cmd"
    name = "cmd"
    summary = "a program speaking the arena's line protocol (cmd:python my_agent.py)"

    def started(self, game: Game, player: int | None, seed: Any) -> None:
        self.greeted = False
        if player is not None:
            self.greet(game, player, seed)

    def greet(self, game: Game, player: int, seed: Any) -> None:
        assert self.process is not None
        self.process.send(format_hello(game.spec, player, seed))
        # A Python program may print before serve() takes stdout for the protocol (a
        # module-level print, pygame's banner): lines before 'ready' are passed over.
        deadline = time.perf_counter() + self.config["startup"]
        for _ in range(MAX_CHATTER):
            left = max(deadline - time.perf_counter(), 0.0)
            with self.starting():
                answer = self.process.read_line(left, "'ready'")
            if answer.split()[:1] == ["ready"]:
                self.greeted = True
                return
        raise self._failure(
            "illegal",
            f"answered {answer[:60]!r} to the hello (and {MAX_CHATTER} lines), not 'ready'",
        )

    def choose(self, state: State, limit: Limit) -> int:
        game = state.game
        process = self.running(game)
        if not self.greeted:
            self.greet(game, state.to_move, None)
        self.followed(state)
        process.send(format_turn(limit, [game.format_move(m) for m in self.moves]))
        answer = process.read_line(self.move_timeout(limit), "move")
        try:
            return parse_answer(game, answer)
        except ProtocolError as exc:
            raise self._failure("illegal", str(exc)) from None

    def command(self, body: str) -> list[str]:
        """The argv; ``python`` (or ``python3``) is the Python arena runs under, as if its
        virtual environment were active, so ``cmd:python my_agent.py`` can import arena."""
        argv = split_command(body)
        if argv[0] in PYTHONS:
            return [sys.executable, *argv[1:]]
        return find_program(argv)


PYTHONS = ("python", "python3")
"""Command names that mean arena's own Python in a ``cmd:`` line (a path names another)."""


def serve_argv(spec: str) -> str:
    """The command line that serves ``spec`` over the protocol with this Python."""
    return shlex.join([sys.executable, "-m", "arena", "serve", spec])


def isolated(spec: str) -> str:
    """The spec of an agent run in its own process under the ``cmd:`` rules (``--isolate``):
    ``arena serve SPEC`` with this Python, given :data:`SERVED_STARTUP` to start. Programs
    already are their own process."""
    if spec.strip().lower().startswith(PROGRAM_PREFIXES):
        return spec
    return f"cmd:startup={SERVED_STARTUP:g}:" + serve_argv(spec)
