"""PUCT compiled with numba: whole simulations, move for move the readable search.

The readable :mod:`arena.search.az.puct` walks its tree in Python over ``State``
objects; here the same walk runs over the same node arrays (``parent``, ``move``,
``mover``, ``first``, ``count``, ``visits``, ``value_sum``, ``prior``, ``raw_value``)
inside compiled code, the positions replayed from the root through the game's compiled
kernel (:mod:`arena.core.kernel`: ``legal_moves``, ``play``, ``to_move``, ``outcome``,
``owners``, passed as first-class functions), each leaf's planes written by
:func:`arena.search.az.kernel_planes.write_planes` and a batch of them evaluated by the
compiled forward pass (:func:`arena.search.az.kernel.forward_batch`). Every step does
the readable one's arithmetic in the readable one's order, so the visits are the same:

- the PUCT score ``Q + c * P * sqrt(N) / (1 + n)``, ties to the first child, the root's
  noisy priors when it has them (:func:`arena.search.az.puct.scores`);
- the priors: the softmax of the legal moves' logits, summed in order, then made to sum
  to 1 again by the expansion (:func:`arena.search.az.puct.masked_priors`,
  :func:`arena.search.az.puct.expand`);
- a terminal leaf's result for its player to move, the backup for each node's mover
  (so an Othello or Go pass is counted right);
- ``batch == 1``: one leaf at a time (:func:`arena.search.az.puct.simulate`);
  ``batch > 1``: walks with a virtual loss, a collision ending the batch, one network
  call, then the losses taken back and the values backed up, path by path
  (:func:`arena.search.az.puct.simulate_batch`).

:func:`search` runs simulations until the root has ``sims`` visits, the deadline
(``clock[END]``, checked after each batch as :class:`~arena.search.clock.deadline.Deadline`
ticks), ``halt[0]`` (set by another thread: ``stop()``), the end of a slice of time
(``clock[SLICE]``: the driver's live reports) or the tree's room (:data:`FULL`: the
driver grows the arrays and calls again) stops them; what it did goes to ``meta``.
:func:`root_candidates` lists the nodes a kept tree may be rerooted at.

Tests: tests/search/test_az_compiled.py
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

import numpy as np
from numba import njit

from arena.core.kernel import ONGOING, signatures
from arena.search.az.kernel import forward_batch
from arena.search.az.kernel_planes import write_planes
from arena.search.clock.compiled import now_ns
from arena.search.clock.compiled_deadline import expired

SIZE, ROOT, DEPTH, STATUS = range(4)
"""``meta`` slots: nodes in use, the root, the deepest leaf reached, why the search
stopped."""
META = 4

BUDGET, TIME, HALTED, SLICED, FULL = range(5)
"""``meta[STATUS]``: the budget is reached, the deadline passed, ``halt`` was set, the
slice of time ended, the tree needs more room."""

END, LAST, LONGEST, SLICE = range(4)
"""``clock`` slots (ns, :func:`arena.search.clock.compiled.now_ns`): the deadline, the last
look at the clock, the longest stretch between two looks, the end of this slice (0:
none)."""
CLOCK = 4


@njit(cache=True, nogil=True)
def select(node, root, first, count, visits, value_sum, prior, root_prior, noisy, c):  # type: ignore[no-untyped-def]
    """The child PUCT walks to: the first of the largest ``Q + U``
    (:func:`arena.search.az.puct.scores`, term for term)."""
    k0 = first[node]
    sq = math.sqrt(visits[node])
    use_noise = noisy != 0 and node == root
    best = k0
    best_score = 0.0
    for i in range(count[node]):
        kid = k0 + i
        n = visits[kid]
        q = value_sum[kid] / max(n, 1) if n > 0 else 0.0
        pr = root_prior[i] if use_noise else prior[kid]
        score = q + c * pr * sq / (1.0 + n)
        if i == 0 or score > best_score:
            best, best_score = kid, score
    return best


@njit(cache=True, nogil=True)
def walk(  # type: ignore[no-untyped-def]
    play, p, root_state, s, root, first, count, visits, value_sum, prior, move, root_prior,
    noisy, c, path,
):  # fmt: skip
    """Walk from the root to a leaf, playing its moves on ``s`` (a copy of the root's
    position); the path into ``path``, its length returned."""
    s[:] = root_state
    node = root
    path[0] = node
    length = 1
    while first[node] >= 0:
        node = select(node, root, first, count, visits, value_sum, prior, root_prior, noisy, c)
        play(p, s, move[node])
        path[length] = node
        length += 1
    return length


@njit(cache=True, nogil=True)
def result(outcome, p, s, player):  # type: ignore[no-untyped-def]
    """A terminal position's result for ``player`` (its player to move), in [-1, 1]."""
    first_return = float(outcome(p, s))
    # 0.0 - x, not -x: a draw is 0.0 for either player, as the readable search has it.
    value = first_return if player == 0 else 0.0 - first_return
    return max(-1.0, min(1.0, value))


