"""The ``az`` agent: PUCT guided by a policy and value network from an ``.npz`` file.

``az:net=FILE`` plays the network's game with AlphaZero's search
(:mod:`arena.search.az.puct`), evaluated by the compiled forward pass: ``sims=`` (the
root's visits per move), ``time=`` and the match's clock bound it like every agent, and
``stop()`` ends the search between simulations. The tree is kept from move to move when
the new position is in it. ``noise=`` and ``temperature=`` are the self-play options
(Dirichlet noise at the root, a drawn move); a match leaves them at 0. ``batch=`` leaves
are evaluated per network call (virtual loss, :func:`arena.search.az.puct.simulate_batch`);
``root=gumbel`` is Gumbel MuZero's search (:mod:`arena.search.az.gumbel`), whose improved
policy :meth:`AZAgent.search_policy` returns for self-play. ``root=puct`` runs compiled
(:mod:`arena.search.az.puct_driver`: the same visits as the readable search, several
times as many simulations a second); ``engine=python`` keeps the readable one, and
``root=gumbel`` is readable only.

>>> import arena, tempfile, os
>>> from arena.search.az.network import random_network
>>> game = arena.load_game("tictactoe")
>>> path = os.path.join(tempfile.mkdtemp(), "ttt.npz")
>>> random_network(game, filters=4, blocks=0, seed=1).save(path)
>>> agent = arena.load_agent(f"az:net={path},sims=20")
>>> agent.choose(game.initial_state(), arena.Limit()) in range(9)
True
>>> agent.last_search.nodes
20

Tests: tests/search/test_az.py, tests/search/test_az_gumbel.py
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from importlib import import_module
from typing import Any

import numpy as np

from arena.core.agent import Agent, SearchInfo
from arena.core.errors import SpecError
from arena.core.game import Game, State
from arena.core.limit import Limit
from arena.core.spec import Param, file_path
from arena.search.az import gumbel, puct, shipped
from arena.search.az.network import Network, load
from arena.search.az.puct_driver import CompiledPUCT, CompiledTree, game_kernel
from arena.search.clock.background import Background
from arena.search.clock.deadline import Deadline, quiet_gc
from arena.search.clock.time_management import move_time
from arena.solvers.solve import connect4_bitboard, kind

DEFAULT_SIMULATIONS = 200
"""Simulations a move when neither ``sims=``, ``time=`` nor the match bounds it."""

DEFAULT_BATCH = 8
"""Leaves per network call: measured (docs/az.md, ``arena bench az``), batches of 8 make
Connect Four's simulations about twice as fast as one leaf at a time."""


SOLVER_TABLE_BITS = 20
"""``solve=``: the solver's table, 2**20 entries (8 MB), kept through a game."""

AUTO_SOLVE = 200_000
"""``solve=``'s nodes a probe by default, on Connect Four with ``root=puct`` on a clock
(without a clock, or on another game, the default is off); measured in docs/az.md."""

SOLVE_SHARE = 0.2
"""``solve=`` on a clock: the probes stop, whatever their node budget, once this share of
the time the move's deadline leaves the search has passed; the search has the rest (at
0.1 s a move, a share of 0.5 halved the search's simulations in the opening, where the
probes settle nothing)."""

CHECK_SHARE = 0.3
"""``check=``'s default: on a clock, when the probes before the search settled some root
moves but not all (the position is within the solver's reach), this share of the move is
kept after the search to check the move it chose (:meth:`AZAgent.check`); when they
settled none (the opening) or all, the search keeps the whole move (docs/az.md)."""

UNBOUNDED = 1 << 62
"""The check's probes are bounded by the move's clock alone."""


def proven_choice(tree: puct.Tree | CompiledTree, settled: dict[int, int], move: int) -> int:
    """The move to play once the solver has settled some root moves: the most visited of
    the proven wins if there is one; else ``move`` unless it is a proven loss and some
    move is not, then the most visited of those."""
    moves, visits = puct.visit_counts(tree)  # type: ignore[arg-type]
    order = sorted(range(len(moves)), key=lambda i: -int(visits[i]))  # stable: first of equals
    wins = [moves[i] for i in order if settled.get(moves[i]) == 1]
    if wins:
        return wins[0]
    if settled.get(move) != -1:
        return move
    others = [moves[i] for i in order if settled.get(moves[i], 0) != -1]
    return others[0] if others else move


