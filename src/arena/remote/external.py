"""Agents that are other programs: what ``cmd:`` and ``gtp:`` agents share.

A spec is ``PREFIX:[OPTIONS:]COMMAND LINE``, for example
``cmd:python my_agent.py`` or ``gtp:memory=512:gnugo --mode gtp --level 1``.
OPTIONS are ``key=value`` pairs (:data:`OPTIONS`); the command line follows
shell quoting and runs without a shell.

The program starts in :meth:`ExternalAgent.reset`, before the clocks run, in
a fresh process for every game, and :meth:`ExternalAgent.close` kills its
whole process group when the game ends. A move has a hard deadline: the time
left on the clock (or the move's time) plus the referee's grace, after which
the program is killed and the game lost on time; without a clock the
``timeout`` option bounds a move instead.

Tests: tests/remote/test_subprocess.py, tests/remote/gtp/test_client.py
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar

from arena.core.agent import Agent
from arena.core.errors import AgentFailure, SpecError
from arena.core.game import Game, State
from arena.core.limit import DEFAULT_GRACE, Limit
from arena.core.spec import Param, bind_params, split_pairs
from arena.remote.process import AgentProcess, log_end, split_command
from arena.remote.sandbox import Sandbox

OPTIONS = (
    Param("memory", int, 4096, "address-space limit in MB (0: none)", low=0, high=1 << 20),
    Param("cpu", int, 0, "CPU seconds for the whole game (0: none)", low=0, high=1 << 30),
    Param("timeout", float, 60.0, "seconds for a move when there is no clock", low=0.001),
    Param("startup", float, 10.0, "seconds to start and answer the first message", low=0.001),
)

GAMES_DIR = "/usr/games"
"""Where Debian installs game engines (gnugo, gtp-rhino); not on everybody's PATH."""

PROGRAM_PREFIXES = (
    "cmd:",
    "gtp:",
    "pbrain:",
    "othello-ai:",
    "colosseum-agent:",
    "cs410-agent:",
    "mcts-lab:",
)
"""Spec prefixes of agents that already run as programs in their own processes."""

_OPTIONS_PREFIX = re.compile(r"^([a-z_]+=[^\s:,]*)(,[a-z_]+=[^\s:,]*)*:")


