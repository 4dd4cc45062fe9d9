"""The az room: the network format and its two forward passes, PUCT against a tree
computed by hand, the az agent (legal moves, budgets, stop, reuse, bad net files)."""

from __future__ import annotations

import random
import threading
import time

import numpy as np
import pytest

import arena
from arena.core.errors import SpecError
from arena.search.az import puct
from arena.search.az.kernel import evaluate_batch, evaluate_prepared, prepare
from arena.search.az.network import FORMAT, WEIGHTS, conv3x3, forward, load, random_network
from arena.search.az.planes import encode, encoding
from arena.search.clock.deadline import Deadline


def random_positions(game, count, seed=0):
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.initial_state()
        for _ in range(rng.randrange(0, 12)):
            if state.is_terminal():
                break
            state = state.play(rng.choice(state.legal_moves()))
        found.append(state)
    return found


@pytest.mark.parametrize("spec", ["tictactoe", "connect4", "othello:size=6"])
def test_compiled_forward_equals_the_readable_one(spec):
    game = arena.load_game(spec)
    net = random_network(game, filters=6, blocks=2, policy=2, hidden=8, seed=3)
    states = random_positions(game, 8)
    planes = np.stack([encode(s) for s in states])
    logits, values = evaluate_batch(net.arrays(), planes)
    assert logits.shape == (8, encoding(game).actions)
    for i, state in enumerate(states):
        want_logits, want_value = forward(net, encode(state))
        assert np.allclose(logits[i], want_logits, atol=1e-4)
        assert abs(values[i] - want_value) < 1e-4
    assert len({round(float(v), 5) for v in values}) > 1 or spec == "connect4"


def test_the_readable_convolution_shifts_pads_and_takes_a_batch():
    # Weight 1 at the top-left tap: each output cell is the input's up-left neighbour (a
    # cross-correlation), 0 past the edge (zero padding), plus the bias.
    x = np.arange(1.0, 13.0).reshape(1, 3, 4)
    w = np.zeros((1, 1, 3, 3))
    w[0, 0, 0, 0] = 1.0
    got = conv3x3(x, w, np.array([0.5]))
    assert got.tolist() == [[[0.5, 0.5, 0.5, 0.5], [0.5, 1.5, 2.5, 3.5], [0.5, 5.5, 6.5, 7.5]]]
    # A batch (learn.model.renormalise's use, float64, no bias) is each position alone.
    rng = np.random.default_rng(0)
    batch, w = rng.standard_normal((5, 3, 6, 7)), rng.standard_normal((4, 3, 3, 3))
    out = conv3x3(batch, w)
    assert out.shape == (5, 4, 6, 7) and out.dtype == np.float64
    assert all(np.allclose(out[i], conv3x3(batch[i], w), atol=1e-12) for i in range(5))
    assert conv3x3(batch.astype(np.float32), w.astype(np.float32)).dtype == np.float32


def test_a_position_evaluates_bitwise_the_same_alone_or_in_a_batch():
    game = arena.load_game("othello:size=6")
    net = random_network(game, filters=8, blocks=1, seed=4)
    planes = np.stack([encode(s) for s in random_positions(game, 9, seed=2)])
    weights = prepare(net.arrays())
    logits, values = evaluate_prepared(weights, planes)
    for i in range(len(planes)):
        alone_logits, alone_value = evaluate_prepared(weights, planes[i : i + 1])
        assert np.array_equal(alone_logits[0], logits[i]) and alone_value[0] == values[i]


def test_planes_are_relative_to_the_mover_and_othello_has_a_pass_action():
    game = arena.load_game("connect4")
    state = game.play_moves(game.parse_moves("4 4"))  # X then O in column 4, X to move
    x = encode(state)
    assert x[0, 0, 3] == 1 and x[1, 1, 3] == 1 and x[2].max() == 0 and x[3].min() == 1
    assert encoding(game).actions == 7
    othello = arena.load_game("othello:size=6")
    assert encoding(othello).actions == 37  # 36 cells and the pass
    with pytest.raises(SpecError, match="no network encoding for colosseum"):
        encoding(arena.load_game("colosseum"))


def test_a_network_survives_a_round_trip(tmp_path):
    game = arena.load_game("tictactoe")
    net = random_network(game, filters=4, blocks=1, seed=2)
    net.save(tmp_path / "n.npz")
    back = load(tmp_path / "n.npz")
    back.check(game)
    assert back.game == game.spec and back.blocks == 1 and back.filters == 4
    assert all(np.array_equal(net.weights[k], back.weights[k]) for k in WEIGHTS)


