"""The game API contract, checked on every game."""

from __future__ import annotations

import random

import pytest

import arena
from arena.core.errors import ArenaError, IllegalMove, MoveSyntaxError, SpecError
from arena.games import NAMES, all_games
from helpers import GAME_SPECS, chi2_limit, first_move_chi2, random_states


@pytest.fixture(params=GAME_SPECS)
def game(request: pytest.FixtureRequest) -> arena.Game:
    return arena.load_game(request.param)


def test_registry_lists_six_games() -> None:
    assert NAMES == ("tictactoe", "connect4", "othello", "gomoku", "go", "colosseum")
    for name, cls in all_games().items():
        assert cls.name == name and cls.summary and cls.params


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("chess", "unknown game 'chess'; valid: tictactoe, connect4"),
        ("connect4:rows=2", "rows=2 is out of range (4..20)"),
        ("connect4:depth=3", "unknown parameter 'depth'; valid: rows=6 (int, 4..20)"),
        ("connect4:rows=six", "rows=six is not an int"),
        ("connect4:rows", "malformed parameter 'rows': expected key=value"),
        ("connect4:rows=5,rows=6", "parameter rows given twice"),
        ("gomoku:overline=maybe", "overline=maybe is not one of win|nowin"),
        ("tictactoe:k=5", "k=5 cannot fit on a 3x3 board"),
        ("othello:size=7", "othello"),
        ("go:size=21", "go"),
        ("", "empty spec"),
    ],
)
def test_bad_specs_name_what_is_valid(spec: str, message: str) -> None:
    with pytest.raises(SpecError, match=None) as info:
        arena.load_game(spec)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_spec_round_trip(game: arena.Game) -> None:
    again = arena.load_game(game.spec)
    assert again == game and hash(again) == hash(game)
    assert again.initial_state(3) == game.initial_state(3)


def test_states_are_immutable(game: arena.Game) -> None:
    state = game.initial_state(1)
    with pytest.raises(AttributeError):
        state.to_move = 1  # type: ignore[misc]
    with pytest.raises(AttributeError):
        state.ply = 5  # type: ignore[misc]
    with pytest.raises(AttributeError):
        state.anything = 1  # type: ignore[attr-defined]
    before = (state.render(), state.legal_moves(), state.key(), state.ply)
    after = state.play(state.legal_moves()[0])
    assert after is not state and after != state
    assert (state.render(), state.legal_moves(), state.key(), state.ply) == before
    assert after.ply == 1


def test_random_positions_are_consistent(game: arena.Game) -> None:
    states = random_states(game, 1500, seed=11)
    keys: dict[int, arena.State] = {}
    for state in states:
        moves = state.legal_moves()
        assert isinstance(moves, tuple)
        assert moves == state.legal_moves(), "legal_moves must be deterministic"
        assert len(set(moves)) == len(moves)
        r0, r1 = state.returns()
        assert r0 + r1 == 0 and r0 in (-1, 0, 1)
        if state.is_terminal():
            assert moves == ()
        else:
            assert moves and (r0, r1) == (0, 0)
            assert state.to_move in (0, 1)
        assert 0 <= state.key() < 1 << 64
        other = keys.setdefault(state.key(), state)
        assert other == state, f"key collision at ply {state.ply}"


def test_notation_round_trips(game: arena.Game) -> None:
    for state in random_states(game, 300, seed=5):
        for move in state.legal_moves():
            text = game.format_move(move)
            assert game.parse_move(text) == move
            assert game.parse_move(text.upper()) == move
            assert game.parse_move(f" {text.lower()} ") == move


@pytest.mark.parametrize("text", ["", "zz", "!", "99999", "a0", "pass pass", "1,2,q"])
def test_garbage_is_not_a_move(game: arena.Game, text: str) -> None:
    with pytest.raises(MoveSyntaxError) as info:
        game.parse_move(text)
    assert str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize("move", [-1, 10**6, "3", None, 2.5])
def test_moves_outside_the_move_space_are_illegal(game: arena.Game, move: object) -> None:
    state = game.initial_state()
    with pytest.raises(IllegalMove) as info:
        state.play(move)  # type: ignore[arg-type]
    assert isinstance(info.value, ArenaError) and info.value.reason


def test_moves_after_the_end_are_illegal(game: arena.Game) -> None:
    state = game.initial_state(2)
    rng = random.Random(2)
    moves_seen = set()
    while not state.is_terminal():
        move = rng.choice(state.legal_moves())
        moves_seen.add(move)
        state = state.play(move)
    for move in sorted(moves_seen)[:5]:
        with pytest.raises(IllegalMove):
            state.play(move)


def test_fast_playout_replays_through_the_rules(game: arena.Game) -> None:
    for seed in range(120):
        rng = random.Random(seed)
        start = random_states(game, 1 + seed % 7, seed=seed)[-1]
        moves: list[int] = []
        returns = game.playout(start, rng, moves)
        state = start
        for move in moves:
            assert move in state.legal_moves(), f"seed {seed}: playout played an illegal move"
            state = state.play(move)
        assert state.is_terminal(), f"seed {seed}: playout stopped before the end"
        assert returns == state.returns()
        assert arena.random_playout(start, random.Random(seed)) == returns


def test_fast_playout_is_uniform_over_legal_moves(game: arena.Game) -> None:
    """The first move of the fast playout follows the uniform law (chi-squared, p > 0.001)."""
    state = random_states(game, 4, seed=1)[-1]
    if state.is_terminal():
        state = game.initial_state(1)
    legal = state.legal_moves()
    if len(legal) < 2:
        pytest.skip("one legal move")
    chi2, df = first_move_chi2(game, state, 60, seed=0)
    limit = chi2_limit(df)
    assert chi2 < limit, f"chi2={chi2:.1f} > {limit:.1f} (df={df})"


def test_render_has_coordinates(game: arena.Game) -> None:
    text = game.initial_state(4).render()
    assert len(text.splitlines()) >= 3
    assert repr(game.initial_state(4)).startswith("<")


@pytest.mark.parametrize(
    ("spec", "line1", "line2"),
    [
        ("tictactoe", "a1 b1 c1 b2", "c1 b2 a1 b1"),
        ("connect4", "1 2 3 4", "3 4 1 2"),
        ("gomoku", "A1 B1 C1 D1", "C1 D1 A1 B1"),
        ("othello", "d3 c3 c4 c5", "c4 c3 d3 c5"),
        ("go:size=5", "a1 b1 c1 d1", "c1 d1 a1 b1"),
    ],
)
def test_transpositions_are_equal_with_equal_keys(spec: str, line1: str, line2: str) -> None:
    game = arena.load_game(spec)
    a, b = game.play_moves(game.parse_moves(line1)), game.play_moves(game.parse_moves(line2))
    assert a == b and a.key() == b.key() and hash(a) == hash(b) and len({a, b}) == 1


def test_result_text_names_the_winner() -> None:
    game = arena.load_game("tictactoe")
    state = game.play_moves(game.parse_moves("a1 b1 a2 b2 a3"))
    assert state.result_text() == "X wins" and state.winner() == 0
    assert game.initial_state().result_text() == "X to move"


@pytest.mark.parametrize("spec", GAME_SPECS)
@pytest.mark.parametrize("text", ["²", "a²", "b١", "٣", "-1", "", "4 4"])
def test_non_ascii_digits_and_junk_are_move_syntax_errors(spec: str, text: str) -> None:
    # Found by fuzzing the cmd: protocol: str.isdigit() admits '²', which int() rejects.
    with pytest.raises(MoveSyntaxError):
        arena.load_game(spec).parse_move(text)
