"""The compiled MCTS: the reference algorithm over preallocated arrays (numba).

This is :class:`arena.search.mcts.agent.TreeSearch` rewritten the mctx way, as
plain Python that numba compiles once for every game: the tree is a few
arrays, the root position is copied and the moves replayed down the path (only
when a simulation needs the position: to open or expand a node), and
the game enters only through its kernel's functions (``legal_moves``, ``play``,
``to_move``, ``outcome`` and the simulation, ``playout`` or ``rollout``),
received as first-class function arguments (:func:`arena.core.kernel.signatures`):
:func:`search` is the algorithm, :func:`run` the entry point that rebuilds those
functions from their addresses. :mod:`arena.search.mcts.driver` drives it from
Python in short batches.

The tree:

``node[x, FIELD]`` (int64, one row per node)
    ``VISITS``: simulations through the node (the reference's ``total``);
    ``PROOF``: the node's proof status for the player who moved into it
    (:class:`~arena.search.mcts.tree.Proof` values); ``FIRST``: where its
    children's block starts in the edge arrays, -1 until the node is *opened*
    (its legal moves listed, at its second visit); ``COUNT``: its legal
    moves; ``TRIED``: children added so far (the first ``TRIED`` edges of the
    block; the untried follow); ``OUTCOME``: ``ONGOING`` or the finished
    game's first-player return; ``MOVER``: the player to move there.
``wins[x]`` (float64)
    Wins (1, draw 1/2) of the player who moved into the node.
``edge_move[e]``, ``edge_child[e]``
    Each opened node's legal moves, and the node each leads to (-1: untried).
``sizes``
    Nodes and edges in use.

``NUMBA_DISABLE_JIT=1`` runs this file as plain Python (slowly), to step
through it with pdb.

Tests: ``tests/search/test_fast_mcts.py``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from arena.core.kernel import ONGOING
from arena.core.stack import borrowed, int64_scratch
from arena.search.clock.compiled import now_ns
from arena.search.mcts import kernel_functions as kf

VISITS, PROOF, FIRST, COUNT, TRIED, OUTCOME, MOVER = range(7)
FIELDS = 7
UNKNOWN, WON, LOST, DRAWN = 0, 1, -1, 2  # as mcts_tree.Proof
UCT, EGREEDY = 0, 1
# Why a batch stopped (``report[REASON]``).
BUDGET, PROVEN, FULL, STUCK = 0, 1, 2, 3
# ``report``: simulations done, the deepest level reached, why the batch stopped.
DONE, DEEPEST, REASON = 0, 1, 2
# The clock (``report[UNTIL]``, set by the caller): the ``compiled_clock.now_ns`` moment at
# which a batch stops, 0 for none; read every ``CLOCK_EVERY`` iterations.
UNTIL, TIME, CLOCK_EVERY = 3, 4, 4
# ``report[SPENT]``: nanoseconds spent inside compiled code, added to by :func:`run` (the
# driver zeroes it before a batch and adds it to its ``kernel_seconds``: a move's fixed cost
# is the rest).
SPENT, REPORT_SIZE = 4, 5


@njit(cache=True)
def climb_proofs(node, edge_child, path, length, root):  # type: ignore[no-untyped-def]
    """Let the proofs found at the bottom of ``path`` climb as far as they hold; whether
    the root is now proven. A finished game's proof was set from its returns when it
    was added, so such nodes are passed over."""
    for k in range(length - 1, 0, -1):
        y = path[k]
        if node[y, OUTCOME] != ONGOING:
            continue
        q = prove(node, edge_child, y)
        if q == UNKNOWN:
            break
        node[y, PROOF] = q if q == DRAWN else -q  # flipped for the parent's chooser
    return prove(node, edge_child, root) != UNKNOWN


@njit(cache=True)
def new_node(node, wins, sizes, outcome):  # type: ignore[no-untyped-def]
    """A fresh node (not opened) for a position whose ``outcome`` is known."""
    x = sizes[0]
    sizes[0] += 1
    node[x, VISITS] = 0
    node[x, PROOF] = UNKNOWN
    node[x, FIRST] = -1
    node[x, COUNT] = 0
    node[x, TRIED] = 0
    node[x, OUTCOME] = outcome
    node[x, MOVER] = -1
    wins[x] = 0.0
    return x


@njit(cache=True)
def prove(node, edge_child, x):  # type: ignore[no-untyped-def]
    """The proof status of node ``x`` for the player who moves there (as ``mcts_tree.prove``)."""
    first = node[x, FIRST]
    if first < 0:
        return UNKNOWN  # no child added yet
    unknown = node[x, TRIED] < node[x, COUNT]
    drawn = False
    for e in range(first, first + node[x, TRIED]):
        q = node[edge_child[e], PROOF]
        if q == WON:
            return WON
        if q == UNKNOWN:
            unknown = True
        elif q == DRAWN:
            drawn = True
    if unknown:
        return UNKNOWN
    return DRAWN if drawn else LOST


@njit(cache=True)
def select_uct(node, wins, edge_child, x, c):  # type: ignore[no-untyped-def]
    """The edge of the unproven child maximising its UCB, ties broken at random; -1 if none."""
    total = node[x, VISITS]
    return uct_choice(node, wins, edge_child, x, c, np.log(total) if total > 1 else 0.0)


@njit(cache=True, inline="always")
def log_of(total, logs):  # type: ignore[no-untyped-def]
    """``np.log(total)`` (0 for a total of 0 or 1), remembered in ``logs`` (0.0: not yet) for
    totals below its length: a simulation takes the log of every node it passes, and a
    search passes the same totals thousands of times (the same values: the same function of
    the same argument, one at a time)."""
    if total <= 1:
        return 0.0
    if total >= logs.shape[0]:
        return np.log(total)
    value = logs[total]
    if value == 0.0:
        value = np.log(total)
        logs[total] = value
    return value


@njit(cache=True, inline="always")
def uct_choice(node, wins, edge_child, x, c, log_total):  # type: ignore[no-untyped-def]
    """:func:`select_uct` with the log of ``x``'s visits given."""
    best, best_score, ties = -1, -1.0, 0
    first = node[x, FIRST]
    for e in range(first, first + node[x, TRIED]):
        y = edge_child[e]
        if node[y, PROOF] != UNKNOWN:
            continue
        n = node[y, VISITS]
        score = wins[y] / n + c * np.sqrt(log_total / n)
        if score > best_score:
            best, best_score, ties = e, score, 1
        elif score == best_score:
            ties += 1
            if np.random.random() * ties < 1.0:  # reservoir sampling: each tie equally likely
                best = e
    return best


