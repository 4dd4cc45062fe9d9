"""The compiled PUCT against the readable one: the planes from the kernels' positions, the
same visits, values and priors (bit for bit) one leaf at a time and in batches, with root
noise, temperature and tree reuse, on every game with an encoding; the az agent's engines."""

from __future__ import annotations

import copy
import random
import time

import numpy as np
import pytest

import arena
from arena.search.az import puct
from arena.search.az import puct_kernel as pk
from arena.search.az.kernel_planes import write_planes
from arena.search.az.network import random_network
from arena.search.az.planes import encode, encoding
from arena.search.az.puct_driver import GROW_SECONDS, CompiledPUCT, CompiledTree, game_kernel
from arena.search.clock.deadline import Deadline

GAMES = (
    "tictactoe", "connect4", "othello", "othello:size=6", "gomoku:size=9", "go:size=5",
    "go:size=9",
)  # fmt: skip


def positions(game, count, seed=0, longest=30):
    """The start and positions of random games, none over."""
    rng = random.Random(seed)
    found = [game.initial_state()]
    while len(found) < count:
        state = game.initial_state()
        for _ in range(rng.randrange(1, longest)):
            if state.is_terminal():
                break
            state = state.play(rng.choice(state.legal_moves()))
        if not state.is_terminal():
            found.append(state)
    return found


@pytest.mark.parametrize("spec", [*GAMES, "connect4:rows=9,cols=7", "othello:size=10"])
def test_compiled_planes_equal_the_readable_ones(spec):
    game = arena.load_game(spec)
    kernel = game_kernel(game)
    enc = encoding(game)
    f = kernel.functions
    cells = np.zeros(enc.rows * enc.cols, np.int64)
    out = np.zeros((enc.rows, enc.cols, enc.channels), np.float32)
    for state in positions(game, 40, longest=80):
        mover = write_planes(
            f["owners"], f["to_move"], kernel.params, kernel.encode(state), cells, out
        )
        assert mover == state.to_move
        assert np.array_equal(out.transpose(2, 0, 1), encode(state)), state


def same_trees(a: puct.Tree, b: CompiledTree) -> None:
    assert a.size == b.size and a.root == b.root
    for name in ("parent", "move", "mover", "first", "count", "visits"):
        assert np.array_equal(getattr(a, name)[: a.size], getattr(b, name)[: b.size]), name
    for name in ("value_sum", "prior", "raw_value"):  # bit for bit, not to a tolerance
        assert getattr(a, name)[: a.size].tobytes() == getattr(b, name)[: b.size].tobytes(), name


@pytest.mark.parametrize("spec", GAMES)
@pytest.mark.parametrize("batch", [1, 8])
def test_the_compiled_search_visits_as_the_readable_one(spec, batch):
    game = arena.load_game(spec)
    net = random_network(game, filters=6, blocks=1, seed=7)
    evaluate = puct.net_evaluator(net)
    engine = CompiledPUCT(net, game)
    for state in positions(game, 3, seed=batch):
        readable, compiled = puct.Tree(state), engine.new_tree(state)
        ran = puct.run(readable, evaluate, 60, 1.25, batch=batch)
        assert engine.run(compiled, 60, 1.25, batch=batch) == ran
        same_trees(readable, compiled)
        rng_a, rng_b = np.random.default_rng(1), np.random.default_rng(1)
        assert puct.choose_move(readable, 0, rng_a) == puct.choose_move(compiled, 0, rng_b)


@pytest.mark.parametrize("spec", ["connect4", "othello:size=6", "go:size=5"])
def test_noise_temperature_and_reuse_agree_over_a_game(spec):
    game = arena.load_game(spec)
    net = random_network(game, filters=4, blocks=0, seed=2)
    evaluate = puct.net_evaluator(net)
    engine = CompiledPUCT(net, game)
    state = game.initial_state()
    readable, compiled = puct.Tree(state), engine.new_tree(state)
    rng_a, rng_b = np.random.default_rng(5), np.random.default_rng(5)
    kept = 0
    while not state.is_terminal() and state.ply < 16:
        found = puct.reroot(readable, state)
        assert engine.reroot(compiled, state) == found
        if found:
            kept += 1
            same_trees(readable, compiled)  # compacted alike
        else:  # not kept: both start afresh
            readable, compiled = puct.Tree(state), engine.new_tree(state)
        puct.run(readable, evaluate, 40, 1.5, noise=(0.25, 0.3, rng_a), batch=4)
        engine.run(compiled, 40, 1.5, noise=(0.25, 0.3, rng_b), batch=4)
        same_trees(readable, compiled)
        assert np.array_equal(readable.root_prior, compiled.root_prior)
        move = puct.choose_move(readable, 1.0, rng_a)
        assert puct.choose_move(compiled, 1.0, rng_b) == move
        state = state.play(move)
    assert kept > 3  # the trees were reused, not rebuilt


