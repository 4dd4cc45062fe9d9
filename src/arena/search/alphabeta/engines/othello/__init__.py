"""The compiled Othello engine of ``ids``, one idea a module.

- :mod:`~arena.search.alphabeta.engines.othello.engine`: the engine ``ids`` builds
  (``make_engine``): the book, the exact endgame, iterative deepening, the threads;
- :mod:`~arena.search.alphabeta.engines.othello.search`: the compiled negascout (PVS)
  over bitboards, its table and ProbCut's checks;
- :mod:`~arena.search.alphabeta.engines.othello.evaluation`: the fitted evaluation
  (features and pattern families, ``patterns.npz``);
- :mod:`~arena.search.alphabeta.engines.othello.probcut`: Multi-ProbCut's fitted table;
- :mod:`~arena.search.alphabeta.engines.othello.book`: the opening book.

Nothing is imported here, so importing a part loads only what it needs.

Tests: tests/search/test_engine_othello.py, tests/search/test_othello_patterns.py,
tests/search/test_othello_probcut.py, tests/search/test_othello_book.py
"""
