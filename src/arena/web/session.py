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

Searches run on a thread of their own, one per board at a time; a search that
is no longer wanted (the position changed, the tab closed) is asked to stop
through the agent's ``listener`` and its ``stop``, again every
:data:`RESTOP` seconds until its thread ends, and its answer is dropped. Every
built-in agent ends within a tenth of a second of the request. Running searches
(stopped ones until their threads end) count against :class:`Searches`: at most
:data:`MAX_SEARCHES` per client address and :data:`MAX_SEARCHES_TOTAL` in all.

Tests: tests/web/test_app.py, tests/web/test_hostile.py
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import threading
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from arena.compete.timecontrol import Clock, TimeControl
from arena.core.agent import Agent, SearchInfo, end_game, start_game
from arena.core.errors import ArenaError
from arena.core.limit import Limit
from arena.formats.jsontext import NotJSON, loads
from arena.formats.record import GameRecord
from arena.formats.sgf import from_sgf, to_sgf
from arena.games import load_game
from arena.search.compiled import first_use
from arena.web.board import MAX_PLIES, Board
from arena.web.catalog import MAX_SECONDS, check_agent, check_game, check_limit
from arena.web.view import board_view

log = logging.getLogger("arena.web")

PERSON = "person"
MAX_MESSAGE = 300_000
"""Characters in one message from the browser (an uploaded file travels in one)."""
MAX_UPLOAD = 256 * 1024
MAX_CLOCK = 7200.0
"""The longest clock the browser may set, in seconds (increments: at most 60 s)."""
FLAG_GRACE = 0.25
"""Seconds past zero before an agent's clock falls (its answer travels through a thread)."""
MAX_ROWS = 120
"""Root moves sent per search message (a 19x19 board has 362)."""
DEFAULT_ANALYSIS = "mcts"
MAX_ERROR = 300
"""Characters of an error reply (a message may quote what the browser sent)."""
MAX_SEARCHES = 8
"""Searches running at once for one client address (one per board it may open)."""
MAX_SEARCHES_TOTAL = 24
"""Searches running at once on the server."""
RESTOP = 0.05
"""Seconds between repeats of a stop request while the search's thread runs (a request
that came before the agent's search began is not lost)."""


class Searches:
    """The searches running on the server's threads, by client address, with limits.

    Thread-safe: a search is counted when it starts (on the event loop) and released
    when its thread ends.

    >>> searches = Searches(per_client=1, total=2)
    >>> searches.claim("a"), searches.claim("a"), searches.claim("b"), searches.running()
    (None, 'at most 1 search at once per client: stop one first', None, 2)
    >>> searches.claim("c")
    'the server is running 2 searches, its most: try again soon'
    >>> searches.release("a"); searches.running("a"), searches.running()
    (0, 1)
    """

    def __init__(self, per_client: int = MAX_SEARCHES, total: int = MAX_SEARCHES_TOTAL) -> None:
        self.per_client, self.total = per_client, total
        self._lock = threading.Lock()
        self._by_client: dict[str, int] = {}

    def claim(self, client: str) -> str | None:
        """Count a search of ``client``: None, or why it may not start now."""
        with self._lock:
            mine = self._by_client.get(client, 0)
            if mine >= self.per_client:
                plural = "" if self.per_client == 1 else "es"
                return (
                    f"at most {self.per_client} search{plural} at once per client: stop one first"
                )
            if sum(self._by_client.values()) >= self.total:
                return f"the server is running {self.total} searches, its most: try again soon"
            self._by_client[client] = mine + 1
            return None

    def release(self, client: str) -> None:
        with self._lock:
            left = self._by_client.get(client, 0) - 1
            if left > 0:
                self._by_client[client] = left
            else:
                self._by_client.pop(client, None)

    def running(self, client: str | None = None) -> int:
        """Searches running now (of one client, or all)."""
        with self._lock:
            if client is not None:
                return self._by_client.get(client, 0)
            return sum(self._by_client.values())


