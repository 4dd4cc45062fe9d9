"""The agent interface: what the referee, the tools and every kind of agent agree on.

An :class:`Agent` chooses a move within a :class:`~arena.core.limit.Limit` and
reports its last search as :class:`SearchInfo` (and, while it searches, snapshots
of it to an optional :attr:`Agent.listener`); :func:`start_game` tells any
agent-like object (users' classes too) that a game starts. :class:`Resign` and
:class:`Undo` are what an agent may raise instead of answering a move: the
referee's vocabulary, raised by people and engines alike.

Agents by name live in :mod:`arena.agents` (``load_agent``); tests in
``tests/agents/test_agent_api.py``.

Tests: tests/agents/test_agent_api.py
"""

from __future__ import annotations

import functools
import inspect
import operator
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from arena.core.errors import ArenaError, GameOver
from arena.core.game import Game, State
from arena.core.limit import Limit
from arena.core.spec import Param, bind_params, format_spec


class Resign(Exception):
    """The person typed ``quit``."""


class Undo(Exception):
    """The person asked to take back their last move (the match decides if it may)."""


@dataclass
class SearchInfo:
    """What an agent's last search did, for people and for match statistics."""

    seconds: float = 0.0
    depth: int | None = None
    nodes: int = 0
    """Positions (alpha-beta) or simulations (MCTS)."""
    value: float | None = None
    """The root value for the player to move (search units; MCTS: win rate)."""
    root: list[dict[str, Any]] = field(default_factory=list)
    """Top root moves: ``{"move": str, ...}`` with visits / value / pv as the agent knows them."""
    method: str = ""
    """How the move was found, for agents with more than one way: ``exact`` (a
    solved position, value in the solvers' score units), ``book`` (an opening book's
    move, played without a search: ``ids`` on Othello) or ``ids``."""
    engine: str | None = None
    """Which implementation searched, where an agent has several (MCTS: fast or python)."""
    units: str = ""
    """One line on what the values mean (their unit, for whom, their range), for people."""


Listener = Callable[[SearchInfo], bool]
"""Receives snapshots of a running search; returning True asks the search to stop."""


class Agent(ABC):
    """Chooses moves. Subclasses declare ``name``, ``summary`` and ``params``.

    ``listener`` (None unless a tool sets it, e.g. the web board) gets a
    :class:`SearchInfo` of the search so far about every ``progress_every``
    seconds from searches that call :meth:`report`; it runs on the search's
    thread and may ask the search to stop early by returning True.

    >>> import arena
    >>> agent = arena.load_agent("mcts:rollouts=5000,seed=1")
    >>> seen = []
    >>> agent.listener = lambda info: seen.append(info.nodes) or len(seen) == 2
    >>> agent.progress_every = 0.0          # every iteration, for the example
    >>> game = arena.load_game("connect4")
    >>> _ = agent.choose(game.initial_state(), arena.Limit())
    >>> len(seen), agent.last_search.nodes < 5000   # the listener stopped it
    (2, True)
    """

    name: ClassVar[str]
    summary: ClassVar[str]
    params: ClassVar[tuple[Param, ...]] = ()
    notes: ClassVar[tuple[str, ...]] = ()
    """More lines ``arena agents`` prints under the parameters."""
    param_hint: ClassVar[str] = ""
    """Said after the valid parameters when a spec gives an unknown one: where the
    parameter the user meant lives, if not here."""
    listener: Listener | None = None
    progress_every: float = 0.1
    _next_report: float = 0.0

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # A user's subclass may declare nothing: it is then named after itself.
        super().__init_subclass__(**kwargs)
        if not hasattr(cls, "name"):
            cls.name = cls.__name__
        if not hasattr(cls, "summary"):
            doc = inspect.cleandoc(cls.__dict__.get("__doc__") or "")
            cls.summary = doc.splitlines()[0] if doc else cls.__name__
        choose = cls.__dict__.get("choose")
        if callable(choose) and not getattr(choose, "__isabstractmethod__", False):
            cls.choose = _refusing_finished(choose)  # type: ignore[method-assign]

    def __init__(self, **params: Any) -> None:
        self.config: dict[str, Any] = bind_params(self.name, self.params, params, self.param_hint)
        self.spec: str = format_spec(self.name, self.config, self.params)
        self.last_search: SearchInfo | None = None
        self._setup(**self.config)

    def _setup(self, **values: Any) -> None:
        """Derive state from the bound parameters."""

    def reset(self, game: Game | None = None) -> None:
        """A new game of ``game`` starts: build per-game tables now, off the clock."""

    def observe(self, state: State, move: int) -> None:
        """``move`` was played in ``state`` (by either side)."""

    @abstractmethod
    def choose(self, state: State, limit: Limit) -> int:
        """A legal move of ``state`` within ``limit``."""

    def stop(self) -> None:
        """Ask the running search to answer soon (within a tenth of a second: a web board's
        closed page waits on it); called from another thread. Every built-in search
        overrides it; a stop while no search runs concerns none. Agents that cannot be
        interrupted (users' classes) stop at their limit, or when the listener returns True."""

    def report(self, snapshot: Callable[[], SearchInfo], force: bool = False) -> bool:
        """For searches: hand the listener ``snapshot()`` if ``progress_every`` seconds
        have passed since the last one (or ``force``); True when it asks to stop.
        Searches call it only when ``listener`` is set, so it costs nothing otherwise."""
        listener = self.listener
        if listener is None:
            return False
        now = time.perf_counter()
        if not force and now < self._next_report:
            return False
        self._next_report = now + self.progress_every
        return bool(listener(snapshot()))

    def close(self) -> None:
        """The game is over: release what the agent holds for it (a program in another
        process ends here). Nothing by default."""

    def __repr__(self) -> str:
        return f"load_agent({self.spec!r})"


