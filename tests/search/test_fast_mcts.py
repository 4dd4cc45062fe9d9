"""The compiled MCTS (engine=fast) against the reference (engine=python): same answers in law,
exact proofs, the clock kept, the tree kept between moves, fallbacks and bad parameters."""

from __future__ import annotations

import math
import random
import statistics
import time

import numpy as np
import pytest
from numba import njit

import arena
from arena.core.errors import SpecError
from arena.core.stack import borrowed
from arena.search.clock.deadline import Deadline
from arena.search.mcts import kernel as mk
from arena.search.mcts.agent import MCTSAgent
from arena.search.mcts.options import MCTSOptions
from arena.search.mcts.tree import Proof
from arena.search.mcts.warmup import fast_engine
from arena.search.report import format_search
from helpers import Stopwatch, random_states
from kernel_checks import run_without_jit


def agent(spec: str) -> MCTSAgent:
    made = arena.load_agent(spec)
    assert isinstance(made, MCTSAgent)
    return made


def shares(spec: str, moves: str, options: str, engine: str, seeds: range) -> dict[int, list]:
    """Root visit shares per move over one search per seed."""
    game = arena.load_game(spec)
    state = game.play_moves(game.parse_moves(moves))
    out: dict[int, list[float]] = {m: [] for m in state.legal_moves()}
    for seed in seeds:
        a = agent(f"mcts:{options},seed={seed},engine={engine}")
        a.reset(game)
        a.choose(state, arena.Limit())
        assert a.last_search.engine == engine
        stats = a.root_stats()
        assert stats is not None and stats.moves == list(state.legal_moves())
        total = sum(stats.visits)
        for move, visits in zip(stats.moves, stats.visits):
            out[move].append(visits / total)
    return out


@pytest.mark.parametrize(
    ("spec", "moves", "options"),
    [
        ("tictactoe", "b2 a1", "rollouts=1500"),
        ("connect4", "4453", "rollouts=1500"),
        ("connect4", "44", "rollouts=1500,tree=egreedy,eps=0.3,final=max"),
        ("othello:size=6", "", "rollouts=1000,expand=all"),
        ("go:size=5", "", "rollouts=1000,c=0.7"),
    ],
)
def test_fast_and_reference_agree_on_root_visit_shares(spec: str, moves: str, options: str) -> None:
    """Mean visit share of every root move over independent searches: the two engines'
    means differ by no more than sampling error (4 standard errors, plus 2% slack for
    the tie-breaking order, which differs: same law, different random streams)."""
    seeds = range(1, 9)
    fast = shares(spec, moves, options, "fast", seeds)
    ref = shares(spec, moves, options, "python", seeds)
    for move in fast:
        a, b = fast[move], ref[move]
        error = math.sqrt((statistics.variance(a) + statistics.variance(b)) / len(seeds))
        assert abs(statistics.mean(a) - statistics.mean(b)) <= 4 * error + 0.02, (move, a, b)


def minimax(state: arena.State, me: int) -> int:
    if state.is_terminal():
        return state.returns()[me]
    values = [minimax(state.play(m), me) for m in state.legal_moves()]
    return max(values) if state.to_move == me else min(values)


@pytest.mark.parametrize("expand", ["one", "all"])
def test_solver_proofs_are_exact_on_small_positions(expand: str) -> None:
    """Every proof the solver reports matches minimax, wins, draws and losses alike."""
    game = arena.load_game("tictactoe")
    proofs = 0
    for state in random_states(game, 150, seed=3):
        if state.is_terminal() or not 2 <= len(state.legal_moves()) <= 4:
            continue
        a = agent(f"mcts:rollouts=400,solver=1,seed=1,expand={expand}")
        a.choose(state, arena.Limit())
        assert a.last_search.engine == "fast"
        for row in a.last_search.root:
            if row["proven"]:
                proofs += 1
                truth = minimax(state.play(game.parse_move(row["move"])), state.to_move)
                assert {"win": 1, "draw": 0, "loss": -1}[row["proven"]] == truth, (state, row)
    assert proofs > 20


def test_solver_proves_a_forced_win_and_stops() -> None:
    game = arena.load_game("connect4")
    state = game.play_moves(game.parse_moves("4455"))
    a = agent("mcts:rollouts=50000,solver=1,seed=2")
    move = a.choose(state, arena.Limit())
    assert game.format_move(move) in {"3", "6"}
    stats = a.root_stats()
    assert stats is not None and Proof.WON in stats.proven
    assert a.last_search.root[0]["proven"] == "win"
    assert a.last_search.nodes < 50000  # a proven root stops the search


