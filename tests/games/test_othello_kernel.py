"""Othello's compiled kernel against the State API: both representations (bitboards up
to 8x8, the mailbox above), both end rules, perft figures, the playout's law."""

from __future__ import annotations

import numpy as np
import pytest

import arena
from arena.games.othello.rules import OthelloState
from kernel_checks import (
    assert_perft_matches_reference,
    assert_playout_uniform,
    assert_rollout_reachable,
    compare_random_games,
    end_counts,
    final_law,
    load_kernel,
    perfts,
    random_start,
    run_without_jit,
    seeded_ends,
)

RANDOM_GAMES = [
    ("othello:size=4", 3000),
    ("othello:size=4,rule=nomove-ends", 3000),
    ("othello:size=6", 1500),
    ("othello:size=6,rule=nomove-ends", 1000),
    ("othello", 1500),
    ("othello:rule=nomove-ends", 1000),
    ("othello:size=10", 400),
    ("othello:size=10,rule=nomove-ends", 300),
    ("othello:size=12", 40),
    ("othello:size=14,rule=nomove-ends", 20),
    ("othello:size=16", 20),
]


def empties(state: OthelloState) -> int:
    black, white = state.discs()
    return state.game.size**2 - black - white


@pytest.mark.parametrize(("spec", "games"), RANDOM_GAMES)
def test_kernel_agrees_with_the_rules_move_for_move(spec: str, games: int) -> None:
    game, kernel = load_kernel(spec)
    assert compare_random_games(game, kernel, games, seed=len(spec)) > games


def test_perft_8x8_equals_the_published_figures() -> None:
    game, kernel = load_kernel("othello")
    figures = [4, 12, 56, 244, 1396, 8200, 55092, 390216]
    assert perfts(kernel, game.initial_state(), len(figures)) == figures


@pytest.mark.parametrize(
    ("spec", "ply", "depth"),
    [
        ("othello:size=4", 0, 9),
        ("othello:size=4,rule=nomove-ends", 2, 8),
        ("othello:size=6", 10, 4),
        ("othello:size=6,rule=nomove-ends", 6, 4),
        ("othello:rule=nomove-ends", 20, 3),
        ("othello:size=10", 0, 4),
        ("othello:size=10,rule=nomove-ends", 30, 3),
        ("othello:size=12", 12, 3),
    ],
)
def test_perft_equals_the_reference_perft(spec: str, ply: int, depth: int) -> None:
    assert_perft_matches_reference(spec, ply, depth)


@pytest.mark.parametrize("spec", ["othello:size=6", "othello", "othello:size=10"])
def test_perft_counts_passes_as_moves(spec: str) -> None:
    game, kernel = load_kernel(spec)
    forced = random_start(game, lambda s: s.legal_moves() == (game.PASS,), seed=2)
    assert perfts(kernel, forced, 4) == [arena.perft(forced, d) for d in range(1, 5)]
    assert kernel.perft(forced, 1) == 1


@pytest.mark.parametrize(
    ("spec", "left"),
    [
        ("othello:size=4", 6),
        ("othello:size=6,rule=nomove-ends", 6),
        ("othello", 6),
        ("othello:rule=nomove-ends", 5),
        ("othello:size=10", 5),
        ("othello:size=10,rule=nomove-ends", 5),
    ],
)
def test_playout_follows_the_law_of_uniform_random_moves(spec: str, left: int) -> None:
    """The end positions of the kernel playout against their exact probabilities
    under uniformly random moves (chi-squared, p > 0.001), from positions with
    ``left`` empty cells; the rollout ends only where legal play can end."""
    game, kernel = load_kernel(spec)
    state = random_start(game, lambda s: empties(s) == left and len(s.legal_moves()) > 1, seed=left)
    assert_playout_uniform(kernel, state, trials=10000, seed=left)
    assert_rollout_reachable(kernel, state, trials=1000, seed=left)


@pytest.mark.parametrize("spec", ["othello", "othello:size=10"])
def test_playout_law_holds_through_passes(spec: str) -> None:
    game, kernel = load_kernel(spec)

    def pass_ahead(s: OthelloState) -> bool:
        return empties(s) <= 8 and any(
            s.play(m).legal_moves() == (game.PASS,) for m in s.legal_moves()
        )

    state = random_start(game, pass_ahead, seed=11)
    assert_playout_uniform(kernel, state, trials=10000, seed=3)