def bad_files(tmp_path):
    game = arena.load_game("tictactoe")
    good = random_network(game, filters=4, blocks=0, seed=2)
    (tmp_path / "garbage.npz").write_bytes(b"not a zip at all")
    np.savez(tmp_path / "other.npz", format=np.array("torch"), x=np.zeros(2))
    np.savez(tmp_path / "missing.npz", format=np.array(FORMAT), game=np.array(game.spec))
    weights = dict(good.weights, stem_b=np.full(4, np.nan, np.float32))
    np.savez(tmp_path / "nan.npz", format=np.array(FORMAT), game=np.array(game.spec), **weights)
    return {
        "absent.npz": "no such file",
        "garbage.npz": "not a network file",
        "other.npz": "format 'torch'",
        "missing.npz": "missing arrays stem_w",
        "nan.npz": "stem_b holds NaN",
    }


def test_bad_net_files_are_one_line_errors(tmp_path):
    for name, message in bad_files(tmp_path).items():
        with pytest.raises(SpecError, match=message) as caught:
            arena.load_agent(f"az:net={tmp_path / name}")
        assert "\n" not in str(caught.value)
    # Without net=, a game no network ships for (tests/search/test_az_shipped.py: the rest).
    with pytest.raises(SpecError, match=r"no network ships for gomoku.*give net=FILE"):
        arena.load_agent("az").choose(arena.load_game("gomoku").initial_state(), arena.Limit())


def test_the_network_path_keeps_its_case(tmp_path):
    """Paths are case-sensitive: a str parameter's lower-casing made 'TTT.npz' missing."""
    game = arena.load_game("tictactoe")
    folder = tmp_path / "Nets"
    folder.mkdir()
    random_network(game, filters=4, blocks=0, seed=1).save(folder / "TTT.npz")
    agent = arena.load_agent(f"az:net={folder / 'TTT.npz'},sims=8")
    assert agent.choose(game.initial_state(), arena.Limit()) in game.initial_state().legal_moves()
    with pytest.raises(SpecError, match=r"az: malformed parameter .net="):
        arena.load_agent("az:net= ")


def test_a_network_for_another_game_or_shape_is_refused(tmp_path):
    ttt = arena.load_game("tictactoe")
    c4 = arena.load_game("connect4")
    random_network(c4, filters=4, blocks=0).save(tmp_path / "c4.npz")
    agent = arena.load_agent(f"az:net={tmp_path / 'c4.npz'}")
    with pytest.raises(SpecError, match=r"is for connect4.*not tictactoe"):
        agent.choose(ttt.initial_state(), arena.Limit())
    net = random_network(ttt, filters=4, blocks=0)
    net.weights["pol_fc_w"] = net.weights["pol_fc_w"][:5]  # 5 actions, not 9
    net.save(tmp_path / "short.npz")
    with pytest.raises(SpecError, match=r"pol_fc_w has shape \(5, 18\), expected \(9, 18\)"):
        load(tmp_path / "short.npz").check(ttt)


# --- PUCT against a tree computed by hand ---------------------------------------------

WEIGHT = {4: 0.4, 0: 0.1, 2: 0.1, 6: 0.1, 8: 0.1, 1: 0.05, 3: 0.05, 5: 0.05, 7: 0.05}


def fixed_evaluator(seen):
    """Priors by cell (the centre 0.4, corners 0.1, edges 0.05) and every position worth
    +0.5 to its player to move."""

    def evaluate(states):
        seen.extend(states)
        return [np.array([WEIGHT[m] for m in s.legal_moves()]) for s in states], [0.5] * len(states)

    return evaluate


