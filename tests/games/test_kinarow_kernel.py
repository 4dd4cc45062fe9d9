"""The compiled kernels of Connect Four, Tic-tac-toe and Gomoku against the State API."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

import arena
from arena.core.kernel import kernel_playouts
from arena.games.connect4 import kernel as connect4
from arena.games.gomoku import heuristic as gomoku_heuristic
from arena.games.kinarow import kernel as kinarow
from arena.search.clock.deadline import Deadline
from arena.search.mcts.evaluator import HeuristicRollout
from helpers import chi2_limit
from kernel_checks import (
    assert_perft_matches_reference,
    assert_playout_uniform,
    assert_rollout_reachable,
    compare_random_games,
    end_counts,
    load_kernel,
    perfts,
    random_start,
    run_without_jit,
    seeded_ends,
)

# (spec, random games): several sizes of each game, both overline rules, Connect
# Four on bitboards (up to 63 bits, long lines whose shifts pass 64 bits) and on
# the mailbox (bigger boards).
RANDOM_GAMES = [
    ("connect4", 2000),
    ("connect4:rows=4,cols=5", 2000),
    ("connect4:rows=4,cols=4,k=3", 2000),
    ("connect4:rows=6,cols=9", 500),
    ("connect4:rows=14,cols=4,k=13", 300),
    ("connect4:rows=4,cols=12,k=11", 300),
    ("connect4:rows=7,cols=8", 1000),
    ("connect4:rows=9,cols=8,k=5", 500),
    ("connect4:rows=20,cols=20,k=6", 20),
    ("tictactoe", 3000),
    ("tictactoe:m=4,n=4,k=3", 2000),
    ("tictactoe:m=5,n=3,k=4", 1000),
    ("tictactoe:m=1,n=1,k=1", 10),
    pytest.param("gomoku", 1000, marks=pytest.mark.slow),
    pytest.param("gomoku:overline=nowin", 1000, marks=pytest.mark.slow),
    ("gomoku:size=9", 1000),
    ("gomoku:size=9,overline=nowin", 1000),
    ("gomoku:size=5,k=3,overline=nowin", 2000),
    ("gomoku:size=6,k=4,overline=win", 1500),
    ("gomoku:size=5,k=5,overline=nowin", 1000),  # line masks under overline=nowin
]


@pytest.mark.parametrize(("spec", "games"), RANDOM_GAMES)
def test_kernel_agrees_with_the_rules_move_for_move(spec: str, games: int) -> None:
    game, kernel = load_kernel(spec)
    assert compare_random_games(game, kernel, games, seed=len(spec)) > games


@pytest.mark.parametrize(
    ("spec", "figures"),
    [
        ("tictactoe", [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]),
        ("connect4", [7, 49, 343, 2401, 16807, 117649, 823536, 5673234]),
        ("gomoku", [225, 50400, 11239200]),
    ],
)
def test_perft_equals_the_published_figures(spec: str, figures: list[int]) -> None:
    game, kernel = load_kernel(spec)
    assert perfts(kernel, game.initial_state(), len(figures)) == figures


@pytest.mark.parametrize(
    ("spec", "ply", "depth"),
    [
        ("tictactoe:m=4,n=4,k=3", 0, 4),
        ("tictactoe:m=4,n=4,k=3", 6, 5),
        ("tictactoe:m=5,n=4,k=4", 3, 3),
        ("connect4:rows=4,cols=5", 0, 6),
        ("connect4:rows=4,cols=5", 9, 6),
        ("connect4:rows=9,cols=8,k=5", 0, 4),
        ("connect4:rows=7,cols=8", 20, 5),
        ("connect4:rows=4,cols=12,k=4", 10, 4),
        ("gomoku:size=9,overline=nowin", 0, 2),
        ("gomoku:size=5,k=3,overline=nowin", 12, 5),
    ],
)
def test_perft_equals_the_reference_perft(spec: str, ply: int, depth: int) -> None:
    assert_perft_matches_reference(spec, ply, depth)


def test_perft_of_a_finished_game_is_zero_and_of_depth_zero_one() -> None:
    game, kernel = load_kernel("connect4")
    over = game.play_moves(game.parse_moves("4455667"))
    assert perfts(kernel, over, 3) == [0, 0, 0]
    assert kernel.perft(over, 0) == kernel.perft(game.initial_state(), 0) == 1
    with pytest.raises(ValueError, match="depth"):
        kernel.perft(over, -1)


@pytest.mark.parametrize(
    ("spec", "left"),
    [
        ("tictactoe", 6),
        ("tictactoe:m=4,n=4,k=3", 7),
        ("connect4", 7),
        ("connect4:rows=4,cols=5", 8),
        ("connect4:rows=7,cols=8", 7),
        ("gomoku:size=5,k=3,overline=nowin", 6),
        ("gomoku:size=5,k=4", 7),
    ],
)
def test_playout_follows_the_law_of_uniform_random_moves(spec: str, left: int) -> None:
    """The end positions of the kernel playout against their exact probabilities
    under uniformly random moves (chi-squared, p > 0.001)."""
    game, kernel = load_kernel(spec)
    cells = kernel.max_plies
    state = random_start(game, lambda s: s.ply == cells - left, seed=left)
    assert_playout_uniform(kernel, state, trials=20000, seed=left)
    assert_rollout_reachable(kernel, state, trials=2000, seed=left)


@pytest.mark.parametrize(
    ("spec", "line"),
    [
        ("connect4", "445566"),
        ("connect4:rows=9,cols=8,k=5", "1 2 1 2 1 2 1 3"),
        ("tictactoe", "a1 b2 a2 c3"),
        ("gomoku", "H8 A1 J8 A2 K8 A3 L8 A4"),
        # A8 wins with exactly five; F8 would make six, which does not win.
        ("gomoku:overline=nowin", "B8 A1 C8 A2 D8 A3 E8 A5 G8 A10"),
    ],
)
def test_rollout_takes_an_immediate_win(spec: str, line: str) -> None:
    game, kernel = load_kernel(spec)
    state = game.play_moves(game.parse_moves(line))
    win = 1 - 2 * state.to_move
    f, p, s = kernel.functions, kernel.params, kernel.encode(state)
    f["seed"](1)
    assert kernel_playouts(f["rollout"], p, s, 300) == 300 * win
    # A random playout misses it sometimes: the test can tell the two apart.
    assert kernel_playouts(f["playout"], p, s, 300) != 300 * win


@pytest.mark.parametrize(
    ("spec", "line", "loss_ply"),
    [
        ("connect4", "1 2 1 2 1", 7),  # Red threatens column 1 once.
        ("connect4:rows=7,cols=8", "2 1 3 1 4", 7),  # Red threatens 1 and 5: 5 is playable.
        ("tictactoe", "a1 b2 b1", 5),  # X threatens c1, O cannot win yet.
        ("gomoku:size=7,k=4", "C4 A1 D4 A7 E4", 7),  # an open three: O blocks one end.
    ],
)
def test_rollout_blocks_an_immediate_loss(spec: str, line: str, loss_ply: int) -> None:
    """The side to move has no win and the opponent one winning cell (two for the open
    three): rollouts never lose at the next ply when there is one, random playouts do."""
    game, kernel = load_kernel(spec)
    state = game.play_moves(game.parse_moves(line))
    loss = 2 * state.to_move - 1

    def lost_next(function: str) -> int:
        kernel.functions["seed"](3)
        lost = 0
        for _ in range(400):
            s = kernel.encode(state)
            result = kernel.functions[function](kernel.params, s)
            lost += result == loss and s[kinarow.S_PLY] == loss_ply
        return lost

    assert lost_next("playout") > 0
    assert lost_next("rollout") == (400 if spec.startswith("gomoku") else 0)


def test_the_mailbox_serves_7x6_connect4_too() -> None:
    """The mailbox path (boards past 63 bits) on the standard board, where the
    published perft and the bitboard kernel are there to compare with."""
    game = arena.load_game("connect4")
    mailbox = kinarow.kernel(game, gravity=True)  # type: ignore[arg-type]
    figures = [7, 49, 343, 2401, 16807, 117649, 823536]
    assert perfts(mailbox, game.initial_state(), len(figures)) == figures
    assert compare_random_games(game, mailbox, 300, seed=9) > 300


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("tictactoe", True),
        ("tictactoe:m=5,n=3,k=4", True),
        ("connect4:rows=7,cols=8", True),  # the mailbox under gravity: 62 bits
        ("gomoku:size=9", False),  # 80 bits: encoded in Python
        ("gomoku", False),
    ],
)
def test_decode_writes_the_position_encode_writes(spec: str, words: bool) -> None:
    """The compiled MCTS starts a move from four words where the bitboards fit in them
    (``decode``): the same position array ``encode`` makes, finished games included."""
    game, kernel = load_kernel(spec)
    assert (kernel.words is not None) == words == ("decode" in kernel.functions)
    if not words:
        return
    decode = kernel.functions["decode"]
    rng = random.Random(5)
    checked = 0
    for _ in range(40):
        state = game.initial_state()
        while True:
            s = np.full_like(kernel.encode(state), -7)
            decode(kernel.params, s, *kernel.words(state))  # type: ignore[misc]
            assert s.tolist() == kernel.encode(state).tolist(), state
            checked += 1
            if state.is_terminal():
                break
            state = state.play(rng.choice(state.legal_moves()))
    assert checked > 200


@pytest.mark.parametrize(
    ("spec", "masked"),
    [
        ("tictactoe", True),
        ("tictactoe:m=4,n=4,k=3", True),
        ("gomoku:size=6,k=4,overline=win", True),  # 36 cells
        ("gomoku:size=5,k=5,overline=nowin", True),  # no line longer than k
        ("gomoku:size=5,k=3,overline=nowin", False),  # a line of 5 holds a window of 3
        ("gomoku:size=9", False),  # 81 cells: more than a word
        ("connect4:rows=7,cols=8", False),  # gravity
    ],
)
def test_small_boards_find_lines_by_masks(spec: str, masked: bool) -> None:
    """Boards whose stones fit in a word (and where a full window of k is exactly a win)
    test a move for a line with masks; every random game above agrees with the rules."""
    game, kernel = load_kernel(spec)
    assert (kernel.params[kinarow.P_MASKS] != 0) == masked
    if spec == "tictactoe":  # the first player's anti-diagonal, cells 2 4 6, found on 6
        p, s = kernel.params, kernel.encode(game.initial_state())
        for move in [4, 0, 2, 1, 6]:
            kernel.functions["play"](p, s, move)
        assert kernel.functions["outcome"](p, s) == 1


def test_connect4_uses_bitboards_where_they_fit() -> None:
    for spec, bitboards in [
        ("connect4", True),
        ("connect4:rows=8,cols=7", True),
        ("connect4:rows=7,cols=8", False),
        ("connect4:rows=20", False),
    ]:
        _, kernel = load_kernel(spec)
        assert (kernel.functions["play"] is connect4.play) == bitboards, spec


@pytest.mark.parametrize(
    "spec", ["connect4", "connect4:rows=4,cols=12,k=11", "connect4:rows=5,cols=4,k=3"]
)
def test_bitboard_winning_cells_are_the_cells_that_win(spec: str) -> None:
    game, kernel = load_kernel(spec)
    p = kernel.params
    rng = random.Random(2)
    cells = [1 << ((c % game.cols) * (game.rows + 1) + c // game.cols) for c in range(game.cells)]
    for _ in range(40):
        state = game.initial_state()
        while not state.is_terminal():
            s = kernel.encode(state)
            for player in range(2):
                stones = int(s[connect4.S_STONES + player])
                expected = sum(
                    bit
                    for bit in cells
                    if not s[connect4.S_MASK] & bit and connect4.has_run(p, stones | bit)
                )
                assert connect4.winning_cells(p, stones, s[connect4.S_MASK]) == expected
            state = state.play(rng.choice(state.legal_moves()))


@pytest.mark.parametrize(
    "spec", ["connect4:rows=7,cols=8", "gomoku:size=7,k=4,overline=nowin", "tictactoe"]
)
def test_winning_cells_kept_incrementally_equal_a_full_scan(spec: str) -> None:
    """The rollout's bookkeeping: after every move, the recorded winning cells that are
    still empty and winning are exactly the empty cells where a stone would win."""
    game, kernel = load_kernel(spec)
    p = kernel.params
    rng = random.Random(5)
    board = int(p[kinarow.P_BOARD])
    cells = [int(kinarow.square_of(p, c)) for c in range(int(p[kinarow.P_CELLS]))]
    for _ in range(60):
        state = game.initial_state()
        s = kernel.encode(state)
        marked = np.zeros((2, p[kinarow.P_SQUARES]), np.bool_)
        threats = np.empty((2, len(cells)), np.int64)
        count = np.zeros(2, np.int64)
        while not state.is_terminal():
            move = rng.choice(state.legal_moves())
            square = int(kinarow.target(p, s, move))
            mover = state.to_move
            state = state.play(move)
            kernel.functions["play"](p, s, move)
            kinarow.add_threats(p, s, square, mover + 1, marked, threats, count)
            for player in range(2):
                full = {
                    x for x in cells if s[board + x] == 0 and kinarow.wins_at(p, s, x, player + 1)
                }
                kept = {
                    int(x)
                    for x in threats[player, : count[player]]
                    if s[board + x] == 0 and kinarow.wins_at(p, s, x, player + 1)
                }
                assert kept == full, (state.render(), player)


def test_gomoku_rollout_candidates_are_the_empty_cells_near_stones() -> None:
    """Gomoku's rollout samples among the empty cells within two king steps of a stone
    (its heuristic ``candidates``); the kernel keeps that set as stones arrive."""
    game, kernel = load_kernel("gomoku:size=9")
    p = kernel.params
    size = 9
    rng = random.Random(4)
    for _ in range(30):
        state = game.initial_state()
        s = kernel.encode(state)
        near = np.zeros(size * size, np.int64)
        candidates = np.empty(size * size, np.int64)
        spot = np.full(size * size, -1, np.int64)
        n = 0
        while not state.is_terminal():
            move = rng.choice(state.legal_moves())
            state = state.play(move)
            kernel.functions["play"](p, s, move)
            n = kinarow.add_near(p, s, move, near, candidates, spot, n)
            if state.is_terminal():
                break
            legal = state.legal_moves()
            # With no candidate left, the rollout samples every legal move, as the heuristic.
            sampled = set(candidates[:n].tolist()) or set(legal)
            assert sampled == set(gomoku_heuristic.candidates(state, legal)), state.render()


def test_kernels_run_as_plain_python_with_the_same_results() -> None:
    """NUMBA_DISABLE_JIT=1 runs the same functions as Python: the checks pass and
    seeded playouts and rollouts end in the same positions as compiled ones."""
    code = """
