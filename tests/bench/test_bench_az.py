"""``arena bench az``: the JAX forward pass and rules it gives mctx, and our search against
mctx's on Tic-tac-toe positions (same moves, same visits). The mctx tests are skipped
without jax and mctx (the 'learn' extra), except under CI, which installs it; without
them the bench says how to install them."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

import arena
from arena.bench import az
from arena.cli.main import main
from arena.core.errors import ArenaError
from arena.search.az.network import forward, random_network
from arena.search.az.planes import encode


@pytest.fixture
def jax():
    pytest.importorskip("mctx", reason="the mctx comparison needs the 'learn' extra")
    return pytest.importorskip("jax", reason="the mctx comparison needs the 'learn' extra")


def test_without_mctx_the_bench_says_how_to_install_it(monkeypatch):
    def missing():
        raise ArenaError("arena bench az needs jax and mctx (pip install -e '.[learn]'): none")

    monkeypatch.setattr(az, "require_mctx", missing)
    lines = []
    result = az.run_bench(lines.append, games=("tictactoe",), batch=2)
    assert result["mctx"] == [] and result["speed"][0]["sims_per_s_batched"] > 0
    assert result["speed"][0]["compiled_sims_per_s_batched"] > 0
    assert "the mctx comparison is left out" in lines[-1] and "'.[learn]'" in lines[-1]


@pytest.mark.parametrize("spec", ["tictactoe", "connect4"])
def test_the_jax_forward_pass_is_the_networks(jax, spec):
    game = arena.load_game(spec)
    net = random_network(game, filters=6, blocks=1, seed=2)
    states = az.positions(game, 5, seed=3)
    logits, values = az.jax_forward(net)(np.stack([encode(s) for s in states]))
    for i, state in enumerate(states):
        want_logits, want_value = forward(net, encode(state))
        assert np.allclose(np.asarray(logits[i]), want_logits, atol=1e-4)
        assert abs(float(values[i]) - want_value) < 1e-4


def test_the_jax_rules_play_connect_four_as_arena_does(jax):
    game = arena.load_game("connect4")
    rules = az.JaxRules.of(game)
    rng = random.Random(4)
    jnp = jax.numpy
    for _ in range(3):
        state = game.initial_state()
        e = rules.embed(state)
        board, to_move, done = (jnp.asarray(e[k])[None] for k in ("board", "to_move", "done"))
        while not state.is_terminal():
            legal = np.flatnonzero(np.asarray(rules.legal(board, done)[0]))
            assert legal.tolist() == list(state.legal_moves())
            move = rng.choice(state.legal_moves())
            mover = state.to_move
            state = state.play(move)
            board, to_move, done, reward = rules.step(board, to_move, done, jnp.asarray([move]))
            assert np.array_equal(np.asarray(board[0]), rules.embed(state)["board"])
            assert bool(done[0]) == state.is_terminal()
            assert float(reward[0]) == (
                1.0 if state.is_terminal() and state.returns()[mover] > 0 else 0.0
            )


@pytest.mark.slow
def test_our_search_and_mctx_agree_on_tictactoe(jax):
    game = arena.load_game("tictactoe")
    net = random_network(game, filters=8, blocks=1, seed=1)
    states = az.positions(game, 6, seed=0)
    for root in ("puct", "gumbel"):
        row = az.compare(net, game, states, 24, root=root, considered=4, timing=False)
        assert row.same_move == len(states), row
        assert row.visits_tv < 0.05 and row.policy_tv < 0.05, row


@pytest.mark.slow
def test_the_bench_command_prints_its_figures(jax, capsys):
    code = main(
        ["bench", "az", "--games", "tictactoe", "--positions", "2", "--sims", "8",
         "--root", "puct", "--json"]
    )  # fmt: skip
    assert code == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert result["speed"][0]["game"] == "tictactoe" and result["speed"][0]["forward_us"] > 0
    assert result["mctx"][0]["same_move"] == 2
    assert main(["bench", "az", "--sims", "1"]) == 2
