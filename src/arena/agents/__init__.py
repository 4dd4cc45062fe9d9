"""Agents: anything that chooses a move in a state within a :class:`~arena.core.limit.Limit`.

This layer owns the registry that turns a spec string into an agent
(:func:`load_agent`: built-in names, ``py:`` classes, and the ``cmd:`` and
``gtp:`` prefixes whose agents live in :mod:`arena.remote`) and the simple
agents (random, greedy, human, users' classes). The interface itself is
:mod:`arena.core.agent`; the search agents are in :mod:`arena.search`. It
imports ``core`` and ``search`` (``remote`` on the first ``cmd:`` or ``gtp:``
spec), never the referee.
"""

from arena.agents.registry import load_agent
from arena.core.agent import Agent, SearchInfo, start_game

__all__ = ["Agent", "SearchInfo", "load_agent", "start_game"]
