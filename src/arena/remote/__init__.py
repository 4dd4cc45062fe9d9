"""Agents in other processes: the line protocol (both ends), agent processes with
limits, ``cmd:`` programs, and GTP (``remote/gtp``: the client and ``arena gtp``).

Imports ``core`` and ``games``; agents to serve are passed in as objects."""