def test_puct_visits_the_tree_computed_by_hand():
    # c_puct = 1. Simulation 1 expands the root. Simulation 2: all Q = 0, U = P, the centre
    # (0.4); its leaf is worth +0.5 to O, so the centre's W = -0.5 for X. Simulation 3:
    # centre -0.5 + 0.4*sqrt(2)/2 = -0.217 < corner 0.1*sqrt(2) = 0.141: corner 0, and so on
    # through the corners and the edges (each unvisited child's U beats the centre's score
    # until simulation 11: centre -0.5 + 0.4*sqrt(10)/2 = 0.132 > a corner's -0.342). At the
    # centre, O's children (priors renormalised over 8 moves: corners 1/6) are all Q = 0: its
    # first corner, cell 0; the leaf is +0.5 for X, so the centre's W = -0.5 + 0.5 = 0.
    # Simulation 12: centre 0 + 0.4*sqrt(11)/3 = 0.442 wins again; at the centre, cell 0 is
    # -0.5 + (1/6)sqrt(2)/2 = -0.382 < cell 2's (1/6)sqrt(2) = 0.236.
    game = arena.load_game("tictactoe")
    seen = []
    tree = puct.Tree(game.initial_state())
    ran, depth = puct.run(tree, fixed_evaluator(seen), simulations=12, c_puct=1.0)
    assert (ran, depth) == (12, 2)
    start = game.initial_state()
    order = [start] + [start.play(m) for m in (4, 0, 2, 6, 8, 1, 3, 5, 7)]
    order += [start.play(4).play(0), start.play(4).play(2)]
    assert seen == order
    moves, visits = puct.visit_counts(tree)
    assert dict(zip(moves, visits.tolist())) == {m: (3 if m == 4 else 1) for m in range(9)}
    centre = tree.first[tree.root] + moves.index(4)
    assert tree.value_sum[centre] == pytest.approx(0.5)  # -0.5 + 0.5 + 0.5, for X
    inner = dict(
        zip(tree.move[puct.children(tree, centre)], tree.visits[puct.children(tree, centre)])
    )
    assert inner[0] == inner[2] == 1 and sum(inner.values()) == 2
    assert puct.choose_move(tree, 0.0, np.random.default_rng(0)) == 4


def test_a_proven_win_is_backed_up_for_the_player_who_makes_it():
    # X: a1 b1, O: a2 b2; X to move wins with c1 (cell 2). Flat priors, every value 0: only
    # the terminal leaf's result (-1 for O to move, +1 for X who moved) tells the moves apart.
    game = arena.load_game("tictactoe")
    state = game.play_moves(game.parse_moves("a1 a2 b1 b2"))

    def flat(states):
        return [np.ones(len(s.legal_moves())) for s in states], [0.0] * len(states)

    tree = puct.Tree(state)
    puct.run(tree, flat, simulations=60, c_puct=1.0)
    win = game.parse_move("c1")
    assert puct.choose_move(tree, 0.0, np.random.default_rng(0)) == win
    node = tree.first[tree.root] + state.legal_moves().index(win)
    assert tree.value_sum[node] == tree.visits[node]  # +1 every visit


def test_one_leaf_at_a_time_plays_as_before_batching():
    # Visits of the root's moves pinned from the search before leaf batching existed.
    game = arena.load_game("connect4")
    evaluate = puct.net_evaluator(random_network(game, filters=4, blocks=1, hidden=8, seed=7))
    for line, want in (("", [77, 22, 23, 23, 72, 40, 42]), ("4 4 3", [34, 28, 22, 33, 73, 74, 35])):
        tree = puct.Tree(game.play_moves(game.parse_moves(line)))
        assert puct.run(tree, evaluate, 300, 1.5, batch=1) == (300, 4)
        assert puct.visit_counts(tree)[1].tolist() == want


def check_tree(tree):
    """Every expanded node was visited once for its own evaluation plus once per visit of
    its children; the root's children's values are sums of +-1 and network values."""
    for node in range(tree.size):
        if tree.first[node] >= 0:
            kids = puct.children(tree, node)
            assert tree.visits[node] == 1 + tree.visits[kids].sum(), node
    assert (tree.visits[: tree.size] >= 0).all()
    assert (np.abs(tree.value_sum[: tree.size]) <= tree.visits[: tree.size] + 1e-9).all()


