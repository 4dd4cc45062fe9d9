"""The Othello endgame solver against FFO #40-#42 and the game's own rules."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from arena.core.game import State
from arena.formats.position import format_position, parse_position
from arena.games import load_game
from arena.solvers.generic import GenericSolver
from arena.solvers.othello.solver import OthelloSolver

DATA = Path(__file__).parent / "data" / "othello_ffo.txt"
FFO = {fields[4]: fields for fields in (line.split() for line in DATA.open())}


@pytest.fixture(scope="module")
def solver() -> OthelloSolver:
    return OthelloSolver(8, table_bits=20)


def _solve(solver: OthelloSolver, name: str) -> None:
    board, side, score, best, _ = FFO[name]
    state = parse_position(load_game("othello"), f"{board} {side}")
    solver.reset()
    assert solver.solve(state).score == int(score)
    # The suite's best move keeps the value.
    game = state.game
    child = state.play(game.parse_move(best))
    assert -solver.solve(child).score == int(score)


def test_ffo_40(solver: OthelloSolver) -> None:
    _solve(solver, "FFO#40")


@pytest.mark.slow
@pytest.mark.parametrize("name", ["FFO#41", "FFO#42"])
def test_ffo_41_42(solver: OthelloSolver, name: str) -> None:
    _solve(solver, name)


def endgame(rng: random.Random, empties: int) -> State:
    game = load_game("othello")
    while True:
        state = game.initial_state()
        while not state.is_terminal() and 64 - sum(state.discs()) > empties:  # type: ignore[attr-defined]
            state = state.play(rng.choice(state.legal_moves()))
        if not state.is_terminal():
            return state


def test_random_endgames_equal_the_generic_solver(solver: OthelloSolver) -> None:
    # Passes, wipe-outs and games ending with empty cells all come up in 30 games.
    rng = random.Random(40)
    for _ in range(30):
        state = endgame(rng, rng.choice((7, 8, 9)))
        expected = GenericSolver().solve(state).score
        assert solver.solve(state).score == expected, format_position(state)


def test_time_limit_gives_bounds() -> None:
    board, side = FFO["FFO#42"][:2]
    state = parse_position(load_game("othello"), f"{board} {side}")
    found = OthelloSolver(8, table_bits=16).solve(state, seconds=0.1)
    assert not found.exact and found.low <= 6 <= found.high