@pytest.mark.parametrize("spec", ["connect4", "go:size=5", "othello"])
def test_visits_add_up_and_reuse_keeps_the_subtree(spec: str) -> None:
    game = arena.load_game(spec)
    a = agent("mcts:rollouts=2000,reuse=1,seed=4")
    a.reset(game)
    state = random_states(game, 2, seed=1)[-1]
    move = a.choose(state, arena.Limit())
    stats = a.root_stats()
    assert stats is not None and stats.total == sum(stats.visits) == 2000
    assert a.last_search.nodes == 2000 and a.last_search.depth >= 2
    kept = stats.visits[stats.moves.index(move)]
    a.observe(state, move)
    state = state.play(move)
    child = a.root_stats()
    assert child is not None and child.total == kept == 1 + sum(child.visits)
    a.choose(state, arena.Limit(rollouts=500))
    after = a.root_stats()
    assert after is not None and after.total == kept + 500
    a.observe(state, state.legal_moves()[0] if move != state.legal_moves()[0] else -1)
    without = agent("mcts:rollouts=100,seed=4")
    without.choose(state, arena.Limit())
    without.observe(state, state.legal_moves()[0])
    assert without.root_stats() is None  # reuse=0 forgets the tree


@pytest.mark.parametrize("spec", ["connect4", "go:size=9", "gomoku"])
def test_fast_engine_answers_within_its_time(spec: str) -> None:
    """A generous check (the tight one is ``arena bench timing``): each answer comes within
    the limit plus 50 ms, after searching more than one batch."""
    game = arena.load_game(spec)
    a = agent("mcts:reuse=1,seed=1")
    a.reset(game)
    state = game.initial_state(1)
    for _ in range(3):
        watch = Stopwatch()  # the search's own time: a loaded machine's waits are not its
        move = a.choose(state, arena.Limit(time=0.1))
        assert watch.seconds() < 0.15
        assert a.last_search.engine == "fast" and a.last_search.nodes > 4
        a.observe(state, move)
        state = state.play(move)


@pytest.mark.parametrize(
    ("spec", "options", "engine"),
    [
        ("connect4", "", "fast"),
        ("connect4", "rollout=cheap", "fast"),
        ("connect4", "engine=python", "python"),
        ("connect4", "rollout=heuristic", "python"),  # Python heuristics: the reference runs
    ],
)
def test_the_report_says_which_engine_ran(spec: str, options: str, engine: str) -> None:
    game = arena.load_game(spec)
    a = agent(f"mcts:rollouts=200,seed=1{',' + options if options else ''}")
    move = a.choose(game.initial_state(), arena.Limit())
    assert move in game.initial_state().legal_moves()
    assert a.last_search.engine == engine
    assert f"({engine} engine)" in format_search(a.last_search)


@pytest.mark.parametrize(
    "spec", ["mcts:engine=gpu", "mcts:rollout=smart", "mcts:tree=puct", "mcts:eps=2", "mcts:c=-1"]
)
def test_bad_parameters_are_spec_errors(spec: str) -> None:
    with pytest.raises(SpecError):
        arena.load_agent(spec)


def test_compiled_mcts_runs_as_plain_python() -> None:
    """NUMBA_DISABLE_JIT=1: the same search code runs as Python (how to debug it)."""
    out = run_without_jit(
        "import arena\n"
        "g = arena.load_game('tictactoe')\n"
        "s = g.play_moves(g.parse_moves('a1 b1 a2 b2'))\n"
        "a = arena.load_agent('mcts:rollouts=200,solver=1,seed=1')\n"
        "m = a.choose(s, arena.Limit())\n"
        "won = [r['move'] for r in a.last_search.root if r['proven'] == 'win']\n"
        "print(g.format_move(m), a.last_search.engine, *won)\n"
    )
    assert out.split() == ["a3", "fast", "a3"]


