"""Self-play records and the replay buffer file."""

from __future__ import annotations

import numpy as np
import pytest

import arena
from arena.core.errors import SpecError
from arena.learn.selfplay import ReplayBuffer, SelfPlay, play_game
from arena.search.az.network import random_network
from arena.search.az.puct import net_evaluator


@pytest.fixture(scope="module")
def ttt():
    game = arena.load_game("tictactoe")
    return game, net_evaluator(random_network(game, filters=4, blocks=0, seed=0))


def test_a_self_play_game_leaves_one_true_record_per_position(ttt):
    game, evaluate = ttt
    records = play_game(game, evaluate, SelfPlay(simulations=24), np.random.default_rng(1))
    # Replay the game from the planes: each position's stones and side to move.
    state = game.initial_state()
    for i in range(len(records)):
        mover, other = records.planes[i][0], records.planes[i][1]
        assert records.planes[i][2].max() == state.to_move
        occupied = mover + other
        legal = set(state.legal_moves())
        assert {c for c in range(9) if not occupied.flat[c]} == legal
        assert records.policy[i].sum() == pytest.approx(1.0)
        assert set(np.flatnonzero(records.policy[i])) <= legal
        played = records.planes[i + 1] if i + 1 < len(records) else None
        if played is None:
            break
        # The next position's opponent stones are this one's mover's plus the move played.
        new = np.flatnonzero(played[1].reshape(-1) - mover.reshape(-1))
        state = state.play(int(new[0]))
    assert len(records) == state.ply + 1
    final = (
        state.play(next(m for m in state.legal_moves() if state.play(m).is_terminal()))
        if not state.is_terminal()
        else state
    )
    returns = final.returns()
    movers = [int(p[2].max()) for p in records.planes]
    assert records.value.tolist() == [float(np.sign(returns[m])) for m in movers]


def test_self_play_repeats_with_its_seed_and_varies_without(ttt):
    game, evaluate = ttt
    options = SelfPlay(simulations=16, temperature_moves=9)
    one = play_game(game, evaluate, options, np.random.default_rng(7))
    two = play_game(game, evaluate, options, np.random.default_rng(7))
    assert np.array_equal(one.planes, two.planes) and np.array_equal(one.policy, two.policy)
    others = {
        play_game(game, evaluate, options, np.random.default_rng(s)).planes.tobytes()
        for s in range(6)
    }
    assert len(others) > 1


def test_the_replay_buffer_keeps_the_latest_and_survives_a_round_trip(ttt, tmp_path):
    game, evaluate = ttt
    buffer = ReplayBuffer(game, capacity=20)
    rng = np.random.default_rng(3)
    games = [play_game(game, evaluate, SelfPlay(simulations=8), rng) for _ in range(5)]
    for records in games:
        buffer.add(records)
    total = sum(len(r) for r in games)
    assert len(buffer) == min(20, total) and buffer.games == 5
    assert np.array_equal(buffer.value[-len(games[-1]) :], games[-1].value)
    buffer.save(tmp_path / "buffer.npz")
    back = ReplayBuffer.load(tmp_path / "buffer.npz", game, capacity=20)
    assert back.games == 5 and np.array_equal(back.planes, buffer.planes)
    assert np.array_equal(back.policy, buffer.policy) and np.array_equal(back.value, buffer.value)
    batch = back.sample(8, np.random.default_rng(0))
    assert batch.planes.shape == (8, 4, 3, 3) and batch.planes.dtype == np.float32
    assert not list(tmp_path.glob("*.part*"))


def test_a_foreign_or_broken_buffer_is_a_one_line_error(ttt, tmp_path):
    game, _ = ttt
    ReplayBuffer(arena.load_game("connect4")).save(tmp_path / "c4.npz")
    (tmp_path / "junk.npz").write_bytes(b"junk")
    for name, message in (
        ("absent.npz", "no such file"),
        ("junk.npz", "not a buffer file"),
        ("c4.npz", "for connect4.*not tictactoe"),
    ):
        with pytest.raises(SpecError, match=message) as caught:
            ReplayBuffer.load(tmp_path / name, game)
        assert "\n" not in str(caught.value)
