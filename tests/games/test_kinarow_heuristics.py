"""Heuristics of the k-in-a-row games against slow references and random play."""

from __future__ import annotations

import random
from collections.abc import Callable
from types import ModuleType

import pytest

import arena
from arena.core.evaluation import SCALE
from arena.core.game import Game
from arena.games import knowledge
from arena.games.connect4 import heuristic as h_connect4
from arena.games.gomoku import heuristic as h_gomoku
from arena.games.kinarow.lines import scan, tables
from arena.games.kinarow.rules import ONGOING, KInARowState
from arena.games.tictactoe import heuristic as h_tictactoe
from helpers import random_states

MODULES = {"tictactoe": h_tictactoe, "connect4": h_connect4, "gomoku": h_gomoku}
VARIANTS = [
    "tictactoe",
    "tictactoe:m=4,n=3,k=3",
    "tictactoe:m=5,n=4,k=4",
    "tictactoe:m=1,n=5,k=2",
    "connect4",
    "connect4:rows=5,cols=6,k=3",
    "connect4:rows=7,cols=9,k=5",
    "gomoku:size=9",
    "gomoku:size=7,k=4,overline=nowin",
    "gomoku:size=9,overline=nowin",
    "gomoku:size=6,k=3",
]
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
Player = Callable[[KInARowState, ModuleType, random.Random], int]


# --- a plain reference on (row, col) grids -------------------------------------------


def grid(state: KInARowState) -> list[list[int | None]]:
    """Owner of every cell by layout row and column (Connect Four: row 0 at the bottom)."""
    game = state.game
    rows, cols = game.rows, game.cols  # type: ignore[attr-defined]
    bit = game.lines.cell_bit  # type: ignore[attr-defined]
    b0, b1 = state.bits
    return [
        [
            0 if b0 & bit[r * cols + c] else 1 if b1 & bit[r * cols + c] else None
            for c in range(cols)
        ]
        for r in range(rows)
    ]


def on_board(board: list[list[int | None]], r: int, c: int) -> bool:
    return 0 <= r < len(board) and 0 <= c < len(board[0])


def completes_line(board: list[list[int | None]], r: int, c: int, player: int, game: Game) -> bool:
    """Whether a stone of ``player`` on empty (r, c) makes a winning line through it."""
    k, exact = game.k, game.exact  # type: ignore[attr-defined]
    for dr, dc in DIRECTIONS:
        run = 1
        for sign in (1, -1):
            rr, cc = r + sign * dr, c + sign * dc
            while on_board(board, rr, cc) and board[rr][cc] == player:
                run += 1
                rr, cc = rr + sign * dr, cc + sign * dc
        if run == k or (run > k and not exact):
            return True
    return False


def reference_wins(state: KInARowState, player: int) -> list[int]:
    """Moves that win for ``player`` now, by trying every one on the grid."""
    game = state.game
    board = grid(state)
    rows, cols = len(board), len(board[0])
    if game.name == "connect4":
        moves = []
        for c in range(cols):
            free = [r for r in range(rows) if board[r][c] is None]
            if free and completes_line(board, free[0], c, player, game):
                moves.append(c)
        return moves
    return [
        r * cols + c
        for r in range(rows)
        for c in range(cols)
        if board[r][c] is None and completes_line(board, r, c, player, game)
    ]


def with_bits(state: KInARowState, bits: tuple[int, int], to_move: int) -> KInARowState:
    """A state of the same game with other stones or another side to move."""
    return type(state)._make(state.game, bits, to_move, state.ply, state._last, ONGOING)


def mirrored(state: KInARowState) -> KInARowState:
    """The same position with the colours of all stones and the side to move swapped."""
    b0, b1 = state.bits
    return with_bits(state, (b1, b0), 1 - state.to_move)


def arbitrary_states(game: Game, count: int, seed: int) -> list[KInARowState]:
    """Dense random stone patterns (not reachable in play) with long runs and overlines."""
    rng = random.Random(seed)
    start = game.initial_state()
    lines = game.lines  # type: ignore[attr-defined]
    rows, cols = game.rows, game.cols  # type: ignore[attr-defined]
    out = []
    for _ in range(count):
        bits = [0, 0]
        density = rng.uniform(0.2, 0.9)
        for c in range(cols):
            # Connect Four stones stack from the bottom; elsewhere any cell may be taken.
            height = rng.randint(0, rows) if game.name == "connect4" else rows
            for r in range(height):
                if game.name == "connect4" or rng.random() < density:
                    bits[rng.randrange(2)] |= lines.cell_bit[r * cols + c]
        out.append(with_bits(start, (bits[0], bits[1]), rng.randrange(2)))
    return out


