"""Tic-tac-toe (m,n,k): ``rules`` (the State API) and ``heuristic`` (evaluation for search)."""
