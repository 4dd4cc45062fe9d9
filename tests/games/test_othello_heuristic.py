"""The Othello heuristic: bounds, symmetry, sound stability, sign sanity and strength."""

from __future__ import annotations

import math
import random

import pytest

import arena
from arena.core.evaluation import SCALE
from arena.core.game import Game, State
from arena.games import knowledge
from arena.games.othello import heuristic as h
from arena.games.othello.rules import Othello, OthelloState
from helpers import random_states

SPECS = [
    "othello:size=4",
    "othello:size=6",
    "othello",
    "othello:size=10",
    "othello:size=16",
    "othello:size=6,rule=nomove-ends",
    "othello:size=8,rule=nomove-ends",
]


def othello(spec: str) -> Othello:
    game = arena.load_game(spec)
    assert isinstance(game, Othello)
    return game


def swapped(state: OthelloState) -> OthelloState:
    """The same position with the colours of all discs and the side to move swapped."""
    return OthelloState._make(
        state.game, state.white, state.black, 1 - state.to_move, state.ply, -1
    )


def live(spec: str, count: int, seed: int = 1) -> list[OthelloState]:
    states = random_states(othello(spec), count, seed)
    return [s for s in states if isinstance(s, OthelloState) and not s.is_terminal()]


# --- bounds and symmetry ----------------------------------------------------------


@pytest.mark.parametrize("spec", SPECS)
def test_values_are_finite_bounded_and_deterministic(spec: str) -> None:
    states = live(spec, 300)
    values = [h.evaluate(s) for s in states]
    assert all(math.isfinite(v) and -SCALE <= v <= SCALE for v in values)
    assert values == [h.evaluate(s) for s in states]
    assert len({round(v, 6) for v in values}) > len(values) // 4  # it does tell positions apart


@pytest.mark.parametrize("spec", SPECS)
def test_swapping_colours_and_mover_negates(spec: str) -> None:
    for state in live(spec, 200, seed=2):
        assert h.evaluate(swapped(state)) == pytest.approx(-h.evaluate(state), abs=1e-9)


@pytest.mark.parametrize("spec", SPECS)
def test_start_is_even_and_knowledge_finds_the_module(spec: str) -> None:
    game = othello(spec)
    assert h.evaluate(game.initial_state()) == 0.0
    assert knowledge(game).evaluate is h.evaluate


def test_terminal_positions_get_their_result() -> None:
    game = othello("othello:size=4")
    wiped = game.state_from_discs("a1 b1", "", to_move=1)  # White has no disc left
    assert wiped.is_terminal()
    assert h.evaluate(wiped) == SCALE


# --- stability -----------------------------------------------------------------------


def stable_cells(game: Othello, bits: int) -> list[str]:
    b = h._board(game.size)
    return sorted(game.format_move(c) for c in range(game.PASS) if h._stable(b, bits) >> c & 1)


def test_stable_discs_grow_from_corners_along_edges() -> None:
    game = othello("othello:size=6")
    s = game.state_from_discs("a1 b1 c1 e1 f1 a2 b2 a3", "d1 c2")
    assert stable_cells(game, s.black) == ["a1", "a2", "a3", "b1", "b2", "c1", "e1", "f1"]
    assert stable_cells(game, s.white) == []  # d1 sits between Black's runs but no corner
    # Without the corner nothing is anchored.
    t = game.state_from_discs("b1 c1 a2 b2 a3", "d1")
    assert stable_cells(game, t.black) == []


@pytest.mark.parametrize("spec", ["othello:size=6", "othello", "othello:size=6,rule=nomove-ends"])
def test_stable_discs_are_never_flipped(spec: str) -> None:
    """The estimate must be sound: follow random continuations to the end."""
    game = othello(spec)
    b = h._board(game.size)
    rng = random.Random(5)
    checked = 0
    for state in live(spec, 400, seed=3)[::3]:
        stable = (h._stable(b, state.black), h._stable(b, state.white))
        checked += stable[0].bit_count() + stable[1].bit_count()
        for _ in range(3):
            s: State = state
            while not s.is_terminal():
                s = s.play(rng.choice(s.legal_moves()))
                assert isinstance(s, OthelloState)
                assert s.black & stable[0] == stable[0], s.render()
                assert s.white & stable[1] == stable[1], s.render()
    assert checked > 200  # enough stable discs were tested


# --- sign sanity on hand-built positions ------------------------------------------


def best_by_heuristic(state: OthelloState) -> str:
    """The move whose resulting position the heuristic likes best for the mover."""
    sign = 1 if state.to_move == 0 else -1
    move = max(state.legal_moves(), key=lambda m: sign * h.evaluate(state.play(m)))
    return state.game.format_move(move)


def test_takes_a_corner() -> None:
    game = othello("othello:size=6")
    # Black: c3 d4; White: b2 c4 d3. Black can take a1 through b2.
    s = game.state_from_discs("c3 d4", "b2 c4 d3")
    assert "a1" in [game.format_move(m) for m in s.legal_moves()]
    assert best_by_heuristic(s) == "a1"
    # The same for White, with colours swapped.
    assert best_by_heuristic(swapped(s)) == "a1"


