"""A strong Connect Four solver, layered as in Pascal Pons' tutorial "Solving Connect 4".

- :mod:`.position`: the bitboard position, its key and the win tests;
- :mod:`.sorter`: move ordering by the winning cells a move creates;
- :mod:`.table`: the transposition table of bounds;
- :mod:`.search`: negamax alpha-beta and the null-window root probe;
- :mod:`.solver`: the Python API (:class:`~.solver.Connect4Solver`).

Only :mod:`.solver` needs to be imported by users; it pulls in numba, so
this package does not import it eagerly.
"""
