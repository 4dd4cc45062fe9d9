"""Tic-tac-toe and any m,n,k-game: ``rules`` (the notation, on the shared
k-in-a-row rules of :mod:`arena.games.kinarow`) and ``heuristic`` (open lines
weighted by their stones, and the threat verdicts).
"""
