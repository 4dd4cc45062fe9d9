"""Othello: ``rules`` (the State API and the readable reference; states expose
their discs and cached ``placements()``) and ``heuristic`` (mobility, corners,
stability and parity by game phase, and rollout candidates).
"""