@pytest.mark.parametrize("batch", [2, 8, 64])
def test_batched_leaves_handle_terminals_and_collisions(batch):
    # X: a1 b1, O: a2 b2; X to move: c1 wins at once (a terminal leaf, reached again
    # and again), the rest lead to short forced endings where walks collide.
    game = arena.load_game("tictactoe")
    state = game.play_moves(game.parse_moves("a1 a2 b1 b2"))
    calls = []

    def flat(states):
        calls.append(list(states))
        return [np.ones(len(s.legal_moves())) for s in states], [0.0] * len(states)

    tree = puct.Tree(state)
    ran, _ = puct.run(tree, flat, simulations=40, c_puct=1.0, batch=batch)
    assert ran == 40 and tree.visits[tree.root] == 40
    seen = [s for call in calls for s in call]
    assert all(not s.is_terminal() for s in seen)
    assert len(seen) == len(set(seen))  # no position evaluated twice
    assert max(len(call) for call in calls) <= batch
    if batch > 2:
        assert max(len(call) for call in calls) > 1
    check_tree(tree)
    win = game.parse_move("c1")
    assert puct.choose_move(tree, 0.0, np.random.default_rng(0)) == win
    node = tree.first[tree.root] + state.legal_moves().index(win)
    assert tree.value_sum[node] == tree.visits[node] > 10  # +1 every visit, none virtual


def test_batched_search_agrees_with_one_at_a_time_on_the_best_move():
    game = arena.load_game("connect4")
    evaluate = puct.net_evaluator(random_network(game, filters=4, blocks=1, hidden=8, seed=7))
    state = game.play_moves(game.parse_moves("4 4 3"))
    trees = {}
    for batch in (1, 8):
        trees[batch] = puct.Tree(state)
        assert puct.run(trees[batch], evaluate, 300, 1.5, batch=batch)[0] == 300
        check_tree(trees[batch])
    one, eight = (puct.visit_counts(trees[b])[1] for b in (1, 8))
    assert int(np.argmax(one)) in np.argsort(eight)[-2:]
    assert np.abs(one / one.sum() - eight / eight.sum()).sum() < 0.5


def test_root_noise_and_temperature():
    game = arena.load_game("tictactoe")
    tree = puct.Tree(game.initial_state())
    rng = np.random.default_rng(5)
    puct.run(tree, fixed_evaluator([]), 30, 1.0, noise=(0.25, 0.3, rng))
    kids = puct.children(tree, tree.root)
    assert tree.root_prior is not None and tree.root_prior.sum() == pytest.approx(1.0)
    assert not np.allclose(tree.root_prior, tree.prior[kids])
    drawn = {puct.choose_move(tree, 1.0, np.random.default_rng(s)) for s in range(40)}
    assert len(drawn) > 1 and drawn <= set(range(9))


# --- the agent --------------------------------------------------------------------------


@pytest.fixture
def c4_net(tmp_path):
    game = arena.load_game("connect4")
    path = tmp_path / "c4.npz"
    random_network(game, filters=4, blocks=1, hidden=8, seed=7).save(path)
    return game, path


def test_az_plays_only_legal_moves_under_every_budget(c4_net):
    game, path = c4_net
    rng = random.Random(1)
    for spec, limit in (
        (f"az:net={path},sims=30,seed=1", arena.Limit()),
        (f"az:net={path},sims=30,temperature=1,noise=0.25,seed=2", arena.Limit()),
        (f"az:net={path},time=0.02", arena.Limit()),
        (f"az:net={path}", arena.Limit(time=0.02)),
        (f"az:net={path},reuse=0", arena.Limit(rollouts=10)),
    ):
        agent = arena.load_agent(spec)
        agent.reset(game)
        state = game.initial_state()
        while not state.is_terminal():
            if state.to_move == 0:
                move = agent.choose(state, limit)
                assert move in state.legal_moves()
            else:
                move = rng.choice(state.legal_moves())
            agent.observe(state, move)
            state = state.play(move)


def test_az_reports_and_reuses_its_tree(c4_net):
    game, path = c4_net
    agent = arena.load_agent(f"az:net={path},sims=50,seed=0")
    state = game.initial_state()
    move = agent.choose(state, arena.Limit())
    info = agent.last_search
    assert info.nodes == 50 and sum(r["visits"] for r in info.root) == 49
    assert {"move", "visits", "prior", "value"} <= set(info.root[0])
    tree = agent.tree
    played = int(
        puct.children(tree, tree.root)[list(tree.move[puct.children(tree, tree.root)]).index(move)]
    )
    replies = puct.children(tree, played)
    reply = int(replies[np.argmax(tree.visits[replies])])
    kept, reply_move = int(tree.visits[reply]), int(tree.move[reply])
    assert kept >= 1
    after = state.play(move).play(reply_move)
    agent.choose(after, arena.Limit())
    # Kept, compacted: the reply's node is the root, at the front of the arrays.
    assert agent.tree is tree and tree.root == 0 and int(tree.move[0]) == reply_move
    assert agent.last_search.nodes == 50 - kept  # the kept visits count toward the 50
    fresh = arena.load_agent(f"az:net={path},sims=50,seed=0,reuse=0")
    fresh.choose(after, arena.Limit())
    assert fresh.last_search.nodes == 50


