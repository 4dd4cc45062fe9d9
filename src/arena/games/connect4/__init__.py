"""Connect Four: ``rules`` (the State API, on the shared k-in-a-row rules of
:mod:`arena.games.kinarow`) and ``heuristic`` (open windows, threats with the
parity rule and centre control, for search).
"""
