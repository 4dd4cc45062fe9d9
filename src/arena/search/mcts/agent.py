"""``mcts``: Monte Carlo tree search, and its readable reference implementation.

One iteration walks down the tree by the tree policy, adds new children,
plays a simulation (a rollout) from the new position, and credits every
node on the way back up. Values are win rates of the player who chooses at a
node — win 1, draw 0.5, loss 0 — so selection is always a max.

The parts are chosen once, when the agent is built, as in OpenSpiel's
``MCTSBot(evaluator=..., child_selection_fn=...)``: the tree policy
(:mod:`~arena.search.mcts.tree_policy`: UCT, ε-greedy), the evaluator
(:mod:`~arena.search.mcts.evaluator`: random or heuristic rollouts), and the
engine: :class:`TreeSearch` below, over linked nodes (:mod:`~arena.search.mcts.tree`),
or the compiled search over arrays (:mod:`~arena.search.mcts.driver`) for games
with a kernel. Both end with the same root statistics, from which
:mod:`~arena.search.mcts.root` picks the move and writes the report.

Options (:mod:`~arena.search.mcts.options`):

* ``c``: UCT exploration constant (default √2); ``tree=egreedy`` with ``eps``
  instead picks a random child with probability eps and the best otherwise.
* ``expand=one`` adds one child per iteration; ``expand=all`` adds every
  child of a leaf at once with one rollout each.
* ``rollout=random`` uses the game's fast uniform playout;
  ``rollout=heuristic`` takes a win, blocks an immediate loss and samples
  from the game's candidate moves; ``rollout=cheap`` is the kernel's own
  cheap policy (uniform in the python engine).
* ``final=robust`` plays the most visited move, ``final=max`` the best win rate.
* ``reuse=1`` keeps the subtree of the moves actually played.
* ``solver=1`` (MCTS-Solver): finished games below a node prove it won or
  lost; proofs propagate up, and proven children are never sampled again.
* ``rave=K`` (compiled engine): MC-RAVE, AMAF values mixed in with the schedule
  ``beta = sqrt(K / (3n + K))`` (``bias=b``: the minimum-MSE schedule); ``prior=N``
  starts each move's AMAF values with ``N`` virtual simulations of the game's
  knowledge; ``rollout=tactics`` is the kernel's knowledgeable rollout (Go:
  captures, atari escapes, 3x3 shapes). See :mod:`~arena.search.mcts.rave`.
  ``ladders=1`` (Go, in ``best``) lets the prior read ladders, ``ladders=2`` (off: it
  lost at equal time) the tactical rollout too (the kernel's knob, ``Kernel.knobs``; refused where
  the game's kernel has none). ``lgrf=1`` (Go, ``rollout=tactics``; off: it did not win
  at equal time): the rollout plays the last good reply to the last two moves, else to
  the last one, and forgets the replies that lost (Baier and Drake's LGRF-2; a knob too);
  ``lgrf=2`` plays it only where its saves, captures and shapes have nothing.
  ``nakade=1`` (Go, ``rollout=tactics``; a knob too): the rollout and the prior may put
  two stones or more in atari inside an eye space of up to six points that the opponent
  encloses, so a group whose vital point is taken dies in the rollouts too.
  ``lowlib=1`` (Go, ``rollout=tactics``; a knob too; off: it lost on 13x13 at equal
  time): the rollout answers a move that leaves a string with two liberties (the owner
  extends to three or captures, the opponent gives an atari it cannot simply run from),
  as Fuego's playouts do.
  ``patterns=K`` (Go, with ``prior=N``; a knob too) gives the prior the rates of a
  model of the move a strong player chooses (3x3 shapes, distances to the last two
  moves, line, the hand-set knowledge's class; weights fitted to GNU Go's moves by
  ``scripts/fit_go_priors.py``): ``50 + K (logit - mean)`` percent, 5..95
  (:mod:`arena.games.go.learned`).
  ``widen=A`` (with ``prior=N``; Go and Gomoku; off: it lost on 13x13 at A = 20 and 2):
  progressive widening, each node looks only at its best moves by the prior, one at
  first and one more after ``A``, ``1.4 A``, ``1.4² A``... simulations (Coulom's
  schedule, 40 and 1.4).
* ``manage=1``: on a game clock (``Limit.clock``), the search stops as soon as the
  runner-up could not catch the most visited move in the rest of its share, and when the
  share is spent with a well-visited move rated better than the most visited one, it
  thinks on, up to half as long again (:mod:`arena.search.clock.stopping`: Huang,
  Coulom and Lin's early stop and UNST). Without a clock it changes nothing.
* ``dynkomi=1`` (compiled engine, Go): the search counts the game's search komi
  (:func:`arena.games.go.heuristic.search_komi`: a handicap's stones counted back
  early on, falling to the rules' komi), so its win rates still tell moves apart
  in a handicap game; the rules and the score never change. ``dynkomi=2`` adds
  situational komi (:mod:`arena.search.mcts.komi`): while its move's win rate is 0.8
  or more, the agent gives a point more in each search, so it plays for a margin
  rather than let a large lead melt away (the win rates it reports count that komi);
  off: no gain against an equal search on 13x13 (47.8% over 203 games).
* ``engine=fast`` (default) runs the compiled search where the game has a
  kernel and the options allow it; ``engine=python`` always runs this file's.

Tests: ``tests/search/test_mcts.py``, ``tests/search/test_fast_mcts.py``,
``tests/search/test_dynkomi.py``, ``tests/games/test_go_learned.py``.

>>> import arena
>>> game = arena.load_game("tictactoe")
>>> state = game.play_moves(game.parse_moves("a1 b1 a2 b2"))
>>> agent = arena.load_agent("mcts:rollouts=300,seed=1,engine=python")
>>> game.format_move(agent.choose(state, arena.Limit()))
'a3'
>>> agent.last_search.nodes
300

Tests: tests/search/test_mcts.py
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Protocol

from arena.core.agent import Agent, SearchInfo
from arena.core.errors import SpecError
from arena.core.game import Game, Returns, State
from arena.core.limit import Limit
from arena.games import knowledge
from arena.search.clock.background import Background
from arena.search.clock.deadline import Deadline, SearchTimeout, quiet_gc, release_gc
from arena.search.clock.stopping import extended, settled, unstable
from arena.search.clock.time_management import move_time
from arena.search.mcts import komi, warmup
from arena.search.mcts.evaluator import Evaluator
from arena.search.mcts.options import PARAMS, MCTSOptions
from arena.search.mcts.root import RootStats, Searched, final_move, search_info
from arena.search.mcts.tree import REWARD, Node, Proof, principal_variation, prove
from arena.search.mcts.tree_policy import TreePolicy

LOOKS = 40
"""``manage=1`` looks at the root this many times in a move's share of the clock."""


