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

- optionally (:data:`OPTIONAL`; the compiled MCTS's RAVE, priors and ``rollout=tactics``
  use them where a game has them, the compiled ``az`` search ``owners``):

  ``trace(p, start, end, out) -> int``
      The moves played from position ``start`` to ``end`` (a later position of
      the same game, e.g. after a rollout) as ``move * 2 + player`` into
      ``out``, in the order played (only the first play of a move counts, so a
      game where a move can be played again must keep the order); passes may be
      left out. Their number is returned.
  ``prior(p, s, out) -> int``
      For every legal move ``m`` of the player to move, ``out[m]`` = a win
      rate in percent from the game's knowledge (50 neutral); returns 1, or 0
      (nothing written) where the position calls for no knowledge.
  ``tactics(p, s) -> int``
      A rollout policy that knows the game better than ``rollout`` (slower per
      move), as ``rollout``.
  ``owners(p, s, out) -> int``
      Who holds each cell of the board, numbered as the rules number them
      (``row * cols + col``): ``out[cell]`` = 0 or 1 for the player's stone or
      disc, -1 for an empty cell; returns the number of cells (the board an
      ``az`` network sees).
  ``decode(p, s, w0, w1, w2, w3) -> None``
      Write into ``s`` the position that ``Kernel.words`` turned into four int64
      words (a game whose positions fit in them): the compiled MCTS starts a move
      from the words, which cross into compiled code as plain arguments, instead of
      a position ``encode`` builds with numpy calls (a few microseconds each once
      the caches are cold, the cost of a short search's move).

- ``kernel(game) -> Kernel``: the parameter array for the game's parameters,
  the bounds that size preallocated arrays, ``encode``, which turns a
  :class:`~arena.core.game.State` into a new ``s``, and the knobs (``Kernel.knobs``:
  switches in ``p`` a search may turn on for itself).

Generic compiled code (perft here, MCTS in ``arena.search``) receives the jitted
functions as arguments. Declared as first-class function types
(:func:`signatures`), the generic code compiles once and its disk cache is hit
by every later process; passed as plain dispatchers, numba would specialise it
per function object, and such specialisations miss the disk cache in every new
process.

The compiled MCTS (``arena.search.mcts.kernel``) calls ``legal_moves``, ``play``,
``to_move``, ``outcome`` and ``playout``/``rollout`` at exactly the
:func:`signatures` types (C-contiguous int64 arrays, int64 results), looked up
once by address (``arena.search.mcts.kernel_functions``); ``max_moves`` sizes its
move buffer and ``max_plies`` its tree paths, so both must be true bounds.

numba is imported only when a kernel is loaded, so ``import arena`` stays fast.
``NUMBA_DISABLE_JIT=1`` runs every kernel as plain Python, to debug it with
pdb or prints.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from arena.core.game import State

ONGOING = 2
"""``outcome`` of a position whose game goes on (returns are -1, 0 or +1)."""

FUNCTIONS = ("legal_moves", "play", "to_move", "outcome", "playout", "rollout", "seed")
"""The jitted functions every kernel module defines."""

OPTIONAL = ("trace", "prior", "tactics", "owners", "decode")
"""The jitted functions a kernel may define (in ``Kernel.functions`` when it does)."""


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
    words: Callable[[State], tuple[int, int, int, int]] | None = None
    """``State`` -> four int64 words that ``decode`` writes into ``s`` as ``encode`` would
    (None where the game's positions do not fit in them, or it has no ``decode``)."""
    komi: Callable[[float], None] | None = None
    """Set the komi ``outcome`` counts, in this kernel's own ``params`` (a search's dynamic
    komi; every ``load_kernel`` call builds new params); None for a game without one."""
    weights: Callable[[str], None] | None = None
    """Load a fitted weights file into this kernel's own ``params`` (Go: the prior's
    ``mcts:patterns=K`` weights, ``mcts:priors=FILE``); a one-line :class:`ValueError` for
    a bad file. None for a game without fitted weights."""
    knobs: Mapping[str, int] = field(default_factory=dict)
    """Settings the kernel's functions read from ``params``: name -> index (0 there is the
    default, off). A search sets them in its own kernel's ``params`` (every ``load_kernel``
    builds a new array), e.g. Go's ``ladders`` (``mcts:ladders=1``: ``prior`` reads
    ladders)."""

    def perft(self, state: State, depth: int) -> int:
        """The number of move sequences of ``depth`` plies from ``state``, as
        :func:`arena.core.perft.perft` counts them, by the compiled kernel."""
        if depth < 0:
            raise ValueError("perft depth must be >= 0")
        f = self.functions
        return int(
            kernel_perft(
                f["legal_moves"],
                f["play"],
                f["outcome"],
                self.params,
                self.encode(state),
                depth,
                self.max_moves,
            )
        )


def signatures() -> dict[str, Any]:
    """numba types of the contract functions (``FunctionType`` by name) and of ``p``/``s``."""
    from numba import types

    arr = types.int64[::1]
    return {
        "array": arr,
        "legal_moves": types.FunctionType(types.int64(arr, arr, arr)),
        "play": types.FunctionType(types.none(arr, arr, types.int64)),
        "to_move": types.FunctionType(types.int64(arr, arr)),
        "outcome": types.FunctionType(types.int64(arr, arr)),
        "playout": types.FunctionType(types.int64(arr, arr)),
        "rollout": types.FunctionType(types.int64(arr, arr)),
        "seed": types.FunctionType(types.none(types.int64)),
        "trace": types.FunctionType(types.int64(arr, arr, arr, arr)),
        "prior": types.FunctionType(types.int64(arr, arr, arr)),
        "tactics": types.FunctionType(types.int64(arr, arr)),
        "owners": types.FunctionType(types.int64(arr, arr, arr)),
        "decode": types.FunctionType(
            types.none(arr, arr, types.int64, types.int64, types.int64, types.int64)
        ),
    }


def _perft(legal_moves, play, states, moves, count, index, p):  # type: ignore[no-untyped-def]
    # Depth-first without recursion over one state row and one move list per level
    # (rows 0 of ``states`` is the start, not finished); plain Python that numba compiles.
    depth = states.shape[0]
    count[0] = legal_moves(p, states[0], moves[0])
    if depth == 1:
        return count[0]
    total = 0
    level = 0
    index[0] = 0
    while level >= 0:
        if index[level] == count[level]:
            level -= 1
            continue
        move = moves[level, index[level]]
        index[level] += 1
        child = level + 1
        states[child, :] = states[level, :]
        play(p, states[child], move)
        n = legal_moves(p, states[child], moves[child])
        if child == depth - 1:
            total += n
        else:
            count[child] = n
            index[child] = 0
            level = child
    return total


def _repeat(playout, p, s, work, n):  # type: ignore[no-untyped-def]
    total = 0
    for _ in range(n):
        work[:] = s
        total += playout(p, work)
    return total


@cache
def _compiled(name: str) -> Callable[..., int]:
    """``_perft`` or ``_repeat`` compiled for every kernel at once (function-typed arguments)."""
    import numba

    sig = signatures()
    arr, table = sig["array"], numba.types.int64[:, ::1]
    if name == "perft":
        types = (sig["legal_moves"], sig["play"], table, table, arr, arr, arr)
        return numba.njit(numba.int64(*types), cache=True)(_perft)  # type: ignore[no-any-return]
    types = (sig["playout"], arr, arr, arr, numba.int64)
    return numba.njit(numba.int64(*types), cache=True)(_repeat)  # type: ignore[no-any-return]


def kernel_perft(legal_moves, play, outcome, p, s, depth: int, max_moves: int) -> int:  # type: ignore[no-untyped-def]
    """perft over any kernel's functions from position ``s`` (not changed); the
    generic code compiles on first use, then loads from numba's disk cache."""
    import numpy as np

    if depth == 0:
        return 1
    if outcome(p, s) != ONGOING:
        return 0
    states = np.empty((depth, len(s)), np.int64)
    states[0] = s
    moves = np.empty((depth, max_moves), np.int64)
    count, index = np.zeros(depth, np.int64), np.zeros(depth, np.int64)
    return int(_compiled("perft")(legal_moves, play, states, moves, count, index, p))


def kernel_playouts(playout, p, s, n: int) -> int:  # type: ignore[no-untyped-def]
    """Run ``playout`` (or ``rollout``) ``n`` times from copies of ``s`` in compiled
    code; return the first player's total return (for benchmarks)."""
    return int(_compiled("playouts")(playout, p, s, s.copy(), n))
