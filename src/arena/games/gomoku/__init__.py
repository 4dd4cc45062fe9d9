"""Gomoku: ``rules`` (the State API, on the shared k-in-a-row rules of
:mod:`arena.games.kinarow`) and ``heuristic`` (k-windows, open threes and
four/three verdicts, and rollout candidates near the stones).
"""
