"""Agents: anything that chooses a move in a state within a :class:`~arena.limit.Limit`."""

from arena.agents.base import Agent, SearchInfo, load_agent, start_game

__all__ = ["Agent", "SearchInfo", "load_agent", "start_game"]
