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
>>> server.handle("play black D3")  # either colour may move at any time (White passed)
'=\\n\\n'
>>> server.handle("set_free_handicap C2 D2")
'? board not empty\\n\\n'
>>> server.handle("boardsize 30")
'? unacceptable size\\n\\n'
>>> server.handle("final_score")
'= B+17.5\\n\\n'
>>> server.handle("frobnicate")
'? unknown command\\n\\n'
>>> server.handle("quit"), server.finished
('=\\n\\n', True)

Tests: tests/remote/gtp/test_server.py, tests/remote/gtp/test_engines.py,
tests/remote/gtp/test_gui_commands.py, tests/remote/gtp/test_spec_commands.py,
tests/remote/gtp/sabaki/test_sabaki.py
"""

from __future__ import annotations

import contextlib
import math
import os
import sys
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from arena.core.agent import Agent, Resign, start_game
from arena.core.errors import ArenaError, IllegalMove
from arena.core.game import Game, State
from arena.core.limit import Limit
from arena.core.version import VERSION
from arena.games import load_game
from arena.games.go.rules import Go, handicap_points
from arena.games.go.status import STATUSES, final_status
from arena.remote.gtp.analysis import KINDS, Analysis, gogui_gfx, info_line, parse_request
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
_SGF_LIMIT = 1 << 20
"""loadsgf reads files up to this many bytes (a game record is a few kilobytes)."""
_ANALYSES = (
    "gfx/Best moves/arena-best_moves",
    "var/Principal variation/arena-pv",
    "string/Evaluation/arena-evaluation",
    "plist/Dead stones/final_status_list dead",
    "plist/Seki stones/final_status_list seki",
)
"""What ``gogui-analyze_commands`` offers: GoGui's ``type/label/command`` lines."""
_NO_ARGUMENTS = frozenset(
    ("protocol_version", "name", "version", "list_commands", "clear_board", "undo", "showboard")
) | frozenset(("final_score", "quit", "gogui-analyze_commands"))
_NO_ARGUMENTS |= {"arena-best_moves", "arena-pv", "arena-evaluation"}
"""Commands that take no arguments: an argument is a syntax error, never silently ignored."""


SgfReader = Callable[[str], tuple[str, list[str]]]
"""Reads the one game of an SGF text: its game spec and moves in arena's notation."""


class _Failure(Exception):
    """A command failed: its text is the reply after ``?``."""


