"""``mcts``: Monte Carlo tree search, the readable reference implementation.

One iteration walks down the tree by the tree policy, adds new children,
plays a simulation (a rollout) from the new position, and credits every
node on the way back up. Values are win rates of the player who chooses at a
node — win 1, draw 0.5, loss 0 — so selection is always a max.

Each node keeps its children's statistics in parallel arrays (``moves``,
``visits``, ``wins``, ``children``, ``proven``): the tree policy is a plain
function over those arrays, as in mctx, and the evaluator (a rollout) is a
separate function, as in OpenSpiel.

Options:

* ``c``: UCT exploration constant (default √2); ``tree=egreedy`` with ``eps``
  instead picks a random child with probability eps and the best otherwise.
* ``expand=one`` adds one child per iteration; ``expand=all`` adds every
  child of a leaf at once with one rollout each (as in the 5x5 Go course
  assignment).
* ``rollout=random`` uses the game's fast uniform playout;
  ``rollout=heuristic`` takes a win, blocks an immediate loss and samples
  from the game's candidate moves (cells near stones, moves that do not wall
  you in).
* ``final=robust`` plays the most visited move, ``final=max`` the best win rate.
* ``reuse=1`` keeps the subtree of the moves actually played.
* ``solver=1`` (MCTS-Solver): finished games below a node prove it won or
  lost; proofs propagate up, and proven children are never sampled again.

Bookkeeping: a node's visits equal its parent's count for it; the root's
visits are the sum of its children's, and any other node's are one more
(its own first simulation, made when it was added).

>>> import arena
>>> game = arena.load_game("tictactoe")
>>> state = game.play_moves(game.parse_moves("a1 b1 a2 b2"))
>>> agent = arena.load_agent("mcts:rollouts=300,seed=1")
>>> game.format_move(agent.choose(state, arena.Limit()))
'a3'
>>> agent.last_search.nodes
300

Tests: tests/search/test_mcts.py
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from arena.core.agent import Agent, SearchInfo
from arena.core.game import Game, Returns, State
from arena.core.limit import Limit
from arena.core.spec import Param
from arena.games import knowledge
from arena.search.deadline import Deadline, SearchTimeout, quiet_gc, release_gc

UNKNOWN, WON, LOST, DRAWN = 0, 1, -1, 2
"""Proof status of a child, for the player who chooses it."""

_REWARD = {1: 1.0, 0: 0.5, -1: 0.0}


class Node:
    """A position in the tree and its children's statistics, in parallel arrays."""

    __slots__ = ("children", "moves", "proven", "state", "total", "untried", "visits", "wins")

    def __init__(self, state: State, rng: random.Random) -> None:
        self.state = state
        self.moves = state.legal_moves()
        k = len(self.moves)
        self.visits = [0] * k
        self.wins = [0.0] * k
        self.children: list[Node | None] = [None] * k
        self.proven = [UNKNOWN] * k
        self.untried = list(range(k))
        self.total = 0

    def next_untried(self, rng: random.Random) -> int:
        """A random child not yet added, moved to the end of ``untried`` (O(1));
        it is popped once its simulation has finished."""
        untried = self.untried
        j = int(rng.random() * len(untried))
        untried[j], untried[-1] = untried[-1], untried[j]
        return untried[-1]


# --- tree policies: which child to descend into -------------------------------------------


def uct_select(node: Node, c: float, rng: random.Random) -> int:
    """The unproven child maximising win rate + c * sqrt(ln N / n), ties broken at random.

    Ties are common while counts are small; taking the first would favour the
    first legal moves (the edge columns of Connect Four) over the rest.
    """
    log_total = math.log(node.total) if node.total > 1 else 0.0
    best, best_score, ties = -1, -1.0, 0
    for i, (n, w, p) in enumerate(zip(node.visits, node.wins, node.proven)):
        if p or not n:
            continue
        score = w / n + c * math.sqrt(log_total / n)
        if score > best_score:
            best, best_score, ties = i, score, 1
        elif score == best_score:
            ties += 1
            if rng.random() * ties < 1.0:  # reservoir sampling: each tie equally likely
                best = i
    return best


