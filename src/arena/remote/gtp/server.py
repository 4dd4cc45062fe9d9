"""``arena gtp GAME AGENT``: an arena agent as a GTP version 2 engine.

The server keeps the game's moves and answers one command line at a time;
:meth:`GTPServer.handle` never raises, so a controller's mistake costs one
``?`` reply, never the engine. Black is player 0 (who moves first) and white
player 1, in every game.

>>> import arena
>>> server = GTPServer(arena.load_game("go:size=5"), arena.load_agent("random:seed=1"))
>>> server.handle("1 play black C3")
'=1\\n\\n'
>>> server.handle("2 play white C3")
'?2 illegal move: the point is occupied\\n\\n'
>>> server.handle("play black D3")
"? illegal move: it is white's turn\\n\\n"
>>> server.handle("boardsize 30")
'? unacceptable size\\n\\n'
>>> server.handle("final_score")
'= B+17.5\\n\\n'
>>> server.handle("frobnicate")
'? unknown command\\n\\n'
>>> server.handle("quit"), server.finished
('=\\n\\n', True)

Tests: tests/remote/gtp/test_server.py, tests/remote/gtp/test_engines.py
"""

from __future__ import annotations

import contextlib
import math
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

from arena.core.agent import Agent, Resign, start_game
from arena.core.errors import ArenaError, IllegalMove
from arena.core.game import Game, State
from arena.core.limit import Limit
from arena.core.version import VERSION
from arena.remote.gtp.protocol import (
    Command,
    GTPError,
    colour_name,
    format_reply,
    from_vertex,
    parse_colour,
    parse_command,
    to_vertex,
)
from arena.remote.gtp.time_settings import GTPClock

__all__ = ["GTPServer", "serve"]

# Parameters that give a board's width, for games whose size GTP may set or only confirm.
_SIZE_PARAMS = ("size", "m", "cols")


class _Failure(Exception):
    """A command failed: its text is the reply after ``?``."""


@dataclass(frozen=True)
class _Played:
    state: State
    """The position the move was played in."""
    move: int
    forced: bool
    """A pass the server inserted for a player who had no other move."""