@pytest.mark.parametrize("spec", ["tictactoe", "connect4", "go:size=9"])
def test_the_root_read_in_one_compiled_call_is_the_trees(spec: str) -> None:
    """The root's statistics and best line (read by :mod:`arena.search.mcts.root_arrays`,
    not by a dozen numpy operations, to keep a move's fixed cost down) are the tree's:
    each legal move's child, in legal order, and the most visited line."""
    game = arena.load_game(spec)
    engine = fast_engine(MCTSOptions(), game, random.Random(3))
    state = game.initial_state()
    engine.search(state, 500, Deadline(None))
    stats = engine.root_stats()
    assert stats.moves == list(state.legal_moves())
    node, x = engine.node, engine.root
    first, tried = int(node[x, mk.FIRST]), int(node[x, mk.TRIED])
    children = {
        int(engine.edge_move[e]): int(engine.edge_child[e]) for e in range(first, first + tried)
    }
    for move, visits, wins in zip(stats.moves, stats.visits, stats.wins):
        child = children.get(move)
        assert visits == (0 if child is None else int(node[child, mk.VISITS]))
        assert wins == (0.0 if child is None else float(engine.wins[child]))
    assert sum(stats.visits) == stats.total == 500
    line, y = [], x
    while len(line) < 12 and node[y, mk.FIRST] >= 0 and node[y, mk.TRIED]:
        edges = range(int(node[y, mk.FIRST]), int(node[y, mk.FIRST] + node[y, mk.TRIED]))
        best = max(edges, key=lambda e: (node[engine.edge_child[e], mk.VISITS], -e))
        line.append(int(engine.edge_move[best]))
        y = engine.edge_child[best]
    assert engine.snapshot(500).pv == line


@pytest.mark.parametrize("rave", [0.0, 100.0])
def test_the_tree_grows_to_what_the_search_needs_in_one_or_two_steps(
    monkeypatch: pytest.MonkeyPatch, rave: float
) -> None:
    """A search that needs a dozen times the first arrays grows them once or twice, to its
    estimate (doubling took five copies of an ever bigger tree, a fifth of a fresh search's
    processor time on Connect Four); the same search as with room from the start."""
    game = arena.load_game("tictactoe")
    state = game.initial_state()
    options = MCTSOptions(threads=1, rave=rave, seed=1)
    grown = fast_engine(options, game, random.Random(5))
    growths: list[tuple[int, int]] = []
    real = grown._grow

    def counted(nodes: int, edges: int) -> None:
        growths.append((nodes, edges))
        real(nodes, edges)

    monkeypatch.setattr(grown, "_grow", counted)
    found = grown.search(state, 40_000, Deadline(None))
    assert 1 <= len(growths) <= 2
    assert len(grown.node) <= 2 * 40_000 and int(grown.sizes[0]) <= len(grown.node)
    roomy = fast_engine(options, game, random.Random(5))
    roomy._allocate(1 << 17, 1 << 19)
    assert roomy.search(state, 40_000, Deadline(None)).stats == found.stats


@pytest.mark.parametrize("most", [1 << 16, 1 << 15])
def test_a_search_without_memory_for_its_estimate_grows_by_the_least(
    monkeypatch: pytest.MonkeyPatch, most: int
) -> None:
    """Arrays the machine refuses: the least growth (double), and with none possible the
    search answers with the tree it has."""
    from arena.search.mcts import driver

    real, refused = driver.private_array, []

    def scarce(shape, *args, **kwargs):  # type: ignore[no-untyped-def]
        rows = shape if isinstance(shape, int) else shape[0]
        if rows > most:  # more than the machine gives
            refused.append(rows)
            raise MemoryError
        return real(shape, *args, **kwargs)

    monkeypatch.setattr(driver, "private_array", scarce)
    game = arena.load_game("tictactoe")
    engine = fast_engine(MCTSOptions(threads=1, seed=1), game, random.Random(5))
    found = engine.search(game.initial_state(), 40_000, Deadline(None))
    assert refused and len(engine.node) <= most and len(engine.edge_move) <= most
    # 40,000 simulations need 26,132 nodes and 37,978 edges
    assert (found.simulations == 40_000) == (most == 1 << 16)
    assert found.simulations > 20_000 and sum(found.stats.visits) == found.simulations


@pytest.mark.parametrize(
    ("spec", "options"),
    [("connect4", ""), ("tictactoe", "rave=300"), ("connect4", "threads=2,parallel=tree")],
)
def test_kernel_seconds_are_the_time_inside_compiled_code(spec: str, options: str) -> None:
    """``kernel_seconds`` (what ``arena bench agents --sims`` takes from a move to quote its
    fixed cost) is the last search's time inside its compiled batches: part of the move's
    wall time, every batch of a timed search counted, and reset by each search."""
    game = arena.load_game(spec)
    a = agent(f"mcts:seed=1{',' + options if options else ''}")
    a.reset(game)
    start = time.perf_counter()
    a.choose(game.initial_state(), arena.Limit(rollouts=3000))
    wall = time.perf_counter() - start
    assert 0 < a.engine.kernel_seconds < wall
    start = time.perf_counter()
    a.choose(game.initial_state(), arena.Limit(time=0.05))  # many batches
    wall = time.perf_counter() - start
    timed = a.engine.kernel_seconds
    assert a.last_search.nodes > 100 and 0.5 * a.last_search.seconds < timed < wall
    a.choose(
        game.initial_state().play(game.initial_state().legal_moves()[0]), arena.Limit(rollouts=10)
    )
    assert 0 < a.engine.kernel_seconds < timed


