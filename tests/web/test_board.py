"""The web board's line of moves: branches, take-backs, evaluations and records."""

from __future__ import annotations

import pytest

import arena
from arena.core.agent import SearchInfo
from arena.core.errors import ArenaError
from arena.web.board import Board, first_player_chance


def test_going_back_keeps_the_line_and_a_new_move_branches() -> None:
    board = Board(arena.load_game("connect4"))
    for text in "4453":
        board.play_text(text)
    board.goto(2)
    assert board.texts() == ["4", "4", "5", "3"] and not board.at_end
    assert board.state == arena.load_game("connect4").play_moves([3, 3])
    board.play_text("1")
    assert board.texts() == ["4", "4", "1"] and board.at_end
    assert len(board.states) == len(board.evals) == 4
    with pytest.raises(ArenaError, match="no position 9"):
        board.goto(9)


def test_branches_are_kept_and_switching_back_restores_moves_and_evaluations() -> None:
    game = arena.load_game("connect4")
    board = Board(game, moves=game.parse_moves("4453"))
    board.evals[4] = 0.7
    board.goto(2)
    board.play_text("5")  # the line's own move: forward, no branch
    assert board.ply == 3 and board.lines == []
    board.goto(2)
    board.play_text("1")
    assert board.texts() == ["4", "4", "1"] and len(board.lines) == 1
    board.switch(0)
    assert board.texts() == ["4", "4", "5", "3"] and board.ply == 3 and board.evals[4] == 0.7
    assert board.state == game.play_moves(game.parse_moves("445"))
    board.goto(4)
    assert board.state == game.play_moves(game.parse_moves("4453"))
    assert [game.format_move(m) for m in board.lines[0][0]] == ["4", "4", "1"]
    with pytest.raises(ArenaError, match="no line 3"):
        board.switch(3)


def test_evaluations_are_the_first_players_chance() -> None:
    board = Board(arena.load_game("tictactoe"), moves=[4])
    mcts = SearchInfo(value=0.8, root=[{"move": "a1", "visits": 10}])
    assert board.note(1, mcts, to_move=1) == pytest.approx(0.2)
    assert board.evals == [None, pytest.approx(0.2)]
    assert board.note(7, mcts, to_move=0) is None
    assert first_player_chance(SearchInfo(value=None), 0) is None
    assert first_player_chance(SearchInfo(value=-1e9, root=[{"value": 0}]), 0) == 0.0


def test_the_record_keeps_seed_and_result() -> None:
    game = arena.load_game("colosseum:size=5")
    board = Board(game, seed=9)
    state = board.state
    while not state.is_terminal():
        board.play(state.legal_moves()[0])
        state = board.state
    assert board.evals[-1] == (state.returns()[0] + 1) / 2  # the graph ends at the result
    record = board.record(("person", "mcts"))
    assert record.seed == 9 and record.returns == state.returns() and record.score == state.score()
    replay = Board(game, seed=9, moves=[game.parse_move(m) for m in record.moves])
    assert replay.state == state
