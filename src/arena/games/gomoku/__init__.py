"""Gomoku: ``rules`` (the State API) and ``heuristic`` (evaluation for search)."""
