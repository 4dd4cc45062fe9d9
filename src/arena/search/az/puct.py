"""PUCT, AlphaZero's search, as plain functions over a tree of node arrays.

A node is an index into the :class:`Tree`'s arrays. Each node keeps the visits ``N``,
the sum ``W`` of the values backed up through it *for the player who moved into it*,
its prior ``P`` and the move that leads to it; a node's children are a contiguous run
``first[node] .. first[node] + count[node]``, made all at once when the node is expanded.

One simulation walks from the root choosing the child with the largest

    Q + c_puct * P * sqrt(N(parent)) / (1 + N(child)),   Q = W / N (0 while unvisited),

ties to the first child; at the leaf, a terminal position gives its result, any other
is evaluated (priors over its legal moves, renormalised; a value for its player to move)
and expanded. The value is backed up the path, each node adding it for the player who
moved into it: positive where that player is the one to move at the leaf, negated for
the other (so a pass, where the same side could move twice, is counted right). The root
counts the simulations. Dirichlet noise ``(1 - eps) P + eps Dir(alpha)`` on the root's
priors is the self-play option, mixed into a copy so a reused subtree keeps its priors.

Leaves can be evaluated in batches (``run(..., batch=B)``, :func:`simulate_batch`): B walks,
each adding a virtual loss to its path so the next turns elsewhere, then one call of the
evaluator; ``batch=1`` is the search one leaf at a time. A walk can also choose children
by another rule than PUCT (``Tree.select``: Gumbel's, :mod:`arena.search.az.gumbel`).

An evaluator is a function ``states -> (priors, values)``: for each state a float array of
priors over its ``legal_moves()`` (in that order) and its value in [-1, 1] for its player
to move. :func:`net_evaluator` makes one of a network.

>>> import arena
>>> game = arena.load_game("tictactoe")
>>> def flat(states):
...     return [np.ones(len(s.legal_moves())) for s in states], [0.0] * len(states)
>>> tree = Tree(game.initial_state())
>>> _ = run(tree, flat, simulations=10, c_puct=1.0)
>>> int(tree.visits[tree.root]), int(tree.visits[children(tree, tree.root)].sum())
(10, 9)

Tests: tests/search/test_az.py, tests/search/test_az_compiled.py (kept trees compacted)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from arena.core.game import State
from arena.search.az.kernel import evaluate_prepared, prepare
from arena.search.az.network import Network, forward
from arena.search.az.planes import encode, encoding
from arena.search.clock.deadline import Deadline

Evaluator = Callable[[Sequence[State]], tuple[Sequence[np.ndarray], Sequence[float]]]


class Tree:
    """The search tree's node arrays (grown by doubling), the root, and the positions of
    the nodes reached so far (``states[node]``, None until a simulation walks there)."""

    def __init__(self, state: State, capacity: int = 1024) -> None:
        self.parent = np.full(capacity, -1, np.int64)
        self.move = np.full(capacity, -1, np.int64)
        self.mover = np.zeros(capacity, np.int8)
        """The player who moved into the node (its parent's player to move)."""
        self.first = np.full(capacity, -1, np.int64)
        """The node's first child, -1 while it is not expanded."""
        self.count = np.zeros(capacity, np.int64)
        self.visits = np.zeros(capacity, np.int64)
        self.value_sum = np.zeros(capacity, np.float64)
        self.prior = np.zeros(capacity, np.float64)
        self.raw_value = np.zeros(capacity, np.float64)
        """The network's value of the node for its player to move (its result when it is
        terminal), set when a simulation first reaches it (Gumbel's completed Q reads it)."""
        self.states: list[State | None] = [None] * capacity
        self.size = 1
        self.root = 0
        self.states[0] = state
        self.root_prior: np.ndarray | None = None
        """The root children's priors with Dirichlet noise (None: without noise)."""
        self.select: Callable[[Tree, int], int] | None = None
        """How a walk chooses a node's child (None: PUCT; :mod:`arena.search.az.gumbel`
        sets its own)."""

    def grow(self, needed: int) -> None:
        capacity = len(self.states)
        if needed <= capacity:
            return
        new = max(needed, 2 * capacity)
        for name, fill in NODE_FILLS:
            old = getattr(self, name)
            grown = np.full(new, fill, old.dtype)
            grown[:capacity] = old
            setattr(self, name, grown)
        self.states.extend([None] * (new - capacity))


def children(tree: Tree, node: int) -> np.ndarray:
    """The node indices of ``node``'s children (empty while it is not expanded)."""
    first = tree.first[node]
    return np.arange(first, first + tree.count[node]) if first >= 0 else np.arange(0)


def expand(tree: Tree, node: int, moves: Sequence[int], priors: np.ndarray) -> None:
    """Give ``node`` one child per move, with ``priors`` (made to sum to 1; uniform when
    they sum to 0)."""
    count = len(moves)
    tree.grow(tree.size + count)
    first = tree.size
    tree.size += count
    p = np.asarray(priors, np.float64)
    total = in_order_sum(p)
    p = p / total if total > 0 else np.full(count, 1.0 / count)
    span = slice(first, first + count)
    tree.parent[span] = node
    tree.move[span] = moves
    tree.mover[span] = tree.states[node].to_move  # type: ignore[union-attr]
    tree.prior[span] = p
    tree.first[node] = first
    tree.count[node] = count


def scores(tree: Tree, node: int, c_puct: float) -> np.ndarray:
    """Each child's ``Q + U`` (the root's priors with their noise when it has some)."""
    kids = children(tree, node)
    visits = tree.visits[kids]
    q = np.where(visits > 0, tree.value_sum[kids] / np.maximum(visits, 1), 0.0)
    prior = (
        tree.root_prior if node == tree.root and tree.root_prior is not None else tree.prior[kids]
    )
    return q + c_puct * prior * math.sqrt(tree.visits[node]) / (1.0 + visits)


def select_child(tree: Tree, node: int, c_puct: float) -> int:
    """The child PUCT walks to (the first of equals)."""
    return int(tree.first[node] + np.argmax(scores(tree, node, c_puct)))


def leaf_path(tree: Tree, c_puct: float) -> list[int]:
    """The nodes from the root to the leaf one simulation reaches (making the positions
    of the nodes it walks into)."""
    node = tree.root
    path = [node]
    select = tree.select
    while tree.first[node] >= 0:
        node = select_child(tree, node, c_puct) if select is None else select(tree, node)
        if tree.states[node] is None:
            parent = tree.states[int(tree.parent[node])]
            tree.states[node] = parent.play(int(tree.move[node]))  # type: ignore[union-attr]
        path.append(node)
    return path


def backup(tree: Tree, path: Sequence[int], value: float, player: int) -> None:
    """Add one visit along ``path`` and ``value`` (for ``player``) to each node's sum, for
    the player who moved into it."""
    for node in path:
        tree.visits[node] += 1
        if node != tree.root:
            tree.value_sum[node] += value if tree.mover[node] == player else -value


def leaf_value(state: State) -> float:
    """A terminal position's result for its player to move, in [-1, 1]."""
    return max(-1.0, min(1.0, float(state.returns()[state.to_move])))


def simulate(tree: Tree, evaluate: Evaluator, c_puct: float) -> int:
    """One simulation; the depth of the leaf it reached."""
    path = leaf_path(tree, c_puct)
    leaf = path[-1]
    state = tree.states[leaf]
    assert state is not None
    if state.is_terminal():
        value = leaf_value(state)
    else:
        moves = state.legal_moves()
        priors, values = evaluate([state])
        expand(tree, leaf, moves, np.asarray(priors[0], np.float64))
        value = float(values[0])
    tree.raw_value[leaf] = value
    backup(tree, path, value, state.to_move)
    return len(path) - 1


VIRTUAL_LOSS = 1.0
"""The loss a pending simulation counts on each node of its path while its leaf waits for
the batch's evaluation (one visit, a value of -1 for the node's mover)."""


def virtual_loss(tree: Tree, path: Sequence[int], sign: int) -> None:
    """Add (``sign`` 1) or take back (-1) a pending simulation's virtual loss: a visit on
    every node of ``path`` and a loss for each node's mover, so that the next walks of
    the same batch turn to other leaves."""
    for node in path:
        tree.visits[node] += sign
        if node != tree.root:
            tree.value_sum[node] -= sign * VIRTUAL_LOSS


def simulate_batch(tree: Tree, evaluate: Evaluator, c_puct: float, size: int) -> tuple[int, int]:
    """Up to ``size`` simulations whose leaves are evaluated in one call of ``evaluate``:
    each walk counts a virtual loss on its path so that the next goes elsewhere; a
    terminal leaf gives its result without the network (and may be reached again, each
    time a simulation); a walk that reaches a leaf already waiting in the batch (a
    collision: the other moves look worse even with the losses) is taken back and ends
    the batch, so every evaluated leaf is one simulation and counted once. Returns the
    simulations run (at least 1) and the deepest leaf's depth."""
    paths: list[list[int]] = []
    pending: dict[int, int] = {}  # leaf -> its row in the batch
    states: list[State] = []
    for _ in range(size):
        path = leaf_path(tree, c_puct)
        leaf = path[-1]
        if leaf in pending:
            break
        state = tree.states[leaf]
        assert state is not None
        virtual_loss(tree, path, 1)
        paths.append(path)
        if not state.is_terminal():
            pending[leaf] = len(states)
            states.append(state)
    priors, values = evaluate(states) if states else ([], [])
    for leaf, row in pending.items():
        state = tree.states[leaf]
        expand(tree, leaf, state.legal_moves(), np.asarray(priors[row], np.float64))  # type: ignore[union-attr]
    depth = 0
    for path in paths:
        virtual_loss(tree, path, -1)
        state = tree.states[path[-1]]
        assert state is not None
        row = pending.get(path[-1])
        value = leaf_value(state) if row is None else float(values[row])
        tree.raw_value[path[-1]] = value
        backup(tree, path, value, state.to_move)
        depth = max(depth, len(path) - 1)
    return len(paths), depth


def add_noise(tree: Tree, eps: float, alpha: float, rng: np.random.Generator) -> None:
    """Mix Dirichlet(alpha) noise into the root's priors (weight ``eps``); expands the
    root first if it is not."""
    kids = children(tree, tree.root)
    if eps <= 0 or len(kids) == 0:
        tree.root_prior = None
        return
    noise = rng.dirichlet(np.full(len(kids), alpha))
    tree.root_prior = (1.0 - eps) * tree.prior[kids] + eps * noise


def run(
    tree: Tree,
    evaluate: Evaluator,
    simulations: float,
    c_puct: float,
    deadline: Deadline | None = None,
    noise: tuple[float, float, np.random.Generator] | None = None,
    batch: int = 1,
    progress: Callable[[int, int], bool] | None = None,
) -> tuple[int, int]:
    """Simulate until the root has ``simulations`` visits (a reused subtree's count) or
    the deadline passes, at least once; ``noise`` is ``(eps, alpha, rng)`` for the root;
    ``batch`` leaves are evaluated together (:func:`simulate_batch`; 1: one at a time);
    ``progress(ran, depth)`` is called after each batch and stops the search by returning
    True (a listener's live reports). Returns the simulations run and the deepest leaf."""
    ran = depth = 0
    root = tree.root
    if tree.first[root] < 0 and not tree.states[root].is_terminal():  # type: ignore[union-attr]
        depth = simulate(tree, evaluate, c_puct)
        ran = 1
    if noise is not None:
        add_noise(tree, *noise)
    else:
        tree.root_prior = None
    while tree.visits[root] < simulations:
        if batch > 1:
            size = int(min(batch, simulations - tree.visits[root]))
            done, deepest = simulate_batch(tree, evaluate, c_puct, size)
            depth = max(depth, deepest)
            ran += done
        else:
            depth = max(depth, simulate(tree, evaluate, c_puct))
            ran += 1
        if deadline is not None and deadline.tick():
            break
        if progress is not None and progress(ran, depth):
            break
    return ran, depth


def visit_counts(tree: Tree) -> tuple[tuple[int, ...], np.ndarray]:
    """The root's moves and their visits."""
    kids = children(tree, tree.root)
    return tuple(int(m) for m in tree.move[kids]), tree.visits[kids].copy()


def choose_move(tree: Tree, temperature: float, rng: np.random.Generator) -> int:
    """The root move to play: the most visited (the first of equals) at temperature 0,
    else drawn with probability proportional to ``visits ** (1 / temperature)``."""
    moves, visits = visit_counts(tree)
    if temperature <= 0 or visits.sum() == 0:
        return moves[int(np.argmax(visits))]
    weights = visits.astype(np.float64) ** (1.0 / temperature)
    return moves[int(rng.choice(len(moves), p=weights / weights.sum()))]


def reroot(tree: Tree, state: State) -> bool:
    """Make the node of ``state`` the root if it is a child or grandchild of the root that
    the search has reached (tree reuse), the tree compacted to its subtree
    (:func:`compact`); False when it is not there."""
    frontier = [tree.root]
    for _ in range(2):
        frontier = [int(k) for node in frontier for k in children(tree, node)]
        for node in frontier:
            if tree.states[node] is not None and tree.states[node] == state:
                tree.root = node
                tree.root_prior = None
                size = tree.size
                kept = compact(tree).tolist()
                tree.states[: len(kept)] = [tree.states[k] for k in kept]
                tree.states[len(kept) : size] = [None] * (size - len(kept))
                return True
    return False


NODE_FILLS = (
    ("parent", -1), ("move", -1), ("mover", 0), ("first", -1), ("count", 0), ("visits", 0),
    ("value_sum", 0.0), ("prior", 0.0), ("raw_value", 0.0),
)  # fmt: skip
"""The node arrays and the value of a node not yet made."""


def subtree(first: np.ndarray, count: np.ndarray, root: int) -> np.ndarray:
    """The nodes of ``root``'s subtree, breadth first: each node's children follow one
    another in their order, as the arrays keep them.

    >>> first, count = np.array([1, -1, 3, -1, -1]), np.array([2, 0, 2, 0, 0])
    >>> subtree(first, count, 0).tolist(), subtree(first, count, 2).tolist()
    ([0, 1, 2, 3, 4], [2, 3, 4])
    """
    level = np.array([root], np.int64)
    levels = [level]
    while True:
        starts = first[level]
        counts = count[level][starts >= 0]
        starts = starts[starts >= 0]
        if not len(starts):
            return np.concatenate(levels)
        # The children's runs one after another: run i's start, then +1, +2, ...
        level = np.repeat(starts - np.cumsum(counts) + counts, counts) + np.arange(counts.sum())
        levels.append(level)


def compact(tree: Tree) -> np.ndarray:
    """Keep only the root's subtree, moved to the front of the arrays (the root at 0, each
    node's children still one run in their order) and the rest made new, so a tree kept
    from move to move holds what the next search can reach rather than every move's
    search so far. Every node keeps its statistics, so a search sees the same tree (the
    same visits, values and priors; only the indices change). Returns the kept nodes'
    old indices in their new order (the readable tree moves its positions by them)."""
    kept = subtree(tree.first, tree.count, tree.root)
    n, size = len(kept), tree.size
    index = np.full(size, -1, np.int64)
    index[kept] = np.arange(n)
    first = tree.first[kept]
    parent = tree.parent[kept]
    tree.first[:n] = np.where(first >= 0, index[np.maximum(first, 0)], -1)
    tree.parent[:n] = np.where(parent >= 0, index[np.maximum(parent, 0)], -1)
    tree.parent[0] = -1
    for name, fill in NODE_FILLS:
        array = getattr(tree, name)
        if name not in ("first", "parent"):
            array[:n] = array[kept]
        array[n:size] = fill
    tree.size, tree.root = n, 0
    return kept


def in_order_sum(values: np.ndarray) -> float:
    """The sum of ``values`` added first to last (numpy's ``sum`` adds in pairs): the order
    the compiled search (:mod:`arena.search.az.puct_kernel`) adds them in, so both make
    the same priors to the last bit."""
    return float(np.cumsum(values)[-1]) if len(values) else 0.0


def masked_priors(logits: np.ndarray, moves: Sequence[int]) -> np.ndarray:
    """The softmax of the legal moves' logits (a move is its action index). The
    exponentials are the C library's (``math.exp``, which compiled code calls too; numpy's
    vectorised ``exp`` differs from it in the last bit on some machines)."""
    legal = logits[np.asarray(moves, np.int64)].astype(np.float64)
    shifted = (legal - legal.max()).tolist()
    exps = np.array([math.exp(v) for v in shifted])
    return exps / in_order_sum(exps)


def net_evaluator(net: Network) -> Evaluator:
    """The evaluator of a network checked against the game (compiled forward pass)."""
    arrays = prepare(net.arrays())

    def evaluate(states: Sequence[State]) -> tuple[list[np.ndarray], list[float]]:
        enc = encoding(states[0].game)
        planes = np.empty((len(states), enc.channels, enc.rows, enc.cols), np.float32)
        for i, state in enumerate(states):
            encode(state, planes[i])
        logits, values = evaluate_prepared(arrays, planes)
        priors = [masked_priors(logits[i], s.legal_moves()) for i, s in enumerate(states)]
        return priors, [float(v) for v in values]

    return evaluate


def readable_evaluator(net: Network) -> Evaluator:
    """The evaluator of a network by the readable forward pass (numpy, one position at a
    time): slower than :func:`net_evaluator` but ready at once, for the moves a timed
    search makes while the compiled pass loads (:class:`arena.search.az.agent.AZAgent`)."""

    def evaluate(states: Sequence[State]) -> tuple[list[np.ndarray], list[float]]:
        priors, values = [], []
        for state in states:
            logits, value = forward(net, encode(state))
            priors.append(masked_priors(logits, state.legal_moves()))
            values.append(value)
        return priors, values

    return evaluate