@pytest.mark.parametrize("spec", ["tictactoe", "go:size=5"])
def test_a_move_of_a_budget_is_one_compiled_call(spec: str) -> None:
    """A move's fixed cost (``arena bench agents --sims``): an untimed move crosses into
    compiled code once — seed, new tree, root moves, search, root read and best line in
    one call (each crossing costs 7-17 µs once the caches are cold) — and answers as the
    separate calls did (the moves and visits pinned in test_mcts_threads.py)."""
    game = arena.load_game(spec)
    a = agent("mcts:rollouts=300,seed=2,threads=1")
    a.reset(game)
    calls = []
    entry = a.engine.entry

    def counted(*args: object) -> object:
        calls.append(args)
        return entry(*args)

    a.engine.entry = counted
    state = random_states(game, 2, seed=3)[-1]
    move = a.choose(state, arena.Limit())
    assert len(calls) == 1 and a.last_search.nodes == 300
    stats = a.root_stats()  # read again from the tree: the same figures
    assert stats.moves == list(state.legal_moves()) and sum(stats.visits) == 300
    assert stats.visits[stats.moves.index(move)] == max(stats.visits)  # final=robust
    assert a.last_search.root[0]["visits"] == max(stats.visits)


def test_a_listener_sees_the_search_without_changing_it() -> None:
    """Snapshots for a listener read the root between batches: the search is the one an
    agent nobody watches makes (same seed, same visits)."""
    game = arena.load_game("connect4")
    state = game.play_moves(game.parse_moves("44"))
    seen: list[int] = []
    found = []
    for listen in (False, True):
        a = agent("mcts:rollouts=2000,seed=5,threads=1")
        a.reset(game)
        if listen:
            a.progress_every = 0.0
            a.listener = lambda info: seen.append(info.nodes) or False  # type: ignore[assignment]
        a.choose(state, arena.Limit())
        stats = a.root_stats()
        found.append(stats.visits)
    assert len(seen) > 1 and found[0] == found[1]


@pytest.mark.parametrize("spec", ["tictactoe", "connect4"])
def test_a_reused_engine_allocates_no_arrays_a_move(spec: str) -> None:
    """A move of a reused engine writes the new root into the engine's own arrays: the root
    position, the positions a batch plays on and the tree are the same objects move after
    move (a fresh root array for each move cost 150-300 µs once the caches were cold, the
    fixed cost ``arena bench agents --sims`` measures)."""
    game = arena.load_game(spec)
    a = agent("mcts:rollouts=200,seed=3,threads=1")
    a.reset(game)
    states = random_states(game, 4, seed=1)
    a.choose(states[0], arena.Limit())
    engine = a.engine
    names = ("root_s", "s", "leaf", "node", "wins", "edge_move", "edge_child", "report")
    before = [getattr(engine, n) for n in names]
    for state in states[1:]:
        a.reset(game)  # a fresh search, as a game's first move
        a.choose(state, arena.Limit())
        assert a.last_search.nodes == 200
        assert all(getattr(engine, n) is b for n, b in zip(names, before, strict=True))
        assert engine.root_s.tolist() == engine.kernel.encode(state).tolist()


@njit
def _fill_through_a_borrowed_view(a):  # type: ignore[no-untyped-def]
    view = borrowed(a)
    for i in range(view.shape[0]):
        for j in range(view.shape[1]):
            view[i, j] = 10 * i + j
    return view.sum(), view.strides[0]


def test_a_borrowed_view_is_the_array_it_borrows() -> None:
    """The search's arrays pass down as views without reference counts
    (``core/stack.py``): the same memory, shape and strides."""
    a = np.zeros((3, 4), np.int64)
    total, stride = _fill_through_a_borrowed_view(a)
    assert a.tolist() == [[10 * i + j for j in range(4)] for i in range(3)]
    assert (total, stride) == (a.sum(), a.strides[0])
