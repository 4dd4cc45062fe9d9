"""An exact Othello endgame solver (compiled with numba).

- :mod:`.board`: bitboards, move generation and flips;
- :mod:`.search`: the endgame search (table of bounds, fastest-first ordering,
  parity and special code for the last empties);
- :mod:`.solver`: the Python API (:class:`~.solver.OthelloSolver`).

Scores are final disc differences for the side to move with the empty squares
counted for the winner, the convention of the FFO endgame test suite.
"""