def egreedy_select(node: Node, eps: float, rng: random.Random) -> int:
    """A random unproven child with probability eps, else the best win rate."""
    open_ = [i for i, (n, p) in enumerate(zip(node.visits, node.proven)) if n and not p]
    if not open_:
        return -1
    if rng.random() < eps:
        return rng.choice(open_)
    return max(open_, key=lambda i: node.wins[i] / node.visits[i])


# --- evaluators: the result of a simulation from a new position --------------------------


def random_rollout(state: State, rng: random.Random) -> Returns:
    return state.game.playout(state, rng)


def heuristic_rollout_factory(
    state: State, deadline: Deadline
) -> Callable[[State, random.Random], Returns]:
    """A rollout that takes wins, blocks immediate losses and samples the game's candidates.

    It walks the State API, so one rollout can take long on a big board: it
    checks the clock every move and gives up (SearchTimeout) when time is up.
    """
    know = knowledge(state.game)
    wins_for, candidates = know.immediate_wins, know.candidates

    def rollout(state: State, rng: random.Random) -> Returns:
        while not state.is_terminal():
            if deadline.expired():
                raise SearchTimeout
            moves = state.legal_moves()
            pick = None
            if wins_for is not None:
                mover = state.to_move
                legal = set(moves)
                mine = [m for m in wins_for(state, mover) if m in legal]
                if mine:
                    pick = mine[0]
                else:
                    theirs = [m for m in wins_for(state, 1 - mover) if m in legal]
                    if theirs:
                        pick = rng.choice(theirs)
            if pick is None:
                if candidates is not None:
                    moves = candidates(state, moves) or moves
                pick = rng.choice(moves)
            state = state.play(pick)
        return state.returns()

    return rollout


# --- the search ----------------------------------------------------------------------------


def _prove(node: Node) -> int:
    """The proof status of ``node`` for the player who moves there, from its children."""
    if WON in node.proven:
        return WON
    if node.untried or UNKNOWN in node.proven:
        return UNKNOWN
    return DRAWN if DRAWN in node.proven else LOST


