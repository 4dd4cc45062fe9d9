"""Value targets rescored by the exact Connect Four solver (``arena train --rescore solver``)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import arena
from arena.cli.main import main
from arena.core.errors import SpecError
from arena.learn import checkpoint as ckpt
from arena.learn.rescore import Rescore, Rescorer, check
from arena.learn.selfplay import ReplayBuffer, SelfPlay, play_game
from arena.search.az.network import random_network
from arena.search.az.puct import net_evaluator
from arena.solvers.solve import solve_state

UNSET = 0.5
"""A value target no solver gives: what a position keeps unless it is rescored."""


@pytest.fixture(scope="module")
def c4():
    return arena.load_game("connect4")


def random_game(game, seed: int) -> list:
    """The positions of a game of random moves, the last one's before the end."""
    rng = np.random.default_rng(seed)
    state, states = game.initial_state(), []
    while not state.is_terminal():
        states.append(state)
        moves = state.legal_moves()
        state = state.play(moves[rng.integers(len(moves))])
    return states


def test_a_settled_position_gets_the_solvers_value_and_the_others_keep_theirs(c4):
    rescorer = Rescorer(c4, Rescore("solver", nodes=3000))
    for seed in range(3):
        states = random_game(c4, seed)
        values, settled = rescorer.values(states, np.full(len(states), UNSET, np.float32))
        # A few thousand nodes settle the last positions, never the first ones.
        assert 0 < settled < len(states) - 2
        cut = len(states) - settled
        assert np.all(values[:cut] == UNSET)
        for state, value in zip(states[cut:], values[cut:], strict=True):
            assert value == np.sign(solve_state(state).score)


def test_a_position_the_budget_cannot_settle_keeps_the_game_result(c4):
    start = c4.initial_state()
    assert Rescorer(c4, Rescore("solver", nodes=500)).outcome(start) is None
    values, settled = Rescorer(c4, Rescore("solver", nodes=500)).values([start], np.ones(1))
    assert settled == 0 and values[0] == 1


def test_positions_before_the_first_ply_keep_the_result(c4):
    states = random_game(c4, 1)
    rescorer = Rescorer(c4, Rescore("solver", nodes=10**6, min_ply=len(states) - 3))
    values, settled = rescorer.values(states, np.full(len(states), UNSET, np.float32))
    assert settled == 3 and np.all(values[:-3] == UNSET) and np.all(values[-3:] != UNSET)


def test_a_games_targets_do_not_depend_on_the_games_solved_before(c4):
    one, two = random_game(c4, 4), random_game(c4, 5)
    results = np.full(len(two), UNSET, np.float32)
    rescorer = Rescorer(c4, Rescore("solver", nodes=2000))
    rescorer.values(one, np.zeros(len(one), np.float32))
    after, n = rescorer.values(two, results)
    alone, m = Rescorer(c4, Rescore("solver", nodes=2000)).values(two, results)
    assert n == m and np.array_equal(after, alone)


def test_self_play_with_a_rescorer_changes_only_the_settled_values(c4):
    evaluate = net_evaluator(random_network(c4, filters=4, blocks=0, seed=0))
    options = SelfPlay(simulations=8, temperature_moves=42)
    plain = play_game(c4, evaluate, options, np.random.default_rng(2))
    rescorer = Rescorer(c4, Rescore("solver", nodes=20_000))
    better = play_game(c4, evaluate, options, np.random.default_rng(2), rescorer)
    assert np.array_equal(plain.planes, better.planes)
    assert np.array_equal(plain.policy, better.policy)
    assert plain.settled == 0 and better.settled > 0
    cut = len(plain) - better.settled
    assert np.array_equal(plain.value[:cut], better.value[:cut])
    # The last position: the game's result is the solver's too (one move from the end).
    assert better.value[-1] == plain.value[-1]


def test_only_a_game_with_a_fast_solver_is_rescored(c4, tmp_path, capsys):
    with pytest.raises(SpecError, match="connect4 has one, tictactoe has none"):
        check(arena.load_game("tictactoe"), Rescore("solver"))
    check(arena.load_game("tictactoe"), Rescore())  # off: any game
    out = str(tmp_path / "run")
    for argv, words in (
        (["tictactoe", "--rescore", "solver"], "tictactoe has none"),
        (["connect4", "--rescore", "solver", "--rescore-nodes", "0"], "--rescore-nodes must"),
        (["connect4", "--rescore-from", "-1"], "--rescore-from must"),
    ):
        assert main(["train", *argv, "--out", out]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and words in err, err


@pytest.mark.slow
def test_rescoring_switched_on_at_a_resume_gives_the_run_of_one_never_stopped(tmp_path):
    pytest.importorskip("jax")
    c4 = arena.load_game("connect4")
    options = ["--sims", "4", "--games-per-step", "2", "--batches-per-step", "1",
               "--batch-size", "16", "--blocks", "0", "--channels", "4", "--seed", "5",
               "--eval-games", "0"]  # fmt: skip
    rescore = ["--rescore", "solver", "--rescore-nodes", "20000"]
    one, two = tmp_path / "one", tmp_path / "two"
    train = ["train", "connect4"]
    assert main([*train, "--out", str(one), "--steps", "1", *options]) == 0
    assert main([*train, "--out", str(one), "--steps", "3", *options, *rescore]) == 0
    assert main([*train, "--out", str(two), "--steps", "1", *options]) == 0
    assert main([*train, "--out", str(two), "--steps", "2", *options, *rescore]) == 0
    assert main([*train, "--out", str(two), "--steps", "3", *options]) == 0  # kept on
    buffers = []
    for run in (one, two):
        saved = ckpt.load(run / "checkpoint.npz")
        assert saved.progress["step"] == 3
        assert saved.settings["rescore"] == {"method": "solver", "nodes": 20000, "min_ply": 0}
        buffers.append(ReplayBuffer.load(run / saved.progress["buffer"], c4))
        rows = [json.loads(x) for x in (run / "log.jsonl").read_text().splitlines()]
        assert "rescored" not in rows[0] and rows[1]["rescored"] > 0 and rows[2]["rescored"] > 0
    assert buffers[0].games == buffers[1].games == 6
    for name in ("planes", "policy", "value"):
        assert np.array_equal(getattr(buffers[0], name), getattr(buffers[1], name))
