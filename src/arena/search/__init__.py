"""Search over the State API: the deadline, values, minimax, alpha-beta, iterative
deepening and MCTS, and the report of a search (``SearchInfo`` rows).

Search agents know a game only through the State API and the game's
:class:`~arena.games.Knowledge` (its heuristic module). Imports ``core`` and
``games`` only; a new search agent is a module here, named in
:mod:`arena.agents.registry`.
"""
