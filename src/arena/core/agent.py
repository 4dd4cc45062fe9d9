"""The agent interface: what the referee, the tools and every kind of agent agree on.

An :class:`Agent` chooses a move within a :class:`~arena.core.limit.Limit` and
reports its last search as :class:`SearchInfo`; :func:`start_game` tells any
agent-like object (users' classes too) that a game starts. :class:`Resign` and
:class:`Undo` are what an agent may raise instead of answering a move: the
referee's vocabulary, raised by people and engines alike.

Agents by name live in :mod:`arena.agents` (``load_agent``); tests in
``tests/agents/test_agent_api.py``.

Tests: tests/agents/test_agent_api.py
"""

from __future__ import annotations

import inspect
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

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
    engine: str | None = None
    """Which implementation searched, where an agent has several (MCTS: fast or python)."""


class Agent(ABC):
    """Chooses moves. Subclasses declare ``name``, ``summary`` and ``params``."""

    name: ClassVar[str]
    summary: ClassVar[str]
    params: ClassVar[tuple[Param, ...]] = ()

    def __init__(self, **params: Any) -> None:
        self.config: dict[str, Any] = bind_params(self.name, self.params, params)
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

    def close(self) -> None:
        """The game is over: release what the agent holds for it (a program in another
        process ends here). Nothing by default."""

    def __repr__(self) -> str:
        return f"load_agent({self.spec!r})"


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


def end_game(agent: Any) -> None:
    """Tell an agent its game is over: ``close()`` when it has one (users' classes may not)."""
    close = getattr(agent, "close", None)
    if callable(close):
        close()