def test_az_answers_stop_promptly(c4_net):
    game, path = c4_net
    agent = arena.load_agent(f"az:net={path},sims=100000000")
    agent.reset(game)
    threading.Timer(0.2, agent.stop).start()
    start = time.perf_counter()
    move = agent.choose(game.initial_state(), arena.Limit())
    assert move in range(7) and time.perf_counter() - start < 5.0


def contested_positions(game, judge, rng, plies, count):
    """``count`` random positions of ``plies`` (a range) random plies where the moves'
    exact outcomes (``judge``, Connect Four's solver, from the mover's side) differ,
    each with those outcomes: positions where a move can be wrong."""
    from arena.solvers.solve import connect4_bitboard

    found = 0
    while found < count:
        state = game.initial_state()
        for _ in range(rng.randrange(*plies)):
            if state.is_terminal():
                break
            state = state.play(rng.choice(state.legal_moves()))
        if state.is_terminal():
            continue
        exact = {}
        for move in state.legal_moves():
            child = state.play(move)
            if child.is_terminal():
                exact[move] = 0 if child.winner() is None else 1
            else:
                exact[move] = -judge.outcome(*connect4_bitboard(child), child.ply, 1 << 40)
        if min(exact.values()) == max(exact.values()):
            continue  # every move as good: nothing to get wrong
        found += 1
        yield state, exact


def test_solve_plays_proven_wins_and_avoids_proven_losses(c4_net):
    """solve=N: on midgame positions the solver settles, az never plays a move that loses
    when one does not, and plays a win when there is one; without it the same (weak)
    network does both wrong on some of these positions, so the test can fail."""
    from arena.solvers.connect4.solver import Connect4Solver

    game, path = c4_net
    judge = Connect4Solver(game.rows, game.cols, game.k, table_bits=20)
    plain = arena.load_agent(f"az:net={path},sims=16")
    solving = arena.load_agent(f"az:net={path},sims=16,solve=200000")
    plain_errors = 0
    for state, exact in contested_positions(game, judge, random.Random(5), (18, 28), 30):
        best = max(exact.values())
        for agent in (plain, solving):
            agent.reset(game)
        assert exact[solving.choose(state, arena.Limit())] == best
        plain_errors += exact[plain.choose(state, arena.Limit())] < best
    assert plain_errors >= 3


def test_solve_keeps_the_move_deadline_whatever_its_budget(c4_net):
    """solve=N on a clock: the probes get an end inside the move's deadline (the compiled
    solver stops there), so a budget of 2**40 nodes from the empty board (hours) still
    leaves a search; without a clock the probes keep their node budget alone."""
    game, path = c4_net
    agent = arena.load_agent(f"az:net={path},sims=50,solve={1 << 40}")
    agent.reset(game)
    ends = []
    probe = agent.solver.outcome

    def spy(pos, mask, ply, nodes, end=None):
        assert end is not None, "a probe without the move's clock"
        ends.append(end)
        return probe(pos, mask, ply, nodes, end)

    agent.solver.outcome = spy
    move = agent.choose(game.initial_state(), arena.Limit(time=4.0))
    deadline = agent.deadline
    assert move in range(7) and agent.last_search.nodes > 0
    # Seven probes, each with its part of the share: none ends past the deadline, and the
    # first does not take the time of the others (each ends before the share's end).
    share = agent.solve_end(deadline)
    assert len(ends) == 7 and all(deadline.start < end < deadline.end for end in ends)
    assert ends[0] < share - 0.5 * (share - deadline.start) and ends == sorted(ends)
    assert agent.solve_end(Deadline(None)) is None


