"""Agents in other processes: the line protocol (both ends), agent processes with
limits, ``cmd:`` programs, and GTP (``remote/gtp``: the client and ``arena gtp``).

Imports ``core`` and ``games`` (and ``search`` is below it); agents to serve
are passed in as objects, so it never needs the registry above it. The
referee's grace for programs comes from :data:`arena.core.limit.DEFAULT_GRACE`.
"""
