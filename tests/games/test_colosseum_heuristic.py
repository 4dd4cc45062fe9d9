"""The Colosseum heuristic: bounds, symmetry, hand-built positions, the win check and the
rollout candidates against brute force over the real rules, and seeded strength."""

from __future__ import annotations

import random

import pytest

import arena
from arena.compete.tournament import Settings, run
from arena.core.evaluation import SCALE
from arena.games.colosseum.heuristic import candidates, evaluate, may_cut_sides
from arena.games.colosseum.rules import ColosseumState
from arena.games.kinarow.lines import STATIC, WIN_NOW
from helpers import random_states

GAME = arena.load_game("colosseum:size=6")
# The last spec draws sizes 6..12 inside a move stride of 12: off-board columns exist.
SPECS = ["colosseum:size=6", "colosseum:size=9", "colosseum"]


def live_states(spec: str, count: int, seed: int) -> list[ColosseumState]:
    states = random_states(arena.load_game(spec), count, seed=seed)
    return [s for s in states if not s.is_terminal()]  # type: ignore[misc]


def for_a(value: float, state: ColosseumState) -> float:
    """A value for the player to move turned into one for A (or back)."""
    return value if state.to_move == 0 else -value


# --- brute force over the rules ------------------------------------------------------------


def ends_as(state: ColosseumState, move: int) -> int | None:
    """None when ``move`` leaves the game going, else its result for the mover (+1, 0, -1)."""
    child = state.play(move)
    return child.returns()[state.to_move] if child.is_terminal() else None


def shut_in_next(state: ColosseumState, move: int) -> bool:
    """Whether after ``move`` the opponent has a reply that leaves the mover one cell."""
    child = state.play(move)
    mover = state.to_move
    for reply in child.legal_moves():
        after = child.play(reply)
        if after.is_terminal() and after.regions[mover] == 1:  # type: ignore[index]
            return True
    return False


# --- evaluate ------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", SPECS)
def test_values_are_bounded_and_finished_games_score_their_result(spec: str) -> None:
    for state in random_states(arena.load_game(spec), 300, seed=4):
        value = evaluate(state)  # type: ignore[arg-type]
        assert -SCALE <= value <= SCALE
        if state.is_terminal():
            assert value == SCALE * state.returns()[0]
        else:
            assert abs(value) < STATIC or abs(value) == WIN_NOW


@pytest.mark.parametrize("spec", SPECS)
def test_the_verdict_is_exactly_a_win_in_one(spec: str) -> None:
    seen = 0
    for state in live_states(spec, 250, seed=5):
        can_win = any(ends_as(state, m) == 1 for m in state.legal_moves())
        value = for_a(evaluate(state), state)
        assert (value == WIN_NOW) == can_win, state.render()
        assert value == WIN_NOW or abs(value) < STATIC
        seen += can_win
    assert seen >= 10  # the sample holds enough wins to test the check


@pytest.mark.parametrize("spec", SPECS)
def test_may_cut_sides_is_the_games_corner_test_for_every_free_side(spec: str) -> None:
    for state in live_states(spec, 150, seed=6):
        board = state.board()
        risky = may_cut_sides(board, state.walls)
        for bit in range(4 * state.game.stride**2):  # type: ignore[attr-defined]
            if board.on_board(bit >> 2) and not state.walls >> bit & 1:
                walled = state.walls | board.wall(bit)
                assert bool(risky >> bit & 1) == board.may_cut(walled, bit)


def test_swapping_the_players_negates_the_value() -> None:
    rng = random.Random(2)
    checked = 0
    for _ in range(80):
        a, b = (rng.randrange(6), rng.randrange(6)), (rng.randrange(6), rng.randrange(6))
        walls = [(rng.randrange(6), rng.randrange(6), rng.choice("urdl")) for _ in range(8)]
        if a == b:
            continue
        state = GAME.position([a, b], walls, to_move=0)
        swapped = GAME.position([b, a], walls, to_move=1)
        if state.is_terminal():
            continue
        assert evaluate(state) == pytest.approx(-evaluate(swapped))  # type: ignore[arg-type]
        checked += 1
    assert checked >= 50


def test_more_room_is_better() -> None:
    # A wall down between columns 1 and 2, open in the bottom row only (out of both
    # players' walk): the side with four columns beats the side with two.
    walls = [(r, 1, "r") for r in range(5)]
    state = GAME.position([(2, 4), (2, 0)], walls, to_move=0)
    assert 0 < evaluate(state) < STATIC  # type: ignore[arg-type]
    swapped = GAME.position([(2, 0), (2, 4)], walls, to_move=0)
    assert -STATIC < evaluate(swapped) < 0  # type: ignore[arg-type]


def test_walling_the_opponent_in_is_seen_as_won() -> None:
    # B at 0,0 with only its right side open; A walks to 0,1 and closes it.
    state = GAME.position([(2, 2), (0, 0)], [(0, 0, "d")], to_move=0)
    assert evaluate(state) == WIN_NOW  # type: ignore[arg-type]
    # B to move, A boxed the same way: a win for B.
    boxed = GAME.position([(0, 0), (2, 2)], [(0, 0, "d")], to_move=1)
    assert evaluate(boxed) == -WIN_NOW  # type: ignore[arg-type]
    # Out of A's walk (K = 3 steps) it is not a verdict.
    far = GAME.position([(5, 5), (0, 0)], [(0, 0, "d")], to_move=0)
    assert abs(evaluate(far)) < STATIC  # type: ignore[arg-type]


