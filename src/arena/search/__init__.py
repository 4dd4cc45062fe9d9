"""Search over the State API: the deadline, values, minimax, alpha-beta, iterative
deepening and MCTS, and the report of a search (``SearchInfo`` rows).

Imports ``core`` and ``games`` only."""
