"""Gumbel root selection (arena.search.az.gumbel): the Sequential Halving schedule, the
visits a tiny budget gives, a winning move found, the improved policy, the agent's
root=gumbel and its policy target."""

from __future__ import annotations

import numpy as np
import pytest

import arena
from arena.core.errors import SpecError
from arena.search.az import gumbel, puct
from arena.search.az.network import random_network
from arena.search.report import format_search

WEIGHT = {4: 0.4, 0: 0.1, 2: 0.1, 6: 0.1, 8: 0.1, 1: 0.05, 3: 0.05, 5: 0.05, 7: 0.05}


def fixed(states):
    """Priors by cell (centre 0.4, corners 0.1, edges 0.05), every position +0.5 for its
    player to move."""
    return [np.array([WEIGHT[m] for m in s.legal_moves()]) for s in states], [0.5] * len(states)


def flat(states):
    return [np.ones(len(s.legal_moves())) for s in states], [0.0] * len(states)


def test_the_halving_schedule():
    assert gumbel.halving_schedule(4, 8) == (0, 0, 0, 0, 1, 1, 2, 2)
    # 3 phases for 8 moves over 24 simulations: 8 x 1, then 4 x 2, then 2 x 4.
    assert gumbel.halving_schedule(8, 24) == (0,) * 8 + (1, 1, 1, 1, 2, 2, 2, 2) + (
        3, 3, 4, 4, 5, 5, 6, 6,
    )  # fmt: skip
    assert gumbel.halving_schedule(1, 4) == (0, 1, 2, 3)
    assert gumbel.halving_schedule(16, 3) == (0, 0, 0)  # fewer simulations than moves


@pytest.mark.parametrize("batch", [1, 4])
def test_a_tiny_budget_visits_as_sequential_halving_says(batch):
    # m = 4, 8 simulations after the root's expansion: the 4 best by logits (no Gumbel
    # noise: the centre, then the corners a1, c1, a3 in move order) once each, then the
    # best 2 of them twice more each.
    game = arena.load_game("tictactoe")
    tree = puct.Tree(game.initial_state())
    search, ran, _ = gumbel.run(tree, fixed, 9, considered=4, batch=batch)
    assert ran == 9
    moves, visits = puct.visit_counts(tree)
    seen = {m: int(v) for m, v in zip(moves, visits) if v}
    assert set(seen) == {4, 0, 2, 6}
    assert sorted(seen.values()) == [1, 1, 3, 3]
    assert search.best_move(tree) in [m for m, v in seen.items() if v == 3]


def test_the_considered_moves_are_the_top_m_of_gumbel_plus_logits():
    game = arena.load_game("tictactoe")
    for seed in range(5):
        tree = puct.Tree(game.initial_state())
        search, _, _ = gumbel.run(tree, fixed, 7, considered=3, gumbel=np.random.default_rng(seed))
        moves, visits = puct.visit_counts(tree)
        score = search.gumbel + np.log([WEIGHT[m] / sum(WEIGHT.values()) for m in moves])
        top = {moves[i] for i in np.argsort(-score)[:3]}
        assert {m for m, v in zip(moves, visits) if v} == top
        assert sorted(visits.tolist())[-3:] == [1, 2, 3]  # 3 x 1, then 2 x 1 (budget 6)


def test_it_finds_the_one_winning_move():
    # Tic-tac-toe, X: a1 b1, O: a2 b2, X to move: only c1 wins (a flat network).
    game = arena.load_game("tictactoe")
    state = game.play_moves(game.parse_moves("a1 a2 b1 b2"))
    win = game.parse_move("c1")
    for seed in range(8):
        tree = puct.Tree(state)
        search, _, _ = gumbel.run(tree, flat, 12, gumbel=np.random.default_rng(seed))
        assert search.best_move(tree) == win
        policy = gumbel.improved_policy(tree)
        assert policy.sum() == pytest.approx(1.0)
        assert int(np.argmax(policy)) == state.legal_moves().index(win) and policy.max() > 0.9
    # Connect Four with a random network: X to complete a row of four at column 4.
    c4 = arena.load_game("connect4")
    evaluate = puct.net_evaluator(random_network(c4, filters=4, blocks=1, hidden=8, seed=3))
    state = c4.play_moves(c4.parse_moves("1 1 2 2 3 3"))
    for seed in range(4):
        tree = puct.Tree(state)
        search, _, _ = gumbel.run(tree, evaluate, 16, gumbel=np.random.default_rng(seed), batch=4)
        assert search.best_move(tree) == c4.parse_move("4")


def test_the_improved_policy_is_the_prior_before_any_visit():
    game = arena.load_game("tictactoe")
    tree = puct.Tree(game.initial_state())
    gumbel.run(tree, fixed, 1)
    prior = tree.prior[puct.children(tree, tree.root)]
    assert np.allclose(gumbel.improved_policy(tree), prior)


def test_the_agent_with_gumbel_root_selection(tmp_path):
    game = arena.load_game("connect4")
    path = tmp_path / "c4.npz"
    random_network(game, filters=4, blocks=1, hidden=8, seed=7).save(path)
    agent = arena.load_agent(f"az:net={path},sims=40,root=gumbel,gumbel_m=4,seed=2")
    assert agent.search_policy()[0] == ()
    state = game.initial_state()
    for _ in range(4):
        move = agent.choose(state, arena.Limit())
        assert move in state.legal_moves()
        info = agent.last_search
        assert info.nodes == 40 and sum(r["visits"] for r in info.root) == 39
        assert sum(1 for r in info.root if r["visits"]) == 4
        assert all({"prior", "visits", "value", "policy"} <= set(r) for r in info.root)
        moves, policy = agent.search_policy()
        assert moves == tuple(state.legal_moves()) and policy.sum() == pytest.approx(1.0)
        assert info.root[0]["move"] == game.format_move(move)  # the first row is played
        state = state.play(move)
    table = format_search(agent.last_search)
    assert table.splitlines()[0].split()[:6] == [
        "move",
        "visits",
        "share",
        "prior",
        "policy",
        "value",
    ]
    timed = arena.load_agent(f"az:net={path},root=gumbel,seed=1")
    assert timed.choose(state, arena.Limit(time=0.05)) in state.legal_moves()
    puct_agent = arena.load_agent(f"az:net={path},sims=30")
    puct_agent.choose(game.initial_state(), arena.Limit())
    moves, policy = puct_agent.search_policy()
    assert np.allclose(policy * 29, puct.visit_counts(puct_agent.tree)[1])
    seen = []
    live = arena.load_agent(f"az:net={path},sims=400,root=gumbel,batch=4,seed=3")
    live.listener = lambda info: seen.append(info.nodes) or len(seen) == 3
    live.progress_every = 0.0
    live.choose(game.initial_state(), arena.Limit())
    assert len(seen) == 3 and seen == sorted(seen) and live.last_search.nodes < 400
    with pytest.raises(SpecError, match="root=gumbel explores by its Gumbel draws"):
        arena.load_agent(f"az:net={path},root=gumbel,noise=0.25")
    with pytest.raises(SpecError, match="root="):
        arena.load_agent(f"az:net={path},root=sampled")