def test_a_winning_cut_away_from_the_opponent_is_seen() -> None:
    # B is in column 0, a corridor open only at the bottom; A closes its mouth from 5,1.
    walls = [(r, 0, "r") for r in range(5)]
    state = GAME.position([(5, 1), (0, 0)], walls, to_move=0)
    assert evaluate(state) == WIN_NOW  # type: ignore[arg-type]


def test_the_nook_penalty_falls_on_the_player_who_just_moved() -> None:
    # B sits in a corner with one open side, out of A's walk. Voronoi and mobility do
    # not depend on the side to move, so only the nook term tells the two apart: it
    # counts against B when A is to move (B just moved there) and not when B moves.
    cells, walls = [(5, 5), (0, 0)], [(0, 0, "r")]
    a_moves = GAME.position(cells, walls, to_move=0)
    b_moves = GAME.position(cells, walls, to_move=1)
    assert abs(evaluate(a_moves)) < STATIC and abs(evaluate(b_moves)) < STATIC  # type: ignore[arg-type]
    assert evaluate(a_moves) > evaluate(b_moves)  # type: ignore[arg-type]


# --- candidates ----------------------------------------------------------------------------


@pytest.mark.parametrize("spec", SPECS)
def test_candidates_are_the_wins_else_the_moves_that_neither_lose_nor_get_shut_in(
    spec: str,
) -> None:
    dropped = 0
    for state in live_states(spec, 60, seed=7):
        moves = state.legal_moves()
        kept = candidates(state, moves)
        wins = [m for m in moves if ends_as(state, m) == 1]
        safe = [
            m
            for m in moves
            if ends_as(state, m) == 0 or (ends_as(state, m) is None and not shut_in_next(state, m))
        ]
        assert kept == tuple(wins or safe or moves), state.render()
        dropped += len(moves) - len(kept)
    assert dropped > 0


def test_candidates_are_the_winning_cuts_when_there_are_some() -> None:
    walls = [(r, 0, "r") for r in range(5)]
    state = GAME.position([(5, 1), (0, 0)], walls, to_move=0)
    kept = candidates(state, state.legal_moves())
    assert GAME.parse_move("5,1,l") in kept and len(kept) < len(state.legal_moves())
    for move in kept:
        assert ends_as(state, move) == 1


def test_candidates_fall_back_to_all_moves_when_every_move_is_bad() -> None:
    # B in the left column: walling itself, or stopping in a nook A can close (A walks 2).
    game = arena.load_game("colosseum:size=4")
    walls = ["0,0,d", "0,2,d", "1,0,r", "1,2,r", "2,0,r", "2,1,d", "2,2,r", "2,3,d", "3,2,r"]
    state = game.position([(3, 2), (1, 0)], walls, to_move=1)
    moves = state.legal_moves()
    assert len(moves) == 5
    assert all(ends_as(state, m) == -1 or shut_in_next(state, m) for m in moves)
    assert candidates(state, moves) == moves  # type: ignore[arg-type]
    assert candidates(state, ()) == ()  # type: ignore[arg-type]


def test_candidates_keep_the_order_of_the_moves_given() -> None:
    state = live_states("colosseum:size=8", 40, seed=8)[-1]
    moves = tuple(reversed(state.legal_moves()))
    kept = candidates(state, moves)
    assert kept == tuple(m for m in moves if m in set(kept))


# --- strength (seeded, through the arena; colours alternate and boards vary) ---------------


def points(spec: str, a: str, b: str, games: int, seed: int = 1) -> float:
    """A's share of the points over ``games`` seeded games."""
    settings = Settings(
        game=spec, agents=(a, b), control="move:60", games_per_pair=games, seed=seed
    )
    records = run(settings).records
    assert len(records) == games
    return sum((r.returns[r.players.index(a)] + 1) / 2 for r in records) / games


def test_greedy_with_the_heuristic_beats_random() -> None:
    score = points("colosseum:size=8", "greedy", "random", 20)
    assert score >= 0.85, score  # measured 1.0


@pytest.mark.slow
def test_greedy_with_the_heuristic_beats_greedy_on_the_voronoi_score() -> None:
    # The plain score is already the Voronoi count: this isolates what the rest adds.
    score = points("colosseum:size=6", "greedy", "greedy:eval=utility", 200)
    assert score > 0.5, score  # measured 0.5975 (0.60-0.63 with other seeds; 0.595 on 8x8)


@pytest.mark.slow
def test_alphabeta_depth_2_with_the_heuristic_beats_greedy_on_the_voronoi_score() -> None:
    # Against alphabeta:depth=2,eval=utility the heuristic measures even (0.48-0.6): two
    # plies see what its extra terms add, so the bar here is the one-ply Voronoi player.
    score = points(
        "colosseum:size=7", "alphabeta:depth=2,eval=heuristic", "greedy:eval=utility", 20
    )
    assert score >= 0.6, score  # measured 0.85 (0.65 and 0.95 with seeds 2 and 3)


@pytest.mark.slow
def test_mcts_rollouts_on_the_candidates_beat_random_rollouts() -> None:
    score = points(
        "colosseum:size=6",
        "mcts:rollouts=100,rollout=heuristic",
        "mcts:rollouts=100,rollout=random",
        20,
    )
    assert score >= 0.5, score  # measured 0.75 (0.8 with seeds 2 and 3; 0.85 on 8x8)