_logged: set[tuple[str | None, str]] = set()
"""Internal errors whose traceback is in the log already (a client repeating a message
that finds a bug must not flood it)."""


class BadMessage(ArenaError):
    """A message from the browser that is not valid."""


@dataclass
class Search:
    """A search running on its own thread for one position of the board."""

    number: int
    purpose: str
    """``move`` (an agent's turn), ``analyze`` or ``hint``."""
    agent: Agent
    ply: int
    to_move: int
    stop: threading.Event = field(default_factory=threading.Event)
    ended: threading.Event = field(default_factory=threading.Event)
    """Set by the search's thread as it ends."""
    cancelled: bool = False
    """The answer is no longer wanted: drop it."""
    last_sent: float = 0.0


class Session:
    def __init__(
        self, allow_programs: bool = False, client: str = "?", searches: Searches | None = None
    ) -> None:
        self.allow_programs = allow_programs
        self.client = client
        self.running = Searches() if searches is None else searches
        """The server's count of running searches (this session's alone without one)."""
        self.outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.board: Board | None = None
        self.players: list[str] = [PERSON, PERSON]
        self.agents: list[Agent | None] = [None, None]
        self.unready: set[int] = set()
        """Sides whose agent has not started the game yet: it does, on its search's thread,
        before its next move."""
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
        self.control: TimeControl | None = None
        self.clocks: list[Clock] | None = None
        """Each side's clock (with a ``clock`` control): the referee's own
        (:class:`arena.compete.timecontrol.Clock`), so the board and ``arena match`` charge
        moves, add increments, give first-move allowances and decide flag fall alike."""
        self.spent = [0.0, 0.0]
        """Seconds each side has spent on the move it is to make (the clock stops while the
        board looks back, and runs on from there)."""
        self.clock_side: int | None = None
        """Whose clock runs now (since ``clock_since``)."""
        self.clock_since = 0.0
        self.flag: asyncio.TimerHandle | None = None
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
            self.emit({"type": "error", "message": _shorten(str(exc)), "request": kind})
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
        self._clock_stop()
        self._close_agents()
        self.paused = True
        self._cancel()
        if self.timer is not None:
            self.timer.cancel()

    # --- messages ------------------------------------------------------------------------

    async def on_new(self, msg: dict[str, Any]) -> None:
        game = check_game(msg.get("game"))
        seed = _optional_int(msg, "seed", 0, 2**31 - 1)
        players = self._check_players(msg.get("players", [PERSON, PERSON]))
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
        if self.agents[mover] is not None and board.at_end and not self.paused:
            raise BadMessage(f"it is {self.players[mover]}'s move")
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
        self._observe(board.states[board.ply - 1], board.moves[board.ply - 1])
        self.moved_at = time.monotonic()
        self.state_changed()

    async def on_goto(self, msg: dict[str, Any]) -> None:
        board = self._board()
        board.goto(_int(msg, "ply", 0, MAX_PLIES))
        self._restart_agents()
        self.state_changed()

    async def on_undo(self, msg: dict[str, Any]) -> None:
        board = self._board()
        if board.ply == 0:
            raise BadMessage("nothing to take back")
        target = board.ply - 1
        # Back to the last position a person moves in (against an agent: two plies).
        while target > 0 and self.agents[board.states[target].to_move] is not None:
            target -= 1
        board.goto(target)
        board.keep()
        board.truncate()
        self.sweep = []
        self._restart_agents()
        self.state_changed()

    async def on_line(self, msg: dict[str, Any]) -> None:
        board = self._board()
        board.switch(_int(msg, "index", 0, 1000))
        self.sweep = []
        self._restart_agents()
        self.state_changed()

    async def on_players(self, msg: dict[str, Any]) -> None:
        board = self._board()
        players = self._check_players(msg.get("players"))
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
        if self.agents[board.state.to_move] is None:
            raise BadMessage("a person moves here: there is no agent move to step")
        if not board.at_end:
            board.keep()  # the moves after stay among the other lines
            board.truncate()
            self.sweep = []
        self.stepping = True
        self.moved_at = 0.0
        self.state_changed()

    async def on_speed(self, msg: dict[str, Any]) -> None:
        self.delay = _number(msg, "delay", 0.0, 10.0)
        self.emit(self.state_message())

    async def on_analyze(self, msg: dict[str, Any]) -> None:
        if self.search is not None and self.search.purpose == "move":
            raise BadMessage("one search per board: an agent is thinking about its move")
        spec = msg.get("agent", self.analysis_spec)
        check_agent(spec, self.allow_programs)
        seconds = _number(msg, "time", 0.01, MAX_SECONDS) if "time" in msg else MAX_SECONDS
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
        self.sweep_time = _number(msg, "time", 0.01, MAX_SECONDS) if "time" in msg else 0.5
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
            _keep_stopping(search)  # the answer stays (an agent thinking about its move plays now)
        self.emit(self.state_message())

    async def on_hint(self, msg: dict[str, Any]) -> None:
        board = self._board()
        if self.search is not None:
            raise BadMessage("one search per board: stop the running search first")
        if board.state.is_terminal():
            raise BadMessage("the game is over: no hint")
        spec = msg.get("agent", self.analysis_spec)
        agent = check_agent(spec, self.allow_programs)
        seconds = _number(msg, "time", 0.01, MAX_SECONDS) if "time" in msg else 1.0
        refused = self.running.claim(self.client)
        if refused is not None:
            raise BadMessage(refused)
        self._start("hint", agent, Limit(time=seconds), claimed=True)

    async def on_export(self, msg: dict[str, Any]) -> None:
        board = self._board()
        kind = msg.get("format", "json")
        record = board.record((self._label(0), self._label(1)), self.forfeit)
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

    def _check_players(self, players: Any) -> list[str]:
        if not isinstance(players, list) or len(players) != 2:
            raise BadMessage("'players' is a list of two: agent specs or 'person'")
        out = []
        for spec in players:
            if spec == PERSON:
                out.append(PERSON)
            else:
                out.append(check_agent(spec, self.allow_programs).spec)
        return out

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
        self._clock_stop()
        self.analyzing = False
        self.sweep = []
        self._close_agents()
        self.board, self.players, self.limit = board, players, limit
        self.control, self.forfeit = control, None
        self.clocks = None if control is None else [Clock.start(control), Clock.start(control)]
        self.spent = [0.0, 0.0]
        if agents is None:
            self.agents = [
                None if spec == PERSON else check_agent(spec, self.allow_programs)
                for spec in players
            ]
            self._restart_agents()
        else:
            self.agents, self.unready = list(agents), set()

    def _close_agents(self) -> None:
        """Release the agents of the last game (programs in other processes end)."""
        for agent in self.agents:
            close = getattr(agent, "close", None)  # users' classes may not have it
            if close is not None:
                try:
                    close()
                except Exception:  # a program that will not close must not break the board
                    log.warning("closing %r failed", agent, exc_info=True)
        self.agents = [None, None]

    def _restart_agents(self) -> None:
        """The agents start over from the position shown (they may keep trees per game):
        each does on its next search's thread (a first start may load compiled code)."""
        self.unready = {side for side, agent in enumerate(self.agents) if agent is not None}

    def _observe(self, state: Any, move: int) -> None:
        for side, agent in enumerate(self.agents):
            if side in self.unready:
                continue  # it starts over from the position before its next move anyway
            observe = getattr(agent, "observe", None)  # users' classes may not have it
            if observe is not None:
                observe(state, move)

    def _label(self, side: int) -> str:
        return "person" if self.players[side] == PERSON else self.players[side]

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

    def _clock_stop(self) -> None:
        """Count the time since the running clock started against its side's move, and stop
        it."""
        if self.clock_side is not None and self.clocks is not None:
            self.spent[self.clock_side] += time.monotonic() - self.clock_since
        self.clock_side = None
        if self.flag is not None:
            self.flag.cancel()
            self.flag = None

    def _clock_run(self) -> None:
        """Run the clock of the side to move while the game is live."""
        self._clock_stop()
        if self.clocks is None or self.closed or not self._live():
            return
        side = self._board().state.to_move
        self.clock_side, self.clock_since = side, time.monotonic()
        allowance = self.clocks[side].allowance()
        if allowance is None:
            return
        wait = max(0.0, allowance - self.spent[side]) + self._grace(side)
        self.flag = asyncio.get_running_loop().call_later(wait, self._flag_fell, side)

    def _grace(self, side: int) -> float:
        """A person's move counts when it arrives; an agent's answer travels through a
        thread, so its clock falls :data:`FLAG_GRACE` past zero."""
        return 0.0 if self.agents[side] is None else FLAG_GRACE

    def _charge(self, side: int) -> None:
        """``side`` just moved at the end of the line: its clock stops, the increment is added
        (or it lost on time, if the clock had run out)."""
        self._clock_stop()
        if self.clocks is None:
            return
        spent, self.spent[side] = self.spent[side], 0.0
        if self.clocks[side].charge(spent, self._grace(side)):
            self.forfeit = side

    def _flag_fell(self, side: int) -> None:
        self.flag = None
        self._clock_stop()
        allowance = None if self.clocks is None else self.clocks[side].allowance()
        if allowance is not None and self.forfeit is None and self.spent[side] >= allowance:
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

    def _clocks_now(self) -> list[float] | None:
        if self.clocks is None:
            return None
        spent = list(self.spent)
        if self.clock_side is not None:
            spent[self.clock_side] += time.monotonic() - self.clock_since
        return [round(clock.shown(s) or 0.0, 2) for clock, s in zip(self.clocks, spent)]

    def state_message(self) -> dict[str, Any]:
        board = self._board()
        state = board.state
        end = board.states[-1]
        search = self.search
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
            "clock": None if self.control is None else self.control.describe(),
            "clockSpec": None if self.control is None else str(self.control),
            "clocks": self._clocks_now(),
            "clockRunning": self.clock_side,
            "players": self.players,
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
            and self.agents[state.to_move] is not None
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
            both = all(agent is not None for agent in self.agents)
            if both and wait > 0 and not self.stepping:
                self.timer = asyncio.get_running_loop().call_later(wait, self._schedule)
                return
            side = board.state.to_move
            agent = self.agents[side]
            assert agent is not None
            limit = self.limit
            if self.clocks is not None:
                given = self.clocks[side].limit()
                time_left = (given.time or MAX_SECONDS) - self.spent[side]
                clock_left = None if given.clock is None else given.clock - self.spent[side]
                limit = Limit(
                    time=max(0.001, min(time_left, MAX_SECONDS)),
                    clock=None if clock_left is None else max(0.001, clock_left),
                    increment=given.increment,
                )
            refused = self.running.claim(self.client)
            if refused is not None:
                self.paused = True
                self.emit({"type": "error", "message": f"{refused} (paused)", "request": None})
                self.emit(self.state_message())
                return
            self.stepping = False
            fresh = side in self.unready
            self.unready.discard(side)
            self._start("move", agent, limit, claimed=True, fresh=fresh, player=side)
        elif self.analyzing and not board.state.is_terminal():
            agent = check_agent(self.analysis_spec, self.allow_programs)
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
        loop = asyncio.get_running_loop()
        done: asyncio.Future[tuple[int | None, BaseException | None]] = loop.create_future()
        running, client = self.running, self.client
        context = {} if player is None else {"player": player, "seed": board.seed}
        game = board.game

        def listener(info: SearchInfo) -> bool:
            _call_soon(loop, self._progress, search, info)
            return search.stop.is_set()

        def work() -> None:
            try:
                if fresh:  # may load compiled code or build tables: here, not on the loop
                    start_game(agent, game, **context)
                result: tuple[int | None, BaseException | None] = (agent.choose(state, limit), None)
            except Exception as exc:  # an agent's failure is reported, not raised
                result = (None, exc)
            finally:
                running.release(client)
                search.ended.set()
            _call_soon(loop, _resolve, done, result)

        agent.listener = listener
        threading.Thread(target=work, name=f"arena-web-{purpose}", daemon=True).start()
        self.emit(self.state_message())
        task = asyncio.ensure_future(self._finish(search, done))
        task.add_done_callback(_quiet)

    def _progress(self, search: Search, info: SearchInfo) -> None:
        if search.cancelled or self.search is not search:
            return
        now = time.monotonic()
        if now - search.last_sent < 0.05:
            return
        search.last_sent = now
        self.emit(search_message(search, info, final=False))

    async def _finish(self, search: Search, done: asyncio.Future) -> None:  # type: ignore[type-arg]
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
            self.emit(search_message(search, info, final=True))
        if search.purpose == "move" and move is not None:
            self._charge(search.to_move)
            if self.forfeit is not None:
                self.state_changed()
                return
            board.play(move)
            self._observe(board.states[board.ply - 1], move)
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
            search.cancelled = True
            _keep_stopping(search)
            self.search = None
            self.draining = search