def live_states(game: Game, count: int, seed: int = 1) -> list[KInARowState]:
    return [s for s in random_states(game, count, seed) if not s.is_terminal()]


# --- immediate wins ----------------------------------------------------------------


@pytest.mark.parametrize("spec", VARIANTS)
def test_immediate_wins_match_brute_force(spec: str) -> None:
    game = arena.load_game(spec)
    module = MODULES[game.name]
    states = live_states(game, 150) + arbitrary_states(game, 100, seed=7)
    found = 0
    for state in states:
        for player in (0, 1):
            wins = module.immediate_wins(state, player)
            assert wins == reference_wins(state, player), (spec, state.render(), player)
            found += len(wins)
    assert found > 20  # the positions did exercise the search for winning cells


@pytest.mark.parametrize("spec", VARIANTS)
def test_immediate_wins_agree_with_the_rules(spec: str) -> None:
    game = arena.load_game(spec)
    module = MODULES[game.name]
    for state in live_states(game, 150, seed=2):
        mover = state.to_move
        by_play = [m for m in state.legal_moves() if state.play(m).winner() == mover]
        assert module.immediate_wins(state, mover) == by_play


def test_overline_does_not_win_where_it_is_not_allowed() -> None:
    moves = "A5 A1 B5 A2 C5 A3 D5 B1 F5"  # Black: A5 B5 C5 D5 . F5
    for overline, expected in (("win", ["E5"]), ("nowin", [])):
        game = arena.load_game(f"gomoku:size=9,overline={overline}")
        state = game.play_moves(game.parse_moves(moves))
        assert [game.format_move(m) for m in h_gomoku.immediate_wins(state, 0)] == expected


def test_connect4_wins_only_on_playable_cells() -> None:
    game = arena.load_game("connect4")
    # Red has columns 1 2 3 on the second row, but column 4 is empty.
    state = game.play_moves(game.parse_moves("31122737"))
    assert h_connect4.immediate_wins(state, 0) == []
    assert h_connect4.immediate_wins(state.play(game.parse_move("4")), 0) == [3]


# --- window counting ---------------------------------------------------------------


def reference_scan(state: KInARowState, player: int) -> tuple[list[int], int]:
    """Window counts by stones and open threes, window by window."""
    game = state.game
    board = grid(state)
    k = game.k  # type: ignore[attr-defined]
    counts = [0] * (k + 1)
    open_threes = 0
    for r in range(len(board)):
        for c in range(len(board[0])):
            for dr, dc in DIRECTIONS:
                cells = [(r + i * dr, c + i * dc) for i in range(k + 1)]
                if not on_board(board, *cells[k - 1]):
                    continue
                window = [board[rr][cc] for rr, cc in cells[:k]]
                if 1 - player not in window:
                    counts[window.count(player)] += 1
                if not on_board(board, *cells[k]):
                    continue
                ends = (window[0], board[cells[k][0]][cells[k][1]])
                middle = window[1:]
                if ends == (None, None) and 1 - player not in middle:
                    open_threes += k >= 2 and middle.count(player) == k - 2
    counts[0] = counts[k] = 0  # scan leaves out empty and complete windows
    return counts, open_threes


@pytest.mark.parametrize("spec", VARIANTS)
def test_window_counts_match_a_window_by_window_count(spec: str) -> None:
    game = arena.load_game(spec)
    t = tables(game)
    assert tables(game) is t  # built once per game
    for state in live_states(game, 40, seed=3) + arbitrary_states(game, 20, seed=4):
        for player in (0, 1):
            own, opp = state.bits[player], state.bits[1 - player]
            got = scan(t, own, opp, game.exact, shapes=True)  # type: ignore[attr-defined]
            assert (got.counts, got.open_threes) == reference_scan(state, player)


# --- evaluation --------------------------------------------------------------------


@pytest.mark.parametrize("spec", VARIANTS)
def test_values_are_bounded_and_mirror_antisymmetric(spec: str) -> None:
    game = arena.load_game(spec)
    evaluate = knowledge(game).evaluate
    assert evaluate(game.initial_state()) == 0.0
    for state in random_states(game, 200, seed=5):
        value = evaluate(state)
        assert isinstance(value, float)
        assert -SCALE <= value <= SCALE
        if not state.is_terminal():
            assert evaluate(mirrored(state)) == -value


