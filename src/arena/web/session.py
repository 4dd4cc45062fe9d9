"""One WebSocket, one board: the browser's messages in; positions and live searches out.

A :class:`Session` knows nothing of the web framework: it takes each text
message with :meth:`Session.handle` and puts its answers (dicts, sent as
JSON) on ``outbox``, an :class:`asyncio.Queue` the app drains in order.

Messages from the browser (``type`` and fields; anything else is an error
reply, and the connection stays up):

``new`` {game, seed?, moves?, players?, time?, clock?, paused?}
    A new board. ``players`` are two agent specs or ``"person"``; ``moves`` a
    string in the game's notation or a list of moves; ``time`` seconds per
    move, or ``clock`` as ``arena match --time`` reads it (``"60+1"``, ``"move:2"``,
    ``"move:2,first:30"``: agents then budget their time as in matches; a side whose
    clock runs out loses; the referee's :class:`~arena.compete.timecontrol.Clock`
    keeps it). The clock runs while the game is live at the end of
    its line (not while paused or looking at earlier positions).
``play`` {move}
    A person's move at the position shown (a branch if it is not the end).
``goto`` {ply} / ``undo`` {} / ``line`` {index}
    Show another position / take back to the last position a person moves in
    (the moves taken back stay among the other lines) / switch to another line.
``players`` {players, time?, clock?}
    Change who plays (and the time per move or a fresh clock) in the running game.
``pause`` / ``resume`` / ``step`` / ``speed`` {delay}
    Agent-versus-agent control: stop, go on, one move, seconds between moves.
``analyze`` {agent?, time?} / ``stop``
    Analyse the position shown with an agent (without playing) until stopped
    or ``time`` (at most 60 s); the last result stays. ``stop`` also makes an
    agent that is thinking about its move play at once.
``sweep`` {agent?, time?}
    Analyse every position of the line, ``time`` seconds each (default 0.5), for
    the evaluation graph; ``stop`` ends it, and so does a change of the line.
``hint`` {agent?, time?}
    The move the analysis agent would play (for a person to move).
``export`` {format: json|sgf} / ``load`` {text}
    The game as a JSON record or SGF; open one (at most 256 KB).
``ping``
    Answered with ``pong``.

Answers: ``state`` (the board, see :meth:`Session.state_message`), ``search``
(a search's root statistics, about every 0.1 s and once ``final``), ``hint``,
``export``, ``error`` {message, request} and ``pong``.

Nothing heavy runs on the event loop, which serves every board: reading a
file or a line of moves and building its board, and agents' set-up for a game
(compiled code loads, tables are built), run on threads; the browser's JSON is
read with bounded nesting (:func:`arena.formats.jsontext.loads`).

Searches run on a thread of their own, one per board at a time
(:mod:`arena.web.searches`, with their limits per client and in all); a search
that is no longer wanted (the position changed, the tab closed) is stopped and
its answer dropped. Every built-in agent ends within a tenth of a second of the
request. The board's line of moves is :mod:`arena.web.board`, its running clocks
:mod:`arena.web.clock`, the checks of message fields :mod:`arena.web.messages`:
this module decides what the board does next, and says so.

Tests: tests/web/test_app.py, tests/web/test_hostile.py
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from arena.compete.timecontrol import TimeControl, moves_to_share
from arena.core.agent import Agent, SearchInfo, start_game
from arena.core.errors import ArenaError
from arena.core.limit import Limit
from arena.formats.jsontext import NotJSON, loads
from arena.formats.sgf import to_sgf
from arena.search.mcts.warmup import first_use
from arena.search.report import for_analysis
from arena.web.board import MAX_PLIES, Board, load_board, new_board
from arena.web.catalog import MAX_SECONDS, check_agent, check_game, check_limit
from arena.web.clock import FLAG_GRACE, BoardClock, check_clock
from arena.web.messages import (
    BadMessage,
    number,
    optional_whole_number,
    shorten,
    whole_number,
)
from arena.web.searches import (
    MAX_SEARCHES,
    PERSON,
    Answer,
    Players,
    Search,
    Searches,
    check_players,
    ready_agents,
)
from arena.web.view import board_view

__all__ = ["MAX_SEARCHES", "MAX_UPLOAD", "Searches", "Session", "load_board", "new_board"]
"""What the app and the tests use from here: the session, and the names it reads the
board's limits and builds boards with (defined in :mod:`arena.web.searches` and
:mod:`arena.web.board`)."""

log = logging.getLogger("arena.web")

MAX_MESSAGE = 300_000
"""Characters in one message from the browser (an uploaded file travels in one)."""
MAX_UPLOAD = 256 * 1024
ANALYSIS_ROWS = 8
"""Root moves an analysis (Analyze, Hint) values exactly (``ids`` multi-PV)."""
DEFAULT_ANALYSIS = "mcts"

_logged: set[tuple[str | None, str]] = set()
"""Internal errors whose traceback is in the log already (a client repeating a message
that finds a bug must not flood it)."""


class Session:
    """One board's game, players, searches and clock, driven by the browser's messages
    (:meth:`handle`), answered on :attr:`outbox`."""

    def __init__(
        self, allow_programs: bool = False, client: str = "?", searches: Searches | None = None
    ) -> None:
        self.allow_programs = allow_programs
        self.client = client
        self.running = Searches() if searches is None else searches
        """The server's count of running searches (this session's alone without one)."""
        self.outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.board: Board | None = None
        self.players = Players()
        self.limit = Limit(time=1.0)
        self.paused = False
        self.stepping = False
        self.delay = 0.5
        self.analysis_spec = DEFAULT_ANALYSIS
        self.analysis_time = MAX_SECONDS
        self.analyzing = False
        self.sweep: list[int] = []
        """Plies the game analysis has still to search, in order."""
        self.sweep_time = 0.5
        self.search: Search | None = None
        self.draining: Search | None = None
        """A search told to stop that has not answered yet: the next waits for it."""
        self.searches = 0
        self.moved_at = 0.0
        self.timer: asyncio.TimerHandle | None = None
        self.clock = BoardClock(None, self._flag_fell)
        """Each side's clock (with a ``clock`` control): the referee's own, run while the
        game is live (see :meth:`_clock_run`)."""
        self.forfeit: int | None = None
        """The side that ran out of time."""
        self.closed = False
        self.handlers = {
            "new": self.on_new,
            "play": self.on_play,
            "goto": self.on_goto,
            "undo": self.on_undo,
            "line": self.on_line,
            "players": self.on_players,
            "pause": self.on_pause,
            "resume": self.on_resume,
            "step": self.on_step,
            "speed": self.on_speed,
            "analyze": self.on_analyze,
            "stop": self.on_stop,
            "hint": self.on_hint,
            "sweep": self.on_sweep,
            "export": self.on_export,
            "load": self.on_load,
            "ping": self.on_ping,
        }

    # --- the way in --------------------------------------------------------------------

    async def handle(self, raw: str) -> None:
        """One message from the browser; a bad one gets an ``error`` answer."""
        kind = None
        try:
            if len(raw) > MAX_MESSAGE:
                raise BadMessage(f"message too long ({len(raw)} characters; at most {MAX_MESSAGE})")
            try:
                msg = loads(raw)
            except NotJSON as exc:
                raise BadMessage(str(exc)) from None
            if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
                raise BadMessage('a message is a JSON object with a "type"')
            kind = msg["type"]
            handler = self.handlers.get(kind)
            if handler is None:
                raise BadMessage(
                    f"unknown message type {kind!r}; valid: {', '.join(self.handlers)}"
                )
            if kind not in ("new", "load", "ping") and self.board is None:
                raise BadMessage("no game yet: send 'new' first")
            await handler(msg)
        except ArenaError as exc:
            self.emit({"type": "error", "message": shorten(str(exc)), "request": kind})
        except Exception as exc:  # a bug here must not cost the person their board
            # Each kind of failure is logged once with its traceback, later ones in a line.
            signature = (kind, type(exc).__name__)
            if signature not in _logged:
                _logged.add(signature)
                log.exception("message %r failed", kind)
            else:
                log.debug("message %r failed again: %s", kind, type(exc).__name__)
            text = f"internal error: {type(exc).__name__}: {str(exc)[:200]}"
            self.emit({"type": "error", "message": text, "request": kind})

    def emit(self, message: dict[str, Any]) -> None:
        if not self.closed:
            self.outbox.put_nowait(message)

    def close(self) -> None:
        """The tab closed: stop the search, drop everything."""
        self.closed = True
        self.analyzing = False
        self.sweep = []
        self.clock.stop()
        self.players.close()
        self.paused = True
        self._cancel()
        if self.timer is not None:
            self.timer.cancel()

    # --- messages ------------------------------------------------------------------------

    async def on_new(self, msg: dict[str, Any]) -> None:
        game = check_game(msg.get("game"))
        seed = optional_whole_number(msg, "seed", 0, 2**31 - 1)
        players = check_players(msg.get("players", [PERSON, PERSON]), self.allow_programs)
        limit = check_limit(msg.get("time", self.limit.time))
        control = check_clock(msg.get("clock"))
        # Up to MAX_PLIES moves to read and play: off the event loop.
        board = await asyncio.to_thread(new_board, game, seed, msg.get("moves", ""))
        compiling = None if players == [PERSON, PERSON] else first_use(game.name)
        if compiling is not None:
            # A first use compiles the game's search for half a minute: draw the board now
            # and say so; the agents start (and compile) on their first search's thread.
            for spec in players:
                if spec != PERSON:
                    check_agent(spec, self.allow_programs)  # a bad spec is refused first
            self.emit(
                {
                    "type": "status",
                    "message": f"Compiling {game.name}'s fast search for its first use on "
                    f"this machine (about {compiling:.0f} s, once): the agent plays when it "
                    "is ready.",
                    "seconds": compiling,
                }
            )
            self._install(board, players, limit, control)
        else:
            # The agents start the game (compiled code loads, tables are built) there too.
            agents = await asyncio.to_thread(ready_agents, players, board, self.allow_programs)
            self._install(board, players, limit, control, agents)
        self.paused = bool(msg.get("paused", False))
        self.state_changed()

    async def on_play(self, msg: dict[str, Any]) -> None:
        board = self._board()
        mover = board.state.to_move
        if not self.players.person(mover) and board.at_end and not self.paused:
            raise BadMessage(f"it is {self.players.specs[mover]}'s move")
        text = msg.get("move")
        if not isinstance(text, str) or len(text) > 20:
            raise BadMessage("'move' is a move in the game's notation, e.g. 'c3'")
        if board.state.is_terminal():
            raise BadMessage(f"the game is over: {board.state.result_text()}")
        if self.forfeit is not None and board.at_end:
            raise BadMessage(f"the game is over: {self._result()}")
        before = list(board.moves)
        at_end = board.at_end
        board.play_text(text)
        if at_end:
            self._charge(mover)
        if board.moves[: len(before)] != before:
            self.sweep = []  # a branch: the line changed under the game analysis
        self.players.observe(board.states[board.ply - 1], board.moves[board.ply - 1])
        self.moved_at = time.monotonic()
        self.state_changed()

    async def on_goto(self, msg: dict[str, Any]) -> None:
        board = self._board()
        board.goto(whole_number(msg, "ply", 0, MAX_PLIES))
        self.players.restart()
        self.state_changed()

    async def on_undo(self, msg: dict[str, Any]) -> None:
        board = self._board()
        if board.ply == 0:
            raise BadMessage("nothing to take back")
        target = board.ply - 1
        # Back to the last position a person moves in (against an agent: two plies).
        while target > 0 and not self.players.person(board.states[target].to_move):
            target -= 1
        board.goto(target)
        board.keep()
        board.truncate()
        self.sweep = []
        self.players.restart()
        self.state_changed()

    async def on_line(self, msg: dict[str, Any]) -> None:
        board = self._board()
        board.switch(whole_number(msg, "index", 0, 1000))
        self.sweep = []
        self.players.restart()
        self.state_changed()

    async def on_players(self, msg: dict[str, Any]) -> None:
        board = self._board()
        players = check_players(msg.get("players"), self.allow_programs)
        limit = check_limit(msg.get("time", self.limit.time))
        control = check_clock(msg.get("clock"))
        agents = await asyncio.to_thread(ready_agents, players, board, self.allow_programs)
        self._install(self._board(), players, limit, control, agents)
        self.state_changed()

    async def on_pause(self, msg: dict[str, Any]) -> None:
        self.paused = True
        if self.search is not None and self.search.purpose == "move":
            self._cancel()
        self.state_changed()

    async def on_resume(self, msg: dict[str, Any]) -> None:
        self.paused = False
        self.state_changed()

    async def on_step(self, msg: dict[str, Any]) -> None:
        board = self._board()
        if self.players.person(board.state.to_move):
            raise BadMessage("a person moves here: there is no agent move to step")
        if not board.at_end:
            board.keep()  # the moves after stay among the other lines
            board.truncate()
            self.sweep = []
        self.stepping = True
        self.moved_at = 0.0
        self.state_changed()

    async def on_speed(self, msg: dict[str, Any]) -> None:
        self.delay = number(msg, "delay", 0.0, 10.0)
        self.emit(self.state_message())

    async def on_analyze(self, msg: dict[str, Any]) -> None:
        if self.search is not None and self.search.purpose == "move":
            raise BadMessage("one search per board: an agent is thinking about its move")
        spec = msg.get("agent", self.analysis_spec)
        check_agent(spec, self.allow_programs)
        seconds = number(msg, "time", 0.01, MAX_SECONDS) if "time" in msg else MAX_SECONDS
        self.analysis_spec, self.analysis_time = spec, seconds
        self.analyzing = True
        self._cancel()
        self.state_changed()

    async def on_sweep(self, msg: dict[str, Any]) -> None:
        board = self._board()
        if self.search is not None and self.search.purpose == "move":
            raise BadMessage("one search per board: an agent is thinking about its move")
        spec = msg.get("agent", self.analysis_spec)
        check_agent(spec, self.allow_programs)
        self.sweep_time = number(msg, "time", 0.01, MAX_SECONDS) if "time" in msg else 0.5
        self.analysis_spec = spec
        self.analyzing = False
        self.sweep = [p for p, s in enumerate(board.states) if not s.is_terminal()]
        self._cancel()
        self.state_changed()

    async def on_stop(self, msg: dict[str, Any]) -> None:
        self.analyzing = False
        self.sweep = []
        search = self.search
        if search is not None:
            search.keep_stopping()  # the answer stays (an agent thinking about its move plays now)
        self.emit(self.state_message())

    async def on_hint(self, msg: dict[str, Any]) -> None:
        board = self._board()
        if self.search is not None:
            raise BadMessage("one search per board: stop the running search first")
        if board.state.is_terminal():
            raise BadMessage("the game is over: no hint")
        spec = msg.get("agent", self.analysis_spec)
        agent = check_agent(spec, self.allow_programs)
        for_analysis(agent, ANALYSIS_ROWS)
        seconds = number(msg, "time", 0.01, MAX_SECONDS) if "time" in msg else 1.0
        refused = self.running.claim(self.client)
        if refused is not None:
            raise BadMessage(refused)
        self._start("hint", agent, Limit(time=seconds), claimed=True)

    async def on_export(self, msg: dict[str, Any]) -> None:
        board = self._board()
        kind = msg.get("format", "json")
        record = board.record((self.players.label(0), self.players.label(1)), self.forfeit)
        stem = f"{board.game.name}-{len(board.moves)}-moves"
        if kind == "json":
            text, name = record.to_json() + "\n", stem + ".json"
        elif kind == "sgf":
            text, name = to_sgf(record) + "\n", stem + ".sgf"
        else:
            raise BadMessage(f"format must be 'json' or 'sgf', not {kind!r}")
        self.emit({"type": "export", "format": kind, "filename": name, "text": text})

    async def on_load(self, msg: dict[str, Any]) -> None:
        text = msg.get("text")
        if not isinstance(text, str) or not text.strip():
            raise BadMessage("'text' is the content of a JSON record or an SGF file")
        if len(text.encode()) > MAX_UPLOAD:
            raise BadMessage(f"file too large (at most {MAX_UPLOAD // 1024} KB)")
        # Reading the file and building its board: off the event loop.
        board = await asyncio.to_thread(load_board, text)
        self._install(board, [PERSON, PERSON], self.limit)
        self.state_changed()

    async def on_ping(self, msg: dict[str, Any]) -> None:
        self.emit({"type": "pong"})

    # --- the board -------------------------------------------------------------------------

    def _board(self) -> Board:
        assert self.board is not None
        return self.board

    def _install(
        self,
        board: Board,
        players: list[str],
        limit: Limit,
        control: TimeControl | None = None,
        agents: list[Agent | None] | None = None,
    ) -> None:
        """A new game or new players; ``agents``: the players' agents, started already
        (:func:`ready_agents`), else each starts on its first search's thread."""
        self._cancel()
        self.clock.stop()
        self.analyzing = False
        self.sweep = []
        self.players.close()
        self.board, self.limit = board, limit
        self.clock, self.forfeit = BoardClock(control, self._flag_fell), None
        if agents is None:
            self.players = Players(
                players,
                [
                    None if spec == PERSON else check_agent(spec, self.allow_programs)
                    for spec in players
                ],
            )
            self.players.restart()
        else:
            self.players = Players(players, agents)

    def state_changed(self) -> None:
        """The position or the settings changed: stop searches of other positions,
        tell the browser, start what is needed now."""
        search = self.search
        moved = search is not None and search.purpose != "sweep" and search.ply != self._board().ply
        if search is not None and (moved or not self._wanted(search)):
            self._cancel()
        self._clock_run()
        self.emit(self.state_message())
        self._schedule()

    # --- the clock ------------------------------------------------------------------------

    def _live(self) -> bool:
        """Whether the game is being played: at the end of its line, not over, not paused."""
        board = self._board()
        return (
            board.at_end
            and not board.state.is_terminal()
            and self.forfeit is None
            and (not self.paused or self.stepping)
        )

    def _clock_run(self) -> None:
        """Run the clock of the side to move while the game is live."""
        self.clock.stop()
        if self.closed or not self._live():
            return
        side = self._board().state.to_move
        self.clock.run(side, self._grace(side))

    def _grace(self, side: int) -> float:
        """A person's move counts when it arrives; an agent's answer travels through a
        thread, so its clock falls :data:`~arena.web.clock.FLAG_GRACE` past zero."""
        return 0.0 if self.players.person(side) else FLAG_GRACE

    def _charge(self, side: int) -> None:
        """``side`` just moved at the end of the line: its clock stops, the increment is added
        (or it lost on time, if the clock had run out)."""
        if self.clock.charge(side, self._grace(side)):
            self.forfeit = side

    def _flag_fell(self, side: int, fell: bool) -> None:
        """The flag timer of ``side`` fired (its clock stopped): if its time is up, it lost."""
        if fell and self.forfeit is None:
            self.forfeit = side
            search = self.search
            if search is not None and search.purpose == "move":
                self._cancel()
        self.state_changed()

    def _result(self) -> str:
        """The result at the end of the line: by the rules, or a loss on time."""
        board = self._board()
        end = board.states[-1]
        if self.forfeit is not None:
            names = board.game.player_names
            return f"{names[1 - self.forfeit]} wins on time ({names[self.forfeit]}'s clock ran out)"
        return end.result_text()

    def state_message(self) -> dict[str, Any]:
        board = self._board()
        state = board.state
        end = board.states[-1]
        search = self.search
        control = self.clock.control
        return {
            "type": "state",
            "game": board.game.spec,
            "gameName": board.game.name,
            "seed": board.seed,
            "ply": board.ply,
            "moves": board.texts(),
            "evals": board.evals,
            "lines": [
                {
                    "index": i,
                    "fork": board.fork(moves),
                    "moves": [board.game.format_move(m) for m in moves[board.fork(moves) :]][:8],
                    "more": max(0, len(moves) - board.fork(moves) - 8),
                }
                for i, (moves, _) in enumerate(board.lines)
            ],
            "view": board_view(state, board.last_move()),
            "status": self._result() if board.at_end else state.result_text(),
            "result": self._result() if end.is_terminal() or self.forfeit is not None else None,
            "clock": None if control is None else control.describe(),
            "clockSpec": None if control is None else str(control),
            "clocks": self.clock.shown(),
            "clockRunning": self.clock.running,
            "players": self.players.specs,
            "time": self.limit.time,
            "paused": self.paused,
            "delay": self.delay,
            "thinking": None if search is None else search.purpose,
            "analyzing": self.analyzing,
            "sweep": len(self.sweep),
            "analysisAgent": self.analysis_spec,
        }

    # --- searches ------------------------------------------------------------------------

    def _move_needed(self) -> bool:
        board = self._board()
        state = board.state
        return (
            board.at_end
            and not state.is_terminal()
            and self.forfeit is None
            and not self.players.person(state.to_move)
            and (not self.paused or self.stepping)
        )

    def _wanted(self, search: Search) -> bool:
        if search.purpose == "move":
            return self._move_needed()
        if search.purpose == "analyze":
            return self.analyzing and not self._move_needed()
        if search.purpose == "sweep":
            return search.ply in self.sweep and not self._move_needed()
        return True

    def _schedule(self) -> None:
        """Start the search the board needs now, unless one is running."""
        if self.closed or self.search is not None or self.draining or self.board is None:
            return
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        board = self.board
        if self._move_needed():
            wait = self.moved_at + self.delay - time.monotonic()
            both = not self.players.person(0) and not self.players.person(1)
            if both and wait > 0 and not self.stepping:
                self.timer = asyncio.get_running_loop().call_later(wait, self._schedule)
                return
            side = board.state.to_move
            agent = self.players.agent(side)
            assert agent is not None
            limit = self.clock.move_limit(side, moves_to_share(board.state)) or self.limit
            refused = self.running.claim(self.client)
            if refused is not None:
                self.paused = True
                self.emit({"type": "error", "message": f"{refused} (paused)", "request": None})
                self.emit(self.state_message())
                return
            self.stepping = False
            fresh = self.players.starts(side)
            self._start("move", agent, limit, claimed=True, fresh=fresh, player=side)
        elif self.analyzing and not board.state.is_terminal():
            agent = check_agent(self.analysis_spec, self.allow_programs)
            for_analysis(agent, ANALYSIS_ROWS)
            refused = self.running.claim(self.client)
            if refused is not None:
                self.analyzing = False
                self.emit({"type": "error", "message": refused, "request": "analyze"})
                self.emit(self.state_message())
                return
            self._start("analyze", agent, Limit(time=self.analysis_time), claimed=True)
        elif self.sweep:
            agent = check_agent(self.analysis_spec, self.allow_programs)
            refused = self.running.claim(self.client)
            if refused is not None:
                self.sweep = []
                self.emit({"type": "error", "message": refused, "request": "sweep"})
                self.emit(self.state_message())
                return
            self._start(
                "sweep", agent, Limit(time=self.sweep_time), ply=self.sweep[0], claimed=True
            )

    def _start(
        self,
        purpose: str,
        agent: Agent,
        limit: Limit,
        ply: int | None = None,
        claimed: bool = False,
        fresh: bool = True,
        player: int | None = None,
    ) -> None:
        """Search on a thread of its own; ``claimed``: counted in :attr:`running` already;
        ``fresh``: the agent starts the game first (on the thread), as ``player``."""
        board = self._board()
        ply = board.ply if ply is None else ply
        state = board.states[ply]
        if not claimed:
            refused = self.running.claim(self.client)
            if refused is not None:
                raise BadMessage(refused)
        self.searches += 1
        search = Search(self.searches, purpose, agent, ply, state.to_move)
        self.search = search
        running, client = self.running, self.client
        context = {} if player is None else {"player": player, "seed": board.seed}
        game = board.game

        def begin() -> None:  # may load compiled code or build tables: on the thread
            start_game(agent, game, **context)

        done = search.start(
            state,
            limit,
            on_progress=self._progress,
            on_end=lambda: running.release(client),
            begin=begin if fresh else None,
        )
        self.emit(self.state_message())
        task = asyncio.ensure_future(self._finish(search, done))
        task.add_done_callback(_quiet)

    def _progress(self, search: Search, info: SearchInfo) -> None:
        if search.cancelled or self.search is not search or not search.due(time.monotonic()):
            return
        self.emit(search.message(info, final=False))

    async def _finish(self, search: Search, done: asyncio.Future[Answer]) -> None:
        move, error = await done
        search.agent.listener = None
        if self.search is search:
            self.search = None
        if self.draining is search:
            self.draining = None
        board = self.board
        if search.cancelled or board is None or self.closed:
            self._schedule()
            return
        if error is not None:
            self.paused = True
            self.analyzing = False
            self.sweep = []
            self.emit(
                {
                    "type": "error",
                    "message": f"{search.agent.spec} failed: {error}",
                    "request": None,
                }
            )
            self.emit(self.state_message())
            return
        info = getattr(search.agent, "last_search", None)  # users' classes may not say
        if info is not None:
            board.note(search.ply, info, search.to_move)
            self.emit(search.message(info, final=True))
        if search.purpose == "move" and move is not None:
            self._charge(search.to_move)
            if self.forfeit is not None:
                self.state_changed()
                return
            board.play(move)
            self.players.observe(board.states[board.ply - 1], move)
            self.moved_at = time.monotonic()
        elif search.purpose == "hint" and move is not None:
            self.emit({"type": "hint", "ply": search.ply, "move": board.game.format_move(move)})
        elif search.purpose == "analyze":
            self.analyzing = False  # its time is up; the last result stays on screen
        elif search.purpose == "sweep" and search.ply in self.sweep:
            self.sweep.remove(search.ply)
        self.state_changed()

    def _cancel(self) -> None:
        search = self.search
        if search is not None:
            search.cancel()
            self.search = None
            self.draining = search


def _quiet(task: asyncio.Task) -> None:  # type: ignore[type-arg]
    """Log a failure of the code that finishes a search (a bug), keep serving."""
    if not task.cancelled() and task.exception() is not None:
        log.error("search bookkeeping failed", exc_info=task.exception())