def test_avoids_an_x_square_next_to_an_empty_corner() -> None:
    game = othello("othello:size=6")
    # Black's b2 would flip c3, but hands a1 to White; there are quieter moves.
    s = game.state_from_discs("d4 d3", "c3 c4 e3")
    moves = [game.format_move(m) for m in s.legal_moves()]
    assert "b2" in moves and len(moves) > 2
    assert best_by_heuristic(s) != "b2"
    after = s.play(game.parse_move("b2"))
    assert h.evaluate(after) < max(h.evaluate(s.play(m)) for m in s.legal_moves())


def test_all_corners_and_a_lead_late_is_winning() -> None:
    game = othello("othello:size=6")
    black = "a1 b1 c1 d1 e1 f1 a2 b2 c2 d2 a3 b3 c3 a6 f6 a4 b4 f2 f3 f4"
    white = "e2 e3 d3 c4 d4 e4 b5 c5 d5 e5"
    for mover in (0, 1):
        assert h.evaluate(game.state_from_discs(black, white, to_move=mover)) > 300


def test_mobility_counts_more_than_discs_early() -> None:
    game = othello("othello:size=6")
    # Black's lone d4 is walled in by seven White discs: Black can outflank
    # them in seven places, White has one placement (e5). Fewer discs, better off.
    for mover in (0, 1):
        s = game.state_from_discs("d4", "c3 d3 e3 c4 e4 c5 d5", to_move=mover)
        black = game.placements(s.black, s.white).bit_count()
        white = game.placements(s.white, s.black).bit_count()
        assert black > 3 * white
        assert h.evaluate(s) > 0


# --- candidates ------------------------------------------------------------------------


def test_candidates_prefer_corners_and_shun_x_and_c_squares() -> None:
    game = othello("othello:size=6")
    s = game.state_from_discs("c3 d4", "b2 c4 d3")
    assert [game.format_move(m) for m in h.candidates(s, s.legal_moves())] == ["a1"]
    t = game.state_from_discs("d4 d3", "c3 c4 e3")
    picked = [game.format_move(m) for m in h.candidates(t, t.legal_moves())]
    assert picked and "b2" not in picked
    assert set(h.candidates(t, (game.parse_move("b2"),))) == {game.parse_move("b2")}


@pytest.mark.parametrize("spec", SPECS)
def test_candidates_are_a_non_empty_subset(spec: str) -> None:
    for state in live(spec, 150, seed=4):
        moves = state.legal_moves()
        picked = h.candidates(state, moves)
        assert picked and set(picked) <= set(moves)


# --- strength with the real agents ---------------------------------------------------


def duel(spec: str, a: str, b: str, games: int, opening: int = 0) -> float:
    """Points of agent A over seeded games, colours alternated; each pair of games
    starts from the same ``opening`` random plies (alpha-beta is deterministic)."""
    game: Game = arena.load_game(spec)
    points = 0.0
    for g in range(games):
        a_first = g % 2 == 0
        agents = [
            arena.load_agent(a.format(seed=1000 + g)),
            arena.load_agent(b.format(seed=2000 + g)),
        ]
        if not a_first:
            agents.reverse()
        rng = random.Random(g // 2)
        state = game.initial_state()
        for _ in range(opening):
            state = state.play(rng.choice(state.legal_moves()))
        while not state.is_terminal():
            state = state.play(agents[state.to_move].choose(state, arena.Limit()))
        points += (state.returns()[0 if a_first else 1] + 1) / 2
    return points


@pytest.mark.parametrize("rule", ["standard", "nomove-ends"])
def test_greedy_beats_random(rule: str) -> None:
    # Measured 98/100 (standard) and 96.5/100 (nomove-ends) over the first 100 seeds.
    points = duel(f"othello:size=6,rule={rule}", "greedy:seed={seed}", "random:seed={seed}", 40)
    assert points >= 34, points


def test_heuristic_beats_disc_count_at_depth_2() -> None:
    # Measured 37/40 from 6-ply random openings.
    points = duel(
        "othello:size=6",
        "alphabeta:depth=2,eval=heuristic",
        "alphabeta:depth=2,eval=utility",
        40,
        opening=6,
    )
    assert points >= 30, points


def test_heuristic_beats_disc_count_at_depth_2_under_nomove_ends() -> None:
    # Measured 87/100 from 6-ply random openings (33/40 for the first 40).
    points = duel(
        "othello:size=6,rule=nomove-ends",
        "alphabeta:depth=2,eval=heuristic",
        "alphabeta:depth=2,eval=utility",
        40,
        opening=6,
    )
    assert points >= 26, points


def test_heuristic_beats_disc_count_on_8x8() -> None:
    # Measured 20/20 at depth 2 from 6-ply random openings.
    points = duel(
        "othello", "alphabeta:depth=2,eval=heuristic", "alphabeta:depth=2,eval=utility", 20, 6
    )
    assert points >= 15, points
