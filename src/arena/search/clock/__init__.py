"""Time for search: every agent answers within its limit, on a loaded machine too.

- :mod:`~arena.search.clock.deadline`: the :class:`Deadline` of one move (it learns the
  longest unit of work and keeps a margin for the answer), ``SearchTimeout``, ``quiet_gc``;
- :mod:`~arena.search.clock.time_management`: how much of a game clock a move may spend
  (``move_time``);
- :mod:`~arena.search.clock.stopping`: when a Monte-Carlo search on a clock stops before
  its share (its choice settled) or after it (its choice in doubt);
- :mod:`~arena.search.clock.pauses`: the reserve for the scheduling pauses this process has
  lately suffered;
- :mod:`~arena.search.clock.compiled`: the monotonic clock numba-compiled code reads
  (``now_ns``, ``deadline_ns``);
- :mod:`~arena.search.clock.compiled_deadline`: the hard deadline a compiled search checks
  every few hundred nodes (``expired``).

This room imports no other room of ``search``: the searches use it, not the other way
round (the compiled MCTS's own stop rule, which reads its kernel's arrays, is
:mod:`arena.search.mcts.batch_clock`).
"""