@njit(cache=True, nogil=True)
def expand(  # type: ignore[no-untyped-def]
    leaf, moves, n, logits, player, parent, move, mover, first, count, prior, meta
):
    """Give ``leaf`` one child per legal move with the softmax of their logits as priors,
    summed and normalised as :func:`arena.search.az.puct.masked_priors` and
    :func:`arena.search.az.puct.expand` do."""
    k0 = meta[SIZE]
    meta[SIZE] = k0 + n
    top = 0.0
    for i in range(n):
        v = np.float64(logits[moves[i]])
        if i == 0 or v > top:
            top = v
    total = 0.0
    for i in range(n):
        e = math.exp(np.float64(logits[moves[i]]) - top)
        prior[k0 + i] = e
        total += e
    again = 0.0
    for i in range(n):
        prior[k0 + i] = prior[k0 + i] / total
        again += prior[k0 + i]
    for i in range(n):
        kid = k0 + i
        prior[kid] = prior[kid] / again if again > 0 else 1.0 / n
        parent[kid] = leaf
        move[kid] = moves[i]
        mover[kid] = player
    first[leaf] = k0
    count[leaf] = n


@njit(cache=True, nogil=True)
def backup(path, length, value, player, root, mover, visits, value_sum):  # type: ignore[no-untyped-def]
    """One visit along the path, ``value`` (for ``player``) for each node's mover."""
    for i in range(length):
        node = path[i]
        visits[node] += 1
        if node != root:
            value_sum[node] += value if mover[node] == player else -value


@njit(cache=True, nogil=True)
def virtual_loss(path, length, sign, root, visits, value_sum):  # type: ignore[no-untyped-def]
    """Add (``sign`` 1) or take back (-1) a pending walk's virtual loss
    (:func:`arena.search.az.puct.virtual_loss`: a visit, and a loss of 1.0 for each mover)."""
    for i in range(length):
        node = path[i]
        visits[node] += sign
        if node != root:
            value_sum[node] -= sign * 1.0


def _search(  # type: ignore[no-untyped-def]
    legal_moves, play, to_move, outcome, owners,
    p, root_state, s, cells,
    parent, move, mover, first, count, visits, value_sum, prior, raw_value,
    root_prior, noisy,
    stem_w, stem_b, res_w, res_b, pol_w, pol_b, pol_fc_w, pol_fc_b,
    val_w, val_b, val_fc1_w, val_fc1_b, val_fc2_w, val_fc2_b,
    c, sims, batch, opening, clock, halt, meta,
    paths, lengths, players, rows, results, leaves, moves, counts, planes, logits, values,
):  # fmt: skip
    """Simulate as the module says; the simulations run (``meta`` says why it stopped)."""
    root = meta[ROOT]
    capacity = parent.shape[0]
    room = moves.shape[1]
    meta[STATUS] = BUDGET
    ran = 0
    batched = batch > 1 and opening == 0
    while opening != 0 or visits[root] < sims:
        # One leaf at a time (the opening simulation always is), or a batch.
        size = min(batch, sims - visits[root]) if batched else 1
        if meta[SIZE] + size * room > capacity:
            meta[STATUS] = FULL
            break
        npaths = 0
        npending = 0
        for _ in range(size):
            path = paths[npaths]
            length = walk(
                play, p, root_state, s, root, first, count, visits, value_sum, prior, move,
                root_prior, noisy, c, path,
            )  # fmt: skip
            leaf = path[length - 1]
            collided = False
            for r in range(npending):
                if leaves[r] == leaf:
                    collided = True
            if collided:
                break
            if batched:
                virtual_loss(path, length, 1, root, visits, value_sum)
            lengths[npaths] = length
            player = to_move(p, s)
            players[npaths] = player
            if outcome(p, s) != ONGOING:
                rows[npaths] = -1
                results[npaths] = result(outcome, p, s, player)
            else:
                rows[npaths] = npending
                leaves[npending] = leaf
                counts[npending] = legal_moves(p, s, moves[npending])
                write_planes(owners, to_move, p, s, cells, planes[npending])
                npending += 1
            npaths += 1
        if npending:
            forward_batch(
                planes[:npending], stem_w, stem_b, res_w, res_b, pol_w, pol_b, pol_fc_w,
                pol_fc_b, val_w, val_b, val_fc1_w, val_fc1_b, val_fc2_w, val_fc2_b,
                logits[:npending], values[:npending],
            )  # fmt: skip
        for i in range(npaths):
            r = rows[i]
            if r >= 0:
                expand(
                    leaves[r], moves[r], counts[r], logits[r], players[i],
                    parent, move, mover, first, count, prior, meta,
                )  # fmt: skip
        for i in range(npaths):
            path = paths[i]
            length = lengths[i]
            if batched:
                virtual_loss(path, length, -1, root, visits, value_sum)
            r = rows[i]
            value = results[i] if r < 0 else np.float64(values[r])
            raw_value[path[length - 1]] = value
            backup(path, length, value, players[i], root, mover, visits, value_sum)
            if length - 1 > meta[DEPTH]:
                meta[DEPTH] = length - 1
        ran += npaths
        if opening != 0:
            break
        if halt[0]:
            meta[STATUS] = HALTED
            break
        if expired(clock, END, LAST, LONGEST):
            meta[STATUS] = TIME
            break
        if clock[SLICE] > 0 and now_ns() >= clock[SLICE]:
            meta[STATUS] = SLICED
            break
    return ran


