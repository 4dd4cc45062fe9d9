"""MC-RAVE in the compiled MCTS: AMAF statistics per edge, priors, selection among untried moves.

The search of :mod:`arena.search.mcts.kernel` with the additions of Gelly and
Silver's MC-RAVE (*Monte-Carlo tree search and rapid action value estimation
in computer Go*, Artificial Intelligence 175, 2011), written as separate
functions over the same tree arrays so the plain search stays as it is.

Per edge, besides the child's own visits and wins, an *all-moves-as-first*
count and win total (``amaf_n[e]``, ``amaf_w[e]``): after each simulation,
every node of the path credits each of its moves that the player to move there
played later in the same simulation — down the tree or in the rollout, the
first time the move was played, by that player (:func:`credit_amaf`). The
rollout's moves come from the kernel's ``trace`` (a game without one has no
RAVE). A move's value mixes the two rates,
``(1 - beta) * Q + beta * Q_amaf + c * sqrt(ln N / n)``, with Gelly and Silver's
hand-picked schedule ``beta = sqrt(k / (3n + k))`` (``rave=k``), or their
minimum-MSE schedule ``beta = m / (n + m + 4 n m b**2)`` (``bias=b``, with ``m``
the AMAF count).

The moves of a node are not added one at random before any is chosen (as in
the plain search): an opened node selects among all its legal moves, the
untried ones valued by their AMAF rate alone (``beta = 1`` at ``n = 0``, with an
exploration term as for one visit) or, with no AMAF data yet, by
:data:`FIRST_PLAY` — so on a 9x9 board the tree grows along the moves the
simulations liked instead of trying all 82 first.

Priors (``prior=n``): when a node is opened, the kernel's ``prior`` scores each
legal move (a win rate in percent from the game's knowledge: captures, atari
escapes, self-ataris, edge lines in Go) and the AMAF statistics start with ``n``
virtual simulations at that rate, as Fuego initialises its RAVE values.

Progressive widening (``widen=A``, with ``prior=``): an opened node lists its moves best
prior first, and selection looks only at the first :func:`width_of` of them — one at
first, one more after ``A`` simulations of the node, then after ``1.4 A``, ``1.4² A``
more, and so on: the geometric schedule of Coulom's CrazyStone (*Computing Elo ratings
of move patterns in the game of Go*, ICGA Journal 30(4), 2007: 40 and 1.4), the moves
ranked by the prior alone. A move tried joins the tried block with the untried ones
kept in their order (:func:`try_edge`), so the moves looked at are always the best
prior ranks. With ``widen=0`` (the default) every move is looked at.

Tests: ``tests/search/test_mcts_rave.py``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from arena.core.kernel import ONGOING
from arena.core.stack import borrowed
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
    SPENT,
    STUCK,
    TIME,
    TRIED,
    UNKNOWN,
    UNTIL,
    VISITS,
    borrowed_tree,
    climb_proofs,
    credit,
    new_node,
    proof_of,
    prove,
)

FIRST_PLAY = 1.0
"""The value of a move never tried and never seen in a simulation (first-play urgency)."""

WIDEN_GROWTH = 1.4
"""Progressive widening: each new move waits this many times longer than the one before."""

ALL_MOVES = 1 << 30
""":func:`width_of` without widening: more moves than any node has."""


@njit(cache=True)
def no_trace(p, start, end, out):  # type: ignore[no-untyped-def]
    """The ``trace`` of a kernel that lists no moves (RAVE is refused for its game)."""
    return 0


@njit(cache=True)
def no_prior(p, s, out):  # type: ignore[no-untyped-def]
    """The ``prior`` of a kernel without knowledge: 0, nothing written."""
    return 0


@njit(cache=True)
def beta_of(n, m, k, bias):  # type: ignore[no-untyped-def]
    """The weight of the AMAF rate for a move with ``n`` visits and ``m`` AMAF samples.

    >>> round(beta_of(0, 10, 1000.0, 0.0), 3), round(beta_of(1000, 10, 1000.0, 0.0), 3)
    (1.0, 0.5)
    >>> round(beta_of(10, 10, 1000.0, 0.1), 3)  # minimum MSE: m / (n + m + 4 n m b^2)
    0.417
    """
    if m <= 0.0:
        return 0.0
    if bias > 0.0:
        return m / (n + m + 4.0 * n * m * bias * bias)
    return np.sqrt(k / (3.0 * n + k))


@njit(cache=True)
def width_of(visits, widen):  # type: ignore[no-untyped-def]
    """Progressive widening: how many of a node's moves (best prior first) selection
    looks at after ``visits`` simulations of the node: one, then one more after
    ``widen``, ``1.4 widen``, ``1.4² widen``, ... more simulations; all without ``widen``.

    >>> [width_of(n, 40.0) for n in (0, 39, 40, 95, 96, 174, 175)]
    [1, 1, 2, 2, 3, 3, 4]
    >>> width_of(25_000, 40.0), width_of(10, 0.0) == ALL_MOVES
    (17, True)
    """
    if widen <= 0.0:
        return ALL_MOVES
    grown = np.log(1.0 + (WIDEN_GROWTH - 1.0) * visits / widen) / np.log(WIDEN_GROWTH)
    return 1 + int(grown + 1e-9)


@njit(cache=True)
def open_node(legal_moves, to_move, prior, p, s, buf, scores, node, edge_move, edge_child,
              amaf_n, amaf_w, sizes, x, prior_n, widen):  # fmt: skip
    """List the moves of node ``x`` (position ``s``) as untried edges, with the priors'
    virtual simulations as their first AMAF statistics; with ``widen``, best prior first
    (ties in the kernel's order)."""
    n = legal_moves(p, s, buf)
    first = sizes[1]
    sizes[1] += n
    edge_move[first : first + n] = buf[:n]
    edge_child[first : first + n] = -1
    amaf_n[first : first + n] = 0.0
    amaf_w[first : first + n] = 0.0
    if prior_n > 0.0 and prior(p, s, scores):
        if widen > 0.0:
            order = np.argsort(-scores[buf[:n]], kind="mergesort")  # stable: ties in order
            for i in range(n):
                edge_move[first + i] = buf[order[i]]
        for e in range(first, first + n):
            amaf_n[e] = prior_n
            amaf_w[e] = prior_n * scores[edge_move[e]] * 0.01
    node[x, FIRST], node[x, COUNT], node[x, MOVER] = first, n, to_move(p, s)


@njit(cache=True)
def try_edge(edge_move, amaf_n, amaf_w, e, t, widen):  # type: ignore[no-untyped-def]
    """Move the untried edge ``e`` to ``t``, the end of its node's tried block: a swap, or
    with ``widen`` a rotation that keeps the untried moves in their prior order."""
    move, n, w = edge_move[e], amaf_n[e], amaf_w[e]
    if widen > 0.0:
        for i in range(e, t, -1):
            edge_move[i], amaf_n[i], amaf_w[i] = edge_move[i - 1], amaf_n[i - 1], amaf_w[i - 1]
    else:
        edge_move[e], amaf_n[e], amaf_w[e] = edge_move[t], amaf_n[t], amaf_w[t]
    edge_move[t], amaf_n[t], amaf_w[t] = move, n, w


@njit(cache=True)
def select_rave(node, wins, edge_child, amaf_n, amaf_w, x, c, k, bias, widen):  # type: ignore[no-untyped-def]
    """The edge of node ``x`` (tried or not, not proven) with the best MC-RAVE value, ties at
    random, among the first :func:`width_of` (all tried moves among them); -1 if every
    move is proven."""
    total = node[x, VISITS]
    first = node[x, FIRST]
    tried = node[x, TRIED]
    count = node[x, COUNT]
    looked = min(count, max(tried, width_of(total, widen)))
    best = _best_rave(node, wins, edge_child, amaf_n, amaf_w, x, c, k, bias, first, first + looked)
    if best < 0 and looked < count:  # every move looked at is proven: the others' turn
        best = _best_rave(node, wins, edge_child, amaf_n, amaf_w, x, c, k, bias,
                          first + looked, first + count)  # fmt: skip
    return best


@njit(cache=True)
def _best_rave(node, wins, edge_child, amaf_n, amaf_w, x, c, k, bias, start, end):  # type: ignore[no-untyped-def]
    """:func:`select_rave` over the edges ``start`` to ``end`` of node ``x``."""
    total = node[x, VISITS]
    log_total = np.log(total) if total > 1 else 0.0
    best, best_score, ties = -1, -np.inf, 0
    first = node[x, FIRST]
    tried = node[x, TRIED]
    for e in range(start, end):
        n = 0.0
        rate = 0.0
        if e < first + tried:
            y = edge_child[e]
            if node[y, PROOF] != UNKNOWN:
                continue
            n = float(node[y, VISITS])
            rate = wins[y] / n
        m = amaf_n[e]
        if n == 0.0 and m <= 0.0:
            score = FIRST_PLAY + c * np.sqrt(log_total)
        else:
            beta = beta_of(n, m, k, bias)
            amaf = amaf_w[e] / m if m > 0.0 else 0.0
            score = (1.0 - beta) * rate + beta * amaf + c * np.sqrt(log_total / max(n, 1.0))
        if score > best_score:
            best, best_score, ties = e, score, 1
        elif score == best_score:
            ties += 1
            if np.random.random() * ties < 1.0:  # reservoir sampling: each tie equally likely
                best = e
    return best


@njit(cache=True)
def credit_amaf(node, edge_move, amaf_n, amaf_w, path, length, moves, played, rollout,
                marks, stamp, result):  # fmt: skip
    """AMAF credit for the simulation just played: ``moves[d]`` is the move played at
    ``path[d]`` in the tree (``d < played``), ``rollout[:length of it]`` the simulation's moves
    after (``move * 2 + player``, the first of a repeated move counts). Walking back from the
    end, ``marks[move]`` holds who played each move first from the current node on."""
    for i in range(rollout.shape[0] - 1, -1, -1):
        move = rollout[i] >> 1
        if move < marks.shape[0]:
            marks[move] = stamp * 4 + (rollout[i] & 1) + 1
    for d in range(played - 1, -1, -1):
        x = path[d]
        mover = node[x, MOVER]
        if moves[d] < marks.shape[0]:
            marks[moves[d]] = stamp * 4 + mover + 1
        reward = ((result if mover == 0 else -result) + 1) * 0.5
        want = stamp * 4 + mover + 1
        first = node[x, FIRST]
        for e in range(first, first + node[x, COUNT]):
            move = edge_move[e]
            if move < marks.shape[0] and marks[move] == want:
                amaf_n[e] += 1.0
                amaf_w[e] += reward


@njit(cache=True, nogil=True)
def search(  # type: ignore[no-untyped-def]
    legal_moves, play, to_move, outcome, simulate, trace, prior,
    p, root_state, s, leaf, buf,
    node, wins, edge_move, edge_child, amaf_n, amaf_w, sizes, path,
    moves, traced, marks, scores,
    root, sims, c, k, bias, prior_n, widen, solver, report,
):  # fmt: skip
    """Up to ``sims`` MC-RAVE simulations from ``root`` (as :func:`mcts_kernel.search`, UCT
    with one child added per simulation); ``marks[0]`` counts simulations for
    :func:`credit_amaf`."""
    report[DONE] = 0
    report[REASON] = BUDGET
    if solver and prove(node, edge_child, root) != UNKNOWN:
        report[REASON] = PROVEN
        return 0
    # Views without reference counts for the calls below (as ``kernel.search``'s).
    p, root_state, s, leaf, buf, node, wins, edge_move, edge_child = borrowed_tree(
        p, root_state, s, leaf, buf, node, wins, edge_move, edge_child
    )
    amaf_n, amaf_w, sizes, path = (
        borrowed(amaf_n),
        borrowed(amaf_w),
        borrowed(sizes),
        borrowed(path),
    )
    moves, traced, marks, scores = (
        borrowed(moves),
        borrowed(traced),
        borrowed(marks),
        borrowed(scores),
    )
    report = borrowed(report)
    max_moves = buf.shape[0]
    done = 0
    until, tick = report[UNTIL], 0  # the batch clock, as in mcts_kernel.search
    while done < sims:
        if until and tick % CLOCK_EVERY == 0 and now_ns() >= until:
            report[REASON] = TIME
            break
        tick += 1
        if sizes[0] + max_moves + 1 > node.shape[0] or sizes[1] + max_moves > edge_move.shape[0]:
            report[REASON] = FULL
            break
        s[:] = root_state
        x = root
        path[0] = root
        length = 1  # nodes on the path, the root included
        stuck = False
        added = -1
        while True:
            if node[x, OUTCOME] != ONGOING:  # a finished game, simulated again
                result = node[x, OUTCOME]
                credit(node, wins, path, length, result)
                n_traced = 0
                break
            if node[x, FIRST] < 0:
                open_node(legal_moves, to_move, prior, p, s, buf, scores, node, edge_move,
                          edge_child, amaf_n, amaf_w, sizes, x, prior_n, widen)  # fmt: skip
            e = select_rave(node, wins, edge_child, amaf_n, amaf_w, x, c, k, bias, widen)
            if e < 0 or length + 2 > path.shape[0]:
                stuck = True  # every move proven (or a path longer than max_plies promised)
                break
            first, tried = node[x, FIRST], node[x, TRIED]
            move = edge_move[e]
            moves[length - 1] = move
            play(p, s, move)
            if e >= first + tried:  # an untried move: its child joins the tried block
                t = first + tried
                try_edge(edge_move, amaf_n, amaf_w, e, t, widen)
                over = outcome(p, s)
                y = new_node(node, wins, sizes, over)
                edge_child[t] = y
                node[x, TRIED] = tried + 1
                if solver and over != ONGOING:
                    node[y, PROOF] = proof_of(over if node[x, MOVER] == 0 else -over)
                path[length] = y
                length += 1
                leaf[:] = s
                result = over if over != ONGOING else simulate(p, s)
                n_traced = trace(p, leaf, s, traced) if over == ONGOING else 0
                credit(node, wins, path, length, result)
                added = y
                break
            x = edge_child[e]
            path[length] = x
            length += 1
        if stuck:
            report[REASON] = STUCK
            break
        done += 1
        report[DEEPEST] = max(report[DEEPEST], length - 1)
        marks[0] += 1
        credit_amaf(node, edge_move, amaf_n, amaf_w, path, length, moves, length - 1,
                    traced[:n_traced], marks[1:], marks[0], result)  # fmt: skip
        if not solver or (added >= 0 and node[added, OUTCOME] == ONGOING):
            continue
        if climb_proofs(node, edge_child, path, length, root):
            report[REASON] = PROVEN
            break
    report[DONE] = done
    return done


@njit(cache=True, nogil=True)
def run(  # type: ignore[no-untyped-def]
    functions,
    p, root_state, s, leaf, buf,
    node, wins, edge_move, edge_child, amaf_n, amaf_w, sizes, path,
    moves, traced, marks, scores,
    root, sims, c, k, bias, prior_n, widen, solver, report,
):  # fmt: skip
    """:func:`search` with the kernel's functions given as addresses (:data:`CALLED` in that
    order, two each); the time it takes goes to ``report[SPENT]``."""
    started = now_ns()
    done = search(
        kf.as_legal_moves(functions[0], functions[1]),
        kf.as_play(functions[2], functions[3]),
        kf.as_to_move(functions[4], functions[5]),
        kf.as_outcome(functions[6], functions[7]),
        kf.as_simulation(functions[8], functions[9]),
        kf.as_trace(functions[10], functions[11]),
        kf.as_prior(functions[12], functions[13]),
        p, root_state, s, leaf, buf,
        node, wins, edge_move, edge_child, amaf_n, amaf_w, sizes, path,
        moves, traced, marks, scores,
        root, sims, c, k, bias, prior_n, widen, solver, report,
    )  # fmt: skip
    report[SPENT] += now_ns() - started
    return done


CALLED = ("legal_moves", "play", "to_move", "outcome")
"""The kernel functions :func:`run` calls first, in the order of its addresses; the simulation,
``trace`` and ``prior`` follow."""
