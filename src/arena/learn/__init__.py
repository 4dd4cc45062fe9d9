"""Learning evaluations from self-play (issue 28): ``arena train`` and what it stands on.

- :mod:`~arena.learn.selfplay`: games the ``az`` search plays against itself with root
  noise and a temperature, each position kept as ``(planes, visit distribution,
  outcome)``, and the replay buffer file those records go to;
- :mod:`~arena.learn.model`: the network in JAX (the ``learn`` extra, imported only when
  a model is built), its loss and training step, and the export to the ``.npz`` format
  the ``az`` agent plays without JAX;
- :mod:`~arena.learn.augment`: the board's symmetries applied to training records;
- :mod:`~arena.learn.checkpoint`: a run's state in one file, written atomically;
- :mod:`~arena.learn.evaluate`: evaluation matches and their Elo;
- :mod:`~arena.learn.figure`: the run's SVG figure (Elo against time, the losses);
- :mod:`~arena.learn.train`: the loop of ``arena train`` (docs/az.md).
"""