def _refusing_finished(choose: Callable[..., int]) -> Callable[..., int]:
    """``choose`` that first refuses a finished game with :class:`GameOver`: every agent's
    search assumes a move to make, and would otherwise fail inside itself (an empty
    ``max``, an index out of range) with nothing to say what was asked. Wrapped once per
    class that defines ``choose``; a check of a few attribute reads a move."""
    if getattr(choose, "_refuses_finished", False):
        return choose

    @functools.wraps(choose)
    def checked(self: Any, state: State, *args: Any, **kwargs: Any) -> int:
        if state.is_terminal():
            name = getattr(self, "spec", None) or type(self).__name__
            raise GameOver(f"{name}: no move: the game is over ({state.result_text()})")
        return choose(self, state, *args, **kwargs)

    checked._refuses_finished = True  # type: ignore[attr-defined]
    return checked


def start_game(agent: Any, game: Game, **context: Any) -> None:
    """Tell an agent a new game starts: ``reset(game)``, or ``reset()`` for users' classes
    written without the argument, or nothing when it has no ``reset``.

    ``context`` (``player``: the agent's side, ``seed``: of the initial position,
    ``grace``: how far past its hard bound a move may run) goes to agents whose
    ``reset`` takes those keywords, such as programs in other processes that must
    be told their side before the clock starts and are killed past the grace.
    """
    reset = getattr(agent, "reset", None)
    if reset is None:
        return
    try:
        params = inspect.signature(reset).parameters
    except (TypeError, ValueError):
        params = {}  # type: ignore[assignment]
    if not params:
        reset()
        return
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    reset(game, **{k: v for k, v in context.items() if takes_any or k in params})


def choose_problem(cls: type) -> str:
    """What is wrong with a user's class as an agent ("" when nothing): no ``choose``, or
    a ``choose`` that cannot be called as the referee calls it, ``choose(state, limit)``.
    Named at the user's own ``def`` line, since the call that would fail is the referee's.

    >>> class Mine:
    ...     def choose(self, state):
    ...         return 0
    >>> choose_problem(Mine)  # doctest: +ELLIPSIS
    'Mine.choose(self, state) at ...: the referee calls choose(state, limit); add the limit...'
    """
    choose = getattr(cls, "choose", None)
    if not callable(choose):
        return f"class {cls.__name__} has no choose(state, limit) method"
    try:
        signature = inspect.signature(choose)
    except (TypeError, ValueError):
        return ""
    static = isinstance(inspect.getattr_static(cls, "choose", None), staticmethod)
    try:
        signature.bind(*[None] * (2 if static else 3))  # (self,) state, limit
    except TypeError:
        pass
    else:
        return ""
    where = _where(choose)
    return (
        f"{cls.__name__}.choose{signature} at {where}: the referee calls choose(state, limit); "
        "add the limit (an arena.Limit: time, clock, depth... for this move)"
    )


def _where(function: Any) -> str:
    """``mine.py:12``: where a function is defined (its file's name and the line)."""
    try:
        path = inspect.getsourcefile(function) or "?"
        line = inspect.getsourcelines(function)[1]
    except (OSError, TypeError):
        return "?"
    return f"{path.rsplit('/', 1)[-1]}:{line}"


def answer_problem(state: State, move: Any) -> str:
    """What is wrong with ``move`` as an answer of ``choose(state, ...)``; "" when nothing.

    A move is one of ``state.legal_moves()``, an int (or any integer, such as numpy's:
    what ``operator.index`` takes); text is the most common slip in users' classes,
    and the game's notation is not what the referee takes:

    >>> import arena
    >>> state = arena.load_game("connect4").initial_state()
    >>> answer_problem(state, 3)
    ''
    >>> answer_problem(state, "4")  # doctest: +NORMALIZE_WHITESPACE
    "choose() must return one of state.legal_moves(), an int; it returned a str ('4'):
    use state.game.parse_move('4') to read a move written in the game's notation"
    >>> import numpy
    >>> answer_problem(state, numpy.int64(3))
    ''
    >>> answer_problem(state, 9)
    'illegal move 9: no such column (1..7)'
    """
    index = None if isinstance(move, bool) else _integer(move)
    if index is not None:
        if index in state.legal_moves():
            return ""
        try:
            state.play(index)
        except ArenaError as exc:
            return f"illegal move {index!r}: {getattr(exc, 'reason', str(exc))}"
        return f"illegal move {index!r}: not among the legal moves"
    kind = type(move).__name__
    hint = (
        f": use state.game.parse_move({move!r}) to read a move written in the game's notation"
        if isinstance(move, str)
        else ""
    )
    return (
        f"choose() must return one of state.legal_moves(), an int; "
        f"it returned a {kind} ({move!r}){hint}"
    )


def _integer(move: Any) -> int | None:
    try:
        return operator.index(move)
    except TypeError:
        return None


def end_game(agent: Any) -> None:
    """Tell an agent its game is over: ``close()`` when it has one (users' classes may not)."""
    close = getattr(agent, "close", None)
    if callable(close):
        close()
