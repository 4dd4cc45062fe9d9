"""Agents: anything that chooses a move in a state within a :class:`~arena.core.limit.Limit`."""

from arena.agents.registry import load_agent
from arena.core.agent import Agent, SearchInfo, start_game

__all__ = ["Agent", "SearchInfo", "load_agent", "start_game"]
