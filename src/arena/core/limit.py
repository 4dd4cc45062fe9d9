"""``Limit``: how much an agent may search for one move — whichever bound comes first.

>>> Limit(time=0.5, depth=4)
Limit(time=0.5, depth=4)
>>> Limit(rollouts=100).rollouts
100
>>> Limit(time=0.1, clock=1.0, increment=0.1)  # what the referee gives on a 1+0.1 clock
Limit(time=0.1, clock=1.0, increment=0.1)
>>> Limit(time=-1)
Traceback (most recent call last):
...
arena.core.errors.SpecError: Limit: time must be > 0, not -1

Tests: tests/agents/test_agent_api.py, tests/compete/test_match.py
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from arena.core.errors import SpecError

DEFAULT_GRACE = 0.05
"""Seconds a move may run past its hard bound (the clock, or the move's time) before
it is lost on time: room for process and pipe overhead. The referee, the agents in
other processes and the command line's ``--grace`` default all use this one value."""


@dataclass(frozen=True)
class Limit:
    time: float | None = None
    """Seconds for the move: a hard deadline the agent must answer within."""
    depth: int | None = None
    """Plies of look-ahead (alpha-beta) or of tree depth."""
    rollouts: int | None = None
    """Simulations (MCTS)."""
    nodes: int | None = None
    """Positions searched (alpha-beta)."""
    clock: float | None = None
    """Seconds left on the mover's clock when there is one: the hard bound behind
    ``time`` (the referee forfeits past it). Agents in other processes are told it.
    An agent that manages its own time (``ids``, ``greedy``) decides from this
    (see :mod:`arena.search.clock.time_management`); the others just use ``time``, the referee's
    default share."""
    increment: float | None = None
    """Seconds added to the clock after this move (Fischer; None: none)."""
    moves_to_go: int | None = None
    """Moves the clock must last before it is filled again (a byo-yomi period's
    stones; None: the rest of the game)."""

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if value is not None and not value > 0:
                raise SpecError(f"Limit: {f.name} must be > 0, not {value}")

    def __repr__(self) -> str:
        set_ = [
            f"{f.name}={getattr(self, f.name)!r}"
            for f in fields(self)
            if getattr(self, f.name) is not None
        ]
        return f"Limit({', '.join(set_)})"

    @property
    def unbounded(self) -> bool:
        return all(getattr(self, f.name) is None for f in fields(self))