def test_a_full_tree_grows_and_a_terminal_root_is_counted():
    game = arena.load_game("tictactoe")
    net = random_network(game, filters=4, blocks=0, seed=3)
    engine = CompiledPUCT(net, game)
    tree = engine.new_tree(game.initial_state())
    engine.run(tree, 3000, 1.5, batch=8)
    assert tree.size > 1024 and int(tree.visits[tree.root]) == 3000
    readable = puct.Tree(game.initial_state())
    puct.run(readable, puct.net_evaluator(net), 3000, 1.5, batch=8)
    same_trees(readable, tree)
    over = game.play_moves(game.parse_moves("a1 b1 a2 b2 a3"))
    done = engine.new_tree(over)
    assert engine.run(done, 5, 1.5) == (5, 0) and done.first[0] == -1


def statistics(tree, root):
    """Every node of ``root``'s subtree by its line of moves from there: its visits, value
    sum, prior, network value and mover (bit for bit)."""
    out, stack = {}, [((), root)]
    while stack:
        line, node = stack.pop()
        out[line] = (
            int(tree.visits[node]), tree.value_sum[node].tobytes(), tree.prior[node].tobytes(),
            tree.raw_value[node].tobytes(), int(tree.mover[node]), int(tree.count[node]),
        )  # fmt: skip
        stack += [((*line, int(tree.move[k])), int(k)) for k in puct.children(tree, node)]
    return out


@pytest.mark.parametrize("spec", ["connect4", "othello:size=6"])
def test_a_reroot_keeps_the_subtree_exactly_and_the_search_goes_on_as_without_compaction(spec):
    """A kept tree is compacted to its new root's subtree: every node keeps its statistics,
    and the next search makes the same tree as the same search over the arrays left as
    they were (the root merely moved), only laid out afresh."""
    game = arena.load_game(spec)
    net = random_network(game, filters=4, blocks=0, seed=6)
    engine = CompiledPUCT(net, game)
    state = positions(game, 2, seed=3)[1]
    tree = engine.new_tree(state)
    engine.run(tree, 400, 1.5, batch=8)
    kid = puct.children(tree, tree.root)[int(np.argmax(tree.visits[puct.children(tree, 0)]))]
    grandchild = int(puct.children(tree, kid)[0])
    target = state.play(int(tree.move[kid])).play(int(tree.move[grandchild]))
    before = statistics(tree, grandchild)
    assert len(before) > 10  # a subtree worth keeping
    moved = copy.deepcopy(tree)  # the old reroot: the same arrays, the root moved
    moved.root, moved.state, moved.position = grandchild, target, engine.kernel.encode(target)
    assert engine.reroot(tree, target)
    assert tree.root == 0 and tree.size == len(before) and statistics(tree, 0) == before
    assert (tree.first[tree.size :] == -1).all() and (tree.visits[tree.size :] == 0).all()
    readable = puct.Tree(state)
    puct.run(readable, puct.net_evaluator(net), 400, 1.5, batch=8)
    assert puct.reroot(readable, target)
    assert statistics(readable, 0) == before and readable.states[0] == target
    for node in range(1, readable.size):  # each position moved with its node
        parent = readable.states[int(readable.parent[node])]
        if readable.states[node] is not None:
            assert readable.states[node] == parent.play(int(readable.move[node]))
    engine.run(tree, 900, 1.5, batch=8)
    engine.run(moved, 900, 1.5, batch=8)
    assert statistics(tree, 0) == statistics(moved, moved.root)


def test_a_tree_kept_over_a_game_holds_its_roots_subtree_alone(c4_net):
    """Kept from move to move, the tree holds the subtree of the position reached, never
    the searches of the moves before: its size is bounded by one move's simulations (it
    grew with every move's search and was never compacted: 1.09 s moves at 1 s a move,
    docs/az.md)."""
    game, path = c4_net
    sims = 150
    agent = arena.load_agent(f"az:net={path},sims={sims},seed=3")
    agent.reset(game)
    state, kept = game.initial_state(), 0
    bound = 1 + sims * len(state.legal_moves())  # each simulation expands one leaf at most
    while not state.is_terminal() and state.ply < 24:  # az plays both sides: every move kept
        before = agent.tree
        state = state.play(agent.choose(state, arena.Limit()))
        tree = agent.tree
        kept += tree is before
        assert tree.root == 0 and tree.size <= bound, (state.ply, tree.size)
        assert tree.size == len(puct.subtree(tree.first, tree.count, tree.root))
    assert kept > 15 and len(agent.tree.parent) <= 2 * bound


def test_a_timed_search_stops_rather_than_grow_past_its_deadline():
    """A grow of the arrays that cannot end before the deadline (here: every grow, at the
    cost a node of room is taken to have) ends the search with the room it has, instead of
    landing late; with the time, the tree grows as before."""
    game = arena.load_game("tictactoe")
    net = random_network(game, filters=4, blocks=0, seed=3)
    engine = CompiledPUCT(net, game)
    engine.grow_cost = 3600.0  # seconds a node: no grow fits in the minute below
    tree = engine.new_tree(game.initial_state())
    ran, _ = engine.run(tree, 3000, 1.5, deadline=Deadline(60.0), batch=8)
    assert len(tree.parent) == 1024 and 100 < ran < 3000  # it searched, then stopped
    assert int(tree.visits[tree.root]) == ran and tree.size <= 1024
    engine.grow_cost = GROW_SECONDS
    ran, _ = engine.run(tree, 3000, 1.5, deadline=Deadline(60.0), batch=8)
    assert int(tree.visits[tree.root]) == 3000 and len(tree.parent) > 1024


