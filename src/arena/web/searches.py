"""The players' agents and their searches, each on a thread of its own, and their limits.

A :class:`Search` runs an agent's ``choose`` on a thread (:meth:`Search.start`), passes
its progress to the event loop through the agent's ``listener``, and resolves a future
with the move (or the agent's error) when the thread ends. A search that is no longer
wanted is asked to stop through that listener and the agent's ``stop``, again every
:data:`RESTOP` seconds until its thread ends (:meth:`Search.cancel`), and its answer is
dropped. Running searches (stopped ones until their threads end) count against
:class:`Searches`: at most :data:`MAX_SEARCHES` per client address and
:data:`MAX_SEARCHES_TOTAL` in all. :class:`Players` keeps who plays each side of a
board and their agents, and which must start the game again before their next move.

What the board does with a search's answer (plays it, shows a hint) is the session's
(:mod:`arena.web.session`); nothing here knows about the browser.

Tests: tests/web/test_searches.py, tests/web/test_hostile.py
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from arena.core.agent import Agent, SearchInfo, end_game, start_game
from arena.core.game import State
from arena.core.limit import Limit
from arena.web.board import Board
from arena.web.catalog import check_agent
from arena.web.messages import BadMessage, finite

log = logging.getLogger("arena.web")

PERSON = "person"
"""A side played by a person in the browser, not an agent."""
MAX_ROWS = 120
"""Root moves sent per search message (a 19x19 board has 362)."""
MAX_SEARCHES = 8
"""Searches running at once for one client address (one per board it may open)."""
MAX_SEARCHES_TOTAL = 24
"""Searches running at once on the server."""
RESTOP = 0.05
"""Seconds between repeats of a stop request while the search's thread runs (a request
that came before the agent's search began is not lost)."""
PROGRESS_EVERY = 0.05
"""Seconds at least between two progress messages of one search."""

Answer = tuple[int | None, BaseException | None]
"""What a search's thread ends with: the move, or the agent's failure."""


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
        """A search of ``client`` ended (its thread did)."""
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


@dataclass
class Search:
    """A search running on its own thread for one position of the board."""

    number: int
    purpose: str
    """``move`` (an agent's turn), ``analyze``, ``sweep`` or ``hint``."""
    agent: Agent
    ply: int
    to_move: int
    stop: threading.Event = field(default_factory=threading.Event)
    ended: threading.Event = field(default_factory=threading.Event)
    """Set by the search's thread as it ends."""
    cancelled: bool = False
    """The answer is no longer wanted: drop it."""
    last_sent: float = 0.0

    def start(
        self,
        state: State,
        limit: Limit,
        on_progress: Callable[[Search, SearchInfo], None],
        on_end: Callable[[], None],
        begin: Callable[[], None] | None = None,
    ) -> asyncio.Future[Answer]:
        """Run ``agent.choose(state, limit)`` on a thread of its own; on the event loop.

        ``begin`` runs first on the thread (an agent's start of the game may load compiled
        code or build tables: there, not on the loop); ``on_end`` runs on the thread as it
        ends, whatever happened (release the search's count there); ``on_progress`` runs
        on the event loop with each report of the agent. The future resolves on the event
        loop with the move, or the agent's failure (reported, not raised).
        """
        agent = self.agent
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Answer] = loop.create_future()

        def listener(info: SearchInfo) -> bool:
            call_soon(loop, on_progress, self, info)
            return self.stop.is_set()

        def work() -> None:
            try:
                if begin is not None:
                    begin()
                result: Answer = (agent.choose(state, limit), None)
            except Exception as exc:  # an agent's failure is reported, not raised
                result = (None, exc)
            finally:
                on_end()
                self.ended.set()
            call_soon(loop, _resolve, done, result)

        agent.listener = listener
        threading.Thread(target=work, name=f"arena-web-{self.purpose}", daemon=True).start()
        return done

    def due(self, now: float) -> bool:
        """Whether a progress message may go now (at most one every
        :data:`PROGRESS_EVERY` seconds); if so, it counts as sent."""
        if now - self.last_sent < PROGRESS_EVERY:
            return False
        self.last_sent = now
        return True

    def ask_to_stop(self) -> None:
        """Tell the search to answer now: through its listener, and its agent's ``stop`` if
        it has one."""
        self.stop.set()
        stop = getattr(self.agent, "stop", None)  # users' classes may not have it
        if stop is not None:
            stop()

    def keep_stopping(self) -> None:
        """Stop now and again every :data:`RESTOP` seconds until the thread ends: a request
        that came before the agent's search started (or between its parts) is repeated, not
        lost. On the event loop."""
        if self.ended.is_set():
            return
        self.ask_to_stop()
        with contextlib.suppress(RuntimeError):  # no event loop (a session closed outside one)
            asyncio.get_running_loop().call_later(RESTOP, self.keep_stopping)

    def cancel(self) -> None:
        """The answer is no longer wanted: drop it, and stop the search."""
        self.cancelled = True
        self.keep_stopping()

    def message(self, info: SearchInfo, final: bool) -> dict[str, Any]:
        """The ``search`` message of a report of this search (JSON-safe, at most
        :data:`MAX_ROWS` root moves)."""
        data = finite(asdict(info))
        data["root"] = data["root"][:MAX_ROWS]
        data["rate"] = round(info.nodes / info.seconds) if info.seconds > 0 else None
        return {
            "type": "search",
            "id": self.number,
            "purpose": self.purpose,
            "agent": self.agent.spec,
            "ply": self.ply,
            "side": self.to_move,
            "final": final,
            "info": data,
        }


