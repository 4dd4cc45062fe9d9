"""Exact solvers: the value of a position with perfect play by both sides.

- :mod:`arena.solvers.connect4`: a strong Connect Four solver (compiled
  bitboard negamax in the manner of Pascal Pons' tutorial "Solving Connect 4").
- :mod:`arena.solvers.othello`: an Othello endgame solver (compiled, exact disc
  difference with the empty squares counted for the winner).
- :mod:`arena.solvers.generic`: alpha-beta with a bounds table over the State
  API, for any game whose tree is small enough.
- :mod:`arena.solvers.solve`: one front door, :func:`~arena.solvers.solve.solve_state`,
  that picks the right solver for a game.

The compiled solvers import numba only when they are first used, so
``import arena`` stays fast.
"""