@njit(cache=True)
def select_egreedy(node, wins, edge_child, x, eps):  # type: ignore[no-untyped-def]
    """A random unproven child's edge with probability eps, else the best rate's; -1 if none."""
    first = node[x, FIRST]
    last = first + node[x, TRIED]
    open_ = 0
    for e in range(first, last):
        if node[edge_child[e], PROOF] == UNKNOWN:
            open_ += 1
    if open_ == 0:
        return -1
    if np.random.random() < eps:
        k = np.random.randint(open_)
        for e in range(first, last):
            if node[edge_child[e], PROOF] == UNKNOWN:
                if k == 0:
                    return e
                k -= 1
    best, best_rate = -1, -1.0
    for e in range(first, last):
        y = edge_child[e]
        if node[y, PROOF] == UNKNOWN and wins[y] / node[y, VISITS] > best_rate:
            best, best_rate = e, wins[y] / node[y, VISITS]
    return best


@njit(cache=True)
def credit(node, wins, path, length, result):  # type: ignore[no-untyped-def]
    """One more visit for every node of ``path[:length]``; a reward for its mover's choice."""
    node[path[0], VISITS] += 1
    for k in range(1, length):
        x = path[k]
        node[x, VISITS] += 1
        mine = result if node[path[k - 1], MOVER] == 0 else -result
        wins[x] += (mine + 1) * 0.5


