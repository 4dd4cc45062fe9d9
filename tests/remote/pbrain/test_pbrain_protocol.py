"""The protocol's text: points, replies, rules and BOARD positions, both ways."""

from __future__ import annotations

import random

import pytest

from arena.games import load_game
from arena.remote.pbrain.protocol import (
    PbrainError,
    board_lines,
    from_xy,
    overline_of_rule,
    parse_reply,
    rule_of,
    state_of_board,
    to_xy,
)


@pytest.mark.parametrize("size", [15, 20])
def test_every_point_round_trips_and_x_is_the_column(size: int) -> None:
    game = load_game(f"gomoku:size={size}")
    for move in range(size * size):
        x, y = (int(v) for v in to_xy(game, move).split(","))
        assert from_xy(game, f"{x},{y}") == move
        name = game.format_move(move)
        # The column letter (no I) follows x; the row counted from the bottom follows y.
        assert name[0] == "ABCDEFGHJKLMNOPQRSTUVWXYZ"[x] and int(name[1:]) == size - y


def test_replies() -> None:
    assert parse_reply("7,8\r").kind == "MOVE"
    assert parse_reply("debug x").kind == "DEBUG" and parse_reply("Suggest 1,1").kind == "SUGGEST"
    assert parse_reply("UNKNOWN what").text == "what"
    assert parse_reply("7,8,1").kind == "OTHER" and parse_reply("-1,3").kind == "OTHER"


def test_rules() -> None:
    assert rule_of(load_game("gomoku:overline=nowin")) == 1 and rule_of(load_game("gomoku")) == 0
    assert [overline_of_rule(r) for r in (0, 1, 2, 3)] == ["win", "nowin", "win", "nowin"]
    for rule in (4, 8, -1):
        with pytest.raises(PbrainError):
            overline_of_rule(rule)


def test_board_of_stones_alone_alternates_from_black_to_the_opponent() -> None:
    """A brain that takes the colours from the order (Rapfi: the first stone is black's,
    the side after the last one moves) must see the mover to play, either colour."""
    game = load_game("gomoku")
    for line in ("H8 A15 J8", "H8 A15 J8 A14", "H8", "H8 A15"):
        state = game.play_moves(game.parse_moves(line))
        lines = board_lines(state)
        cells = [game.parse_move(m) for m in line.split()]
        black = set(cells[0::2])
        fields = [int(f.rsplit(",", 1)[1]) for f in lines]
        assert fields == [1 + (i + len(fields)) % 2 for i in range(len(fields))]  # ends on 2
        size = game.config["size"]
        first_x, first_y = (int(v) for v in lines[0].split(",")[:2])
        assert first_y * size + first_x in black
    # Before the fix, black to move got its own stone last: Rapfi searched for white.
    assert board_lines(game.play_moves(game.parse_moves("H8 A15")))[-1] == "0,0,2"


def test_board_round_trips_positions() -> None:
    rng = random.Random(3)
    for size in (15, 20):
        game = load_game(f"gomoku:size={size}")
        for _ in range(30):
            state, moves = game.initial_state(), []
            for _ in range(rng.randrange(1, 40)):
                if state.is_terminal():
                    break
                move = rng.choice(state.legal_moves())
                moves.append(move)
                state = state.play(move)
            if state.is_terminal():
                continue
            for order in (moves, None):  # the game's moves, or the stones alone
                back, _ = state_of_board(game, board_lines(state, order))
                assert back == state
