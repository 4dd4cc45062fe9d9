"""Minimax, alpha-beta and iterative deepening, and the compiled engines of ``ids``.

- :mod:`~arena.search.alphabeta.minimax`: plain minimax (the ``minimax`` agent), the
  reference the others are checked against;
- :mod:`~arena.search.alphabeta.alphabeta`: depth-limited negamax with alpha-beta pruning,
  a transposition table and move ordering (the ``alphabeta`` agent);
- :mod:`~arena.search.alphabeta.ids`: iterative deepening that answers in time (the
  ``ids`` agent), which runs a game's compiled engine where there is one;
- :mod:`~arena.search.alphabeta.engines`: the compiled engines (Connect Four, Gomoku,
  Othello) and what they share (the deepening driver, the table's values).

Nothing is imported here, so importing a part never loads numba.
"""
