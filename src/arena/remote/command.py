"""``cmd:COMMAND LINE``: an agent that is a program speaking :mod:`arena.remote.protocol`.

>>> from arena.agents import load_agent
>>> agent = load_agent("cmd:memory=512:sh my_agent.sh --fast")
>>> agent.label, agent.argv[1:], agent.config["memory"]
('cmd:sh my_agent.sh', ['my_agent.sh', '--fast'], 512)
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
from typing import Any

from arena.core.game import Game, State
from arena.core.limit import Limit
from arena.remote.external import PROGRAM_PREFIXES, ExternalAgent
from arena.remote.protocol import ProtocolError, format_hello, format_turn, parse_answer


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
        with self.starting():
            answer = self.process.read_line(self.config["startup"], "'ready'")
        if answer.split()[:1] != ["ready"]:
            raise self._failure("illegal", f"answered {answer[:60]!r} to the hello, not 'ready'")
        self.greeted = True

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


def isolated(spec: str) -> str:
    """The spec of an agent run in its own process under the ``cmd:`` rules (``--isolate``):
    ``arena serve SPEC`` with this Python. Programs already are their own process."""
    if spec.strip().lower().startswith(PROGRAM_PREFIXES):
        return spec
    return "cmd:" + shlex.join([sys.executable, "-m", "arena", "serve", spec])