_OPEN = "<an analysis reply, left open>"
"""What an analysis command returns (by identity) instead of its reply's text."""
_WRITTEN = "<a reply already written>"
"""What a command that wrote its whole reply through ``write`` returns (by identity)."""


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
    agent's failures say (stderr by default), never stdout. ``sgf_dirs`` are
    the folders ``loadsgf`` may read, with ``read_sgf`` to parse what it reads
    (the SGF reader lives in a layer above). ``write`` takes the text of an
    analysis reply while it streams (``serve`` gives it; without it the
    analysis commands are refused).
    """

    def __init__(
        self,
        game: Game,
        agent: Agent,
        name: str = "arena",
        move_time: float | None = None,
        log: IO[str] | None = None,
        sgf_dirs: Sequence[str | os.PathLike[str]] = (),
        write: Callable[[str], None] | None = None,
        read_sgf: SgfReader | None = None,
    ) -> None:
        self.game = game
        self.agent = agent
        self.name = name
        self.default_limit = Limit() if move_time is None else Limit(time=move_time)
        self.log = log
        self.sgf_dirs = tuple(Path(d).resolve() for d in sgf_dirs)
        """The folders ``loadsgf`` may read from (none: loadsgf is off)."""
        self.read_sgf = read_sgf
        """SGF text to a game spec and its moves (``formats.sgf.from_sgf``, a layer above)."""
        self.write = write
        """Where analysis lines go while the reply is open (None: no analysis commands)."""
        self.analysis: Analysis | None = None
        self._command_id: int | None = None
        self.clock = GTPClock()
        self.handicap: tuple[int, ...] | None = None
        """Stones a handicap command placed on the empty board (None: the game's own start)."""
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
            "final_status_list": self._final_status_list,
            "fixed_handicap": self._fixed_handicap,
            "place_free_handicap": self._place_free_handicap,
            "set_free_handicap": self._set_free_handicap,
            "loadsgf": self._loadsgf,
            "reg_genmove": self._reg_genmove,
            "kgs-genmove_cleanup": self._genmove,
            "lz-analyze": self._lz_analyze,
            "kata-analyze": self._kata_analyze,
            "lz-genmove_analyze": self._lz_genmove_analyze,
            "kata-genmove_analyze": self._kata_genmove_analyze,
            "gogui-analyze_commands": self._analyze_commands,
            "arena-best_moves": self._best_moves,
            "arena-pv": self._principal_variation,
            "arena-evaluation": self._evaluation,
            "quit": self._quit,
        }
        start_game(self.agent, self.game)

    # --- the loop -------------------------------------------------------------

    def handle(self, line: str) -> str | None:
        """The reply to one input line (None for a line GTP says to ignore).

        Any line, an empty one too, first ends a running analysis, whose reply
        then gets its closing empty line through ``write``."""
        self.interrupt()
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
        if command.args and command.name in _NO_ARGUMENTS:
            return format_reply(
                command.id, False, f"syntax error: {command.name} takes no arguments"
            )
        try:
            self._command_id = command.id
            text = action(command.args)
            if text is _OPEN:
                return self._open(command.id)
            if text is _WRITTEN:
                return ""
            return format_reply(command.id, True, text)
        except _Failure as failure:
            return format_reply(command.id, False, str(failure))
        except ArenaError as err:
            return format_reply(command.id, False, str(err))
        except Exception as exc:  # an agent's bug must not take the engine down
            self._say(traceback.format_exc())
            return format_reply(command.id, False, f"internal error: {exc}")

    def _open(self, id: int | None) -> str:
        """The head of an analysis reply (``=id``, a line of its own); the lines and the
        closing empty line follow through ``write``."""
        assert self.analysis is not None and self.write is not None
        self.write(("=" if id is None else f"={id}") + "\n")
        self.analysis.start()
        return ""

    def interrupt(self) -> None:
        """Stop a running ``lz-analyze``/``kata-analyze`` and close its reply."""
        analysis, self.analysis = self.analysis, None
        if analysis is not None:
            analysis.stop()
            if self.write is not None:
                self.write("\n")

    def _say(self, text: str) -> None:
        print(text.rstrip("\n"), file=self.log or sys.stderr, flush=True)

    # --- positions --------------------------------------------------------------

    def _start(self, game: Game) -> State:
        """The position a game starts from: the handicap a command set, else the game's own."""
        if self.handicap is not None and isinstance(game, Go):
            return game.handicap_state(self.handicap)
        return game.initial_state()

    def _new_game(self, game: Game, moves: list[_Played] | None = None) -> None:
        """Start ``game`` (the agent too) and replay ``moves`` on it; the agent follows."""
        state = self._start(game)
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
        """The pass that brings ``player`` to move when the other colour is to move: GTP
        lets a controller play (or ask for) either colour at any time, and GUIs set up
        positions with moves of one colour in a row. It is the mover's pass in games
        that have one (Go; Othello when the mover has no other move), marked as
        inserted so ``undo`` takes it back with the move after it; in games without
        a pass, a failure (``failure`` and whose turn it is)."""
        state, passes = self.state, []
        if state.to_move != player and not state.is_terminal():
            legal = state.legal_moves()
            inserted = [m for m in legal if self.game.format_move(m) == "pass"]
            if not inserted:
                raise _Failure(f"{failure}it is {colour_name(state.to_move)}'s turn")
            passes.append(_Played(state, inserted[0], forced=True))
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
        self.handicap = None
        self._new_game(game)
        return ""

    def _clear_board(self, args: tuple[str, ...]) -> str:
        self.handicap = None
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
        """``genmove COLOR`` (also ``kgs-genmove_cleanup``: arena's agents count every stone
        on the board, Tromp-Taylor, so they capture dead stones before passing anyway)."""
        (colour,) = _arguments(args, 1, "genmove COLOR")
        return self._generate(_colour(colour), play=True)

    def _reg_genmove(self, args: tuple[str, ...]) -> str:
        (colour,) = _arguments(args, 1, "reg_genmove COLOR")
        return self._generate(_colour(colour), play=False)

    def _generate(
        self,
        player: int,
        play: bool,
        watch: Callable[[State], Callable[[Any], bool]] | None = None,
        interval: float = 1.0,
    ) -> str:
        """The agent's move for ``player``; played (and the passes before it) when ``play``.
        ``watch(state)`` gives a listener for the search's reports every ``interval`` s."""
        if self.state.is_terminal():
            if self.game.name == "go":
                return "pass"
            raise _Failure("game is over")
        passes = self._forced_passes(player, "")
        state = passes[-1].state.play(passes[-1].move) if passes else self.state
        if play:
            self._commit(passes)
        limit = self.clock.limit(player, len(state.legal_moves()) // 2) or self.default_limit
        agent = self.agent
        saved = None
        if watch is not None:  # users' py: classes may lack both: getattr
            saved = getattr(agent, "listener", None), getattr(agent, "progress_every", 0.1)
            agent.listener, agent.progress_every = watch(state), interval
        started = time.perf_counter()
        try:
            move = agent.choose(state, limit)
        except Resign:
            return "resign"
        finally:
            if saved is not None:
                agent.listener, agent.progress_every = saved
            if play:
                self.clock.spend(player, time.perf_counter() - started)
        try:
            state.play(move)
        except (IllegalMove, ValueError, TypeError) as err:
            raise _Failure(f"the agent chose an illegal move {move!r}: {err}") from None
        if play:
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

    def _final_status_list(self, args: tuple[str, ...]) -> str:
        (status,) = _arguments(args, 1, "final_status_list alive|dead|seki")
        if status.lower() not in STATUSES:
            raise _Failure(f"syntax error: {status!r} is not one of alive|dead|seki")
        if not isinstance(self.game, Go):
            raise _Failure(f"final_status_list is for Go, not {self.game.name}")
        stones = final_status(self.state, status.lower())  # type: ignore[arg-type]
        return "\n".join(to_vertex(self.game, p) for p in stones)

    # --- handicap ---------------------------------------------------------------

    def _handicap_board(self) -> Go:
        """The Go game a handicap command may place stones in: only before any move."""
        if not isinstance(self.game, Go):
            raise _Failure(f"handicap stones are for Go, not {self.game.name}")
        if self.line or self.handicap is not None:
            raise _Failure("board not empty")
        return self.game

    def _place_handicap(self, game: Go, points: tuple[int, ...]) -> str:
        self.handicap = points
        self._new_game(game)
        return " ".join(to_vertex(game, p) for p in points)

    def _fixed_handicap(self, args: tuple[str, ...]) -> str:
        usage = "fixed_handicap NUMBER_OF_STONES"
        (text,) = _arguments(args, 1, usage)
        stones = _number(text, int, usage)
        game = self._handicap_board()
        try:
            points = handicap_points(game.size, stones)
        except ValueError as err:
            raise _Failure(f"invalid number of stones: {err}") from None
        return self._place_handicap(game, points)

    def _place_free_handicap(self, args: tuple[str, ...]) -> str:
        """The engine's choice of free handicap: the fixed points (as GNU Go does for
        the numbers they cover)."""
        return self._fixed_handicap(args)

    def _set_free_handicap(self, args: tuple[str, ...]) -> str:
        if len(args) < 2:
            raise _Failure("syntax error: expected set_free_handicap VERTEX VERTEX ...")
        game = self._handicap_board()
        points = []
        for vertex in args:
            try:
                point = from_vertex(game, vertex)
            except GTPError as err:
                raise _Failure(f"syntax error: {err}") from None
            if point == game.pass_move or point in points:
                raise _Failure(f"bad vertex list: {vertex} is a pass or named twice")
            points.append(point)
        if len(points) >= game.points:
            raise _Failure("bad vertex list: a handicap leaves at least one point empty")
        self._place_handicap(game, tuple(points))
        return ""

    # --- loadsgf ----------------------------------------------------------------

    def _loadsgf(self, args: tuple[str, ...]) -> str:
        """``loadsgf FILE [MOVE_NUMBER]``: the game of FILE up to the position before
        MOVE_NUMBER (all of it by default), only from a folder the server was given."""
        if not 1 <= len(args) <= 2:
            raise _Failure("syntax error: expected loadsgf FILENAME [MOVE_NUMBER]")
        if not self.sgf_dirs or self.read_sgf is None:
            raise _Failure("cannot load file: loadsgf is off (start arena gtp with --sgf-dir DIR)")
        stop = None
        if len(args) == 2:
            stop = _number(args[1], int, "loadsgf FILENAME [MOVE_NUMBER]")
            if stop < 1:
                raise _Failure("syntax error: MOVE_NUMBER counts from 1")
        path = self._allowed_file(args[0])
        try:
            with path.open("rb") as handle:
                data = handle.read(_SGF_LIMIT + 1)
            if len(data) > _SGF_LIMIT:
                raise ArenaError(f"larger than {_SGF_LIMIT // 1024} KB")
            spec, texts = self.read_sgf(data.decode("utf-8", errors="replace"))
            game = load_game(spec)
            if game.name != self.game.name:
                raise ArenaError(f"it holds {game.name}, and this engine plays {self.game.name}")
            moves = [game.parse_move(t) for t in texts][: None if stop is None else stop - 1]
            state, line = game.initial_state(), []
            for move in moves:
                line.append(_Played(state, move, forced=False))
                state = state.play(move)
        except (OSError, ArenaError) as err:
            raise _Failure(f"cannot load file: {args[0]}: {err}") from None
        self.handicap = None
        self._new_game(game, line)
        return colour_name(self.state.to_move)

    def _allowed_file(self, name: str) -> Path:
        """The file ``name`` names inside an allowed folder (relative names are looked up in
        each folder in turn); links that lead out of them are refused."""
        candidates = [Path(name)] if Path(name).is_absolute() else [d / name for d in self.sgf_dirs]
        for candidate in candidates:
            try:
                real = candidate.resolve(strict=True)
            except (OSError, RuntimeError):
                continue
            if real.is_file() and any(real.is_relative_to(d) for d in self.sgf_dirs):
                return real
        raise _Failure(f"cannot load file: {name}: no such file in the folders loadsgf may read")

    # --- analysis ---------------------------------------------------------------

    def _lz_analyze(self, args: tuple[str, ...]) -> str:
        return self._analyze("lz", args)

    def _kata_analyze(self, args: tuple[str, ...]) -> str:
        return self._analyze("kata", args)

    def _analyze(self, kind: str, args: tuple[str, ...]) -> str:
        """Start streaming analysis lines; the reply stays open until the next line."""
        assert kind in KINDS
        request = self._stream_request(args)
        if self.state.is_terminal():
            return ""  # nothing to search: an empty analysis, closed at once
        state = self.state
        if request.player is not None and request.player != state.to_move:
            passes = self._forced_passes(request.player, "")
            state = passes[-1].state.play(passes[-1].move) if passes else state
        self.analysis = Analysis(kind, self.agent, state, request, self.write)
        return _OPEN

    def _stream_request(self, args: tuple[str, ...]) -> Any:
        """The arguments of an analysis command, which needs a stream to print lines to."""
        if self.write is None:
            raise _Failure("analysis needs a stream: run arena gtp")
        try:
            return parse_request(args)
        except GTPError as err:
            raise _Failure(f"syntax error: {err}") from None

    def _lz_genmove_analyze(self, args: tuple[str, ...]) -> str:
        return self._genmove_analyze("lz", args)

    def _kata_genmove_analyze(self, args: tuple[str, ...]) -> str:
        return self._genmove_analyze("kata", args)

    def _genmove_analyze(self, kind: str, args: tuple[str, ...]) -> str:
        """``genmove`` that prints analysis lines while it searches, then ``play VERTEX``
        (Sabaki uses it to show the engine's thinking while it plays)."""
        request = self._stream_request(args)
        player = self.state.to_move if request.player is None else request.player
        if not self.state.is_terminal():
            self._forced_passes(player, "")  # fails here, before the reply starts
        write = self.write
        write(("=" if self._command_id is None else f"={self._command_id}") + "\n")

        def watch(state: State) -> Callable[[Any], bool]:
            def listen(info: Any) -> bool:
                line = info_line(kind, info, state, request.max_moves, False, request.min_moves)
                if line:
                    write(line + "\n")
                return False

            return listen

        try:
            vertex = self._generate(player, play=True, watch=watch, interval=request.interval)
        except (_Failure, ArenaError) as err:
            self._say(f"{kind}-genmove_analyze: {err}")
            vertex = "resign"
        write(f"play {vertex}\n\n")
        return _WRITTEN

    def _analyze_commands(self, args: tuple[str, ...]) -> str:
        return "\n".join(_ANALYSES)

    def _search_once(self) -> Any:
        if self.state.is_terminal():
            raise _Failure("game is over")
        self.agent.choose(self.state, self.default_limit)
        info = getattr(self.agent, "last_search", None)
        if info is None or not info.root:
            raise _Failure("the agent reports no search")
        return info

    def _best_moves(self, args: tuple[str, ...]) -> str:
        return gogui_gfx(self._search_once(), self.state)

    def _principal_variation(self, args: tuple[str, ...]) -> str:
        info = self._search_once()
        pv = info.root[0].get("pv") or [info.root[0]["move"]]
        return " ".join(to_vertex(self.game, self.game.parse_move(m)) for m in pv)

    def _evaluation(self, args: tuple[str, ...]) -> str:
        info = self._search_once()
        best = info.root[0]
        mover = colour_name(self.state.to_move)
        if best.get("win_rate") is not None:
            return f"{mover} to move: {best['move']}, win rate {best['win_rate']:.1%}"
        return f"{mover} to move: {best['move']}, value {best.get('text', best.get('value'))}"

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
    sgf_dirs: Sequence[str | os.PathLike[str]] = (),
    read_sgf: SgfReader | None = None,
) -> int:
    """Answer GTP commands from ``stdin`` on ``stdout`` until ``quit`` or end of input.

    Only replies reach ``stdout``, flushed one by one (the controller waits on a
    pipe); an analysis writes its lines from its own thread, under a lock.
    """
    lock = threading.Lock()

    def write(text: str) -> None:
        with lock:
            stdout.write(text)
            stdout.flush()

    server = GTPServer(
        game, agent, move_time=move_time, sgf_dirs=sgf_dirs, write=write, read_sgf=read_sgf
    )
    # Whatever an agent prints would corrupt the replies: it goes to stderr.
    with contextlib.redirect_stdout(sys.stderr):
        try:
            for line in stdin:
                reply = server.handle(line)
                if reply:
                    write(reply)
                if server.finished:
                    break
        finally:
            server.interrupt()
    return 0
