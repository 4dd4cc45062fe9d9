"""The agent interface and ``load_agent`` for spec strings.

>>> import random, arena
>>> agent = arena.load_agent("random:seed=7")
>>> game = arena.load_game("tictactoe")
>>> agent.choose(game.initial_state(), arena.Limit(time=1.0)) in range(9)
True
>>> arena.load_agent("random:depth=2")
Traceback (most recent call last):
...
arena.errors.SpecError: random: unknown parameter 'depth'; valid: seed=fresh (int): random seed
"""

from __future__ import annotations

import inspect
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, ClassVar

from arena.errors import SpecError
from arena.game import Game, State
from arena.limit import Limit
from arena.spec import Param, bind_params, format_spec, split_spec


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

    def __repr__(self) -> str:
        return f"load_agent({self.spec!r})"


def start_game(agent: Any, game: Game, **context: Any) -> None:
    """Tell an agent a new game starts: ``reset(game)``, or ``reset()`` for users' classes
    written without the argument, or nothing when it has no ``reset``.

    ``context`` (``player``: the agent's side, ``seed``: of the initial position)
    goes to agents whose ``reset`` takes those keywords, such as programs in
    other processes that must be told their side before the clock starts.
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


_WHERE = {
    "random": "arena.agents.random_agent:RandomAgent",
    "greedy": "arena.agents.greedy:GreedyAgent",
    "human": "arena.agents.human:HumanAgent",
    "minimax": "arena.agents.minimax:MinimaxAgent",
    "alphabeta": "arena.agents.alphabeta:AlphaBetaAgent",
    "ids": "arena.agents.ids:IDSAgent",
    "mcts": "arena.agents.mcts:MCTSAgent",
}


def agent_names() -> tuple[str, ...]:
    return tuple(_WHERE)


def agent_class(name: str) -> type[Agent]:
    module, _, cls = _WHERE[name].partition(":")
    return getattr(import_module(module), cls)  # type: ignore[no-any-return]


def load_agent(spec: str | Agent) -> Agent:
    """The agent a spec string names: ``name[:key=value,...]``."""
    if isinstance(spec, Agent):
        return spec
    head = spec.strip()[:4].lower()
    if head.startswith("py:"):
        from arena.agents.pyclass import load_py_agent

        return load_py_agent(spec.strip())  # type: ignore[no-any-return]
    if head == "cmd:":
        from arena.agents.command import CommandAgent

        return CommandAgent(spec)
    if head == "gtp:":
        from arena.agents.gtp_agent import GTPAgent

        return GTPAgent(spec)
    name, raw = split_spec(spec)
    if name not in _WHERE:
        valid = ", ".join([*_WHERE, "py:FILE.py:CLASS", "cmd:COMMAND", "gtp:COMMAND"])
        raise SpecError(f"unknown agent {name!r}; valid: {valid}")
    return agent_class(name)(**raw)
