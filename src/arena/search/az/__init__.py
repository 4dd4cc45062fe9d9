"""AlphaZero: a policy and value network guiding a PUCT search (issue 28's foundation).

- :mod:`~arena.search.az.planes`: a position as the network's input planes, and the
  action space (which moves the policy head scores) of each game it knows;
- :mod:`~arena.search.az.network`: the ``.npz`` network format (load, check, save, a random
  network) and its readable numpy forward pass, the reference;
- :mod:`~arena.search.az.kernel`: the same forward pass compiled with numba, over a batch;
- :mod:`~arena.search.az.puct`: the PUCT search over node arrays (AlphaZero's selection,
  priors, sign-flipped backup, Dirichlet noise at the root, temperature, leaves batched
  with virtual loss);
- :mod:`~arena.search.az.gumbel`: Gumbel MuZero's root selection (Gumbel draws, Sequential
  Halving, the completed-Q improved policy) over the same tree;
- :mod:`~arena.search.az.agent`: the ``az`` agent (``az:net=FILE,sims=N,c_puct=...``);
- :mod:`~arena.search.az.value`: the value head alone as the cut-off evaluation of the
  depth-limited searches (``alphabeta:eval=net:FILE``).

Playing needs numpy and numba only, never a training library. The room stands on
``clock/`` and knows no other search; ``alphabeta/`` evaluates with :mod:`.value`.
"""