class Engine(Protocol):
    name: str

    def search(
        self, state: State, rollouts: float, deadline: Deadline, progress: Progress = None
    ) -> Searched: ...
    def snapshot(self, simulations: int) -> Searched: ...
    def observe(self, state: State, move: int) -> None: ...
    def reset(self) -> None: ...
    def root_stats(self) -> RootStats | None: ...


Progress = Callable[[int], bool] | None
"""Called by an engine with the simulations so far after each unit of work, when a
listener watches the search; True asks it to stop."""


class TreeSearch:
    """The reference engine: a tree of :class:`Node` objects walked by the State API."""

    name = "python"

    def __init__(
        self, options: MCTSOptions, policy: TreePolicy, evaluate: Evaluator, rng: random.Random
    ) -> None:
        self.options, self.policy, self.evaluate, self.rng = options, policy, evaluate, rng
        self.root: Node | None = None
        self.deepest = 0
        """The longest path of the last search (kept as it runs: walking the tree
        afterwards would cost time after the deadline)."""

    def reset(self) -> None:
        self.root = None

    def observe(self, state: State, move: int) -> None:
        """Follow the move played into the kept tree (reuse=1)."""
        root = self.root
        if root is None or not self.options.reuse or root.state != state or move not in root.moves:
            self.root = None
            return
        self.root = root.children[root.moves.index(move)]

    def root_stats(self) -> RootStats | None:
        root = self.root
        if root is None:
            return None
        mover = root.state.to_move
        wins_at_once = next(
            (
                move
                for move, child in zip(root.moves, root.children)
                if child is not None
                and child.state.is_terminal()
                and child.state.returns()[mover] > 0
            ),
            None,
        )
        return RootStats(  # copies: the tree goes on changing after the report
            list(root.moves),
            list(root.visits),
            list(root.wins),
            list(root.proven),
            root.total,
            wins_at_once,
        )

    def snapshot(self, simulations: int) -> Searched:
        """The search so far (for a listener)."""
        stats = self.root_stats()
        assert stats is not None and self.root is not None
        pv = principal_variation(self.root)
        return Searched(stats, simulations, self.deepest, pv, self.name)

    def search(
        self, state: State, rollouts: float, deadline: Deadline, progress: Progress = None
    ) -> Searched:
        root = self.root if self.root is not None and self.root.state == state else None
        if root is None:
            root = Node(state)
        self.root = root
        start_total = root.total
        self.deepest = 0
        if len(root.moves) > 1:  # else nothing to decide
            iterate = self._iteration(deadline)
            solver = self.options.solver
            # The budget counts simulations; with expand=all the last iteration may add a
            # few more (one per child of the leaf it expands).
            stop_at = start_total + rollouts
            with quiet_gc():
                while root.total < stop_at:
                    if solver and prove(root) != Proof.UNKNOWN:
                        break  # the root is proven: more simulations cannot change the move
                    try:
                        iterate(root)
                    except SearchTimeout:  # a rollout or an expansion ran into the deadline
                        break
                    if deadline.tick():
                        break
                    if progress is not None and progress(root.total - start_total):
                        break
        stats = self.root_stats()
        assert stats is not None
        sims = root.total - start_total
        return Searched(stats, sims, self.deepest, principal_variation(root), self.name)

    def _iteration(self, deadline: Deadline):  # type: ignore[no-untyped-def]
        """One selection-expansion-simulation-backpropagation step, closed over the parts."""
        rng = self.rng
        select, evaluate = self.policy.select, self.evaluate
        expand_all, solver = self.options.expand_all, self.options.solver

        def add_child(node: Node, i: int) -> Returns:
            # Simulate first and attach after, so a rollout cut off by the clock
            # leaves the tree exactly as it was.
            child_state = node.state.play(node.moves[i])
            over = child_state.is_terminal()
            result = child_state.returns() if over else evaluate(child_state, rng, deadline)
            child = node.children[i] = Node(child_state)
            child.total = 1  # its own first simulation, made now
            if solver and over:
                node.proven[i] = Proof.of_return(result[node.state.to_move])
            return result

        def credit(path: list[tuple[Node, int]], result: Returns) -> None:
            for node, i in path:
                node.visits[i] += 1
                node.wins[i] += REWARD[result[node.state.to_move]]
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
                    result = add_child(node, i)
                    node.untried.pop()
                    path.append((node, i))
                    credit(path, result)
                    break
                if node.untried:  # expand=all: every child at once, one simulation each
                    while node.untried:
                        i = node.untried[-1]
                        result = add_child(node, i)
                        node.untried.pop()
                        credit([*path, (node, i)], result)
                        if node.untried and deadline.expired():
                            # Out of time part-way: the rest stay untried for later.
                            raise SearchTimeout
                    break
                i = select(node, rng)
                if i < 0:  # every child proven: nothing left to sample here
                    break
                path.append((node, i))
                node = node.children[i]  # type: ignore[assignment]
            # The level reached: the path's length, one more where expand=all added children.
            reached = len(path) + (1 if expand_all and not node.state.is_terminal() else 0)
            if reached > self.deepest:
                self.deepest = reached
            if solver:
                # Proofs found at the bottom of this path climb as far as they hold. A
                # finished game's proof was set from its returns when it was added.
                for parent, i in reversed(path):
                    child = parent.children[i]
                    assert child is not None
                    if child.state.is_terminal():
                        continue
                    status = prove(child)
                    if status == Proof.UNKNOWN:
                        break
                    # The child's status is for the opponent: flip it for the parent's chooser.
                    parent.proven[i] = status.flipped()

        return iteration


