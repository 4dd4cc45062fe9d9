"""Go: ``rules`` (the State API and the readable reference, with the whole-board
bit operations heuristics share: ``Go.adjacent``, ``Go.flood``, ``Go.groups``)
and ``heuristic`` (an area estimate with liberty penalties, and rollout
candidates that never fill a true eye).
"""
