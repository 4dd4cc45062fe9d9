"""Every solver against a plain minimax, and the known results of small games."""

from __future__ import annotations

import random
from functools import cache

import pytest

from arena.core.game import State
from arena.games import load_game
from arena.solvers.generic import GenericSolver, terminal_value
from arena.solvers.othello.solver import OthelloSolver
from arena.solvers.solve import kind, move_values, solve_state


def minimax(state: State) -> int:
    """Negamax without pruning or ordering: the definition the solvers must meet."""

    @cache
    def value(s: State) -> int:
        if s.is_terminal():
            return terminal_value(s)
        return max(-value(s.play(m)) for m in s.legal_moves())

    return value(state)


def random_position(spec: str, plies: int, seed: int) -> State:
    game = load_game(spec)
    rng = random.Random(seed)
    while True:
        state = game.initial_state()
        for _ in range(plies):
            if state.is_terminal():
                break
            state = state.play(rng.choice(state.legal_moves()))
        if not state.is_terminal():
            return state


def test_tictactoe_is_a_draw_and_4x4_k3_a_first_player_win() -> None:
    assert GenericSolver().solve(load_game("tictactoe").initial_state()).score == 0
    # The first player wins with its third stone (6 = 9 - 3).
    assert GenericSolver().solve(load_game("tictactoe:m=4,n=4,k=3").initial_state()).score == 6


def test_othello_4x4_is_a_white_win_by_both_solvers() -> None:
    start = load_game("othello:size=4").initial_state()
    # 11-3 for White with two cells empty, which count for the winner.
    assert GenericSolver().solve(start).score == -10
    assert OthelloSolver(4, table_bits=12).solve(start).score == -10
    assert minimax(start) == -10


@pytest.mark.parametrize(
    ("spec", "plies"),
    [
        ("tictactoe", 2),
        ("tictactoe:m=4,n=3,k=3", 3),
        ("connect4:rows=4,cols=4,k=3", 4),
        ("othello:size=4", 2),
        ("othello:size=6", 24),
        ("othello:size=6,rule=nomove-ends", 24),
    ],
)
def test_solvers_equal_minimax_on_random_positions(spec: str, plies: int) -> None:
    for seed in range(4):
        state = random_position(spec, plies + seed % 3, seed)
        expected = minimax(state)
        assert GenericSolver().solve(state).score == expected, (spec, seed)
        assert solve_state(state).score == expected, (spec, seed, kind(state.game))
        values = move_values(state)
        assert max(v.score for _, v in values) == expected
        for move, v in values:
            assert v.score == -minimax(state.play(move))


def test_the_right_solver_is_chosen() -> None:
    assert kind(load_game("connect4")) == "connect4"
    assert kind(load_game("connect4:rows=9,cols=9")) == "generic"  # 90 bits
    assert kind(load_game("othello")) == "othello"
    assert kind(load_game("othello:rule=nomove-ends")) == "generic"
    assert kind(load_game("gomoku:size=5")) == "generic"


def test_time_limit_gives_honest_bounds() -> None:
    state = load_game("tictactoe:m=4,n=4,k=4").initial_state()
    found = GenericSolver().solve(state, seconds=0.05)
    low, high = found.low, found.high
    assert not found.exact and low <= 0 <= high  # 4x4 k=4 is a draw