class ExternalAgent(Agent):
    """A program on pipes, restarted for every game; subclasses speak its protocol."""

    prefix: ClassVar[str]
    params = OPTIONS

    def __init__(self, spec: str) -> None:
        body = spec.strip()[len(self.prefix) + 1 :].strip()
        options: dict[str, str] = {}
        found = _OPTIONS_PREFIX.match(body)
        if found:
            options = split_pairs(found.group(0)[:-1], self.prefix)
            body = body[found.end() :].strip()
        self.config: dict[str, Any] = bind_params(self.prefix, self.params, options)
        self.argv = self.command(body)
        self.spec = spec.strip()
        self.last_search = None
        self.grace = DEFAULT_GRACE
        """How far past the clock a move may go: the referee's, told at each reset."""
        self.process: AgentProcess | None = None
        self.log_path: Path | None = None
        """The stderr log of the latest program, kept after it ends (for the record)."""
        self.game: Game | None = None
        self.line: State | None = None
        """The position after the observed moves (None once they stop following one line)."""
        self.moves: list[int] = []

    cwd: str | None = None
    """The program's working directory (None: the arena's)."""

    title: str | None = None
    """How errors name the agent when not by its command (a ``py:`` agent in its own process)."""

    sandbox: Sandbox | None = None
    """Run the program in this sandbox (``--sandbox``; :mod:`arena.remote.sandbox`)."""

    def command(self, body: str) -> list[str]:
        """The argv to run for the spec's text after the options (and ``self.config``)."""
        return find_program(split_command(body))

    @property
    def label(self) -> str:
        """The program as errors name it: ``cmd:python my_agent.py``."""
        if self.title is not None:
            return self.title
        shown = [os.path.basename(word) for word in self.argv[:2]]
        return f"{self.prefix}:{' '.join(shown)}"

    def reset(
        self,
        game: Game | None = None,
        player: int | None = None,
        seed: Any = None,
        grace: float | None = None,
    ) -> None:
        """Start a fresh program for a new game of ``game`` (``grace``: the referee's)."""
        self.close()
        self.game = game
        if grace is not None:
            self.grace = grace
        if game is None:
            return
        self.process = AgentProcess(
            self.argv,
            label=self.label,
            memory_mb=self.config["memory"] or None,
            cpu_seconds=self.config["cpu"] or None,
            cwd=self.cwd,
            sandbox=self.sandbox,
        )
        self.log_path = self.process.log_path
        self.line = game.initial_state(seed)
        self.moves = []
        self.started(game, player, seed)

    def stderr_log(self, size: int = 8192) -> str:
        """The last ``size`` bytes of the latest program's stderr (its traceback, its last
        prints), also once it has ended: what the referee keeps in the record of a game
        it lost. Empty before any program ran."""
        return "" if self.log_path is None else log_end(self.log_path, size)

    def started(self, game: Game, player: int | None, seed: Any) -> None:
        """The program runs: greet it (off the clock)."""

    @contextlib.contextmanager
    def starting(self) -> Iterator[None]:
        """Around the greeting: a program too slow to answer is told which option helps."""
        try:
            yield
        except AgentFailure as failure:
            if failure.reason != "time":
                raise
            hint = (
                f"; it had startup={self.config['startup']:g} s: a program that needs longer "
                f"to start can be given it with {self.prefix}:startup=SECONDS:COMMAND"
                if self.title is None
                else f"; it had {self.config['startup']:g} s to import its file and start"
            )
            raise AgentFailure("time", failure.detail + hint) from None

    def ready_words(self, missing: Callable[[str], Exception | None] | None = None) -> list[str]:
        """The words after ``ready`` in the program's greeting, read within ``startup``.
        A greeting ``error TEXT`` is the program failing to start: ``missing`` may turn
        TEXT into the error that stops the match (a package its Python lacks), else the
        game is lost as a crash; any other greeting is lost as illegal."""
        assert self.process is not None
        with self.starting():
            line = self.process.read_line(self.config["startup"], "'ready'")
        word, _, rest = line.partition(" ")
        if word == "error":
            stop = missing(rest) if missing is not None else None
            if stop is not None:
                self.close()
                raise stop
            raise self._failure("crash", f"{rest}; log {self.process.log_path}")
        if word != "ready":
            raise self._failure("illegal", f"said {line[:60]!r} at the start, not 'ready ...'")
        return rest.split()

    def observe(self, state: State, move: int) -> None:
        # Programs are told the game as moves from the initial position: keep them
        # while they follow one line.
        if self.line is not None and state == self.line:
            self.moves.append(move)
            self.line = state.play(move)
        else:
            self.line = None

    def followed(self, state: State) -> None:
        """Raise unless ``state`` was reached through the moves observed since the reset."""
        if self.line != state:
            raise AgentFailure(
                "crash",
                f"{self.label}: the position was not reached through observed moves, "
                "so the program cannot be told it",
            )

    def running(self, game: Game) -> AgentProcess:
        """The program for ``game``, started if the caller never reset the agent."""
        if self.process is None or self.game != game:
            self.reset(game)
        assert self.process is not None
        return self.process

    def move_timeout(self, limit: Limit) -> float:
        """Seconds until the move is lost on time: the hard bound plus the grace."""
        bound = limit.clock if limit.clock is not None else limit.time
        return (self.config["timeout"] if bound is None else bound) + self.grace

    def close(self) -> None:
        """End the program and everything it started."""
        if self.process is not None:
            self.process.close(self.goodbye)
            self.process = None

    goodbye: ClassVar[str | None] = "quit"

    def __del__(self) -> None:
        # A forgotten agent must not leave a program running.
        with contextlib.suppress(Exception):  # nothing to report to at interpreter exit
            self.close()

    def _failure(self, reason: str, detail: str) -> AgentFailure:
        if self.process is not None:
            self.process.kill()
        return AgentFailure(reason, f"{self.label}: {detail}")


def find_program(argv: list[str]) -> list[str]:
    """``argv`` with its program resolved on PATH (then in /usr/games), or a SpecError."""
    found = shutil.which(argv[0]) or shutil.which(argv[0], path=GAMES_DIR)
    if found is None:
        raise SpecError(f"program {argv[0]!r} not found (not on PATH, nor in {GAMES_DIR})")
    if os.sep in argv[0]:
        return argv  # a path the user chose stays as written (relative to the cwd)
    return [found, *argv[1:]]
