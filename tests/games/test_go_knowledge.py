"""Go's compiled knowledge against the rules: the tactical rollout (``tactics``) plays legal
games, captures a string the last move left in atari, saves an own string put in atari,
never fills an own eye nor puts two stones or more in atari; ``prior`` scores those
moves; ``trace`` lists a rollout's points as played."""

from __future__ import annotations

import random

import numpy as np
import pytest
from test_go_kernel import own_eye, replay

import arena
from arena.games.go import kernel as gk
from arena.games.go.rules import GoState


def first_moves(spec: str, moves: str, function: str, runs: int) -> tuple[GoState, list[int]]:
    """The first move of ``runs`` simulations of ``function`` from the position after ``moves``."""
    game = arena.load_game(spec)
    state = game.play_moves(game.parse_moves(moves))
    k = gk.kernel(game)
    k.functions["seed"](5)
    firsts = []
    for _ in range(runs):
        s = k.encode(state)
        k.functions[function](k.params, s)
        firsts.append(gk.moves_played(k, s, state.ply)[0])
    return state, firsts


def self_atari(state: GoState, move: int) -> bool:
    """Whether ``move`` leaves two stones or more with one liberty, capturing nothing."""
    game = state.game
    after = state.play(move)
    mine, theirs = (after.black, after.white) if state.to_move == 0 else (after.white, after.black)
    before = state.white if state.to_move == 0 else state.black
    group = game.flood(1 << move, mine)
    libs = game.adjacent(group) & ~(after.black | after.white)
    return theirs == before and libs.bit_count() == 1 and group.bit_count() >= 2


@pytest.mark.parametrize(("spec", "runs"), [("go:size=5", 40), ("go:size=9", 6)])
def test_tactics_plays_legal_games_without_eye_fills_or_big_self_ataris(
    spec: str, runs: int
) -> None:
    game = arena.load_game(spec)
    k = gk.kernel(game)
    k.functions["seed"](runs)
    rng = random.Random(runs)
    starts = []
    for run in range(runs):
        start = game.initial_state()
        for _ in range(run % 6):
            start = start.play(rng.choice(start.legal_moves()))
        starts.append(start)
    assert clean_tactics_moves(k, starts) > 10 * runs


def clean_tactics_moves(k: object, starts: list[GoState]) -> int:
    """Play the tactical rollout of kernel ``k`` from each of ``starts``; check that its
    moves are legal and fill no own eye and put no two stones in atari; return how many
    stones it placed."""
    checked = 0
    for start in starts:
        state = start
        for move in replay(k, start, "tactics"):  # type: ignore[arg-type]
            if move != state.game.pass_move:
                assert not own_eye(state, move), f"ply {state.ply}\n{state.render()}"
                assert not self_atari(state, move), f"ply {state.ply}\n{state.render()}"
                checked += 1
            state = state.play(move)
    return checked


def test_tactics_captures_the_string_the_last_move_left_in_atari() -> None:
    # White's last stone (c3) has one liberty, c2: the cheap rollout takes it now and then,
    # the tactical one always.
    moves = "c4 pass b3 pass d3 c3"
    state, firsts = first_moves("go:size=5", moves, "tactics", 40)
    c2 = state.game.parse_move("c2")
    assert firsts == [c2] * 40
    _, cheap = first_moves("go:size=5", moves, "rollout", 40)
    assert cheap.count(c2) < 20


def test_tactics_saves_an_own_string_put_in_atari() -> None:
    # Black's c3 has one liberty left after White's c4: extending to c2 gives it three.
    state, firsts = first_moves("go:size=5", "c3 b3 pass d3 pass c4", "tactics", 40)
    assert firsts == [state.game.parse_move("c2")] * 40


def test_tactics_prefers_the_capture_that_saves() -> None:
    # White's c4 leaves Black's c3 in atari (liberty c2); White's b3 is in atari itself
    # (liberty b2): capturing it or extending are the two saving moves, nothing else.
    state, firsts = first_moves("go:size=5", "c3 b3 a3 d3 b4 c4", "tactics", 60)
    game = state.game
    saving = {game.parse_move(m) for m in ("b2", "c2")}
    assert set(firsts) <= saving and len(set(firsts)) == 2


def test_prior_scores_captures_escapes_self_ataris_and_eyes() -> None:
    game = arena.load_game("go:size=5")
    k = gk.kernel(game)
    out = np.zeros(k.max_moves, np.int64)

    def scores(moves: str) -> dict[str, int]:
        s = k.encode(game.play_moves(game.parse_moves(moves)))
        assert k.functions["prior"](k.params, s, out) == 1
        return {game.format_move(m).lower(): int(out[m]) for m in range(game.points + 1)}

    capture = scores("c4 pass b3 pass d3 c3")
    assert capture["c2"] >= gk.PRIOR_CAPTURE and capture["pass"] == gk.PRIOR_PASS
    assert capture["a1"] == gk.PRIOR_FIRST_LINE  # early, on the edge
    escape = scores("c3 b3 pass d3 pass c4")
    assert escape["c2"] == gk.PRIOR_SAVE
    eye = scores("b1 e5 a2 e4 b2 d5")  # Black to move: a1 is Black's own eye
    assert eye["a1"] == gk.PRIOR_EYE


def test_trace_lists_the_points_of_a_rollout() -> None:
    game = arena.load_game("go:size=5")
    k = gk.kernel(game)
    k.functions["seed"](3)
    start = game.play_moves(game.parse_moves("c3 b2"))
    begin = k.encode(start)
    s = begin.copy()
    k.functions["tactics"](k.params, s)
    out = np.zeros(k.max_plies + k.max_moves, np.int64)
    n = k.functions["trace"](k.params, begin, s, out)
    played = gk.moves_played(k, s, start.ply)
    expected = [m * 2 + (start.ply + i) % 2 for i, m in enumerate(played) if m != game.pass_move]
    assert n == len(expected) > 5 and out[:n].tolist() == expected


def test_gomoku_trace_lists_the_stones_placed() -> None:
    game = arena.load_game("gomoku")
    k = arena.games.load_kernel(game)
    assert k is not None
    start = game.play_moves(game.parse_moves("h8 h9"))
    begin = k.encode(start)
    s = begin.copy()
    k.functions["seed"](1)
    k.functions["rollout"](k.params, s)
    out = np.zeros(k.max_plies + k.max_moves, np.int64)
    n = k.functions["trace"](k.params, begin, s, out)
    traced = {int(v) >> 1: int(v) & 1 for v in out[:n]}
    assert len(traced) == n > 5 and not traced.keys() & set(start.game.parse_moves("h8 h9"))
    assert abs(sum(traced.values()) * 2 - n) <= 1  # the players alternate


def test_tactics_answers_a_contact_move_with_a_shape_next_to_it() -> None:
    # White's d4 touches Black's c4 (no atari anywhere): the replies are MoGo shapes among the
    # eight neighbours of d4 (a hane at d5 or d3...), never elsewhere.
    state, firsts = first_moves("go:size=7", "c4 d4", "tactics", 60)
    game = state.game
    near = {game.parse_move(m) for m in ("c5", "d5", "e5", "c3", "d3", "e3", "e4")}
    assert set(firsts) <= near and len(set(firsts)) >= 2, sorted(set(firsts))
    _, cheap = first_moves("go:size=7", "c4 d4", "rollout", 60)
    assert not set(cheap) <= near