def check_clock(text: Any) -> TimeControl | None:
    """A clock from the browser (None: none), as ``arena match --time`` reads it: a Fischer
    clock ``"INITIAL+INCREMENT"`` or a hard time per move ``"move:SECONDS"``, either with a
    first-move allowance (``"move:2,first:30"``, the Colosseum course's clock)."""
    if text is None or text == "":
        return None
    usage = "'clock' is INITIAL+INCREMENT or move:SECONDS in seconds (e.g. '60+1'), ,first:S"
    if not isinstance(text, str) or len(text) > 40:
        raise BadMessage(usage)
    control = TimeControl.parse(text)
    if control.budget is not None or (control.initial is None and control.per_move is None):
        raise BadMessage(usage)
    longest = max(control.initial or 0.0, control.per_move or 0.0, control.first or 0.0)
    if longest > MAX_CLOCK or control.increment > MAX_SECONDS:
        raise BadMessage(f"a clock holds at most {MAX_CLOCK:g} s, increments at most 60 s")
    return control


def search_message(search: Search, info: SearchInfo, final: bool) -> dict[str, Any]:
    data = _finite(asdict(info))
    data["root"] = data["root"][:MAX_ROWS]
    data["rate"] = round(info.nodes / info.seconds) if info.seconds > 0 else None
    return {
        "type": "search",
        "id": search.number,
        "purpose": search.purpose,
        "agent": search.agent.spec,
        "ply": search.ply,
        "side": search.to_move,
        "final": final,
        "info": data,
    }


