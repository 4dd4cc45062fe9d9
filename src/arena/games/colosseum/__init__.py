"""Colosseum Survival: ``rules`` (the State API and the readable reference, with
the board geometry and the bit-parallel walks its heuristic shares: ``Board``,
``reach``, ``after_wall``) and ``heuristic`` (Voronoi evaluation, a one-move win
check and rollout candidates for search).
"""