def _same(to_move, owners, p, s, cells, target, mover):  # type: ignore[no-untyped-def]
    if to_move(p, s) != mover:
        return False
    n = owners(p, s, cells)
    for i in range(n):  # noqa: SIM110 (numba compiles no generator inside all())
        if cells[i] != target[i]:
            return False
    return True


same = njit(cache=True, nogil=True)(_same)


def _root_candidates(  # type: ignore[no-untyped-def]
    play, to_move, owners, p, root_state, s, s2, cells, target, mover,
    first, count, visits, move, root, out,
):  # fmt: skip
    """The reached children, then grandchildren, of ``root`` (in the readable
    :func:`arena.search.az.puct.reroot`'s order) whose board and player to move are
    ``target`` and ``mover``: where a kept tree may be rerooted (the caller compares the
    positions in full). Their number, the nodes into ``out``."""
    n = 0
    k0 = first[root]
    if k0 < 0:
        return 0
    for k in range(k0, k0 + count[root]):
        if visits[k] > 0:
            s[:] = root_state
            play(p, s, move[k])
            if same(to_move, owners, p, s, cells, target, mover):
                out[n] = k
                n += 1
    for k in range(k0, k0 + count[root]):
        g0 = first[k]
        if g0 < 0:
            continue
        s[:] = root_state
        play(p, s, move[k])
        for g in range(g0, g0 + count[k]):
            if visits[g] > 0:
                s2[:] = s
                play(p, s2, move[g])
                if same(to_move, owners, p, s2, cells, target, mover):
                    out[n] = g
                    n += 1
    return n


@cache
def compiled(name: str) -> Any:
    """``search`` or ``root_candidates`` compiled once for every game (the kernel's
    functions typed as first-class functions, so the disk cache serves every process)."""
    import numba

    sig = signatures()
    i64, f64, f32, i8 = numba.int64, numba.float64, numba.float32, numba.int8
    arr = sig["array"]
    if name == "root_candidates":
        args = (
            sig["play"], sig["to_move"], sig["owners"], arr, arr, arr, arr, arr, arr, i64,
            arr, arr, arr, arr, i64, arr,
        )  # fmt: skip
        return numba.njit(i64(*args), cache=True, nogil=True)(_root_candidates)
    f64a, i8a = f64[::1], i8[::1]
    weights = (
        f32[:, :, :, ::1], f32[::1], f32[:, :, :, :, :, ::1], f32[:, :, ::1], f32[:, ::1],
        f32[::1], f32[:, ::1], f32[::1], f32[:, ::1], f32[::1], f32[:, ::1], f32[::1],
        f32[:, ::1], f32[::1],
    )  # fmt: skip
    args = (
        sig["legal_moves"], sig["play"], sig["to_move"], sig["outcome"], sig["owners"],
        arr, arr, arr, arr,
        arr, arr, i8a, arr, arr, arr, f64a, f64a, f64a,
        f64a, i64,
        *weights,
        f64, i64, i64, i64, arr, arr, arr,
        i64[:, ::1], arr, arr, arr, f64a, arr, i64[:, ::1], arr, f32[:, :, :, ::1],
        f32[:, ::1], f32[::1],
    )  # fmt: skip
    return numba.njit(i64(*args), cache=True, nogil=True)(_search)