class MCTSAgent(Agent):
    name = "mcts"
    summary = "Monte Carlo tree search: UCT or e-greedy, rollouts or time, reuse, solver"
    params = (
        Param("rollouts", int, None, "simulations per move", low=1, default_text="1000"),
        Param("time", float, None, "seconds per move (with rollouts: whichever first)", low=0.001),
        Param("c", float, math.sqrt(2), "UCT exploration constant", low=0.0),
        Param("tree", str, "uct", "tree policy", choices=("uct", "egreedy")),
        Param("eps", float, 0.1, "exploration rate of tree=egreedy", low=0.0, high=1.0),
        Param("expand", str, "one", "children added per iteration", choices=("one", "all")),
        Param("rollout", str, "random", "simulation policy", choices=("random", "heuristic")),
        Param(
            "final",
            str,
            "robust",
            "move played: most visits or best rate",
            choices=("robust", "max"),
        ),
        Param("reuse", bool, False, "keep the subtree of the moves played"),
        Param("solver", bool, False, "MCTS-Solver: propagate proven wins and losses"),
        Param("seed", int, None, "random seed", default_text="fresh"),
    )

    def _setup(self, **p: object) -> None:
        self.p = p
        self.rng = random.Random(p["seed"])  # type: ignore[arg-type]
        self.root: Node | None = None
        self.deepest = 0
        """The longest path of the last search (kept as it runs: walking the tree
        afterwards would cost time after the deadline)."""

    def reset(self, game: Game | None = None) -> None:
        self.root = None
        release_gc()

    def observe(self, state: State, move: int) -> None:
        """Follow the move played into the kept tree (reuse=1)."""
        root = self.root
        if root is None or not self.p["reuse"]:
            self.root = None
            return
        if root.state != state or move not in root.moves:
            self.root = None
            return
        self.root = root.children[root.moves.index(move)]

    def budget(self, limit: Limit) -> tuple[int | float, float | None]:
        rollouts = self.p["rollouts"]
        seconds = self.p["time"]
        if limit.rollouts is not None:
            rollouts = min(limit.rollouts, rollouts or limit.rollouts)
        if limit.time is not None:
            seconds = min(limit.time, seconds or limit.time)
        if rollouts is None and seconds is None:
            rollouts = 1000
        return (rollouts if rollouts is not None else math.inf), seconds

    def choose(self, state: State, limit: Limit) -> int:
        rollouts, seconds = self.budget(limit)
        deadline = Deadline(seconds)
        rng = self.rng
        root = self.root if self.root is not None and self.root.state == state else None
        if root is None:
            root = Node(state, rng)
        self.root = root
        start_total = root.total
        if len(root.moves) == 1:  # nothing to decide
            self.last_search = self._info(root, deadline, 0)
            return root.moves[0]
        iterate = self._iteration(deadline)
        self.deepest = 0
        solver = self.p["solver"]
        # The budget counts simulations; with expand=all the last iteration may add a
        # few more (one per child of the leaf it expands).
        stop_at = start_total + rollouts
        with quiet_gc():
            while root.total < stop_at:
                if solver and _prove(root) != UNKNOWN:
                    break  # the root is proven: more simulations cannot change the move
                try:
                    iterate(root)
                except SearchTimeout:  # a rollout or an expansion ran into the deadline
                    break
                if deadline.tick():
                    break
                if self.listener is not None and self.report(
                    lambda: self._info(root, deadline, root.total - start_total)
                ):
                    break
        move = self._final(root)
        self.last_search = self._info(root, deadline, root.total - start_total)
        return move

    def _iteration(self, deadline: Deadline) -> Callable[[Node], None]:
        """One selection-expansion-simulation-backpropagation step, closed over the options."""
        p = self.p
        rng = self.rng
        c, eps = float(p["c"]), float(p["eps"])  # type: ignore[arg-type]
        use_uct = p["tree"] == "uct"
        expand_all = p["expand"] == "all"
        solver = bool(p["solver"])
        heuristic = p["rollout"] == "heuristic"
        rollout_fn: Callable[[State, random.Random], Returns] | None = None

        def simulate(s: State) -> Returns:
            nonlocal rollout_fn
            if s.is_terminal():
                return s.returns()
            if rollout_fn is None:
                rollout_fn = heuristic_rollout_factory(s, deadline) if heuristic else random_rollout
            return rollout_fn(s, rng)

        def add_child(node: Node, i: int) -> tuple[Node, Returns]:
            # Simulate first and attach after, so a rollout cut off by the clock
            # leaves the tree exactly as it was.
            child_state = node.state.play(node.moves[i])
            result = simulate(child_state)
            child = node.children[i] = Node(child_state, rng)
            child.total = 1  # its own first simulation, made now
            if solver and child_state.is_terminal():
                mine = result[node.state.to_move]
                node.proven[i] = WON if mine > 0 else LOST if mine < 0 else DRAWN
            return child, result

        def credit(path: list[tuple[Node, int]], result: Returns) -> None:
            for node, i in path:
                node.visits[i] += 1
                node.wins[i] += _REWARD[result[node.state.to_move]]
                node.total += 1

        def iteration(root: Node) -> None:
            node = root
            path: list[tuple[Node, int]] = []
            while True:
                if node.state.is_terminal():
                    node.total += 1
                    credit(path, node.state.returns())
                    break
                if node.untried and not expand_all:
                    i = node.next_untried(rng)
                    _, result = add_child(node, i)
                    node.untried.pop()
                    path.append((node, i))
                    credit(path, result)
                    break
                if node.untried:  # expand=all: every child at once, one simulation each
                    while node.untried:
                        i = node.untried[-1]
                        _, result = add_child(node, i)
                        node.untried.pop()
                        credit([*path, (node, i)], result)
                        if node.untried and deadline.expired():
                            # Out of time part-way: the rest stay untried for later.
                            raise SearchTimeout
                    break
                i = uct_select(node, c, rng) if use_uct else egreedy_select(node, eps, rng)
                if i < 0:  # every child proven: nothing left to sample here
                    break
                path.append((node, i))
                node = node.children[i]  # type: ignore[assignment]
            # The level reached: the path's length, one more where expand=all added children.
            reached = len(path) + (1 if expand_all and not node.state.is_terminal() else 0)
            if reached > self.deepest:
                self.deepest = reached
            if solver:
                # Proofs found at the bottom of this path climb as far as they hold.
                for parent, i in reversed(path):
                    status = _prove(parent.children[i])  # type: ignore[arg-type]
                    if status == UNKNOWN:
                        break
                    # The child's status is for the opponent: flip it for the parent's chooser.
                    parent.proven[i] = {WON: LOST, LOST: WON, DRAWN: DRAWN}[status]

        return iteration

    def _final(self, root: Node) -> int:
        moves, visits, wins, proven = root.moves, root.visits, root.wins, root.proven
        if WON in proven:
            return moves[proven.index(WON)]
        # A move that wins at once is known exactly, solver or not: never pass it up.
        mover = root.state.to_move
        for move, child in zip(moves, root.children):
            if child is not None and child.state.is_terminal() and child.state.returns()[mover] > 0:
                return move
        candidates = [i for i in range(len(moves)) if proven[i] != LOST and visits[i]]
        if not candidates:
            candidates = [i for i in range(len(moves)) if visits[i]] or list(range(len(moves)))
        rng = self.rng
        if self.p["final"] == "max":
            best = max(
                candidates,
                key=lambda i: (wins[i] / visits[i] if visits[i] else -1, visits[i], rng.random()),
            )
        else:
            best = max(candidates, key=lambda i: (visits[i], wins[i], rng.random()))
        return moves[best]

    def _info(self, root: Node, deadline: Deadline, simulations: int) -> SearchInfo:
        game = root.state.game
        c = float(self.p["c"])  # type: ignore[arg-type]
        log_total = math.log(root.total) if root.total > 1 else 0.0
        order = sorted(range(len(root.moves)), key=lambda i: (-root.visits[i], -root.wins[i]))
        rows = []
        for rank, i in enumerate(order, 1):
            n = root.visits[i]
            rate = root.wins[i] / n if n else None
            rows.append(
                {
                    "move": game.format_move(root.moves[i]),
                    "visits": n,
                    "win_rate": None if rate is None else round(rate, 4),
                    "ucb": None if not n else round(rate + c * math.sqrt(log_total / n), 4),
                    "rank": rank,
                    "proven": {UNKNOWN: "", WON: "win", LOST: "loss", DRAWN: "draw"}[
                        root.proven[i]
                    ],
                }
            )
        if rows:
            rows[0]["pv"] = [game.format_move(m) for m in principal_variation(root)]
        best = order[0] if order else None
        value = (
            root.wins[best] / root.visits[best] if best is not None and root.visits[best] else None
        )
        return SearchInfo(
            seconds=deadline.elapsed(),
            depth=self.deepest,
            nodes=simulations,
            value=value,
            root=rows,
        )


def principal_variation(root: Node, length: int = 12) -> list[int]:
    """The most visited line from the root."""
    line, node = [], root
    while node is not None and len(line) < length and any(node.visits):
        i = max(range(len(node.moves)), key=lambda j: node.visits[j])
        line.append(node.moves[i])
        node = node.children[i]  # type: ignore[assignment]
    return line