def read_game_file(text: str) -> tuple[str, list[str], int | None]:
    """The game spec, moves and seed of a JSON record or an SGF file."""
    stripped = text.lstrip()
    if stripped.startswith("{"):
        try:
            record = GameRecord.from_json(
                stripped.splitlines()[0] if "\n" in stripped else stripped
            )
        except (ValueError, TypeError) as exc:
            raise BadMessage(f"not a game record: {exc}") from None
        if not isinstance(record.game, str) or not isinstance(record.moves, list):
            raise BadMessage("not a game record: 'game' and 'moves' are missing")
        seed = record.seed if isinstance(record.seed, int) else None
        return record.game, [str(m) for m in record.moves], seed
    if stripped.startswith("("):
        spec, moves = from_sgf(stripped)
        return spec, moves, None
    raise BadMessage("not a JSON game record or an SGF file")


def ready_agents(players: list[str], board: Board, allow_programs: bool) -> list[Agent | None]:
    """The players' agents (None for a person), each told the game starts (which may load
    compiled code for seconds: call it off the event loop)."""
    agents: list[Agent | None] = []
    try:
        for side, spec in enumerate(players):
            if spec == PERSON:
                agents.append(None)
                continue
            agent = check_agent(spec, allow_programs)
            agents.append(agent)
            start_game(agent, board.game, player=side, seed=board.seed)
    except BaseException:
        # A program started for the first seat ends when the second seat's agent fails.
        for agent in agents:
            with contextlib.suppress(Exception):
                end_game(agent)
        raise
    return agents


