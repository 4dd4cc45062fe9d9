"""Learning evaluations from self-play (issue 28): what ``arena train`` will stand on.

- :mod:`~arena.learn.selfplay`: games the ``az`` search plays against itself with root
  noise and a temperature, each position kept as ``(planes, visit distribution,
  outcome)``, and the replay buffer file those records go to.

Training itself (an optional ``learn`` extra) is not here yet: see ``docs/az.md``.
"""