@pytest.mark.parametrize("spec", ["othello", "othello:size=10"])
def test_rollout_takes_corners_far_more_often_than_random_play(spec: str) -> None:
    """A corner disc never flips, so a corner taken by the mover at once stays the
    mover's: the rollout (corner first in 9 plies of 10) ends with it almost always."""
    game, kernel = load_kernel(spec)
    n = game.size
    corners = {0, n - 1, n * (n - 1), n * n - 1}

    def corner_open(s: OthelloState) -> bool:
        moves = s.legal_moves()
        return len(moves) >= 5 and len(corners & set(moves)) == 1 and empties(s) > 20

    state = random_start(game, corner_open, seed=4)
    (corner,) = corners & set(state.legal_moves())
    f, p = kernel.functions, kernel.params

    def kept(function: str) -> float:
        f["seed"](5)
        won = 0
        for _ in range(1000):
            s = kernel.encode(state)
            f[function](p, s)
            won += _owner(n, s, corner) == state.to_move
        return won / 1000

    rollout, playout = kept("rollout"), kept("playout")
    # At least 0.9 (+ later chances) for the rollout; random play takes it later too.
    assert rollout > 0.88
    assert playout < rollout - 0.1


@pytest.mark.parametrize("spec", ["othello", "othello:size=10"])
def test_rollout_avoids_x_squares(spec: str) -> None:
    """From positions whose X-square and other moves lead to disjoint sets of end
    positions, the rollout ends after an X-square only when its random tenth of the
    plies picks one; random play far more often."""
    game, kernel = load_kernel(spec)
    n = game.size
    xsquares = {n + 1, 2 * n - 2, n * (n - 2) + 1, n * (n - 1) - 2}
    corners = {0, n - 1, n * (n - 1), n * n - 1}

    def ends_after(s: OthelloState, moves: set[int]) -> set[tuple[int, ...]]:
        return {tuple(kernel.encode(end)) for m in moves for end in final_law(s.play(m))}

    def split(s: OthelloState) -> bool:
        moves = set(s.legal_moves())
        x = moves & xsquares
        if empties(s) > 7 or moves & corners or not x or not moves - x:
            return False
        return not ends_after(s, x) & ends_after(s, moves - x)

    state = random_start(game, split, seed=6)
    moves = set(state.legal_moves())
    after_x = ends_after(state, moves & xsquares)
    share = len(moves & xsquares) / len(moves)
    rollout = end_counts(kernel, state, "rollout", 2000, seed=1, key=tuple)
    playout = end_counts(kernel, state, "playout", 2000, seed=1, key=tuple)
    x_rollout = sum(c for end, c in rollout.items() if end in after_x) / 2000
    x_playout = sum(c for end, c in playout.items() if end in after_x) / 2000
    assert abs(x_playout - share) < 0.05
    assert x_rollout < 0.1 * share + 0.03


def _owner(n: int, s: np.ndarray, cell: int) -> int | None:
    """Who owns ``cell`` in the kernel position ``s`` (either layout)."""
    if n <= 8:
        bits = s.view(np.uint64)
        if int(bits[1]) >> cell & 1:
            return 0
        return 1 if int(bits[2]) >> cell & 1 else None
    value = int(s[1 + (cell // n + 1) * (n + 2) + cell % n + 1])
    return None if value == 0 else value - 1


def test_kernels_run_as_plain_python_with_the_same_results() -> None:
    """NUMBA_DISABLE_JIT=1 runs the same functions as Python: the checks pass and
    seeded playouts and rollouts end in the same positions as compiled ones."""
    code = """
from kernel_checks import *
for spec, games in [("othello:size=4", 20), ("othello:size=6,rule=nomove-ends", 5),
                    ("othello:size=10", 1)]:
    game, kernel = load_kernel(spec)
    compare_random_games(game, kernel, games, seed=1)
game, kernel = load_kernel("othello")
assert perfts(kernel, game.initial_state(), 4) == [4, 12, 56, 244]
"""
    ends = "print(seeded_ends(*load_kernel({!r}), {!r}, 10, seed=7))"
    cases = [
        (spec, function)
        for spec in ("othello:size=6", "othello:size=10")
        for function in ("playout", "rollout")
    ]
    code += "\n".join(ends.format(spec, function) for spec, function in cases)
    plain = run_without_jit(code).split()
    assert plain == [
        seeded_ends(*load_kernel(spec), function, 10, seed=7) for spec, function in cases
    ]