class GTPServer:
    """One engine: a game, an agent, the moves so far and the clocks.

    ``move_time`` is the per-move search time when the controller sets no
    time (None: the agent's own default budget). ``log`` receives what the
    agent's failures say (stderr by default), never stdout.
    """

    def __init__(
        self,
        game: Game,
        agent: Agent,
        name: str = "arena",
        move_time: float | None = None,
        log: IO[str] | None = None,
    ) -> None:
        self.game = game
        self.agent = agent
        self.name = name
        self.default_limit = Limit() if move_time is None else Limit(time=move_time)
        self.log = log
        self.clock = GTPClock()
        self.line: list[_Played] = []
        self.state: State = self.game.initial_state()
        self.finished = False
        self._commands: dict[str, Callable[[tuple[str, ...]], str]] = {
            "protocol_version": self._protocol_version,
            "name": self._name,
            "version": self._version,
            "known_command": self._known_command,
            "list_commands": self._list_commands,
            "boardsize": self._boardsize,
            "clear_board": self._clear_board,
            "komi": self._komi,
            "play": self._play,
            "genmove": self._genmove,
            "undo": self._undo,
            "showboard": self._showboard,
            "time_settings": self._time_settings,
            "time_left": self._time_left,
            "final_score": self._final_score,
            "quit": self._quit,
        }
        start_game(self.agent, self.game)

    # --- the loop -------------------------------------------------------------

    def handle(self, line: str) -> str | None:
        """The reply to one input line (None for a line GTP says to ignore)."""
        try:
            command = parse_command(line)
        except GTPError as err:
            return format_reply(err.id, False, str(err))
        if command is None:
            return None
        return self.execute(command)

    def execute(self, command: Command) -> str:
        """The reply to one parsed command; failures become ``?`` replies."""
        action = self._commands.get(command.name)
        if action is None:
            return format_reply(command.id, False, "unknown command")
        try:
            return format_reply(command.id, True, action(command.args))
        except _Failure as failure:
            return format_reply(command.id, False, str(failure))
        except ArenaError as err:
            return format_reply(command.id, False, str(err))
        except Exception as exc:  # an agent's bug must not take the engine down
            self._say(traceback.format_exc())
            return format_reply(command.id, False, f"internal error: {exc}")

    def _say(self, text: str) -> None:
        print(text.rstrip("\n"), file=self.log or sys.stderr, flush=True)

    # --- positions --------------------------------------------------------------

    def _new_game(self, game: Game, moves: list[_Played] | None = None) -> None:
        """Start ``game`` (the agent too) and replay ``moves`` on it; the agent follows."""
        state = game.initial_state()
        line = []
        for played in moves or []:
            line.append(_Played(state, played.move, played.forced))
            state = state.play(played.move)
        self.game, self.state, self.line = game, state, line
        start_game(self.agent, game)
        for played in line:
            self._observe(played)

    def _commit(self, moves: list[_Played]) -> None:
        for played in moves:
            self._observe(played)
            self.line.append(played)
            self.state = played.state.play(played.move)

    def _forced_passes(self, player: int, failure: str) -> list[_Played]:
        """The passes that bring ``player`` to move: the mover's, when a pass is its only
        move (Othello); otherwise a failure (``failure`` and whose turn it is)."""
        state, passes = self.state, []
        if state.to_move != player and not state.is_terminal():
            legal = state.legal_moves()
            if len(legal) != 1 or self.game.format_move(legal[0]) != "pass":
                raise _Failure(f"{failure}it is {colour_name(state.to_move)}'s turn")
            passes.append(_Played(state, legal[0], forced=True))
        return passes

    def _observe(self, played: _Played) -> None:
        # Users' py: classes may do without observe().
        observe = getattr(self.agent, "observe", None)
        if observe is not None:
            observe(played.state, played.move)

    def _resized(self, **changes: Any) -> Game:
        return type(self.game)(**{**self.game.config, **changes})

    # --- commands ---------------------------------------------------------------

    def _protocol_version(self, args: tuple[str, ...]) -> str:
        return "2"

    def _name(self, args: tuple[str, ...]) -> str:
        return self.name

    def _version(self, args: tuple[str, ...]) -> str:
        # Users' py: classes need not have a spec.
        return f"{VERSION} {getattr(self.agent, 'spec', type(self.agent).__name__)}"

    def _known_command(self, args: tuple[str, ...]) -> str:
        (name,) = _arguments(args, 1, "known_command COMMAND")
        return "true" if name.lower() in self._commands else "false"

    def _list_commands(self, args: tuple[str, ...]) -> str:
        return "\n".join(self._commands)

    def _boardsize(self, args: tuple[str, ...]) -> str:
        (text,) = _arguments(args, 1, "boardsize SIZE")
        size = _number(text, int, "boardsize SIZE")
        key = next((k for k in _SIZE_PARAMS if k in self.game.config), None)
        if key == "size":
            try:
                game = self._resized(size=size)
            except ArenaError:
                raise _Failure("unacceptable size") from None
        elif key is not None and size == self.game.config[key]:
            game = self.game
        else:
            raise _Failure("unacceptable size")
        self._new_game(game)
        return ""

    def _clear_board(self, args: tuple[str, ...]) -> str:
        self._new_game(self.game)
        return ""

    def _komi(self, args: tuple[str, ...]) -> str:
        (text,) = _arguments(args, 1, "komi KOMI")
        komi = _number(text, float, "komi KOMI", signed=True)
        if "komi" in self.game.config and komi != self.game.config["komi"]:
            try:
                game = self._resized(komi=komi)
            except ArenaError as err:
                raise _Failure(f"syntax error: {err}") from None
            self._new_game(game, self.line)
        return ""

    def _play(self, args: tuple[str, ...]) -> str:
        colour, vertex = _arguments(args, 2, "play COLOR VERTEX")
        player = _colour(colour)
        try:
            move = from_vertex(self.game, vertex)
        except GTPError as err:
            raise _Failure(f"syntax error: {err}") from None
        moves = self._forced_passes(player, "illegal move: ")
        before = moves[-1].state.play(moves[-1].move) if moves else self.state
        try:
            before.play(move)  # nothing is committed before the move is known to be legal
        except IllegalMove as err:
            raise _Failure(f"illegal move: {err.reason}") from None
        self._commit([*moves, _Played(before, move, forced=False)])
        return ""

    def _genmove(self, args: tuple[str, ...]) -> str:
        (colour,) = _arguments(args, 1, "genmove COLOR")
        player = _colour(colour)
        if self.state.is_terminal():
            if self.game.name == "go":
                return "pass"
            raise _Failure("game is over")
        self._commit(self._forced_passes(player, ""))
        state = self.state
        limit = self.clock.limit(player, len(state.legal_moves()) // 2) or self.default_limit
        started = time.perf_counter()
        try:
            move = self.agent.choose(state, limit)
        except Resign:
            return "resign"
        finally:
            self.clock.spend(player, time.perf_counter() - started)
        try:
            state.play(move)
        except (IllegalMove, ValueError, TypeError) as err:
            raise _Failure(f"the agent chose an illegal move {move!r}: {err}") from None
        self._commit([_Played(state, move, forced=False)])
        return to_vertex(self.game, move)

    def _undo(self, args: tuple[str, ...]) -> str:
        line = list(self.line)
        while line and line[-1].forced:  # a pass arena inserted after the last move
            line.pop()
        if not line:
            raise _Failure("cannot undo")
        line.pop()
        while line and line[-1].forced:  # the pass that made that move possible
            line.pop()
        self._new_game(self.game, line)
        return ""

    def _showboard(self, args: tuple[str, ...]) -> str:
        return f"{self.state.result_text()}\n{self.state.render()}"

    def _time_settings(self, args: tuple[str, ...]) -> str:
        usage = "time_settings MAIN BYO_YOMI_TIME BYO_YOMI_STONES"
        main, byo, stones = _arguments(args, 3, usage)
        values = _number(main, float, usage), _number(byo, float, usage)
        self.clock.settings(*values, _number(stones, int, usage))
        return ""

    def _time_left(self, args: tuple[str, ...]) -> str:
        usage = "time_left COLOR TIME STONES"
        colour, seconds, stones = _arguments(args, 3, usage)
        player = _colour(colour)
        self.clock.time_left(player, _number(seconds, float, usage), _number(stones, int, usage))
        return ""

    def _final_score(self, args: tuple[str, ...]) -> str:
        margin = self.state.score()
        if margin is None:
            won = self.state.winner()
            return "0" if won is None else "BW"[won] + "+"
        if margin == 0:
            return "0"
        return f"{'B' if margin > 0 else 'W'}+{abs(margin):g}"

    def _quit(self, args: tuple[str, ...]) -> str:
        self.finished = True
        return ""


def _arguments(args: tuple[str, ...], count: int, usage: str) -> tuple[str, ...]:
    if len(args) != count:
        raise _Failure(f"syntax error: expected {usage}")
    return args


def _number(text: str, kind: type[int] | type[float], usage: str, signed: bool = False) -> Any:
    try:
        value = kind(text)
    except ValueError:
        raise _Failure(f"syntax error: {text!r} is not a number ({usage})") from None
    if not (-math.inf if signed else 0) <= value < math.inf:
        raise _Failure(f"syntax error: {text!r} is out of range ({usage})")
    return value


def _colour(text: str) -> int:
    try:
        return parse_colour(text)
    except GTPError as err:
        raise _Failure(f"syntax error: {err}") from None


def serve(
    game: Game,
    agent: Agent,
    stdin: IO[str],
    stdout: IO[str],
    move_time: float | None = None,
) -> int:
    """Answer GTP commands from ``stdin`` on ``stdout`` until ``quit`` or end of input.

    Only replies
    reach ``stdout``, flushed one by one (the controller waits on a pipe).
    """
    server = GTPServer(game, agent, move_time=move_time)
    # Whatever an agent prints would corrupt the replies: it goes to stderr.
    with contextlib.redirect_stdout(sys.stderr):
        for line in stdin:
            reply = server.handle(line)
            if reply is None:
                continue
            stdout.write(reply)
            stdout.flush()
            if server.finished:
                break
    return 0
