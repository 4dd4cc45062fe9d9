"""Connect Four: ``rules`` (the State API) and ``heuristic`` (evaluation for search)."""
