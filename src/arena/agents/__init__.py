"""Agents: anything that chooses a move in a state within a :class:`~arena.limit.Limit`."""

from arena.agents.base import Agent, SearchInfo, load_agent

__all__ = ["Agent", "SearchInfo", "load_agent"]
