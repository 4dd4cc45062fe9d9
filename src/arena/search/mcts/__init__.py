"""Monte Carlo tree search: the ``mcts`` agent, its readable engine and its compiled one.

The agent and the readable reference engine:

- :mod:`~arena.search.mcts.agent`: ``MCTSAgent`` (the ``mcts`` agent: picks the engine)
  and ``TreeSearch``, the readable engine over linked nodes;
- :mod:`~arena.search.mcts.tree`: the nodes and their ``Proof`` (MCTS-Solver);
- :mod:`~arena.search.mcts.tree_policy`: UCT, ε-greedy;
- :mod:`~arena.search.mcts.evaluator`: random and heuristic rollouts;
- :mod:`~arena.search.mcts.options`: the agent's typed options;
- :mod:`~arena.search.mcts.root`: the final choice and the report, shared by both engines.

The compiled engine (numba, the tree in arrays, over a game's kernel):

- :mod:`~arena.search.mcts.kernel`: the compiled search; :mod:`~arena.search.mcts.driver`
  drives it from Python in short batches (``FastSearch``);
- :mod:`~arena.search.mcts.rave`: the compiled MC-RAVE search;
  :mod:`~arena.search.mcts.rave_driver` its driver (and ``engine``, which picks one);
- :mod:`~arena.search.mcts.batch_clock`: when a batch stops;
- :mod:`~arena.search.mcts.kernel_functions`: a kernel's functions passed by address;
- :mod:`~arena.search.mcts.warmup`: compile or load from numba's cache, the first-use
  notice, ``arena warmup``; :mod:`~arena.search.mcts.numba_cache`: quicker cache loads.

Nothing is imported here, so importing a part never loads numba.
"""
