"""Tic-tac-toe, Connect Four and Gomoku against published counts and a slow reference."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import arena
from arena.core.errors import IllegalMove, MoveSyntaxError, SpecError


class Reference:
    """An obviously-correct k-in-a-row game on a list of lists (row 0 at the top)."""

    def __init__(self, rows: int, cols: int, k: int, gravity: bool, exact: bool = False):
        self.rows, self.cols, self.k, self.gravity, self.exact = rows, cols, k, gravity, exact
        self.board = [[None] * cols for _ in range(rows)]
        self.player, self.winner, self.plies = 0, None, 0

    def legal(self) -> list[int]:
        if self.winner is not None or self.plies == self.rows * self.cols:
            return []
        if self.gravity:
            return [c for c in range(self.cols) if self.board[0][c] is None]
        return [
            r * self.cols + c
            for r in range(self.rows)
            for c in range(self.cols)
            if self.board[r][c] is None
        ]

    def play(self, move: int) -> None:
        if self.gravity:
            col = move
            row = max(r for r in range(self.rows) if self.board[r][col] is None)
        else:
            row, col = divmod(move, self.cols)
        self.board[row][col] = self.player
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            count = 1
            for sign in (1, -1):
                r, c = row + sign * dr, col + sign * dc
                while 0 <= r < self.rows and 0 <= c < self.cols and self.board[r][c] == self.player:
                    count += 1
                    r, c = r + sign * dr, c + sign * dc
            if count == self.k or (count > self.k and not self.exact):
                self.winner = self.player
        self.player = 1 - self.player
        self.plies += 1

    def returns(self) -> tuple[int, int]:
        if self.winner is None:
            return (0, 0)
        return (1, -1) if self.winner == 0 else (-1, 1)


VARIANTS = [
    ("tictactoe", dict(rows=3, cols=3, k=3, gravity=False)),
    ("tictactoe:m=5,n=4,k=4", dict(rows=4, cols=5, k=4, gravity=False)),
    ("tictactoe:m=2,n=6,k=2", dict(rows=6, cols=2, k=2, gravity=False)),
    ("connect4", dict(rows=6, cols=7, k=4, gravity=True)),
    ("connect4:rows=5,cols=9,k=3", dict(rows=5, cols=9, k=3, gravity=True)),
    ("connect4:rows=8,cols=4,k=5", dict(rows=8, cols=4, k=5, gravity=True)),
    ("gomoku:size=9", dict(rows=9, cols=9, k=5, gravity=False)),
    ("gomoku:size=7,k=4,overline=nowin", dict(rows=7, cols=7, k=4, gravity=False, exact=True)),
]


@pytest.mark.parametrize(("spec", "shape"), VARIANTS)
@settings(max_examples=60, deadline=None)
@given(choices=st.lists(st.integers(0, 10**6), min_size=0, max_size=80))
def test_moves_and_results_match_the_reference(spec: str, shape: dict, choices: list[int]) -> None:
    game = arena.load_game(spec)
    ref = Reference(**shape)
    state = game.initial_state()
    for choice in [*choices, *range(200)]:
        assert list(state.legal_moves()) == ref.legal()
        assert state.returns() == ref.returns()
        assert state.is_terminal() == (not ref.legal())
        if state.is_terminal():
            break
        move = ref.legal()[choice % len(ref.legal())]
        state = state.play(move)
        ref.play(move)


# perft figures from ../shared/README.md (published / measured with public implementations)
TICTACTOE_PERFT = [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]
CONNECT4_PERFT = [7, 49, 343, 2401, 16807, 117649, 823536, 5673234]
GOMOKU_PERFT = [225, 50400, 11239200]


def test_tictactoe_perft() -> None:
    start = arena.load_game("tictactoe").initial_state()
    assert [arena.perft(start, d) for d in range(1, 10)] == TICTACTOE_PERFT


def test_tictactoe_has_255168_games_and_5478_positions() -> None:
    start = arena.load_game("tictactoe").initial_state()
    seen = set()

    def games(state: arena.State) -> int:
        seen.add(state)
        if state.is_terminal():
            return 1
        return sum(games(state.play(m)) for m in state.legal_moves())

    assert games(start) == 255_168
    assert len(seen) == 5_478


def test_tictactoe_is_a_draw() -> None:
    def value(state: arena.State, memo: dict) -> int:
        if state.is_terminal():
            return state.returns()[0]
        if state not in memo:
            values = [value(state.play(m), memo) for m in state.legal_moves()]
            memo[state] = max(values) if state.to_move == 0 else min(values)
        return memo[state]

    assert value(arena.load_game("tictactoe").initial_state(), {}) == 0


def test_connect4_perft_to_depth_7() -> None:
    start = arena.load_game("connect4").initial_state()
    assert [arena.perft(start, d) for d in range(1, 8)] == CONNECT4_PERFT[:7]


@pytest.mark.slow
def test_connect4_perft_depth_8() -> None:
    assert arena.perft(arena.load_game("connect4").initial_state(), 8) == CONNECT4_PERFT[7]


def test_gomoku_perft() -> None:
    start = arena.load_game("gomoku").initial_state()
    assert [arena.perft(start, d) for d in range(1, 4)] == GOMOKU_PERFT


@pytest.mark.parametrize(
    ("spec", "line", "winner"),
    [
        # horizontal, vertical and both diagonals on non-standard boards
        ("connect4:rows=5,cols=9,k=3", "1 1 2 2 3", 0),
        ("connect4:rows=5,cols=9,k=3", "9 1 9 1 8 1", 1),
        ("connect4:rows=5,cols=9,k=3", "7 8 8 9 9 1 9", 0),
        ("connect4:rows=5,cols=9,k=3", "3 2 2 1 1 5 1", 0),
        ("connect4:rows=8,cols=4,k=5", "1 2 1 2 1 2 1 2 1", 0),
        ("connect4:rows=4,cols=10,k=4", "7 7 8 8 9 9 10", 0),
        ("connect4", "4455667", 0),
        ("connect4", "1 4 2 4 3 4 7 4", 1),
        ("connect4", "1 2 2 3 4 3 3 4 4 6 4", 0),
        ("connect4", "7 6 6 5 4 5 5 4 4 2 4", 0),
    ],
)
def test_connect4_wins_in_every_direction(spec: str, line: str, winner: int) -> None:
    game = arena.load_game(spec)
    moves = game.parse_moves(line)
    state = game.play_moves(moves[:-1])
    assert not state.is_terminal()
    state = state.play(moves[-1])
    assert state.is_terminal() and state.winner() == winner
    assert state.legal_moves() == ()


def test_connect4_full_board_draw() -> None:
    game = arena.load_game("connect4")
    # A drawn game found by search with the reference, replayed through our rules.
    for seed in range(5000):
        ref = Reference(6, 7, 4, gravity=True)
        rng = random.Random(seed)
        moves = []
        while ref.legal():
            moves.append(rng.choice(ref.legal()))
            ref.play(moves[-1])
        if ref.winner is None:
            break
    state = game.play_moves(moves)
    assert len(moves) == 42 and state.is_terminal()
    assert state.returns() == (0, 0) and state.result_text() == "draw"
    with pytest.raises(IllegalMove, match="the game is over"):
        state.play(0)


def test_connect4_notation() -> None:
    game = arena.load_game("connect4")
    assert game.parse_moves("4453") == [3, 3, 4, 2]
    assert game.parse_moves("4 4,5 3") == [3, 3, 4, 2]
    wide = arena.load_game("connect4:cols=12")
    assert wide.parse_moves("10 12 1") == [9, 11, 0] and wide.format_move(11) == "12"
    for bad in ("0", "8", "x", "4a"):
        with pytest.raises(MoveSyntaxError, match=r"column number 1\.\.7"):
            game.parse_move(bad)
    full = game.play_moves(game.parse_moves("444444"))
    with pytest.raises(IllegalMove, match="illegal move 4: the column is full"):
        full.play(3)


def test_gomoku_overline_rules() -> None:
    six = "A8 A1 B8 A2 C8 A3 E8 A4 F8 B2 D8"  # D8 joins A8-C8 and E8-F8 into six
    for overline, over in (("win", True), ("nowin", False)):
        game = arena.load_game(f"gomoku:overline={overline}")
        state = game.play_moves(game.parse_moves(six))
        assert state.is_terminal() is over
    exact = arena.load_game("gomoku:overline=nowin")
    five = exact.play_moves(exact.parse_moves("A8 A1 B8 A2 C8 A3 D8 A4 E8"))
    assert five.winner() == 0


def test_gomoku_wins_in_every_direction() -> None:
    game = arena.load_game("gomoku")
    lines = {
        "vertical": "C3 A1 C4 A2 C5 A3 C6 A4 C7",
        "diagonal": "C3 A1 D4 A2 E5 A3 F6 A4 G7",
        "antidiagonal": "O1 A1 N2 A2 M3 A3 L4 A4 K5",
        "white": "A1 H8 B3 J8 C5 K8 D7 L8 E9 M8",
    }
    for line in lines.values():
        moves = game.parse_moves(line)
        assert not game.play_moves(moves[:-1]).is_terminal()
        assert game.play_moves(moves).is_terminal()


def test_gomoku_notation_is_as_go() -> None:
    game = arena.load_game("gomoku")
    assert game.format_move(7 * 15 + 7) == "H8"
    assert game.parse_move("j15") == 8
    assert game.format_move(14 * 15) == "A1"
    for bad in ("I5", "Q1", "A16", "A0"):
        with pytest.raises(MoveSyntaxError):
            game.parse_move(bad)


def test_tictactoe_notation_counts_rows_from_the_top() -> None:
    game = arena.load_game("tictactoe")
    assert [game.format_move(m) for m in (0, 2, 6, 8)] == ["a1", "c1", "a3", "c3"]
    assert game.parse_move("B2") == 4


@pytest.mark.parametrize(
    "spec", ["tictactoe:k=4", "tictactoe:m=0", "gomoku:size=4", "connect4:k=21", "gomoku:k=16"]
)
def test_bad_sizes_are_rejected(spec: str) -> None:
    with pytest.raises(SpecError):
        arena.load_game(spec)


def test_occupied_and_out_of_range_cells_are_illegal() -> None:
    game = arena.load_game("tictactoe")
    state = game.initial_state().play(4)
    with pytest.raises(IllegalMove, match="illegal move b2: the cell is occupied"):
        state.play(4)
    with pytest.raises(IllegalMove, match="not a cell of the 3x3 board"):
        state.play(9)
