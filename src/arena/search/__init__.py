"""Search over the State API, in three rooms and two shared modules.

- :mod:`arena.search.mcts`: Monte Carlo tree search — the ``mcts`` agent and its readable
  engine, its parts (tree, tree policy, evaluator, options, the root's choice), the compiled
  engine (kernel, driver, MC-RAVE) and what gets it compiled and loaded.
- :mod:`arena.search.alphabeta`: minimax, alpha-beta and iterative deepening (``minimax``,
  ``alphabeta``, ``ids``) and the compiled alpha-beta engines ``ids`` runs per game.
- :mod:`arena.search.clock`: time — deadlines, time management on a clock, the reserve for
  the pauses this process suffers, and the monotonic clock compiled code reads.
- :mod:`arena.search.values` (what a value means: wins, bounds, units) and
  :mod:`arena.search.report` (the report of a search), shared by every room.

Search agents know a game only through the State API and the game's
:class:`~arena.games.Knowledge` (its heuristic module). Imports ``core`` and
``games`` only (and ``solvers``, its equal rank); a new search agent is a module in
its room, named in :mod:`arena.agents.registry`.
"""
