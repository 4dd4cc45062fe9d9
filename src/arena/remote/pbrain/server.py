"""``arena pbrain [GAME] AGENT``: an arena agent as a Gomocup brain.

The server answers a Gomocup manager's commands one line at a time;
:meth:`PbrainServer.handle` never raises, so a manager's mistake costs one
``ERROR`` line, never the brain. ``START n`` (or ``RECTSTART n,n``) starts a
game on an n x n board, ``INFO rule`` sets freestyle (0) or exactly five (1),
``BEGIN``, ``TURN x,y`` and ``BOARD`` ... ``DONE`` ask for a move, ``TAKEBACK``
and ``RESTART`` go back, ``ABOUT`` names the brain, ``END`` ends it.

The move's time follows the manager's ``INFO timeout_turn`` (the most a move
may take) and ``time_left`` (the match's clock, shared over the moves with
arena's time management, :func:`arena.search.clock.time_management.move_time`), each less a
reserve for the answer's way back; with neither, it is ``move_time`` or the
agent's own budget.

>>> import arena
>>> server = PbrainServer(arena.load_game("gomoku"), arena.load_agent("greedy"))
>>> server.handle("START 15")
['OK']
>>> server.handle("TURN 7,7")  # doctest: +ELLIPSIS
['...,...']
>>> server.handle("TURN 7,7")
['ERROR 7,7 is taken']
>>> server.handle("START 99")
['ERROR unsupported size 99: arena plays boards of 5 to 25']
>>> server.handle("FROBNICATE")
['UNKNOWN FROBNICATE']
>>> server.handle("END"), server.finished
([], True)

Tests: tests/remote/pbrain/test_pbrain_server.py, tests/remote/pbrain/test_pbrain_client.py
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from typing import IO, Any

from arena.core.agent import Agent, Resign, start_game
from arena.core.errors import ArenaError, IllegalMove
from arena.core.game import Game, State
from arena.core.limit import Limit
from arena.core.version import VERSION
from arena.remote.pbrain.protocol import (
    PbrainError,
    check_game,
    from_xy,
    overline_of_rule,
    parse_xy,
    state_of_board,
    to_xy,
)
from arena.search.clock.time_management import move_time, reserve

__all__ = ["PbrainServer", "serve"]

UNLIMITED_MS = 2147483647
"""``time_left`` that means no match clock."""
FASTEST = 0.05
"""Seconds for a move under ``timeout_turn 0`` ("as fast as possible")."""
BOARD_LINES = 1000
"""Lines a BOARD may have before its DONE (a 25x25 board has 625 points)."""


class PbrainServer:
    """One brain: the game's rules and size, the moves so far and the manager's times.

    ``base`` is the Gomoku game whose options (``overline``) hold until the
    manager's ``START`` and ``INFO rule`` say otherwise; ``move_time`` the
    seconds a move when the manager sets no time (None: the agent's budget).
    ``log`` gets what the agent's failures say (stderr by default), never the
    protocol's output.
    """

    def __init__(
        self,
        base: Game,
        agent: Agent,
        name: str = "arena",
        move_time: float | None = None,
        log: IO[str] | None = None,
    ) -> None:
        check_game(base)
        self.base = base
        self.agent = agent
        self.name = name
        self.default_limit = Limit() if move_time is None else Limit(time=move_time)
        self.log = log
        self.overline: str = base.config["overline"]
        self.game: Game | None = None
        """The game on the board (None before ``START``)."""
        self.moves: list[int] = []
        self.state: State | None = None
        self.board: list[str] | None = None
        """The lines of a ``BOARD`` command until its ``DONE`` (None: not in one)."""
        self.times: dict[str, int] = {}
        """The manager's ``INFO`` times in milliseconds (``timeout_turn``...)."""
        self.finished = False
        self._commands: dict[str, Callable[[str], list[str]]] = {
            "START": self._start,
            "RECTSTART": self._rectstart,
            "RESTART": self._restart,
            "INFO": self._info,
            "BEGIN": self._begin,
            "TURN": self._turn,
            "PLAY": self._play,
            "BOARD": self._board,
            "TAKEBACK": self._takeback,
            "ABOUT": self._about,
            "END": self._end,
        }

    # --- the loop -------------------------------------------------------------

    def handle(self, line: str) -> list[str]:
        """The lines to answer one input line with (often none)."""
        text = line.strip()
        if self.board is not None:
            if text.upper() != "DONE":
                if text:
                    self.board.append(text)
                if len(self.board) <= BOARD_LINES:
                    return []
                self.board = None
                return [f"ERROR BOARD: more than {BOARD_LINES} lines without DONE"]
            lines, self.board = self.board, None
            return self._answer(lambda: self._board_done(lines))
        if not text:
            return []
        word, _, rest = text.partition(" ")
        command = self._commands.get(word.upper())
        if command is None:
            return [f"UNKNOWN {word[:40]}"]
        return self._answer(lambda: command(rest.strip()))

    def _answer(self, run: Callable[[], list[str]]) -> list[str]:
        try:
            return run()
        except ArenaError as exc:  # the manager's mistake, or the agent's failure in one line
            return [f"ERROR {_one_line(exc)}"]
        except Exception as exc:  # an agent's bug must cost the move, not the brain
            self._say(f"arena pbrain: the agent failed: {type(exc).__name__}: {exc}")
            return [f"ERROR the agent failed: {type(exc).__name__}: {_one_line(exc)}"]

    def _say(self, text: str) -> None:
        print(text, file=self.log or sys.stderr, flush=True)

    # --- commands -------------------------------------------------------------

    def _start(self, args: str) -> list[str]:
        if not args.isdigit():
            raise PbrainError(f"START {args}: expected START SIZE, e.g. START 15")
        self._new_game(int(args))
        return ["OK"]

    def _rectstart(self, args: str) -> list[str]:
        width, height = parse_xy(args, 100)
        if width != height:
            raise PbrainError(f"RECTSTART {args}: arena plays square boards only")
        self._new_game(width)
        return ["OK"]

    def _new_game(self, size: int) -> None:
        low, high = _size_range(self.base)
        if not low <= size <= high:
            raise PbrainError(f"unsupported size {size}: arena plays boards of {low} to {high}")
        self.game = self._rules(size)
        self._clear()

    def _rules(self, size: int) -> Game:
        params = {**self.base.config, "size": size, "overline": self.overline}
        return type(self.base)(**params)

    def _clear(self) -> None:
        assert self.game is not None
        self.moves = []
        self.state = self.game.initial_state()
        start_game(self.agent, self.game)

    def _restart(self, args: str) -> list[str]:
        self._started()
        self._clear()
        return ["OK"]

    def _started(self) -> Game:
        if self.game is None:
            raise PbrainError("no game: START SIZE first")
        return self.game

    def _info(self, args: str) -> list[str]:
        key, _, value = args.partition(" ")
        key, value = key.lower(), value.strip()
        if key in ("timeout_turn", "timeout_match", "time_left", "max_memory", "game_type"):
            try:
                number = int(value)
            except ValueError:
                raise PbrainError(f"INFO {key} {value}: expected a whole number") from None
            self.times[key] = number
        elif key == "rule":
            if not value.lstrip("-").isdigit():
                raise PbrainError(f"INFO rule {value}: expected a number, 0 or 1")
            overline = overline_of_rule(int(value))
            if overline != self.overline:
                self.overline = overline
                if self.game is not None:  # the rule of the game on the board changes
                    self.game = self._rules(self.game.config["size"])
                    self._replay(self.moves)
        # Other keys (folder, evaluate, thread_num...) are for other brains: ignored.
        return []

    def _begin(self, args: str) -> list[str]:
        self._started()
        if self.moves:
            raise PbrainError("BEGIN on a board with stones: RESTART or START first")
        return [self._move()]

    def _turn(self, args: str) -> list[str]:
        game = self._started()
        self._play_move(from_xy(game, args))
        return [self._move()]

    def _play(self, args: str) -> list[str]:
        """``PLAY x,y``: the manager plays the brain's move for it; the answer repeats it."""
        game = self._started()
        move = from_xy(game, args)
        self._play_move(move)
        return [to_xy(game, move)]

    def _play_move(self, move: int) -> None:
        assert self.state is not None and self.game is not None
        if self.state.is_terminal():
            raise PbrainError("the game is over")
        if self.state.stone(move) is not None:  # type: ignore[attr-defined]
            raise PbrainError(f"{to_xy(self.game, move)} is taken")
        self._observe(self.state, move)
        self.state = self.state.play(move)
        self.moves.append(move)

    def _board(self, args: str) -> list[str]:
        # The position's lines are taken in even before a START, so that the error comes
        # once, at DONE, rather than once for every line.
        self.board = []
        return []

    def _board_done(self, lines: list[str]) -> list[str]:
        game = self._started()
        _, moves = state_of_board(game, lines)
        self._clear()
        self._replay(moves)
        return [self._move()]

    def _replay(self, moves: list[int]) -> None:
        self._clear()
        for move in moves:
            self._play_move(move)

    def _takeback(self, args: str) -> list[str]:
        game = self._started()
        move = from_xy(game, args)
        if not self.moves or self.moves[-1] != move:
            raise PbrainError(f"TAKEBACK {args}: not the last move played")
        self._replay(self.moves[:-1])
        return ["OK"]

    def _about(self, args: str) -> list[str]:
        agent = getattr(self.agent, "spec", None) or getattr(self.agent, "name", "agent")
        return [f'name="{self.name} {agent}", version="{VERSION}", author="arena", country="-"']

    def _end(self, args: str) -> list[str]:
        self.finished = True
        return []

    # --- moving ---------------------------------------------------------------

    def _move(self) -> str:
        """The agent's move in the current position, played; its ``x,y``."""
        assert self.state is not None and self.game is not None
        state = self.state
        if state.is_terminal():
            raise PbrainError("the game is over")
        try:
            move = self.agent.choose(state, self.limit(state))
        except Resign:
            raise PbrainError("the agent resigned") from None
        try:
            state.play(move)
        except (IllegalMove, ValueError, TypeError) as err:
            raise PbrainError(f"the agent chose an illegal move {move!r}: {err}") from None
        self._play_move(move)
        return to_xy(self.game, move)

    def _observe(self, state: State, move: int) -> None:
        observe = getattr(self.agent, "observe", None)  # users' classes may lack it
        if observe is not None:
            observe(state, move)

    def limit(self, state: State) -> Limit:
        """The move's limit from the manager's times (see the module)."""
        turn = self.times.get("timeout_turn")
        match = self.times.get("timeout_match")
        left = self.times.get("time_left")
        budgets: list[float] = []
        if turn is not None:
            seconds = turn / 1000 if turn > 0 else FASTEST
            # A reserve for the answer's way back, but never more than half the turn.
            budgets.append(seconds - min(reserve(seconds), seconds / 2))
        if left is not None and left < UNLIMITED_MS and match != 0:
            clock = max(left, 1) / 1000
            share = move_time(Limit(clock=clock), state)
            if share is not None:
                budgets.append(share)
        if not budgets:
            return self.default_limit
        return Limit(time=max(0.001, round(min(budgets), 6)))


def _size_range(game: Game) -> tuple[int, int]:
    for param in type(game).params:
        if param.name == "size":
            return int(param.low), int(param.high)  # type: ignore[arg-type]
    return 5, 25


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:300]


def serve(game: Game, agent: Agent, stdin: IO[str], stdout: IO[str], **options: Any) -> int:
    """Answer a Gomocup manager on ``stdin``/``stdout`` until ``END`` or end of input."""
    server = PbrainServer(game, agent, **options)
    # Whatever an agent prints would corrupt the answers: it goes to stderr.
    with contextlib.redirect_stdout(sys.stderr):
        for line in stdin:
            for answer in server.handle(line):
                stdout.write(answer + "\n")
            stdout.flush()
            if server.finished:
                break
    return 0