def _search_komi(game: Game, mode: int) -> Callable[[State], float]:
    """The game's search komi (``dynkomi=mode``), or a one-line error for a game without one."""
    search_komi = knowledge(game).search_komi
    if search_komi is None:
        raise SpecError(f"mcts: dynkomi={mode} is for games with a komi (go), not {game.name}")
    return search_komi


class MCTSAgent(Agent):
    name = "mcts"
    summary = "Monte Carlo tree search: UCT or e-greedy, rollouts or time, reuse, solver"
    params = PARAMS

    def _setup(self, **config: object) -> None:
        self.options = options = MCTSOptions.from_config(config)
        self.rng = random.Random(options.seed)
        self.reference = TreeSearch(options, options.policy(), options.evaluator(), self.rng)
        self.engine: Engine = self.reference
        self._engines: dict[str, Engine] = {}
        self._building = Background()
        """Compiled engines asked for by a timed move before they were ready."""
        self.deadline: Deadline | None = None
        """The running search's deadline (:meth:`stop` makes it pass)."""
        self._engine_game: Game | None = None
        """The game :attr:`engine` is the final choice for (a move of it looks nothing up)."""
        self.given = 0
        """``dynkomi=2``: the points the next search gives away (:mod:`arena.search.mcts.komi`)."""
        self.search_komi: float | None = None
        """``dynkomi``: the komi the last search counted."""
        self._komi_ply = -1

    def engine_for(self, game: Game) -> Engine:
        """The engine that searches ``game``: the compiled one where the game has a kernel and
        the options allow it (``rollout=heuristic`` runs Python heuristics), else the reference.
        Compiles (or loads from disk) on first use; ``reset(game)`` does it off the clock."""
        engine = self._engines.get(game.spec)
        if engine is None:
            # One a timed move started building: wait for it rather than build twice.
            engine = self._building.wait(game.spec) or self._build(game)
            self._engines[game.spec] = engine
        self._use(engine)
        self._engine_game = game
        return engine

    def _use(self, engine: Engine) -> Engine:
        if engine is not self.engine:
            self.engine.reset()
            self.engine = engine
            self._engine_game = None
        return engine

    def _wants_compiled(self) -> bool:
        return self.options.engine == "fast" and self.options.rollout != "heuristic"

    def _build(self, game: Game) -> Engine:
        if self.options.dynkomi:
            # A one-line error for a game without a komi, before compiling.
            _search_komi(game, self.options.dynkomi)
        engine: Engine = self.reference
        if self._wants_compiled():
            engine = warmup.fast_engine(self.options, game, self.rng) or engine
        if engine is self.reference and self.options.compiled_only:
            raise SpecError(
                f"mcts: rave=, rollout=tactics and dynkomi= need a compiled kernel; "
                f"{game.name} has none"
            )
        return engine

    def _count_komi(self, engine: Engine, state: State) -> None:
        """``dynkomi``: the compiled engine counts the game's search komi for this move, and
        with ``dynkomi=2`` the points the player to move gives (the readable reference,
        answering while the compiled engine is built, counts the rules' komi)."""
        search_komi = _search_komi(state.game, self.options.dynkomi)
        if state.ply <= self._komi_ply:
            self.given = 0  # another game (or one taken back): nothing is known of the lead
        self._komi_ply = state.ply
        counted = search_komi(state)
        if self.options.dynkomi >= 2:
            counted = komi.given(counted, self.given, black_to_move=state.to_move == 0)
        kernel = getattr(engine, "kernel", None)
        if kernel is not None and kernel.komi is not None:
            kernel.komi(counted)
            self.search_komi = counted
        else:
            self.search_komi = None

    def _weigh_lead(self, stats: RootStats, move: int, state: State) -> None:
        """``dynkomi=2``: the points the next search gives, from this one's rate of ``move``
        (only when the compiled engine counted them)."""
        if self.search_komi is None or move not in stats.moves:
            return
        i = stats.moves.index(move)
        if stats.visits[i] > 0:
            rate = stats.wins[i] / stats.visits[i]
            self.given = komi.situational(self.given, rate, state.expected_plies_left())

    def _engine_on_clock(self, game: Game, seconds: float | None) -> Engine:
        """The engine for a move of ``seconds``: a compiled engine not ready yet (nobody
        called ``reset(game)``) is built in the background while the readable reference
        answers within the limit (:mod:`arena.search.clock.background`)."""
        if seconds is None or game.spec in self._engines or not self._wants_compiled():
            return self.engine_for(game)
        if warmup.ready(game):  # loaded in this process: quick to make
            return self.engine_for(game)
        built = self._building.get(game.spec, lambda: self._build(game))
        if built is None:
            return self._use(self.reference)
        self._engines[game.spec] = built
        self._use(built)
        self._engine_game = game
        return built

    @property
    def root(self) -> Node | None:
        """The reference engine's tree (None while the compiled engine searches)."""
        return self.reference.root if self.engine is self.reference else None

    def root_stats(self) -> RootStats | None:
        """The root of the last search (or the kept subtree after ``observe``)."""
        return self.engine.root_stats()

    def reset(self, game: Game | None = None) -> None:
        self.engine.reset()
        self.given, self._komi_ply = 0, -1
        # Collect the last game's garbage before a first use loads numba: its objects all
        # live on, and a collection after it would scan them for nothing (50 ms).
        release_gc()
        if game is not None:
            self.engine_for(game)

    def observe(self, state: State, move: int) -> None:
        self.engine.observe(state, move)

    def stop(self) -> None:
        # Both engines look at the deadline between iterations (the compiled one between
        # batches of a fraction of a millisecond).
        deadline = self.deadline
        if deadline is not None:
            deadline.stop()

    def budget(self, limit: Limit, state: State) -> tuple[int | float, float | None]:
        rollouts, seconds = self.options.rollouts, self.options.time
        if limit.rollouts is not None:
            rollouts = min(limit.rollouts, rollouts or limit.rollouts)
        allotted = move_time(limit, state)  # on a clock, the agent's own share of it
        if allotted is not None:
            seconds = min(allotted, seconds or allotted)
        if rollouts is None and seconds is None:
            rollouts = 1000
        return (rollouts if rollouts is not None else math.inf), seconds

    def choose(self, state: State, limit: Limit) -> int:
        rollouts, seconds = self.budget(limit, state)
        # Untimed: the engine is built now (may compile on first use); timed, a compiled
        # engine nobody made ready answers from the next move on.
        game = state.game
        engine = self.engine if game is self._engine_game else self._engine_on_clock(game, seconds)
        if self.options.dynkomi:
            self._count_komi(engine, state)
        share = seconds
        managed = bool(self.options.manage and limit.clock is not None and seconds)
        if managed:
            seconds = extended(limit, seconds)  # the deadline of a search still in doubt
        deadline = self.deadline = Deadline(seconds)
        self._started = deadline.start
        # No cyclic collection on the clock: with numba loaded, a full one takes tens of ms.
        with quiet_gc():
            progress = watch = None
            if managed:
                watch = self._manager(engine, share, deadline.start, self.options.robust)
            if self.listener is not None:

                def progress(simulations: int) -> bool:
                    if watch is not None and watch(simulations):
                        return True
                    return self.report(lambda: self._info(engine.snapshot(simulations), state))

            found = engine.search(state, rollouts, deadline, progress or watch)
            stats = found.stats
            if len(stats.moves) == 1:
                move = stats.moves[0]
            else:
                move = final_move(stats, self.options.robust, self.rng)
        if self.options.dynkomi >= 2:
            self._weigh_lead(stats, move, state)
        # The report is written when it is read, off the clock: formatting hundreds of
        # root moves (Go 19x19, Gomoku) takes milliseconds.
        self._report = (stats, game, self.options.c, deadline.finish(), found)
        return move

    @staticmethod
    def _manager(
        engine: Engine, share: float, start: float, robust: bool = True
    ) -> Callable[[int], bool]:
        """``manage=1``'s look at the root, every :data:`LOOKS`-th of the move's share of the
        clock: True (stop) once the choice is settled (``robust``: the most visited move is
        played), or once the share is spent and the choice is not in doubt
        (:mod:`arena.search.clock.stopping`)."""
        every = share / LOOKS
        clock = time.perf_counter
        next_look = start + every

        def watch(simulations: int) -> bool:
            nonlocal next_look
            now = clock()
            if now < next_look:
                return False
            next_look = now + every
            stats = engine.snapshot(simulations).stats
            visits = stats.visits
            if len(visits) < 2:
                return False
            elapsed = now - start
            if elapsed >= share:  # the share spent: on only while the choice is in doubt
                rates = [w / n if n else 0.0 for w, n in zip(stats.wins, visits, strict=True)]
                return not unstable(visits, rates)
            first, second = sorted(visits, reverse=True)[:2]
            return robust and settled(
                first=first, second=second, done=simulations, elapsed=elapsed, allotted=share
            )

        return watch

    def _info(self, found: Searched, state: State) -> SearchInfo:
        """The report of a search in progress."""
        return search_info(
            found.stats, state.game, self.options.c, time.perf_counter() - self._started,
            found.depth, found.simulations, found.pv, found.engine,
        )  # fmt: skip

    @property  # type: ignore[override]
    def last_search(self) -> SearchInfo | None:
        """The last search's report (root moves with visits, win rate and UCB; depth;
        simulations; the engine that ran)."""
        if self._report is not None:
            stats, game, c, seconds, found = self._report
            self._last = search_info(
                stats, game, c, seconds, found.depth, found.simulations, found.pv, found.engine
            )
            self._report = None
        return self._last

    @last_search.setter
    def last_search(self, info: SearchInfo | None) -> None:
        self._last, self._report = info, None
