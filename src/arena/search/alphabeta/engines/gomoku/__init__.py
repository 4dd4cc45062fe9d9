"""The compiled Gomoku engine of ``ids``, one idea a module.

- :mod:`~arena.search.alphabeta.engines.gomoku.engine`: the engine ``ids`` builds
  (``make_engine``): the position over k-windows, the evaluation, the alpha-beta and
  its threads;
- :mod:`~arena.search.alphabeta.engines.gomoku.patterns`: the line shapes and the
  empty cells' classes, read from precomputed tables;
- :mod:`~arena.search.alphabeta.engines.gomoku.threats`: the threat-space search
  (VCF, VCT).

Nothing is imported here, so importing a part loads only what it needs.

Tests: tests/search/test_engine_gomoku.py, tests/search/test_gomoku_patterns.py,
tests/search/test_gomoku_threats.py
"""