def load_board(text: str) -> Board:
    """The board of a JSON record or an SGF file holding one game (at its last move)."""
    spec, moves, seed = read_game_file(text)
    return new_board(load_game(spec), seed, moves)


def new_board(game: Any, seed: int | None, moves: Any) -> Board:
    """A board of ``game`` after ``moves`` (a string or a list of them, as the browser sends)."""
    board = Board(game, seed)
    _replay(board, _moves(game, moves))
    return board


def _replay(board: Board, moves: list[int]) -> None:
    for number, move in enumerate(moves, 1):
        try:
            board.play(move)
        except ArenaError as exc:
            raise ArenaError(f"move {number}: {exc}") from None


def _moves(game: Any, moves: Any) -> list[int]:
    if isinstance(moves, list) and all(isinstance(m, str) for m in moves):
        if len(moves) > MAX_PLIES:
            raise BadMessage(f"too many moves (at most {MAX_PLIES})")
        return game.parse_moves(moves)  # type: ignore[no-any-return]
    if isinstance(moves, str):
        if len(moves) > 20 * MAX_PLIES:
            raise BadMessage(f"too many moves (at most {MAX_PLIES})")
        return game.parse_moves(moves)  # type: ignore[no-any-return]
    raise BadMessage("'moves' is a string of moves or a list of them")