class Players:
    """Who plays each side of a board: ``specs`` (an agent spec, or :data:`PERSON`) and
    their agents (None for a person).

    An agent starts the game (``reset``: compiled code may load, tables are built) off
    the event loop: :func:`ready_agents` before the game, or on its next search's thread
    when it is *unready* (:meth:`restart`, :meth:`starts`).

    >>> players = Players(["person", "random"], [None, check_agent("random", False)])
    >>> players.person(0), players.person(1), players.label(0), players.starts(1)
    (True, False, 'person', False)
    >>> players.restart(); players.starts(1), players.starts(1)
    (True, False)
    """

    def __init__(
        self, specs: list[str] | None = None, agents: list[Agent | None] | None = None
    ) -> None:
        self.specs = [PERSON, PERSON] if specs is None else list(specs)
        self.agents: list[Agent | None] = [None, None] if agents is None else list(agents)
        self.unready: set[int] = set()
        """Sides whose agent has not started the game yet: it does, on its search's thread,
        before its next move."""

    def agent(self, side: int) -> Agent | None:
        """The agent of ``side``, None for a person."""
        return self.agents[side]

    def person(self, side: int) -> bool:
        """Whether a person plays ``side``."""
        return self.agents[side] is None

    def label(self, side: int) -> str:
        """The name of ``side``'s player in a game record."""
        return "person" if self.specs[side] == PERSON else self.specs[side]

    def restart(self) -> None:
        """The agents start over from the position shown (they may keep trees per game):
        each does on its next search's thread (a first start may load compiled code)."""
        self.unready = {side for side, agent in enumerate(self.agents) if agent is not None}

    def starts(self, side: int) -> bool:
        """Whether ``side``'s agent must start the game before its move (then it counts as
        started)."""
        fresh = side in self.unready
        self.unready.discard(side)
        return fresh

    def observe(self, state: State, move: int) -> None:
        """``move`` was played in ``state``: tell the agents that follow the game."""
        for side, agent in enumerate(self.agents):
            if side in self.unready:
                continue  # it starts over from the position before its next move anyway
            observe = getattr(agent, "observe", None)  # users' classes may not have it
            if observe is not None:
                observe(state, move)

    def close(self) -> None:
        """Release the agents (programs in other processes end); people play both sides."""
        close_agents(self.agents)
        self.agents = [None, None]


def check_players(players: Any, allow_programs: bool) -> list[str]:
    """The players of a message: two agent specs (each checked, in its full form) or
    :data:`PERSON`."""
    if not isinstance(players, list) or len(players) != 2:
        raise BadMessage("'players' is a list of two: agent specs or 'person'")
    return [
        PERSON if spec == PERSON else check_agent(spec, allow_programs).spec for spec in players
    ]


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


def close_agents(agents: list[Agent | None]) -> None:
    """Release the agents of a game that ended (programs in other processes end)."""
    for agent in agents:
        close = getattr(agent, "close", None)  # users' classes may not have it
        if close is not None:
            try:
                close()
            except Exception:  # a program that will not close must not break the board
                log.warning("closing %r failed", agent, exc_info=True)


def call_soon(loop: asyncio.AbstractEventLoop, *args: Any) -> None:
    """From a search thread: run on the event loop (which may have closed: then nothing)."""
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(*args)


def _resolve(future: asyncio.Future[Answer], result: Answer) -> None:
    if not future.done():
        future.set_result(result)
