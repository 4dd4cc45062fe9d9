"""Colosseum Survival's compiled kernel against the State API: seeded set-ups of
several sizes (one to seven 64-bit words of cells), densely walled hand-built
positions, perft against ``arena.perft`` and the playout's exact law."""

from __future__ import annotations

import random

import numpy as np
import pytest

from arena.games.colosseum import kernel as colosseum
from arena.games.colosseum.rules import Colosseum, ColosseumState
from kernel_checks import (
    assert_perft_matches_reference,
    assert_playout_uniform,
    compare_random_games,
    expected_outcome,
    load_kernel,
    random_start,
    run_without_jit,
    seeded_ends,
)

RANDOM_GAMES = [
    ("colosseum:size=3", 3000),
    ("colosseum:size=4,walls=3", 2000),
    ("colosseum:size=6", 1500),
    ("colosseum", 800),  # sizes drawn from 6..12 in a stride of 12
    ("colosseum:setup=course", 200),  # the course simulator's set-ups, 6..11
    ("colosseum:size=9,walls=0", 300),  # 81 cells: two words
    ("colosseum:size=13,walls=30", 100),
    ("colosseum:size=20", 30),  # 400 cells: seven words
]


@pytest.mark.parametrize(("spec", "games"), RANDOM_GAMES)
def test_kernel_agrees_with_the_rules_move_for_move(spec: str, games: int) -> None:
    game, kernel = load_kernel(spec)
    assert compare_random_games(game, kernel, games, seed=len(spec)) > games


def walled_position(game: Colosseum, size: int, rng: random.Random) -> ColosseumState:
    """Two players and a random share (up to 60%) of the inner walls: many cuts and
    closed regions, and sometimes players already apart."""
    density = rng.random() * 0.6
    walls = [
        (r, c, side)
        for r in range(size)
        for c in range(size)
        for side in "rd"
        if rng.random() < density
    ]
    cells = rng.sample([(r, c) for r in range(size) for c in range(size)], 2)
    return game.position(cells, walls=walls, to_move=rng.randrange(2), size=size)


@pytest.mark.parametrize(
    ("spec", "size"), [("colosseum:size=5", 5), ("colosseum", 7), ("colosseum", 11)]
)
def test_kernel_agrees_on_densely_walled_positions(spec: str, size: int) -> None:
    game, kernel = load_kernel(spec)
    p, f = kernel.params, kernel.functions
    out = np.empty(kernel.max_moves, np.int64)
    rng = random.Random(size)
    apart = 0
    for _ in range(300):
        state = walled_position(game, size, rng)
        apart += state.is_terminal()
        s = kernel.encode(state)
        while True:
            n = f["legal_moves"](p, s, out)
            assert tuple(int(m) for m in out[:n]) == state.legal_moves()
            assert f["to_move"](p, s) == state.to_move
            assert f["outcome"](p, s) == expected_outcome(state)
            assert np.array_equal(s, kernel.encode(state))
            if state.is_terminal():
                break
            move = rng.choice(state.legal_moves())
            state = state.play(move)
            f["play"](p, s, move)
    assert apart > 10, "some positions start apart"


def test_a_position_already_apart_is_over_at_once() -> None:
    game, kernel = load_kernel("colosseum:size=4")
    # A fence round the top-left 2x2 block: A's region 4 cells, B's 12.
    fence = ["0,1,r", "1,1,r", "1,0,d", "1,1,d"]
    state = game.position([(0, 0), (3, 3)], walls=fence)
    s = kernel.encode(state)
    assert state.is_terminal()
    assert kernel.functions["legal_moves"](kernel.params, s, np.empty(64, np.int64)) == 0
    assert kernel.functions["outcome"](kernel.params, s) == state.returns()[0] == -1
    assert kernel.functions["playout"](kernel.params, s) == -1


@pytest.mark.parametrize(
    ("spec", "ply", "depth"),
    [
        ("colosseum:size=3", 0, 4),
        ("colosseum:size=3", 3, 5),
        ("colosseum:size=4,walls=3", 5, 4),
        ("colosseum:size=6", 0, 3),
        ("colosseum", 6, 2),
        ("colosseum:size=9,walls=0", 4, 2),
    ],
)
def test_perft_equals_the_reference_perft(spec: str, ply: int, depth: int) -> None:
    assert_perft_matches_reference(spec, ply, depth)


@pytest.mark.parametrize(
    ("spec", "ply", "seed"),
    [
        ("colosseum:size=3", 3, 0),
        ("colosseum:size=3", 3, 2),
        ("colosseum:size=4", 8, 1),
        ("colosseum:size=4,walls=3", 6, 1),
    ],
)
def test_playout_follows_the_law_of_uniform_random_moves(spec: str, ply: int, seed: int) -> None:
    """The end positions of the kernel playout against their exact probabilities
    under uniformly random moves (chi-squared, p > 0.001)."""
    game, kernel = load_kernel(spec)
    state = random_start(game, lambda s: s.ply == ply, seed=seed)
    assert_playout_uniform(kernel, state, trials=20000, seed=seed)


def test_playouts_score_like_the_rules_playout() -> None:
    """From one drawn 8x8-ish set-up, the mean result of kernel playouts and of the
    rules' playouts agree within sampling error (same law)."""
    game, kernel = load_kernel("colosseum:size=8")
    state = game.initial_state(3)
    f, p = kernel.functions, kernel.params
    f["seed"](4)
    trials = 3000
    fast = 0
    for _ in range(trials):
        s = kernel.encode(state)
        fast += f["playout"](p, s)
        assert s[colosseum.S_SIZE] == 8
    rng = random.Random(4)
    slow = sum(game.playout(state, rng)[0] for _ in range(trials))
    assert abs(fast - slow) / trials < 5 * (2 / trials) ** 0.5


def test_kernels_run_as_plain_python_with_the_same_results() -> None:
    """NUMBA_DISABLE_JIT=1 runs the same functions as Python: the checks pass and
    seeded playouts end in the same positions as compiled ones."""
    code = """
import arena
from kernel_checks import *
for spec, games in [("colosseum:size=3", 20), ("colosseum", 3), ("colosseum:size=9", 2)]:
    game, kernel = load_kernel(spec)
    compare_random_games(game, kernel, games, seed=1)
game, kernel = load_kernel("colosseum:size=3")
state = game.initial_state(5)
assert perfts(kernel, state, 3) == [arena.perft(state, d) for d in (1, 2, 3)]
"""
    ends = "print(seeded_ends(*load_kernel({!r}), 'playout', 10, seed=7))"
    specs = ("colosseum:size=6", "colosseum:size=12")
    code += "\n".join(ends.format(spec) for spec in specs)
    plain = run_without_jit(code).split()
    assert plain == [seeded_ends(*load_kernel(spec), "playout", 10, seed=7) for spec in specs]
