"""A move of the compiled MCTS in one compiled call: open the root, search, read the root.

A move used to cross from Python into compiled code six times — the root
node, the seed, the root's legal moves, the search, the root's children, the
best line — and each crossing costs 7-17 µs of numba dispatch once the
caches have gone cold (as they have after the opponent's move), besides the
numpy calls around them: a few hundred microseconds in all, as long as the
whole of a 3,000-simulation search of Tic-tac-toe's later positions. Here
:func:`move` does all of it, steered by ``flags``:

- :data:`DECODE`: the root position written from four words (the kernel's ``decode`` of
  ``Kernel.words``), where the game has them, instead of an array encoded in Python;
- :data:`START`: a batch begins (its clock and its time in compiled code set here);
- :data:`SEED` (the first batch of a search): seed the generator; :data:`FRESH`:
  start a new tree at the root (else the tree is kept, a kept subtree's root
  at 0); :data:`LIST`: list the root's legal moves into ``moves``;
- the search of up to ``sims`` simulations (:func:`arena.search.mcts.kernel.search`),
  when the root has more than one move;
- :data:`READ` (the batch that ends the search, or a call of its own): the
  root's children and best line (:mod:`arena.search.mcts.root_arrays`) into
  ``visits``, ``won``, ``proven`` and ``line``.

What it found goes to ``report`` (:data:`NMOVES`, :data:`AT_ONCE`,
:data:`ROOT_VISITS`, :data:`PV_LENGTH` beside the kernel's own slots), and the
time it took to ``report[SPENT]``. A search of a simulation budget is then one
call; a timed one opens in its first batch and reads in a last call of its
own. The other compiled engines (RAVE, the shared tree) open and read through
it with ``sims=0``.

Tests: ``tests/search/test_fast_mcts.py``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from arena.core.kernel import ONGOING
from arena.search.clock.compiled import now_ns
from arena.search.mcts import kernel_functions as kf
from arena.search.mcts.kernel import (
    BUDGET,
    DEEPEST,
    DONE,
    REASON,
    SPENT,
    UNTIL,
    VISITS,
    new_node,
    search,
)
from arena.search.mcts.root_arrays import principal_line, root_children

SEED, FRESH, LIST, READ, START, DECODE = 1, 2, 4, 8, 16, 32
"""``flags`` of :func:`move`: seed the generator (and start counting the depth), start a
new tree, list the root's moves, read the root; :data:`START`: a batch starts here (its
clock, ``report[UNTIL]``, set to ``until``, and ``report[SPENT]`` zeroed: two numpy writes
fewer in Python, 4-5 µs each once the caches are cold); :data:`DECODE`: write the root
position from the words (the kernel's ``decode``) first."""
OPEN = SEED | LIST
"""What the first batch of a search does (with :data:`FRESH` in a new tree)."""
NMOVES, AT_ONCE, ROOT_VISITS, PV_LENGTH, REPORT_SIZE = 5, 6, 7, 8, 9
"""``report`` slots after the kernel's: the root's legal moves, the index in ``moves`` of a
move that wins at once (-1: none), the root's visits, the best line's length."""


@njit(cache=True, nogil=True)
def move(  # type: ignore[no-untyped-def]
    legal_moves, play, to_move, outcome, simulate, decode,
    p, root_state, s, leaf, buf,
    node, wins, edge_move, edge_child, sizes, path,
    root, sims, policy, c, eps, expand_all, solver, report,
    seed, flags, until, w0, w1, w2, w3, moves, visits, won, proven, line, logs,
):  # fmt: skip
    """Open the root, search up to ``sims`` simulations, read the root, as ``flags`` say
    (see the module); the simulations done."""
    started = now_ns()
    if flags & DECODE:
        decode(p, root_state, w0, w1, w2, w3)
    if flags & START:
        report[UNTIL] = until
        report[SPENT] = 0
    if flags & SEED:
        np.random.seed(seed)  # the generator every compiled kernel draws from
        report[DEEPEST] = 0
    if flags & FRESH:
        sizes[0] = 0
        sizes[1] = 0
        new_node(node, wins, sizes, ONGOING)  # node 0: the root
    if flags & LIST:
        s[:] = root_state
        report[NMOVES] = legal_moves(p, s, buf)
        moves[: report[NMOVES]] = buf[: report[NMOVES]]
    n = report[NMOVES]
    done = 0
    if sims > 0:  # (a call with none leaves the last batch's report alone)
        if n > 1:
            done = search(
                legal_moves, play, to_move, outcome, simulate,
                p, root_state, s, leaf, buf,
                node, wins, edge_move, edge_child, sizes, path,
                root, sims, policy, c, eps, expand_all, solver, report, logs,
            )  # fmt: skip
        else:
            report[DONE] = 0
            report[REASON] = BUDGET
    if flags & READ:
        visits[:n] = 0
        won[:n] = 0.0
        proven[:n] = 0
        report[AT_ONCE] = root_children(
            node, wins, edge_move, edge_child, root, moves[:n], visits, won, proven
        )
        report[ROOT_VISITS] = node[root, VISITS]
        report[PV_LENGTH] = principal_line(node, edge_move, edge_child, root, line)
    report[SPENT] += now_ns() - started
    return done


@njit(cache=True, nogil=True)
def run(  # type: ignore[no-untyped-def]
    functions,
    p, root_state, s, leaf, buf,
    node, wins, edge_move, edge_child, sizes, path,
    root, sims, policy, c, eps, expand_all, solver, report,
    seed, flags, until, w0, w1, w2, w3, moves, visits, won, proven, line, logs,
):  # fmt: skip
    """:func:`move` with the kernel's functions given as addresses
    (:data:`arena.search.mcts.kernel.CALLED`, the simulation and ``decode``, two each: zeros
    where the kernel has no ``decode``, never called then)."""
    return move(
        kf.as_legal_moves(functions[0], functions[1]),
        kf.as_play(functions[2], functions[3]),
        kf.as_to_move(functions[4], functions[5]),
        kf.as_outcome(functions[6], functions[7]),
        kf.as_simulation(functions[8], functions[9]),
        kf.as_decode(functions[10], functions[11]),
        p, root_state, s, leaf, buf,
        node, wins, edge_move, edge_child, sizes, path,
        root, sims, policy, c, eps, expand_all, solver, report,
        seed, flags, until, w0, w1, w2, w3, moves, visits, won, proven, line, logs,
    )  # fmt: skip
