"""The Colosseum heuristic: bounds, symmetry, walling in, rollout candidates, strength."""

from __future__ import annotations

import random

import pytest

import arena
from arena.heuristics import SCALE
from arena.heuristics.colosseum import candidates, evaluate
from arena.heuristics.lines import WIN_NOW
from arena.tournament import Settings, run
from helpers import random_states

GAME = arena.load_game("colosseum:size=6")
STATIC = 900.0  # estimates stay inside (-900, 900); verdicts are 990, results 1000


@pytest.mark.parametrize("spec", ["colosseum:size=6", "colosseum:size=9", "colosseum"])
def test_values_are_bounded_and_finished_games_score_their_result(spec: str) -> None:
    for state in random_states(arena.load_game(spec), 600, seed=4):
        value = evaluate(state)
        assert -SCALE <= value <= SCALE
        if state.is_terminal():
            assert value == SCALE * state.returns()[0]
        else:
            assert abs(value) <= STATIC or abs(value) == WIN_NOW


def test_swapping_the_players_negates_the_value() -> None:
    rng = random.Random(2)
    for _ in range(60):
        a = (rng.randrange(6), rng.randrange(6))
        b = (rng.randrange(6), rng.randrange(6))
        if a == b:
            continue
        walls = [(rng.randrange(6), rng.randrange(6), rng.choice("urdl")) for _ in range(5)]
        mover_a = GAME.position([a, b], walls, to_move=0)
        mover_a_as_b = GAME.position([b, a], walls, to_move=1)
        if mover_a.is_terminal():
            continue
        assert evaluate(mover_a) == pytest.approx(-evaluate(mover_a_as_b))


def test_more_room_is_better() -> None:
    # A wall down the middle with a one-cell gap: A owns the big side, B a 2-column pocket.
    walls = [(r, 1, "r") for r in range(6) if r != 5]
    state = GAME.position([(2, 4), (2, 0)], walls, to_move=0)
    assert evaluate(state) > 0
    assert evaluate(GAME.position([(2, 0), (2, 4)], walls, to_move=0)) < 0


def test_walling_the_opponent_in_is_seen_as_won() -> None:
    # B at (0, 0) with only its right side open; A can walk to (0, 1) and close it.
    state = GAME.position([(2, 2), (0, 0)], [(0, 0, "d")], to_move=0)
    assert evaluate(state) == WIN_NOW
    # The same for B to move: B's turn, A's cell boxed in on three sides.
    boxed = GAME.position([(0, 0), (2, 2)], [(0, 0, "d")], to_move=1)
    assert evaluate(boxed) == -WIN_NOW


def test_candidates_drop_self_trapping_moves_and_keep_order() -> None:
    for state in random_states(GAME, 400, seed=9):
        if state.is_terminal():
            continue
        moves = state.legal_moves()
        kept = candidates(state, moves)
        assert kept and set(kept) <= set(moves)
        assert list(kept) == [m for m in moves if m in set(kept)]
        walls = state._walls
        for move in kept:
            open_sides = ~walls >> (move & ~3) & 15
            if len(kept) < len(moves):
                assert open_sides != 1 << (move & 3), "a move that walls itself in was kept"


def test_candidates_are_the_winning_cuts_when_there_are_some() -> None:
    # B is in column 0, a corridor open only at the bottom; A stands at its mouth.
    walls = [(r, 0, "r") for r in range(5)]
    state = GAME.position([(5, 1), (0, 0)], walls, to_move=0)
    kept = candidates(state, state.legal_moves())
    assert GAME.parse_move("5,1,l") in kept and len(kept) < len(state.legal_moves())
    for move in kept:
        after = state.play(move)
        assert after.is_terminal() and after.winner() == 0


def test_greedy_with_the_heuristic_beats_random() -> None:
    settings = Settings(
        game="colosseum:size=8",
        agents=("greedy", "random"),
        control="rollouts=1",
        games_per_pair=20,
        seed=7,
    )
    records = run(settings).records
    points = sum((r.returns[r.players.index("greedy")] + 1) / 2 for r in records)
    assert points / 20 >= 0.85, points
