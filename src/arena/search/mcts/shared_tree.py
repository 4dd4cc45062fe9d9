"""The compiled MCTS that several threads run on one tree (tree parallelism, virtual loss).

Each thread calls :func:`run` (``nogil``: the threads truly run at once) on the
same tree arrays as :mod:`~arena.search.mcts.kernel` lays them out, with its
own position, path and move buffer. One iteration is three steps:

1. *under the lock* (:mod:`~arena.search.atomics`, one int64 of ``control``; held
   on from step 3 of the iteration before, so one acquisition per iteration):
   walk down by the tree policy, open and expand as the serial search does, and
   count the visit of every node on the path at once — before its result is
   known. That visit without a win is the *virtual loss*: the other threads see
   the line as worse while its simulation runs and spread out;
2. *without the lock*: the simulation (the long part);
3. *under the lock*: credit the result's wins up the path (the visits are
   already there), and with the solver let proofs climb.

So the tree's statistics are always consistent: a node's visits are its
children's plus its own simulations (finished and running), at every moment,
and no update is lost. The root's simulations are shared out through
``control[LEFT]``, so every thread stops within one iteration of the others;
a proven root, a stuck search (every child proven) or full arrays stop them
all (``control[HALT]``). Each thread reads the clock every few iterations.

Tests: ``tests/search/test_mcts_threads.py``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from arena.core.kernel import ONGOING
from arena.core.stack import borrowed
from arena.search.atomics import acquire, release
from arena.search.clock.compiled import now_ns
from arena.search.mcts import kernel_functions as kf
from arena.search.mcts.kernel import (
    BUDGET,
    CLOCK_EVERY,
    COUNT,
    DEEPEST,
    DONE,
    FIRST,
    FULL,
    MOVER,
    OUTCOME,
    PROOF,
    PROVEN,
    REASON,
    STUCK,
    TIME,
    TRIED,
    UCT,
    UNKNOWN,
    VISITS,
    borrowed_tree,
    climb_proofs,
    new_node,
    proof_of,
    prove,
    select_egreedy,
    select_uct,
)

# ``control``: shared by the threads of one batch.
LOCK, LEFT, HALT, UNTIL, CONTROL_SIZE = 0, 1, 2, 3, 4
"""The lock; simulations left to hand out; why every thread stops (``BUDGET``: go on);
the clock's stop moment (``compiled_clock.now_ns``, 0: none)."""


@njit(cache=True, inline="always")
def credit_wins(node, wins, path, length, result):  # type: ignore[no-untyped-def]
    """A simulation's reward for every mover's choice on ``path[:length]`` (no visits: they
    were counted when the path was chosen)."""
    for k in range(1, length):
        mine = result if node[path[k - 1], MOVER] == 0 else -result
        wins[path[k]] += (mine + 1) * 0.5