@njit(cache=True)
def proof_of(mine):  # type: ignore[no-untyped-def]
    return WON if mine > 0 else LOST if mine < 0 else DRAWN


@njit(cache=True, inline="always")
def borrowed_tree(p, root_state, s, leaf, buf, node, wins, edge_move, edge_child):  # type: ignore[no-untyped-def]
    """The searches' rules, positions and tree arrays as views without reference counts
    (``core/stack.py`` ``borrowed``): each call a simulation makes (UCT's choice, the
    kernel's ``play``) would otherwise take and drop a reference to each array it is
    given, two atomic operations per array per call. Used by this search, MC-RAVE's and
    the shared tree's threads."""
    return (
        borrowed(p),
        borrowed(root_state),
        borrowed(s),
        borrowed(leaf),
        borrowed(buf),
        borrowed(node),
        borrowed(wins),
        borrowed(edge_move),
        borrowed(edge_child),
    )


@njit(cache=True, nogil=True)
def search(  # type: ignore[no-untyped-def]
    legal_moves, play, to_move, outcome, simulate,
    p, root_state, s, leaf, buf,
    node, wins, edge_move, edge_child, sizes, path,
    root, sims, policy, c, eps, expand_all, solver, report, logs,
):  # fmt: skip
    """Up to ``sims`` simulations from ``root``; the counts go to ``report`` (``logs``: the
    logs of visit counts, :func:`log_of`).

    A batch stops early when the root is proven (solver), when the arrays may
    not hold one more iteration (the caller grows them and calls again), when
    no child can be selected, or when its clock (``report[UNTIL]``) has passed.
    """
    report[DONE] = 0
    report[REASON] = BUDGET
    if solver and prove(node, edge_child, root) != UNKNOWN:
        report[REASON] = PROVEN
        return 0
    # Views without reference counts for the calls below (``borrowed_tree``).
    p, root_state, s, leaf, buf, node, wins, edge_move, edge_child = borrowed_tree(
        p, root_state, s, leaf, buf, node, wins, edge_move, edge_child
    )
    sizes, path, report, logs = borrowed(sizes), borrowed(path), borrowed(report), borrowed(logs)
    max_moves = buf.shape[0]
    # The moves down the path, played on ``s`` only when a position is needed (a node to
    # open or expand): a simulation that ends on a finished game already in the tree (most
    # of them once a small game's tree is grown) neither copies the root nor plays a move.
    pending = int64_scratch(path.shape[0])
    done = 0
    until, tick = report[UNTIL], 0
    while done < sims:
        if until and tick % CLOCK_EVERY == 0 and now_ns() >= until:
            report[REASON] = TIME
            break
        tick += 1
        if sizes[0] + max_moves + 1 > node.shape[0] or sizes[1] + max_moves > edge_move.shape[0]:
            report[REASON] = FULL
            break
        x = root
        path[0] = root
        length = 1  # nodes on the path, the root included
        added = -1  # the child added by expand=one, if any
        stuck = False
        while True:
            if node[x, OUTCOME] != ONGOING:  # a finished game, simulated again
                credit(node, wins, path, length, node[x, OUTCOME])
                done += 1
                report[DEEPEST] = max(report[DEEPEST], length - 1)
                break
            if node[x, FIRST] < 0 or node[x, TRIED] < node[x, COUNT]:
                # The position at ``x`` is needed: the root and the path's moves.
                s[:] = root_state
                for k in range(length - 1):
                    play(p, s, pending[k])
            if node[x, FIRST] < 0:  # second visit: list the moves
                n = legal_moves(p, s, buf)
                first = sizes[1]
                sizes[1] += n
                edge_move[first : first + n] = buf[:n]
                edge_child[first : first + n] = -1
                node[x, FIRST], node[x, COUNT], node[x, MOVER] = first, n, to_move(p, s)
            tried, count = node[x, TRIED], node[x, COUNT]
            if tried < count:  # expand: one random untried child, or every one
                first = node[x, FIRST]
                if expand_all:
                    leaf[:] = s
                while True:
                    e = first + tried
                    j = e + np.random.randint(count - tried)
                    move = edge_move[j]
                    edge_move[j] = edge_move[e]
                    edge_move[e] = move
                    play(p, s, move)
                    over = outcome(p, s)
                    y = new_node(node, wins, sizes, over)
                    edge_child[e] = y
                    tried += 1
                    node[x, TRIED] = tried
                    result = over if over != ONGOING else simulate(p, s)
                    if solver and over != ONGOING:
                        node[y, PROOF] = proof_of(over if node[x, MOVER] == 0 else -over)
                    path[length] = y
                    credit(node, wins, path, length + 1, result)
                    done += 1
                    if not expand_all:
                        added = y
                        break
                    if tried == count or done == sims:
                        break
                    s[:] = leaf
                report[DEEPEST] = max(report[DEEPEST], length)
                break
            if policy == UCT:
                e = uct_choice(node, wins, edge_child, x, c, log_of(node[x, VISITS], logs))
            else:
                e = select_egreedy(node, wins, edge_child, x, eps)
            if e < 0 or length + 2 > path.shape[0]:
                # Every child proven: nothing left to sample here (or a path longer than the
                # kernel's max_plies promised: stop rather than write past the array).
                stuck = True
                break
            x = edge_child[e]
            pending[length - 1] = edge_move[e]
            path[length] = x
            length += 1
        if stuck:
            report[REASON] = STUCK
            break
        if not solver or (added >= 0 and node[added, OUTCOME] == ONGOING):
            continue  # no new proof (an added unfinished child has untried children)
        if climb_proofs(node, edge_child, path, length, root):
            report[REASON] = PROVEN
            break
    report[DONE] = done
    return done


