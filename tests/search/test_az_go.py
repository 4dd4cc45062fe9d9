"""Go's network encoding: the stones of each colour, relative to the player to move, the
points and the pass as actions; a Go network plays and trains."""

from __future__ import annotations

import numpy as np

import arena
from arena.learn.augment import symmetries, transform
from arena.learn.selfplay import Records, SelfPlay, play_game
from arena.search.az.network import random_network
from arena.search.az.planes import encode, encoding
from arena.search.az.puct import net_evaluator


def test_go_planes_hold_each_colour_relative_to_the_mover():
    game = arena.load_game("go:size=5")
    enc = encoding(game)
    assert (enc.channels, enc.rows, enc.cols, enc.actions) == (4, 5, 5, 26)
    state = game.play_moves(game.parse_moves("A5 E1"))  # Black top left, White bottom right
    x = encode(state)  # Black to move
    assert x[0, 0, 0] == 1 and x[1, 4, 4] == 1 and x[0].sum() == 1 and x[1].sum() == 1
    assert x[2].max() == 0 and x[3].min() == 1
    y = encode(state.play(game.pass_move))  # White to move: the planes swap
    assert y[0, 4, 4] == 1 and y[1, 0, 0] == 1 and y[2].min() == 1


def test_a_go_network_plays_self_play_with_the_pass_and_its_symmetries():
    game = arena.load_game("go:size=5,komi=0.5")
    evaluate = net_evaluator(random_network(game, filters=4, blocks=0, seed=0))
    records = play_game(game, evaluate, SelfPlay(simulations=8), np.random.default_rng(0))
    assert records.policy.shape[1] == 26 and len(records) > 2
    assert set(records.value.tolist()) <= {-1.0, 1.0}  # a half-point komi: no draws
    moved = transform(records, game, np.full(len(records), 5))
    # The pass keeps its probability; the board's points move with the stones.
    assert np.array_equal(moved.policy[:, 25], records.policy[:, 25])
    assert len(symmetries(game)) == 8
    assert np.allclose(moved.policy.sum(axis=1), records.policy.sum(axis=1))
    assert isinstance(moved, Records)
