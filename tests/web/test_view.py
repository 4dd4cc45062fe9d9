"""Board views: what the browser draws agrees with the rules, for every game."""

from __future__ import annotations

import pytest

import arena
from arena.web.view import board_view, star_points
from helpers import GAME_SPECS, random_states


@pytest.mark.parametrize("spec", GAME_SPECS)
def test_every_legal_move_has_a_cell_and_a_click_names_it(spec: str) -> None:
    game = arena.load_game(spec)
    for state in random_states(game, 40, seed=3):
        view = board_view(state)
        legal = {game.format_move(m) for m in state.legal_moves()}
        assert set(view["cells"]) | ({view["pass"]} - {None}) == legal
        for text, (r, c) in view["cells"].items():
            assert 0 <= r < view["rows"] and 0 <= c < view["cols"]
            if view["kind"] in ("grid", "go"):  # the browser names a cell by its labels
                assert view["colLabels"][c] + view["rowLabels"][r] == text
            elif view["kind"] == "columns":
                assert view["colLabels"][c] == text
        occupied = {(r, c) for r, c, _ in view["stones"]}
        if view["kind"] != "colosseum":
            assert not occupied & {tuple(cell) for cell in view["cells"].values()}
        assert view["toMove"] == state.to_move and view["terminal"] == state.is_terminal()


@pytest.mark.parametrize("spec", GAME_SPECS)
def test_stones_match_the_position(spec: str) -> None:
    game = arena.load_game(spec)
    for state in random_states(game, 30, seed=5):
        view = board_view(state)
        counts = [sum(1 for *_, who in view["stones"] if who == p) for p in (0, 1)]
        if game.name == "othello":
            assert counts == view["counts"] == list(state.discs())
        elif game.name == "go":
            assert counts == [state.black.bit_count(), state.white.bit_count()]
        elif game.name == "colosseum":
            assert [tuple(s[:2]) for s in view["stones"]] == list(state.positions)
        else:
            assert counts == [bits.bit_count() for bits in state.bits]


def test_connect_four_stones_fall_to_the_bottom() -> None:
    game = arena.load_game("connect4")
    view = board_view(game.play_moves(game.parse_moves("4455")), last=game.parse_move("5"))
    assert sorted(view["stones"]) == [[4, 3, 1], [4, 4, 1], [5, 3, 0], [5, 4, 0]]
    assert view["cells"]["4"] == [3, 3] and view["cells"]["1"] == [5, 0]
    assert view["last"] == [4, 4]


def test_colosseum_walls_sides_and_reach() -> None:
    game = arena.load_game("colosseum:size=6")
    state = game.initial_state(4)
    view = board_view(state)
    assert len(view["walls"]) >= 4 * 6  # the border at least
    assert all(state.has_wall(r, c, side) for r, c, side in view["walls"])
    moves = {game.format_move(m) for m in state.legal_moves()}
    assert {f"{cell},{side}" for cell, sides in view["sides"].items() for side in sides} == moves


def test_star_points() -> None:
    assert star_points(19)[:4] == [[3, 3], [3, 15], [15, 3], [15, 15]]
    assert [9, 9] in star_points(19) and len(star_points(13)) == 9
    assert star_points(6) == [] and len(star_points(8)) == 4
    gomoku = board_view(arena.load_game("gomoku").initial_state())
    assert gomoku["kind"] == "go" and len(gomoku["stars"]) == 5


@pytest.mark.parametrize(
    ("spec", "moves", "line"),
    [
        ("tictactoe", "a1 b1 b2 c1 c3", [[0, 0], [1, 1], [2, 2]]),  # the diagonal
        ("connect4", "4455667", [[5, 3], [5, 4], [5, 5], [5, 6]]),  # the bottom row
        ("gomoku:overline=win", "H8 H9 J8 J9 K8 K9 L8 L9 G8", None),
    ],
)
def test_the_winning_line_is_marked(spec: str, moves: str, line: list | None) -> None:
    game = arena.load_game(spec)
    state = game.play_moves(game.parse_moves(moves))
    view = board_view(state)
    assert view["terminal"]
    win = view["win"]
    if line is not None:
        assert win == line
    else:  # five in a row on Gomoku's row 8
        assert len(win) == 5 and len({r for r, _ in win}) == 1
    assert all(any(s[:2] == cell for s in view["stones"]) for cell in win)
    assert "win" not in board_view(game.play_moves(game.parse_moves(moves)[:-1]))


def test_a_draw_marks_no_line() -> None:
    game = arena.load_game("tictactoe")
    view = board_view(game.play_moves(game.parse_moves("a1 b2 c3 b1 b3 a3 c1 c2 a2")))
    assert view["terminal"] and "win" not in view