@njit(cache=True, nogil=True)
def search(  # type: ignore[no-untyped-def]
    legal_moves, play, to_move, outcome, simulate,
    p, root_state, s, leaf, buf, added,
    node, wins, edge_move, edge_child, sizes, path,
    root, policy, c, eps, expand_all, solver, seed, control, report,
):  # fmt: skip
    """One thread's share of a batch: iterations until ``control`` says stop; its counts
    go to its own ``report``. ``added`` (one per move) holds the children it expanded in
    the iteration under way; ``seed`` >= 0 seeds this thread's generator first."""
    if seed >= 0:
        np.random.seed(seed)
    # Views without reference counts for the calls below (as ``kernel.search``'s): the
    # threads share ``p`` and the tree, whose counts they would otherwise all update.
    p, root_state, s, leaf, buf, node, wins, edge_move, edge_child = borrowed_tree(
        p, root_state, s, leaf, buf, node, wins, edge_move, edge_child
    )
    added, sizes, path = borrowed(added), borrowed(sizes), borrowed(path)
    control, report = borrowed(control), borrowed(report)
    report[DONE] = 0
    report[REASON] = BUDGET
    max_moves = buf.shape[0]
    done, tick, until = 0, 0, control[UNTIL]
    # The lock is held from the credit of one iteration through the walk of the next: one
    # acquisition per iteration.
    acquire(control, LOCK)
    while True:
        if until and tick % CLOCK_EVERY == 0 and now_ns() >= until:
            report[REASON] = TIME
            release(control, LOCK)
            break
        tick += 1
        if control[HALT] != BUDGET or control[LEFT] <= 0:
            report[REASON] = control[HALT]
            release(control, LOCK)
            break
        if sizes[0] + max_moves + 1 > node.shape[0] or sizes[1] + max_moves > edge_move.shape[0]:
            control[HALT] = report[REASON] = FULL
            release(control, LOCK)
            break
        # 1. Choose the path and count its visits now (the virtual loss).
        s[:] = root_state
        x = root
        path[0] = root
        length = 1
        n_added = 0
        stuck = False
        while True:
            if node[x, OUTCOME] != ONGOING:  # a finished game, simulated again
                break
            if node[x, FIRST] < 0:  # second visit: list the moves
                n = legal_moves(p, s, buf)
                first = sizes[1]
                sizes[1] += n
                edge_move[first : first + n] = buf[:n]
                edge_child[first : first + n] = -1
                node[x, FIRST], node[x, COUNT], node[x, MOVER] = first, n, to_move(p, s)
            tried, count = node[x, TRIED], node[x, COUNT]
            if tried < count:  # expand: one random untried child, or every one (budget allows)
                first = node[x, FIRST]
                want = min(count - tried, control[LEFT]) if expand_all else 1
                for _ in range(want):
                    e = first + tried
                    j = e + np.random.randint(count - tried)
                    move = edge_move[j]
                    edge_move[j] = edge_move[e]
                    edge_move[e] = move
                    leaf[:] = s
                    play(p, leaf, move)
                    over = outcome(p, leaf)
                    y = new_node(node, wins, sizes, over)
                    node[y, VISITS] = 1
                    edge_child[e] = y
                    if solver and over != ONGOING:
                        node[y, PROOF] = proof_of(over if node[x, MOVER] == 0 else -over)
                    added[n_added] = e
                    n_added += 1
                    tried += 1
                    node[x, TRIED] = tried
                break
            if policy == UCT:
                e = select_uct(node, wins, edge_child, x, c)
            else:
                e = select_egreedy(node, wins, edge_child, x, eps)
            if e < 0 or length + 2 > path.shape[0]:
                stuck = True
                break
            x = edge_child[e]
            play(p, s, edge_move[e])
            path[length] = x
            length += 1
        if stuck:
            control[HALT] = report[REASON] = STUCK
            release(control, LOCK)
            break
        sims = max(n_added, 1)
        control[LEFT] -= sims
        for k in range(length):
            node[path[k], VISITS] += sims
        depth = length if n_added else length - 1
        release(control, LOCK)
        report[DEEPEST] = max(report[DEEPEST], depth)
        # 2. The simulations, without the lock (the edges below ``TRIED`` never move).
        result = node[x, OUTCOME]
        for i in range(n_added):
            e = added[i]
            y = edge_child[e]
            if node[y, OUTCOME] != ONGOING:
                added[max_moves + i] = node[y, OUTCOME]
            else:
                leaf[:] = s
                play(p, leaf, edge_move[e])
                added[max_moves + i] = simulate(p, leaf)
        # 3. Credit the wins, and let proofs climb.
        acquire(control, LOCK)
        if n_added == 0:
            credit_wins(node, wins, path, length, result)
        for i in range(n_added):
            path[length] = edge_child[added[i]]
            credit_wins(node, wins, path, length + 1, added[max_moves + i])
        done += sims
        climb = n_added == 0 or expand_all or node[path[length], OUTCOME] != ONGOING
        proving = solver and climb and control[HALT] == BUDGET
        if proving and climb_proofs(node, edge_child, path, length, root):
            control[HALT] = PROVEN
    report[DONE] = done
    return done


@njit(cache=True, nogil=True)
def run(  # type: ignore[no-untyped-def]
    functions,
    p, root_state, s, leaf, buf, added,
    node, wins, edge_move, edge_child, sizes, path,
    root, policy, c, eps, expand_all, solver, seed, control, report,
):  # fmt: skip
    """:func:`search` with the kernel's functions given as addresses (as
    :func:`arena.search.mcts.kernel.run`)."""
    return search(
        kf.as_legal_moves(functions[0], functions[1]),
        kf.as_play(functions[2], functions[3]),
        kf.as_to_move(functions[4], functions[5]),
        kf.as_outcome(functions[6], functions[7]),
        kf.as_simulation(functions[8], functions[9]),
        p, root_state, s, leaf, buf, added,
        node, wins, edge_move, edge_child, sizes, path,
        root, policy, c, eps, expand_all, solver, seed, control, report,
    )  # fmt: skip


def root_proven(node: np.ndarray, edge_child: np.ndarray, root: int) -> bool:
    """Whether the root is proven already (a batch then has nothing to do)."""
    return bool(prove(node, edge_child, root) != UNKNOWN)


__all__ = ["CONTROL_SIZE", "HALT", "LEFT", "PROVEN", "UNTIL", "run", "search"]
