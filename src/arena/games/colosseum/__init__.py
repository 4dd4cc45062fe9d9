"""Colosseum Survival: ``rules`` (the State API) and ``heuristic`` (evaluation for search)."""