@njit(cache=True)
def compact(node, wins, edge_move, edge_child, root, node2, wins2, move2, child2, origin):  # type: ignore[no-untyped-def]
    """Copy the subtree of ``root`` into the second arrays (root first); return its sizes.

    ``origin[e]`` is set to the old index of each new edge ``e``, so that an engine
    with statistics of its own per edge (RAVE's AMAF values) can carry them along.
    """
    queue = np.empty(node.shape[0], np.int64)
    queue[0] = root
    head, tail, edges = 0, 1, 0
    while head < tail:
        x = queue[head]
        node2[head, :] = node[x, :]
        wins2[head] = wins[x]
        first = node[x, FIRST]
        if first >= 0:
            node2[head, FIRST] = edges
            for i in range(node[x, COUNT]):
                move2[edges + i] = edge_move[first + i]
                origin[edges + i] = first + i
                child2[edges + i] = -1
                if i < node[x, TRIED]:
                    queue[tail] = edge_child[first + i]
                    child2[edges + i] = tail
                    tail += 1
            edges += node[x, COUNT]
        head += 1
    return tail, edges


@njit(cache=True, nogil=True)
def run(  # type: ignore[no-untyped-def]
    functions,
    p, root_state, s, leaf, buf,
    node, wins, edge_move, edge_child, sizes, path,
    root, sims, policy, c, eps, expand_all, solver, report, logs,
):  # fmt: skip
    """:func:`search` with the kernel's functions given as addresses (see
    :mod:`arena.search.mcts.kernel_functions`: :data:`CALLED` in that order); the time it
    takes goes to ``report[SPENT]``."""
    started = now_ns()
    done = search(
        kf.as_legal_moves(functions[0], functions[1]),
        kf.as_play(functions[2], functions[3]),
        kf.as_to_move(functions[4], functions[5]),
        kf.as_outcome(functions[6], functions[7]),
        kf.as_simulation(functions[8], functions[9]),
        p, root_state, s, leaf, buf,
        node, wins, edge_move, edge_child, sizes, path,
        root, sims, policy, c, eps, expand_all, solver, report, logs,
    )  # fmt: skip
    report[SPENT] += now_ns() - started
    return done


CALLED = ("legal_moves", "play", "to_move", "outcome")
"""The kernel functions :func:`run` calls, in the order of its addresses; the simulation
(``playout`` or ``rollout``) follows."""