@dataclass(frozen=True)
class Prepared:
    """What a network needs to play a game: its evaluator (the compiled forward pass), the
    compiled search (None: the readable one plays) and a first guess of its speed."""

    evaluate: puct.Evaluator
    compiled: CompiledPUCT | None
    rate: float


MAX_KEPT = 1 << 20
"""Nodes a kept tree may hold before a move starts afresh (memory, not strength; a
rerooted tree keeps its new root's subtree alone, so this binds only a subtree this
large)."""

PARAMS = (
    Param(
        "net", file_path, None,
        "the network file (.npz, docs/az.md); none: the network shipped for the game",
    ),
    Param(
        "sims",
        int,
        None,
        f"simulations per move at most; none: as many as the time allows "
        f"({DEFAULT_SIMULATIONS} when neither the match nor time= sets a limit)",
        low=1,
    ),
    Param("time", float, None, "seconds per move at most (the match's time caps it)", low=0.001),
    Param("c_puct", float, 1.5, "PUCT exploration constant", low=0.0),
    Param("noise", float, 0.0, "root Dirichlet noise weight (self-play: 0.25)", low=0.0, high=1.0),
    Param("alpha", float, 0.3, "Dirichlet concentration of the root noise", low=0.001),
    Param("temperature", float, 0.0, "0: most visited move; >0: drawn by visits^(1/t)", low=0.0),
    Param("reuse", bool, True, "keep the subtree of the position reached between moves (puct)"),
    Param(
        "batch", int, DEFAULT_BATCH,
        "leaves evaluated per network call (virtual loss spreads them); 1: one at a time",
        low=1, high=256,
    ),
    Param(
        "root", str, "puct",
        "root selection: PUCT, or Gumbel sampling with Sequential Halving (Gumbel MuZero)",
        choices=("puct", "gumbel"),
    ),
    Param("gumbel_m", int, gumbel.DEFAULT_CONSIDERED, "root=gumbel: moves sampled", low=1),
    Param(
        "engine", str, "compiled",
        "root=puct's search: compiled (numba, the default), or python (the readable one, "
        "the same visits, slower)",
        choices=("compiled", "python"),
    ),
    Param(
        "seed", int, None, "random seed (noise, Gumbel draws, temperature)", default_text="fresh"
    ),
    Param(
        "solve", int, None,
        "Connect Four, root=puct: nodes of the exact solver for each root move before the "
        "search, within a share of the move's time; a proven win is played, proven losses "
        f"are not (0: off; auto: {AUTO_SOLVE} on Connect Four with root=puct on a clock)",
        low=0, default_text="auto",
    ),
    Param(
        "check", float, CHECK_SHARE,
        "solve= on a clock: the share of the move kept after the search for the solver to "
        "check the chosen move (and, when it draws, the others for a win) when the probes "
        "settled some root moves but not all; 0: off",
        low=0.0, high=0.9,
    ),
)  # fmt: skip