from kernel_checks import *
for spec, games in [("tictactoe", 40), ("connect4:rows=4,cols=5", 15),
                    ("gomoku:size=5,k=3,overline=nowin", 15)]:
    game, kernel = load_kernel(spec)
    compare_random_games(game, kernel, games, seed=1)
game, kernel = load_kernel("tictactoe")
assert perfts(kernel, game.initial_state(), 4) == [9, 72, 504, 3024]
state = random_start(game, lambda s: s.ply == 3, seed=3)
assert_playout_uniform(kernel, state, trials=2000, seed=1)
assert_rollout_reachable(kernel, state, trials=200, seed=1)
"""
    ends = "print(seeded_ends(*load_kernel({!r}), {!r}, 30, seed=7))"
    cases = [
        (spec, function)
        for spec in ("connect4", "connect4:rows=7,cols=8", "gomoku:size=9")
        for function in ("playout", "rollout")
    ]
    code += "\n".join(ends.format(spec, function) for spec, function in cases)
    plain = run_without_jit(code).split()
    assert plain == [
        seeded_ends(*load_kernel(spec), function, 30, seed=7) for spec, function in cases
    ]


@pytest.mark.parametrize(
    ("spec", "line", "trials"),
    [
        ("connect4", "4 4 3", 1000),
        ("tictactoe", "b2", 2000),
        ("gomoku:size=7,k=4", "D4 C3 E4", 600),
    ],
)
def test_rollout_results_match_the_reference_heuristic_rollout(
    spec: str, line: str, trials: int
) -> None:
    """Wins, draws and losses of the kernel's rollout and of ``mcts:rollout=heuristic``'s
    (the State API) from the same position agree (two-sample chi-squared, p > 0.001)."""
    game, kernel = load_kernel(spec)
    state = game.play_moves(game.parse_moves(line))
    rollout = HeuristicRollout()
    rng = random.Random(6)
    theirs = Counter(rollout(state, rng, Deadline(None))[0] for _ in range(trials))
    ours = Counter(end_counts(kernel, state, "rollout", trials, seed=6, key=lambda s: int(s[2])))
    chi2, df = 0.0, -1
    for result in (-1, 0, 1):
        total = ours[result] + theirs[result]
        if total:
            df += 1
            chi2 += (ours[result] - theirs[result]) ** 2 / total
    assert df >= 1 and chi2 < chi2_limit(df), (ours, theirs)