@pytest.mark.parametrize("spec", ["tictactoe:m=5,n=4,k=4", "gomoku:size=9", "gomoku:size=7,k=4"])
def test_quiet_positions_ignore_the_side_to_move(spec: str) -> None:
    """Without winning cells or open threes only the stones count: swapping colours negates."""
    game = arena.load_game(spec)
    module = MODULES[game.name]
    t = tables(game)
    quiet = 0
    for state in live_states(game, 200, seed=6):
        b0, b1 = state.bits
        s0, s1 = scan(t, b0, b1, shapes=True), scan(t, b1, b0, shapes=True)
        if s0.wins or s1.wins or s0.open_threes or s1.open_threes:
            continue
        quiet += 1
        swapped = with_bits(state, (b1, b0), state.to_move)
        assert module.evaluate(swapped) == -module.evaluate(state)
    assert quiet > 20


@pytest.mark.parametrize(
    ("spec", "moves", "sign"),
    [
        ("tictactoe", "b2 b1 a1", 1),  # X threatens c3; O must block
        ("tictactoe", "b2 a2 c1 a3 a1", 1),  # X: two winning cells
        ("tictactoe:m=4,n=4,k=3", "a1 b2 d4 b3 d1", -1),  # O to move wins at b1 or b4
        ("connect4", "4", 1),
        ("connect4", "41424", 1),  # Red: three in column 4, Yellow must block
        ("connect4", "141424", -1),  # Yellow: three in column 4, Red must block
        ("connect4", "1424", -1),  # Yellow holds the centre column, Red the edge
        ("gomoku:size=9", "E5 A1 F5 A9 G5", 1),  # Black: open three, White without a four
        ("gomoku:size=9", "E5 D5 A1 D6 A9 D4", -1),  # White: open three, Black to move
        ("gomoku:size=9", "E5 D4 F5 D5 G5 D6 A1 D7", -1),  # White: straight four D4-D7
    ],
)
def test_strong_positions_have_the_right_sign(spec: str, moves: str, sign: int) -> None:
    game = arena.load_game(spec)
    state = game.play_moves(game.parse_moves(moves))
    evaluate = MODULES[game.name].evaluate
    value = evaluate(state)
    assert value * sign > 0, value
    assert evaluate(mirrored(state)) == -value


def test_verdicts_outrank_static_scores() -> None:
    game = arena.load_game("connect4")
    won = game.play_moves(game.parse_moves("44556"))  # Red: two playable threats
    lost = game.play_moves(game.parse_moves("1234567"))
    assert h_connect4.evaluate(won) == 990.0
    assert h_connect4.evaluate(lost) < 900.0
    gomoku = arena.load_game("gomoku:size=9")
    open_three = gomoku.play_moves(gomoku.parse_moves("E5 A1 F5 A9 G5"))
    assert h_gomoku.evaluate(open_three.play(gomoku.parse_move("J9"))) == 950.0  # Black to move


def test_connect4_block_under_a_threat_loses() -> None:
    # Red to move must block d1 for Yellow, which opens d2 for Yellow's e2-g2.
    stacked = connect4_state(["....OOO", "OOO.XOX"], 0)
    assert h_connect4.evaluate(stacked) == -990.0
    assert h_connect4.evaluate(connect4_state(["....OOO", "OOO.XXX"], 0)) == 990.0  # Red first
    assert -900.0 < h_connect4.evaluate(connect4_state(["....OO.", "OOO.XOX"], 0)) < 0


def test_an_open_three_wins_only_when_the_opponent_has_no_four() -> None:
    game = arena.load_game("gomoku:size=9")
    # Black to move with an open three E5-G5; White's A1-A4 can still become five at A5.
    state = game.play_moves(game.parse_moves("E5 A1 F5 A2 G5 A3 J9 A4"))
    assert h_gomoku.immediate_wins(state, 1) == [game.parse_move("A5")]
    assert abs(h_gomoku.evaluate(state)) < 900.0  # a static score, not a verdict


def connect4_state(picture: list[str], to_move: int) -> KInARowState:
    """A Connect Four 6x7 position from its lowest rows, top first (X: Red, O: Yellow)."""
    game = arena.load_game("connect4")
    bit = game.lines.cell_bit  # type: ignore[attr-defined]
    bits = [0, 0]
    for i, line in enumerate(picture):
        row = len(picture) - 1 - i  # bit rows count from the bottom
        for col, mark in enumerate(line):
            if mark != ".":
                bits["XO".index(mark)] |= bit[row * 7 + col]
    return with_bits(game.initial_state(), (bits[0], bits[1]), to_move)