def test_check_turns_the_searchs_move_into_a_best_one(c4_net):
    """check: probing the search's move (the next one when it loses, the others for a win
    when it draws) to the end gives a move of the best outcome on every position, where
    the search alone (with probes of 1 node, which settle only wins at once) errs on
    some, so the test can fail; a check whose end has passed probes nothing."""
    from arena.solvers.connect4.solver import Connect4Solver

    game, path = c4_net
    judge = Connect4Solver(game.rows, game.cols, game.k, table_bits=20)
    agent = arena.load_agent(f"az:net={path},sims=16,solve=1")
    errors = 0
    for state, exact in contested_positions(game, judge, random.Random(11), (14, 26), 25):
        best = max(exact.values())
        agent.reset(game)
        move = agent.choose(state, arena.Limit())  # no clock: no check
        errors += exact[move] < best
        probes: list[tuple] = []

        def spy(*args, probes=probes, outcome=agent.solver.outcome):
            probes.append(args)
            return outcome(*args)

        agent.solver.outcome = spy
        assert agent.check(agent.tree, state, move, time.perf_counter() - 1.0) == move
        assert probes == []
        assert exact[agent.check(agent.tree, state, move, None, 1 << 40)] == best
        assert all(exact[m] == v for m, v in agent.settled.items())
        del agent.solver.outcome
    assert errors >= 3


def test_check_takes_its_share_of_the_move_after_the_search(c4_net):
    """On a clock, when the probes settle some root moves but not all, the search stops
    check= of the move before its deadline and the check's probes end at that deadline;
    when they settle none (or check=0), the search has the whole move."""
    game, path = c4_net
    state = game.play_moves(game.parse_moves("4 4 3 5 4 4 3"))
    for check, settled, split in ((0.3, {0: -1}, True), (0.3, {}, False), (0.0, {0: -1}, False)):
        agent = arena.load_agent(f"az:net={path},check={check}")
        agent.reset(game)
        agent.settle = lambda state, end, nodes, settled=settled: dict(settled)
        run, seen, ends = agent.compiled.run, [], []

        def spy_run(tree, sims, c, deadline, *rest, run=run, seen=seen):
            seen.append(deadline.end)
            return run(tree, sims, c, deadline, *rest)

        def spy_probe(pos, mask, ply, nodes, end=None, ends=ends):
            ends.append(end)
            return None  # the probe did not finish: the check ends

        agent.compiled.run, agent.solver.outcome = spy_run, spy_probe
        agent.choose(state, arena.Limit(time=0.2))
        deadline = agent.deadline
        if split:
            assert seen == [deadline.end - check * (deadline.end - deadline.start)]
            assert ends == [deadline.end]  # one probe, stopped at the move's deadline
        else:
            assert seen == [deadline.end] and ends == []


def test_solve_is_on_by_default_on_connect4_on_a_clock_only(c4_net):
    from arena.search.az.agent import AUTO_SOLVE

    game, path = c4_net
    agent = arena.load_agent(f"az:net={path},sims=16")
    assert agent.config["solve"] is None
    assert agent.solve_nodes(game, True) == AUTO_SOLVE and agent.solve_nodes(game, False) == 0
    state = game.play_moves(game.parse_moves("2 5 5 2 3 5 4 6 5 1 5 1 7 4 3 5 2 2 7 4"))
    agent.reset(game)
    agent.choose(state, arena.Limit())  # sims alone: the visits only, as before
    assert agent.settled == {}
    agent.choose(state, arena.Limit(time=0.5))
    assert len(agent.settled) == len(state.legal_moves())  # ply 20: every move settles
    for spec, options in (("tictactoe", ""), ("connect4", ",root=gumbel")):
        other = arena.load_agent(f"az:net={path}{options}")
        assert other.solve_nodes(arena.load_game(spec), True) == 0
    ttt = arena.load_game("tictactoe")
    ttt_path = path.parent / "ttt.npz"
    random_network(ttt, filters=4, blocks=0, seed=1).save(ttt_path)
    plain = arena.load_agent(f"az:net={ttt_path}")
    plain.reset(ttt)  # no solver, no error
    assert plain.choose(ttt.initial_state(), arena.Limit(time=0.05)) in range(9)
    assert plain.solver is None


def test_solve_needs_connect4_and_root_puct(c4_net):
    _, path = c4_net
    agent = arena.load_agent(f"az:net={path},solve=1000")
    with pytest.raises(SpecError, match="solve= needs Connect Four's solver"):
        agent.reset(arena.load_game("tictactoe"))
    agent = arena.load_agent(f"az:net={path},solve=1000,root=gumbel")
    with pytest.raises(SpecError, match="root=gumbel"):
        agent.reset(arena.load_game("connect4"))