class AZAgent(Agent):
    name = "az"
    summary = "AlphaZero's PUCT search guided by a policy+value network (.npz)"
    params = PARAMS

    def _setup(self, **config: object) -> None:
        # Checked here when given, so a bad file fails when the agent is named; without
        # one, `arena agents` can still list the defaults and choose() says what is missing.
        if config["root"] == "gumbel" and (config["noise"] > 0 or config["temperature"] > 0):
            raise SpecError(
                "az: root=gumbel explores by its Gumbel draws; noise= and temperature= are "
                "root=puct's"
            )
        self.network: Network | None = load(str(config["net"])) if config["net"] else None
        self.shipped = not config["net"]
        """Whether the network is the package's for the game played (it follows the game)."""
        self.gumbel_root: gumbel.GumbelRoot | None = None
        self.rate: float | None = None
        """Simulations a second in the last search (a timed Gumbel search's budget)."""
        self.rng = np.random.default_rng(config["seed"])  # type: ignore[arg-type]
        self.evaluate: puct.Evaluator | None = None
        self.game_spec: str | None = None
        self.tree: puct.Tree | CompiledTree | None = None
        self.compiled: CompiledPUCT | None = None
        """The compiled search of the network on the game (root=puct, engine=compiled)."""
        self.deadline: Deadline | None = None
        self._last: SearchInfo | None = None
        self._building = Background()
        """Compiled searches asked for by a timed move before they were ready."""
        self.solver: Any = None
        """Connect Four's solver for ``solve=`` (its table kept through a game)."""
        self.settled: dict[int, int] = {}
        """The last move's root moves the solver settled: 1 won, 0 drawn, -1 lost."""

    def network_for(self, game: Game) -> Network:
        """The network that plays ``game``, checked against it (a one-line SpecError): the
        one named by ``net=``, or the package's for the game (it follows the game)."""
        if self.shipped and (self.network is None or self.network.game != game.spec):
            self.network = load(shipped.network_for(game))
        assert self.network is not None
        self.network.check(game)
        return self.network

    def prepare(self, game: Game) -> puct.Evaluator:
        """The evaluator for ``game``, checking the network fits it (a one-line SpecError);
        compiles the forward pass (or loads it from numba's cache) on first use."""
        self.prepare_solver(game)
        if self.evaluate is not None and self.game_spec == game.spec:
            return self.evaluate
        network = self.network_for(game)
        # One a timed move started building: wait for it rather than build twice.
        ready = self._building.wait(game.spec) or self._build(network, game)
        self._install(game, ready)
        return ready.evaluate

    def _build(self, network: Network, game: Game) -> Prepared:
        """The compiled forward pass and search of ``network`` on ``game``, warmed."""
        evaluate = puct.net_evaluator(network)
        self.prepare_solver(game)  # solve='s default: off the clock, as the search
        compiled = None
        if (
            self.config["root"] == "puct"
            and self.config["engine"] == "compiled"
            and game_kernel(game) is not None
        ):
            compiled = CompiledPUCT(network, game)
        start = game.initial_state()
        if compiled is not None:
            # Everything a move runs is compiled (or loaded from numba's cache) now,
            # off the clock: the search, and the reroot a kept tree takes at the next
            # move (compiled on its first use, it cost a cold match 1-3.5 s there).
            warm = compiled.new_tree(start)
            compiled.run(warm, 2, 1.0, batch=2)
            compiled.reroot(warm, start.play(start.legal_moves()[0]))
        evaluate([start])
        began = time.perf_counter()
        evaluate([start] * self.config["batch"])
        # A first guess of the search's speed for a timed Gumbel search's budget (the
        # walks cost about as much again); each search then measures its own.
        rate = self.config["batch"] / max(2 * (time.perf_counter() - began), 1e-6)
        return Prepared(evaluate, compiled, rate)

    def _install(self, game: Game, ready: Prepared) -> None:
        self.evaluate, self.compiled, self.rate = ready.evaluate, ready.compiled, ready.rate
        self.game_spec, self.tree = game.spec, None

    def _prepare_on_clock(self, game: Game, seconds: float | None) -> puct.Evaluator:
        """The evaluator for a move of ``seconds``. Nobody called ``reset(game)`` and the
        compiled forward pass is not loaded yet (0.3-1 s from numba's cache, longer to
        compile): it is built in the background (:mod:`arena.search.clock.background`)
        while the readable search with the readable forward pass answers within the limit,
        and the next move uses it once it is ready."""
        if seconds is None or (self.evaluate is not None and self.game_spec == game.spec):
            return self.prepare(game)
        network = self.network_for(game)
        ready = self._building.get(game.spec, lambda: self._build(network, game))
        if ready is not None:
            self._install(game, ready)
            return ready.evaluate
        self.compiled, self.tree = None, None
        return puct.readable_evaluator(network)

    def solve_fits(self, game: Game) -> bool:
        return kind(game) == "connect4" and self.config["root"] == "puct"

    def solve_nodes(self, game: Game, timed: bool) -> int:
        """``solve=``'s nodes a probe for a move on ``game`` (0: no probes): the option's,
        or by default :data:`AUTO_SOLVE` on Connect Four with ``root=puct`` on a clock."""
        nodes = self.config["solve"]
        if nodes is not None:
            return int(nodes)
        return AUTO_SOLVE if timed and self.solve_fits(game) else 0

    def prepare_solver(self, game: Game) -> None:
        """``solve=N`` (or its default on Connect Four): Connect Four's compiled solver
        (loaded off the clock at ``reset``), or a one-line SpecError for another game or
        ``root=gumbel`` when ``solve=N`` is given."""
        if self.config["solve"] == 0 or (
            self.config["solve"] is None and not self.solve_fits(game)
        ):
            return
        if not self.solve_fits(game):
            raise SpecError(
                f"az: solve= needs Connect Four's solver and root=puct, not {game.spec} "
                f"with root={self.config['root']}"
            )
        if not self.solver_ready(game):
            module: Any = import_module("arena.solvers.connect4.solver")  # numba: on use
            self.solver = module.Connect4Solver(
                game.rows, game.cols, game.k, table_bits=SOLVER_TABLE_BITS  # type: ignore[attr-defined]
            )  # fmt: skip

    def solver_ready(self, game: Game) -> bool:
        """Whether the solver for ``game``'s board is loaded (the default ``solve=`` probes
        only then: loading it is not for a move's clock)."""
        solver = self.solver
        return solver is not None and (solver.rows, solver.cols, solver.k) == (
            game.rows, game.cols, game.k  # type: ignore[attr-defined]
        )  # fmt: skip

    def settle(
        self, state: State, end: float | None = None, nodes: int | None = None
    ) -> dict[int, int]:
        """Each root move the solver settles within ``solve=`` nodes (and before ``end``, a
        :func:`time.perf_counter` moment shared equally by the probes, each stopped at the
        end of its part; a move whose probe stops stays open): 1 if it wins, 0 if it
        draws, -1 if it loses (for the player to move, with perfect play after it); a
        move that wins at once is 1 without a search. ``nodes``: a probe's budget
        (``solve=``'s when not given)."""
        self.prepare_solver(state.game)
        found: dict[int, int] = {}
        open_moves = []
        for move in state.legal_moves():
            child = state.play(move)
            if child.is_terminal():
                found[move] = 0 if child.winner() is None else 1
            else:
                open_moves.append((move, child))
        budget = nodes if nodes is not None else self.solve_nodes(state.game, end is not None)
        for i, (move, child) in enumerate(open_moves):
            probe_end = None
            if end is not None:
                # Each move not yet probed gets an equal part of the time left, so the
                # first probes cannot leave the last none.
                now = time.perf_counter()
                if now >= end:
                    break
                probe_end = now + (end - now) / (len(open_moves) - i)
            outcome = self.probe(child, budget, probe_end)
            if outcome is not None:
                found[move] = outcome
        return found

    def probe(self, child: State, nodes: int, end: float | None) -> int | None:
        """The solver's outcome of the root move that led to ``child``, for the player who
        made it (1 won, 0 drawn, -1 lost), or None if ``nodes`` nodes did not settle it
        before ``end`` (a :func:`time.perf_counter` moment; None: the nodes alone)."""
        pos, mask = connect4_bitboard(child)
        outcome = self.solver.outcome(pos, mask, child.ply, nodes, end)
        return None if outcome is None else -outcome

    @staticmethod
    def solve_end(deadline: Deadline) -> float | None:
        """When ``solve=``'s probes stop on this move's clock: :data:`SOLVE_SHARE` of the
        way to the search's deadline (None: no clock)."""
        if deadline.end == math.inf:
            return None
        if deadline.end == -math.inf:
            return deadline.end
        return deadline.start + SOLVE_SHARE * max(deadline.end - deadline.start, 0.0)

    def check(
        self,
        tree: puct.Tree | CompiledTree,
        state: State,
        move: int,
        end: float | None,
        nodes: int = UNBOUNDED,
    ) -> int:
        """The move to play after the solver checks the search's: ``move`` (the search's
        choice) is probed unless settled; a proven loss gives way to the next as
        :func:`proven_choice` ranks them, which is probed in turn; once the choice is
        proven drawn, the other open moves are probed, most visited first, for a win.
        Each probe has ``nodes`` and stops at ``end`` (a :func:`time.perf_counter`
        moment; None: the nodes alone); the first that does not finish ends the check.
        The settled moves are added to :attr:`settled`."""
        settled = self.settled
        moves, visits = puct.visit_counts(tree)  # type: ignore[arg-type]
        ranked = [moves[i] for i in sorted(range(len(moves)), key=lambda i: -int(visits[i]))]
        while end is None or time.perf_counter() < end:
            move = proven_choice(tree, settled, move)
            if settled.get(move) == 1:
                break
            target = move
            if target in settled:  # proven drawn (or every move lost): look for a win
                open_moves = [m for m in ranked if m not in settled]
                if not open_moves:
                    break
                target = open_moves[0]
            outcome = self.probe(state.play(target), nodes, end)
            if outcome is None:
                break
            settled[target] = outcome
        return proven_choice(tree, settled, move)

    def check_end(self, deadline: Deadline) -> float | None:
        """When the search stops to leave ``check=``'s share of the move for the check
        (None: no check; the search has the move)."""
        share = self.config["check"]
        if not share or deadline.end in (math.inf, -math.inf):
            return None
        return deadline.end - share * max(deadline.end - deadline.start, 0.0)

    def reset(self, game: Game | None = None) -> None:
        self.tree = None
        if self.solver is not None:
            self.solver.reset()
        if game is not None:
            self.prepare(game)

    def stop(self) -> None:
        deadline = self.deadline
        if deadline is not None:
            deadline.stop()
        if self.compiled is not None:
            self.compiled.stop()

    def budget(self, limit: Limit, state: State) -> tuple[float, float | None]:
        sims, seconds = self.config["sims"], self.config["time"]
        if limit.rollouts is not None:
            sims = min(limit.rollouts, sims or limit.rollouts)
        allotted = move_time(limit, state)
        if allotted is not None:
            seconds = min(allotted, seconds or allotted)
        if sims is None and seconds is None:
            sims = DEFAULT_SIMULATIONS
        return (sims if sims is not None else math.inf), seconds

    def choose(self, state: State, limit: Limit) -> int:
        sims, seconds = self.budget(limit, state)
        evaluate = self._prepare_on_clock(state.game, seconds)
        if self.compiled is not None:
            self.compiled.halt[0] = 0
        deadline = self.deadline = Deadline(seconds)
        batch = self.config["batch"]
        start = time.perf_counter()
        progress = None
        if self.listener is not None:
            # Live reports for a listener (the web board): a snapshot of the tree so far
            # between batches, at most every progress_every seconds.
            def progress(ran: int, depth: int) -> bool:
                return self.report(
                    lambda: self.report_of(
                        self.tree,
                        state,
                        ran,
                        depth,
                        time.perf_counter() - start,  # type: ignore[arg-type]
                    )
                )

        if self.config["root"] == "gumbel":
            # Sequential Halving shares a known budget, so a fresh tree each move (kept
            # visits would not follow the schedule) and, on time alone, the budget the last
            # search's speed promises.
            if sims == math.inf:
                sims = max(2.0, (self.rate or DEFAULT_SIMULATIONS) * float(seconds or 0))
            tree = self.tree = puct.Tree(state)
            self.gumbel_root = None  # live reports show the visits; the policy comes after
            with quiet_gc():
                search, ran, depth = gumbel.run(
                    tree, evaluate, int(sims), self.config["gumbel_m"], self.rng, deadline,
                    batch, progress,
                )  # fmt: skip
                self.gumbel_root = search
                move = search.best_move(tree) if search else puct.choose_move(tree, 0, self.rng)
        else:
            # solve=N: the root's moves the solver settles, on this move's clock (a share
            # of it; the search has the rest).
            self.settled = {}
            nodes = self.solve_nodes(state.game, seconds is not None)
            probing = bool(nodes) and (
                self.config["solve"] is not None or self.solver_ready(state.game)
            )
            if probing:
                self.settled = self.settle(state, self.solve_end(deadline), nodes)
            # check=: the probes reached some root moves but not all (no win), so the
            # solver is worth more than the search's last simulations: the search stops
            # early and the solver checks the move it chose (at 1 s a move, 4 of 10 lost
            # games' first mistakes were moves the solver refutes in 0.6-2 million nodes,
            # out of the probes' 200,000; docs/az.md).
            check_end = None
            some = 0 < len(self.settled) < len(state.legal_moves())
            if probing and some and 1 not in self.settled.values():
                check_end = self.check_end(deadline)
            move_end = deadline.end
            if check_end is not None:
                deadline.end = check_end
            engine = self.compiled
            tree = self.tree
            kept = (
                tree is not None
                and self.config["reuse"]
                and tree.size <= MAX_KEPT
                and isinstance(tree, CompiledTree) == (engine is not None)
            )
            if kept and isinstance(tree, CompiledTree):
                kept = engine.reroot(tree, state)  # type: ignore[union-attr]
            elif kept:
                kept = puct.reroot(tree, state)  # type: ignore[arg-type]
            if not kept:
                tree = self.tree = engine.new_tree(state) if engine else puct.Tree(state)
            noise = None
            if self.config["noise"] > 0:
                noise = (self.config["noise"], self.config["alpha"], self.rng)
            self.gumbel_root = None
            c = self.config["c_puct"]
            with quiet_gc():
                if isinstance(tree, CompiledTree):
                    ran, depth = engine.run(tree, sims, c, deadline, noise, batch, progress)  # type: ignore[union-attr]
                else:
                    ran, depth = puct.run(tree, evaluate, sims, c, deadline, noise, batch, progress)  # type: ignore[arg-type]
                move = puct.choose_move(tree, self.config["temperature"], self.rng)  # type: ignore[arg-type]
            if check_end is not None and deadline.end == check_end:  # not stopped
                deadline.end = move_end
                move = self.check(tree, state, move, move_end)  # type: ignore[arg-type]
            if self.settled:
                move = proven_choice(tree, self.settled, move)  # type: ignore[arg-type]
        elapsed = time.perf_counter() - start
        if ran > 0 and elapsed > 0:
            self.rate = ran / elapsed
        self._last = self.report_of(tree, state, ran, depth, elapsed)
        # An answer later than the deadline (a pause after its last look at the clock)
        # teaches the process's pause reserve, as every timed search's does, so the next
        # move of any agent keeps it (az alone did not: 97% of 1 s used at load 3, and a
        # 1.071 s move forfeited on Othello 6x6).
        deadline.finish()
        return move

    def search_policy(self) -> tuple[tuple[int, ...], np.ndarray]:
        """The last search's policy over the root's moves, the self-play policy target:
        the visit distribution for ``root=puct``, the improved policy
        ``softmax(logits + sigma(completed q))`` for ``root=gumbel``. Empty before a
        search, or after one at a terminal position."""
        tree = self.tree
        if tree is None or tree.first[tree.root] < 0:
            return (), np.zeros(0)
        moves, visits = puct.visit_counts(tree)
        if self.gumbel_root is not None:
            return moves, gumbel.improved_policy(tree)
        return moves, visits / max(int(visits.sum()), 1)

    def report_of(
        self, tree: puct.Tree, state: State, ran: int, depth: int, seconds: float
    ) -> SearchInfo:
        """The search's report: each root move's visits, prior and value (for the mover)."""
        kids = puct.children(tree, tree.root)
        c = self.config["c_puct"]
        ucb = puct.scores(tree, tree.root, c) if len(kids) else []
        improved = None
        score = np.zeros(len(kids))
        if self.gumbel_root is not None and len(kids):
            # Gumbel plays the best of the most visited by g + logits + sigma(q): ranked so,
            # the first row is the move played; PUCT's UCB means nothing here.
            improved = gumbel.improved_policy(tree)
            score = self.gumbel_root.root_scores(tree)
            ucb = [None] * len(kids)
        order = sorted(range(len(kids)), key=lambda i: (-tree.visits[kids[i]], -score[i], i))
        rows = []
        for rank, i in enumerate(order, 1):
            node = kids[i]
            n = int(tree.visits[node])
            q = tree.value_sum[node] / n if n else None
            rows.append(
                {
                    "move": state.game.format_move(int(tree.move[node])),
                    "visits": n,
                    "prior": round(float(tree.prior[node]), 4),
                    "value": None if q is None else round(float(q), 4),
                    "win_rate": None if q is None else (q + 1.0) / 2.0,
                    "ucb": None if ucb[i] is None else float(ucb[i]),
                    "rank": rank,
                }
            )
            if improved is not None:
                rows[-1]["policy"] = round(float(improved[i]), 4)
        root = tree.root
        n = int(tree.visits[root])
        value = None
        if n and len(kids):
            value = float(tree.value_sum[kids].sum() / max(int(tree.visits[kids].sum()), 1))
        return SearchInfo(
            seconds=seconds, depth=depth, nodes=ran, value=value, root=rows, engine="az",
            units="value: the search's mean for the player to move, -1..1; win rate "
            "(value + 1) / 2; prior: the policy head's" + (
                "; policy: the search's improved policy (Gumbel)" if improved is not None else ""
            ),
        )  # fmt: skip

    @property  # type: ignore[override]
    def last_search(self) -> SearchInfo | None:
        return self._last

    @last_search.setter
    def last_search(self, info: SearchInfo | None) -> None:
        self._last = info