@pytest.fixture(scope="module")
def c4_net(tmp_path_factory):
    game = arena.load_game("connect4")
    path = tmp_path_factory.mktemp("net") / "c4.npz"
    random_network(game, filters=6, blocks=1, seed=4).save(path)
    return game, path


def test_the_agent_searches_compiled_by_default_and_both_engines_agree(c4_net):
    game, path = c4_net
    state = game.play_moves(game.parse_moves("4 3 4"))
    fast = arena.load_agent(f"az:net={path},sims=120,seed=1")
    slow = arena.load_agent(f"az:net={path},sims=120,seed=1,engine=python")
    assert fast.choose(state, arena.Limit()) == slow.choose(state, arena.Limit())
    assert isinstance(fast.tree, CompiledTree) and isinstance(slow.tree, puct.Tree)

    def rows(agent):
        return [(r["move"], r["visits"], r["prior"], r["value"]) for r in agent.last_search.root]

    assert rows(fast) == rows(slow)
    assert fast.last_search.nodes == slow.last_search.nodes == 120


def test_a_listener_sees_the_compiled_search_grow_and_can_stop_it(c4_net):
    game, path = c4_net
    agent = arena.load_agent(f"az:net={path},sims=100000000,seed=1")
    seen = []
    agent.listener = lambda info: seen.append(info.nodes) or len(seen) == 3
    agent.progress_every = 0.0
    move = agent.choose(game.initial_state(), arena.Limit())
    assert move in range(7) and len(seen) == 3 and seen == sorted(seen) and seen[0] > 0
    assert seen[-1] <= agent.last_search.nodes < 100000000
    assert sum(row["visits"] for row in agent.last_search.root) == agent.last_search.nodes - 1


def test_reset_compiles_everything_the_moves_run(c4_net, monkeypatch):
    """A match resets an agent off the clock: what a move compiles on first use must be
    compiled there (the first kept-tree reroot, compiled on the clock, made a cold
    `arena match` forfeit 0.1 s moves by taking 1.0-1.1 s)."""
    asked = []
    real = pk.compiled
    monkeypatch.setattr(pk, "compiled", lambda name: asked.append(name) or real(name))
    game, path = c4_net
    agent = arena.load_agent(f"az:net={path},sims=24,seed=2")
    agent.reset(game)
    at_reset = set(asked)
    asked.clear()
    state = game.initial_state()
    for _ in range(4):  # each move's position is a grandchild of the last root: a reroot
        state = state.play(agent.choose(state, arena.Limit()))
        state = state.play(state.legal_moves()[0])
    assert asked and set(asked) <= at_reset


def test_a_late_answer_teaches_the_pause_reserve(c4_net, monkeypatch):
    """az feeds the process's pause reserve as every timed search does: a move whose
    answer came after its deadline makes the next searches keep more."""
    from arena.search.clock.pauses import PAUSES

    game, path = c4_net
    agent = arena.load_agent(f"az:net={path},seed=2")
    agent.reset(game)
    report_of = agent.report_of

    def slow(*args):  # a pause after the search's last look at the clock
        time.sleep(0.12)
        return report_of(*args)

    monkeypatch.setattr(agent, "report_of", slow)
    PAUSES.forget()
    try:
        agent.choose(game.initial_state(), arena.Limit(time=0.05))
        assert PAUSES.level() >= 0.1
    finally:
        PAUSES.forget()


def test_a_cold_timed_move_answers_readably_while_the_compiled_search_loads(c4_net):
    """No reset(game): a timed move does not wait for the compiled pass (0.3-1 s from
    numba's cache, which the cold-start test times); the readable search answers it and a
    later move plays compiled once the background build is done. An untimed move builds
    it at once, so budgets of simulations stay reproducible."""
    game, path = c4_net
    agent = arena.load_agent(f"az:net={path},seed=1")
    state = game.initial_state()
    move = agent.choose(state, arena.Limit(time=0.05))
    assert move in state.legal_moves() and agent.compiled is None
    assert isinstance(agent.tree, puct.Tree) and agent.last_search.nodes >= 1
    for _ in range(600):  # the background build, then a move that installs it
        time.sleep(0.05)
        agent.choose(state, arena.Limit(time=0.01))
        if agent.compiled is not None:
            break
    assert agent.compiled is not None and isinstance(agent.tree, CompiledTree)
    untimed = arena.load_agent(f"az:net={path},seed=1,sims=30")
    untimed.choose(state, arena.Limit())
    assert untimed.compiled is not None and untimed.last_search.nodes == 30
