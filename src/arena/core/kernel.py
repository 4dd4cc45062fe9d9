"""The contract of a game's compiled kernel (numba), and the Python handle that carries it.

A kernel is the same rules as the game's State API (``games/<game>/rules.py``,
the readable reference), written as plain functions over explicit arrays so
numba can compile them (``@njit(cache=True)``, nopython), the way mctx writes
search. Each game's ``games/<game>/kernel.py`` provides:

- module-level jitted functions, every one taking ``(p, s, ...)`` where ``p``
  is the game's parameter array and ``s`` a position, both 1-D ``np.int64``
  arrays whose layout is the kernel's own business:

  ``legal_moves(p, s, out) -> int``
      Write the legal moves into ``out[:n]`` and return ``n``: the same ints
      as ``State.legal_moves()``, in the same order; 0 when the game is over.
  ``play(p, s, move) -> None``
      Play a legal move in place.
  ``to_move(p, s) -> int``
      0 or 1, as ``State.to_move``.
  ``outcome(p, s) -> int``
      ``ONGOING`` while the game goes on, else the first player's return
      (+1, 0 or -1), as ``State.returns()[0]``.
  ``playout(p, s) -> int``
      Finish the game in place with uniformly random legal moves (numba's own
      ``np.random``, seeded by ``seed``) and return ``outcome``.
  ``rollout(p, s) -> int``
      The game's cheap rollout policy (may take shortcuts such as not filling
      one's own eyes in Go, which the rules never do); ``playout`` where the
      game has none.
  ``seed(n) -> None``
      Seed numba's generator (``np.random.seed(n)`` inside compiled code).

- ``kernel(game) -> Kernel``: the parameter array for the game's parameters,
  the bounds that size preallocated arrays, and ``encode``, which turns a
  :class:`~arena.core.game.State` into a new ``s``.

Generic compiled code (perft here, MCTS in ``arena.search``) receives the jitted
functions as arguments, which numba specialises and caches per game.

numba is imported only when a kernel is loaded, so ``import arena`` stays fast.
``NUMBA_DISABLE_JIT=1`` runs every kernel as plain Python, to debug it with
pdb or prints.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from arena.core.game import State

ONGOING = 2
"""``outcome`` of a position whose game goes on (returns are -1, 0 or +1)."""

FUNCTIONS = ("legal_moves", "play", "to_move", "outcome", "playout", "rollout", "seed")
"""The jitted functions every kernel module defines."""


@dataclass(frozen=True)
class Kernel:
    """One game's kernel for one parameter set (built by ``games/<game>/kernel.kernel(game)``)."""

    name: str
    """The game's spec."""
    params: Any
    """``p``: a 1-D np.int64 array of the game's parameters."""
    max_moves: int
    """An upper bound of the number of legal moves in any position."""
    max_plies: int
    """An upper bound of the plies left in any game (to size preallocated paths)."""
    encode: Callable[[State], Any]
    """``State`` -> a new position array ``s`` (1-D np.int64)."""
    functions: dict[str, Any]
    """The jitted functions by name (:data:`FUNCTIONS`)."""