def _int(msg: dict[str, Any], key: str, low: int, high: int) -> int:
    value = msg.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise BadMessage(f"{key!r} must be a whole number in {low}..{high}, not {value!r}")
    return value


def _optional_int(msg: dict[str, Any], key: str, low: int, high: int) -> int | None:
    return None if msg.get(key) is None else _int(msg, key, low, high)


def _number(msg: dict[str, Any], key: str, low: float, high: float) -> float:
    value = msg.get(key)
    ok = isinstance(value, int | float) and not isinstance(value, bool)
    if not ok or not math.isfinite(value) or not low <= value <= high:
        raise BadMessage(f"{key!r} must be a number in {low:g}..{high:g}, not {value!r}")
    return float(value)


def _shorten(text: str, most: int = MAX_ERROR) -> str:
    """An error message of at most ``most`` characters (it may quote what was sent).

    >>> _shorten("unknown game " + "x" * 1000, 30)
    'unknown game xxxxxxxxxxxxxx...'
    """
    return text if len(text) <= most else text[: most - 3] + "..."


def _finite(data: Any) -> Any:
    """JSON-safe: infinities and NaN (which browsers' JSON.parse refuses) become None."""
    if isinstance(data, float):
        return data if math.isfinite(data) else None
    if isinstance(data, dict):
        return {k: _finite(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [_finite(v) for v in data]
    return data


def _stop(search: Search) -> None:
    """Tell a search to answer now: through its listener, and its own ``stop`` if it has one."""
    search.stop.set()
    stop = getattr(search.agent, "stop", None)  # users' classes may not have it
    if stop is not None:
        stop()


def _keep_stopping(search: Search) -> None:
    """Stop ``search`` now and again every :data:`RESTOP` seconds until its thread ends: a
    request that came before the agent's search started (or between its parts) is
    repeated, not lost. On the event loop."""
    if search.ended.is_set():
        return
    _stop(search)
    with contextlib.suppress(RuntimeError):  # no event loop (a session closed outside one)
        asyncio.get_running_loop().call_later(RESTOP, _keep_stopping, search)


def _call_soon(loop: asyncio.AbstractEventLoop, *args: Any) -> None:
    """From a search thread: run on the event loop (which may have closed: then nothing)."""
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(*args)


def _resolve(future: asyncio.Future, result: Any) -> None:  # type: ignore[type-arg]
    if not future.done():
        future.set_result(result)


def _quiet(task: asyncio.Task) -> None:  # type: ignore[type-arg]
    """Log a failure of the code that finishes a search (a bug), keep serving."""
    if not task.cancelled() and task.exception() is not None:
        log.error("search bookkeeping failed", exc_info=task.exception())
