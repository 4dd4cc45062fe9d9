"""``othello-ai:[OPTIONS:]PATH/agent.py``: an Othello assignment program, unmodified.

The Othello assignment hands students a game manager that runs their
``agent.py`` as a program and talks to it over stdin/stdout. This adapter is
that manager's side of the conversation (``docs/course-agents.md``):

1. the program prints one line, its name (:attr:`OthelloAIAgent.program_name`,
   shown in records and standings);
2. it is sent ``color,limit,minimax,caching,ordering`` (colour 1 is dark and
   moves first, 2 light; ``limit`` -1 means no depth limit) -- or the colour
   alone with ``header=color``, as an older version of the assignment does;
3. before each of its moves: ``SCORE <dark> <light>``, then the board as a
   Python literal, a tuple of row tuples (0 empty, 1 dark, 2 light); it
   answers ``<column> <row>``, both 0-based;
4. when the game is over: ``FINAL <dark> <light>``; its input then ends and
   the process is killed shortly after.

The program starts with its folder as the working directory and first on its
import path (``from othello_shared import ...`` works), under ``python -u`` so
that an unflushed ``print`` still arrives. The assignment's game ends when the
player to move has no placement (``othello:rule=nomove-ends``); under
``rule=standard`` a forced pass is played here without asking the program.
Everything else -- startup off the clock, the hard deadline, memory and CPU
limits, forfeits -- is :class:`~arena.remote.external.ExternalAgent`'s.
``docs/course-agents.md`` has the protocol and what each error means.

Tests: tests/remote/course/test_othello_ai.py

>>> import pathlib, tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp()) / "a1"
>>> folder.mkdir(); _ = (folder / "agent.py").write_text("print('Mine')")
>>> from arena.agents import load_agent
>>> agent = load_agent(f"othello-ai:limit=5,caching=1:{folder}/agent.py")
>>> agent.header(player=0), agent.label, agent.argv[1]
('1,5,0,1,0', 'othello-ai:a1/agent.py', '-u')
>>> load_agent(f"othello-ai:header=color:{folder}/agent.py").header(player=1)
'2'
>>> load_agent(f"othello-ai:minimax=2:{folder}/agent.py")
Traceback (most recent call last):
...
arena.core.errors.SpecError: othello-ai: minimax=2 is out of range (0..1)
"""

from __future__ import annotations

import re
from typing import Any

from arena.core.game import Game, State
from arena.core.limit import Limit
from arena.core.spec import Param
from arena.remote.course import PYTHON, interpreter, program_file, short_path
from arena.remote.external import OPTIONS, ExternalAgent

COURSE_OPTIONS = (
    Param("limit", int, -1, "depth limit sent to the program (-1: none)", low=-1, high=1000),
    Param("minimax", int, 0, "1: ask for plain minimax, 0: alpha-beta", low=0, high=1),
    Param("caching", int, 0, "1: ask the program to cache states", low=0, high=1),
    Param("ordering", int, 0, "1: ask for node ordering (alpha-beta)", low=0, high=1),
    Param(
        "header",
        str,
        "full",
        "full: send color,limit,minimax,caching,ordering; color: the colour alone",
        choices=("full", "color"),
    ),
    PYTHON,
)

DARK, LIGHT = 1, 2
"""The assignment's colours: dark moves first (arena's player 0, Black)."""


_INT = re.compile(r"-?[0-9]+")
"""An integer as a program writes it (ASCII digits only: ``int`` takes more)."""


class OthelloAIAgent(ExternalAgent):
    prefix = "othello-ai"
    name = "othello-ai"
    summary = "an Othello assignment program (agent.py talking to the course's game manager)"
    usage = "othello-ai:[OPTIONS:]PATH/agent.py"
    params = COURSE_OPTIONS + OPTIONS
    goodbye = None

    def command(self, body: str) -> list[str]:
        self.path = program_file(self.prefix, body, "agent.py")
        self.cwd = str(self.path.parent)
        self.program_name: str | None = None
        self.player: int | None = None
        self.final: str | None = None
        return [interpreter(self.config["python"]), "-u", str(self.path)]

    @property
    def label(self) -> str:
        return f"{self.prefix}:{short_path(self.path)}"

    def header(self, player: int) -> str:
        """The line that tells the program its colour (and the search options)."""
        colour = DARK if player == 0 else LIGHT
        if self.config["header"] == "color":
            return str(colour)
        options = (self.config[key] for key in ("limit", "minimax", "caching", "ordering"))
        return ",".join(map(str, (colour, *options)))

    def started(self, game: Game, player: int | None, seed: Any) -> None:
        if game.name != "othello":
            raise self._failure("crash", f"an Othello program cannot play {game.name}")
        assert self.process is not None
        self.player, self.final = None, None
        with self.starting():
            name = self.process.read_line(self.config["startup"], "name line").strip()
        self.program_name = name[:80] or None
        if player is not None:
            self.tell_colour(player)

    def tell_colour(self, player: int) -> None:
        assert self.process is not None
        self.process.send(self.header(player))
        self.player = player

    def choose(self, state: State, limit: Limit) -> int:
        game = state.game
        process = self.running(game)
        if self.player is None:
            self.tell_colour(state.to_move)
        elif self.player != state.to_move:
            raise self._failure("crash", "a program plays one colour for the whole game")
        legal = state.legal_moves()
        if legal == (game.PASS,):  # type: ignore[attr-defined]
            return legal[0]  # a forced pass (rule=standard): the assignment has none to ask
        process.send(score_line("SCORE", state))
        process.send(board_literal(state))
        answer = process.read_line(self.move_timeout(limit), "move")
        return self.parse(state, answer)

    def parse(self, state: State, answer: str) -> int:
        """The cell of a ``column row`` answer (legality is the referee's business)."""
        size: int = state.game.size  # type: ignore[attr-defined]
        words = answer.split()
        if len(words) != 2 or not all(_INT.fullmatch(w) for w in words):
            raise self._failure("illegal", f"answered {answer[:60]!r}, not 'column row'")
        col, row = int(words[0]), int(words[1])
        if not (0 <= col < size and 0 <= row < size):
            raise self._failure("illegal", f"answered {col} {row}: off the {size}x{size} board")
        return row * size + col

    def observe(self, state: State, move: int) -> None:
        super().observe(state, move)
        after = state.play(move)
        if after.is_terminal():
            self.final = score_line("FINAL", after)

    def close(self) -> None:
        """Tell the program the final score (when the game ended by the rules), end its
        input so that it can leave, then kill what is left of it."""
        process = self.process
        if process is not None and self.final is not None and process.alive():
            try:
                process.send(self.final)
                process.end_input()
                process.wait(0.5)
            except Exception:
                pass
        self.final = None
        super().close()


def score_line(word: str, state: State) -> str:
    """``SCORE <dark> <light>`` (or ``FINAL ...``): the disc counts of both colours."""
    dark, light = state.discs()  # type: ignore[attr-defined]
    return f"{word} {dark} {light}"


def board_literal(state: State) -> str:
    """The board as the course's manager prints it: a tuple of row tuples.

    >>> from arena.games import load_game
    >>> board_literal(load_game("othello:size=4").initial_state())
    '((0, 0, 0, 0), (0, 2, 1, 0), (0, 1, 2, 0), (0, 0, 0, 0))'
    """
    size: int = state.game.size  # type: ignore[attr-defined]
    colour = {None: 0, 0: DARK, 1: LIGHT}
    rows = tuple(
        tuple(colour[state.disc(r * size + c)] for c in range(size))  # type: ignore[attr-defined]
        for r in range(size)
    )
    return str(rows)