@pytest.mark.parametrize(
    ("picture", "to_move", "sign"),
    [
        # Red is the "odd" player (33 empty cells, Yellow to move); its threat at d3 is odd.
        (["XXX....", "XOX....", "OXO...."], 1, 1),
        # Red moves with 36 empty cells, so Yellow is "even"; its threat at d2 is even.
        (["OOO....", "XXO...."], 0, -1),
        # Red is "odd" (36 empty, Red to move) but its threat at d2 is on an even row.
        (["XXX....", "OOX...."], 0, 0),
    ],
)
def test_connect4_parity_rule(
    picture: list[str], to_move: int, sign: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = connect4_state(picture, to_move)
    with_rule = h_connect4.evaluate(state)
    monkeypatch.setattr(h_connect4, "_PARITY", 0.0)
    difference = with_rule - h_connect4.evaluate(state)
    assert difference > 0 if sign > 0 else difference < 0 if sign < 0 else difference == 0


# --- Gomoku candidates -------------------------------------------------------------


def test_candidates_are_the_empty_cells_near_stones() -> None:
    rng = random.Random(8)
    for spec in ("gomoku:size=9", "gomoku:size=15", "gomoku:size=7,k=4"):
        game = arena.load_game(spec)
        size = game.rows  # type: ignore[attr-defined]
        for state in live_states(game, 60, seed=9):
            moves = list(state.legal_moves())
            rng.shuffle(moves)
            board = grid(state)
            stones = [(r, c) for r in range(size) for c in range(size) if board[r][c] is not None]
            near = [
                m
                for m in moves
                if any(max(abs(m // size - r), abs(m % size - c)) <= 2 for r, c in stones)
            ]
            expected = tuple(near) if near and stones else tuple(moves)
            assert h_gomoku.candidates(state, tuple(moves)) == expected


def test_candidates_fall_back_to_all_moves() -> None:
    game = arena.load_game("gomoku:size=9")
    start = game.initial_state()
    assert h_gomoku.candidates(start, start.legal_moves()) == start.legal_moves()
    corner = game.play_moves(game.parse_moves("A1"))
    far = tuple(m for m in corner.legal_moves() if m % 9 > 4)  # nothing near A1
    assert h_gomoku.candidates(corner, far) == far
    assert h_gomoku.candidates(corner, ()) == ()


# --- the evaluation plays better than chance ---------------------------------------


def greedy_move(state: KInARowState, module: ModuleType, rng: random.Random) -> int:
    """Win at once if possible, else the move after which the evaluation is best for us."""
    mover = state.to_move
    wins = module.immediate_wins(state, mover)
    if wins:
        return wins[0]
    sign = 1 if mover == 0 else -1
    scored = [(sign * module.evaluate(state.play(m)), m) for m in state.legal_moves()]
    best = max(value for value, _ in scored)
    return rng.choice([m for value, m in scored if value == best])


def random_move(state: KInARowState, module: ModuleType, rng: random.Random) -> int:
    return rng.choice(state.legal_moves())


def tactical_move(state: KInARowState, module: ModuleType, rng: random.Random) -> int:
    """Win at once, else block the opponent's win, else a random move."""
    mover = state.to_move
    wins = module.immediate_wins(state, mover) or module.immediate_wins(state, 1 - mover)
    return wins[0] if wins else rng.choice(state.legal_moves())


def greedy_score(spec: str, games: int, opponent: Player = random_move) -> int:
    """Wins of the greedy player against ``opponent``, alternating colours."""
    game = arena.load_game(spec)
    module = MODULES[game.name]
    won = 0
    for seed in range(games):
        rng = random.Random(seed)
        greedy = seed % 2
        state = game.initial_state()
        while not state.is_terminal():
            player = greedy_move if state.to_move == greedy else opponent
            state = state.play(player(state, module, rng))
        won += state.winner() == greedy
    return won


@pytest.mark.parametrize(("spec", "games"), [("connect4", 40), ("gomoku:size=9", 20)])
def test_greedy_evaluation_beats_random(spec: str, games: int) -> None:
    assert greedy_score(spec, games) >= 0.8 * games


@pytest.mark.parametrize(("spec", "games"), [("connect4", 40), ("gomoku:size=9", 20)])
def test_greedy_evaluation_beats_win_and_block_play(spec: str, games: int) -> None:
    """Taking wins alone beats uniform random in Gomoku (18 of 20 when measured), so the
    evaluation must also beat a player that takes wins and blocks (which greedy play
    with a constant evaluation beats in only 5 of 40 and 1 of 20 games)."""
    assert greedy_score(spec, games, tactical_move) >= 0.8 * games
