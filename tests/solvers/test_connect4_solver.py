"""The Connect Four solver against the shared scored positions and a plain minimax."""

from __future__ import annotations

import random
import time
from functools import cache
from pathlib import Path

import pytest

from arena.core.game import State
from arena.games import load_game
from arena.solvers.connect4 import search
from arena.solvers.connect4.solver import Connect4Solver

DATA = Path(__file__).parent / "data" / "connect4_scored_positions.txt"
POSITIONS = [(moves, int(score)) for moves, score in (line.split() for line in DATA.open())]


@pytest.fixture(scope="module")
def solver() -> Connect4Solver:
    return Connect4Solver(table_bits=22)


def _check(solver: Connect4Solver, positions: list[tuple[str, int]]) -> None:
    wrong = [
        (moves, score, got)
        for moves, score in positions
        if (got := solver.solve([int(c) - 1 for c in moves]).score) != score
    ]
    assert not wrong


def test_all_shared_positions(solver: Connect4Solver) -> None:
    # About 12 s on the project's machine (Pascal Pons' C++ solver: 12.5-15 s).
    assert len(POSITIONS) == 200
    _check(solver, POSITIONS)


def reference_score(state: State) -> int:
    """Plain negamax over the State API in the same convention (exhaustive)."""
    game = state.game
    cells = game.rows * game.cols  # type: ignore[attr-defined]

    @cache
    def value(s: State) -> int:
        best = -cells
        for move in s.legal_moves():
            child = s.play(move)
            if child.winner() is not None:
                return (cells + 1 - s.ply) // 2
            best = max(best, 0 if child.is_terminal() else -value(child))
        return best

    return value(state)


@pytest.mark.parametrize(
    ("spec", "plies"), [("connect4:rows=4,cols=5", 9), ("connect4:rows=5,cols=4,k=3", 3)]
)
def test_small_boards_equal_minimax(spec: str, plies: int) -> None:
    game = load_game(spec)
    solver = Connect4Solver(game.rows, game.cols, game.k, table_bits=16)  # type: ignore[attr-defined]
    rng = random.Random(13)
    checked = 0
    while checked < 12:
        state = game.initial_state()
        moves = []
        for _ in range(plies + rng.randrange(4)):
            if state.is_terminal():
                break
            moves.append(rng.choice(state.legal_moves()))
            state = state.play(moves[-1])
        if state.is_terminal():
            continue
        assert solver.solve(moves).score == reference_score(state), moves
        # The per-move values agree with the children's.
        for move in state.legal_moves():
            child = state.play(move)
            expected = (
                (game.rows * game.cols + 1 - state.ply) // 2  # type: ignore[attr-defined]
                if child.winner() is not None
                else 0
                if child.is_terminal()
                else -reference_score(child)
            )
            assert solver.solve_move(moves, move) == expected
        checked += 1


def test_finished_games_and_immediate_wins() -> None:
    solver = Connect4Solver(table_bits=10)
    assert solver.solve([3, 4, 3, 4, 3, 4]).score == 18  # wins with its 4th stone
    assert solver.solve([3, 4, 3, 4, 3, 4, 3]).score == -18  # Red has just won
    assert solver.solve_move([3, 4, 3, 4, 3, 4], 0) == -18  # missing it loses


def test_time_limit_gives_bounds() -> None:
    solver = Connect4Solver(table_bits=16)
    result = solver.solve([], seconds=0.05)
    assert not result.exact and result.low < result.high
    with pytest.raises(ValueError, match="not solved"):
        _ = result.score


def test_wide_boards_use_the_prime_table_and_stay_exact() -> None:
    # 12 columns of 4 + 1 bits: 60-bit keys, past the 56 the hashed table holds.
    game = load_game("connect4:rows=4,cols=12")
    solver = Connect4Solver(4, 12, 4, table_bits=16)
    assert solver.shift == 0
    rng = random.Random(7)
    checked = 0
    while checked < 5:
        state, moves = game.initial_state(), []
        while not state.is_terminal() and len(moves) < 34:
            moves.append(rng.choice(state.legal_moves()))
            state = state.play(moves[-1])
        if state.is_terminal():
            continue
        assert solver.solve(moves).score == reference_score(state), moves
        checked += 1


def test_outcome_is_the_sign_of_the_score_or_none_past_its_budget() -> None:
    # The shared positions whose scores are known: the weak solve agrees with their signs.
    solver = Connect4Solver(table_bits=18)
    for moves, score in POSITIONS[:12]:
        solver.reset()
        pos, mask, ply = solver.position([int(c) - 1 for c in moves])
        assert solver.outcome(pos, mask, ply, 1 << 40) == (score > 0) - (score < 0)
    solver.reset()
    assert solver.outcome(0, 0, 0, 1000) is None  # the empty board: far past 1000 nodes
    pos, mask, ply = solver.position([3, 3, 4, 4, 5, 5])
    assert solver.outcome(pos, mask, ply, 1) == 1  # a win at once needs no search


def test_outcome_stops_at_its_end_whatever_its_budget() -> None:
    # A moment already past: the probe stops at its first look at the clock (node 1,024),
    # not after the 2**40 nodes the empty board would take.
    solver = Connect4Solver(table_bits=18)
    assert solver.outcome(0, 0, 0, 1 << 40, end=time.perf_counter()) is None
    assert solver.stats[search.ABORTED] == 1 and solver.stats[search.NODES] <= 1024
    pos, mask, ply = solver.position([3, 3, 4, 4, 5, 5])
    assert solver.outcome(pos, mask, ply, 1, end=time.perf_counter()) == 1  # no search
