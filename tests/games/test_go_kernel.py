"""Go's compiled kernel against the rules (the State API), move for move.

Legal-move lists (same order), side to move, terminal status and returns agree
at every ply of random games on 5x5 to 13x13 under both ko rules, through
captures, kos, superko bans, suicide points and the length cap; perft counts
are the published ones; the random playout is uniform over the legal moves
(chi-squared); playouts and rollouts replay through the rules, and the
rollout never fills an own eye. One test runs the kernel as plain Python.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from test_go import KO, play, position, rows_of, triple_ko

import arena
from arena.core.kernel import ONGOING, Kernel
from arena.games.go import heuristic as go_heuristic
from arena.games.go.kernel import P_CELL, P_NP, PASSES, PLY, kernel, moves_played
from arena.games.go.rules import Go, GoState
from arena.search.clock.deadline import Deadline
from arena.search.mcts.evaluator import HeuristicRollout
from helpers import chi2_limit
from kernel_checks import (
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

Choose = Callable[[random.Random, GoState, tuple[int, ...]], int]


def few_passes(chance: float) -> Choose:
    """A random stone, or the pass with probability ``chance`` (or when no stone is legal)."""

    def choose(rng: random.Random, state: GoState, legal: tuple[int, ...]) -> int:
        stones = legal[:-1]
        return rng.choice(stones) if stones and rng.random() >= chance else legal[-1]

    return choose


def uniform(rng: random.Random, state: GoState, legal: tuple[int, ...]) -> int:
    return rng.choice(legal)


def expected(state: GoState) -> int:
    return state.returns()[0] if state.is_terminal() else ONGOING


def check_position(k: Kernel, s: np.ndarray, state: GoState, where: str) -> tuple[int, ...]:
    """The kernel's view of ``s`` equals the rules' view of ``state``; returns the legal moves."""
    p, f = k.params, k.functions
    out = np.empty(k.max_moves, np.int64)
    n = f["legal_moves"](p, s, out)
    legal = state.legal_moves()
    assert tuple(int(m) for m in out[:n]) == legal, f"{where}\n{state.render()}"
    assert f["to_move"](p, s) == state.to_move, where
    assert f["outcome"](p, s) == expected(state), where
    return legal


def compare_games(spec: str, games: int, choose: Choose, seed: int = 0) -> GoState:
    """Random games on the rules and the kernel side by side, every ply compared;
    every few plies the kernel also re-encodes the state and compares again.
    Returns the last final state."""
    game = arena.load_game(spec)
    assert isinstance(game, Go)
    k = kernel(game)
    rng = random.Random(seed)
    for number in range(games):
        state = game.initial_state()
        s = k.encode(state)
        while True:
            where = f"{spec} game {number} ply {state.ply}"
            legal = check_position(k, s, state, where)
            if rng.random() < 0.05:
                check_position(k, k.encode(state), state, where + " (encoded)")
            if not legal:
                break
            move = choose(rng, state, legal)
            state = state.play(move)
            k.functions["play"](k.params, s, move)
    return state


# --- move for move ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "games", "chance"),
    [
        ("go:size=5,maxlen=150", 30, 0.02),  # long games: captures, kos, superko bans
        ("go:size=5,ko=simple,maxlen=150", 30, 0.02),
        ("go:size=5", 60, 0.1),
        ("go:size=6,komi=6,maxlen=40", 30, 0.0),  # draws, and the length cap
        ("go:size=7,komi=-3.5", 10, 0.01),
        ("go:size=7,ko=simple", 10, 0.01),
        ("go:size=9,maxlen=120", 5, 0.01),
        ("go:size=13,maxlen=90", 2, 0.01),
        ("go:size=19,ko=simple,maxlen=60", 1, 0.0),
        ("go:size=9,handicap=3,komi=0.5,maxlen=120", 5, 0.01),  # White first, from ply 1
        ("go:size=7,handicap=4,ko=simple", 10, 0.01),
    ],
)
def test_kernel_plays_as_the_rules(spec: str, games: int, chance: float) -> None:
    compare_games(spec, games, few_passes(chance))


@pytest.mark.parametrize(
    ("spec", "games"),
    [
        ("go:size=5", 300),
        ("go:size=7,ko=simple", 100),
        ("go:size=9", 40),
        pytest.param("go:size=5,ko=simple", 2000, marks=pytest.mark.slow),
        pytest.param("go:size=9,komi=0", 300, marks=pytest.mark.slow),
    ],
)
def test_kernel_plays_as_the_rules_with_uniform_moves(spec: str, games: int) -> None:
    """Uniform over the legal moves, pass included: short games that end by passes."""
    game, k = load_kernel(spec)
    assert compare_random_games(game, k, games, seed=1, same_encoding=False) > games


def test_length_cap_scores_the_board_as_it_stands() -> None:
    state = compare_games("go:size=5,komi=0.5,maxlen=7", 20, few_passes(0.0))
    assert state.ply == 7 and state.passes == 0 and state.is_terminal()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("spec", "games"),
    [
        ("go:size=5,maxlen=200", 400),
        ("go:size=5,ko=simple,maxlen=200", 400),
        ("go:size=13,ko=simple,maxlen=300", 40),
        ("go:size=19,maxlen=500", 5),
    ],
)
def test_kernel_plays_as_the_rules_many_games(spec: str, games: int) -> None:
    compare_games(spec, games, few_passes(0.02), seed=2)


def test_superko_bans_match_in_long_games() -> None:
    """Long 5x5 games reach bans of stones that capture and, after the board has been
    cleared and refilled, of stones that capture nothing; the kernel has them all."""
    game = arena.load_game("go:size=5,maxlen=500")
    simple = arena.load_game("go:size=5,maxlen=500,ko=simple")
    k = kernel(game)
    kinds = set()
    for seed in range(4):
        rng = random.Random(seed)
        state, loose = game.initial_state(), simple.initial_state()
        s = k.encode(state)
        while True:
            legal = check_position(k, s, state, f"seed {seed} ply {state.ply}")
            if not legal:
                break
            for move in set(loose.legal_moves()) - set(legal):
                stones = sum(r.count("X") + r.count("O") for r in rows_of(loose))
                after = sum(r.count("X") + r.count("O") for r in rows_of(loose.play(move)))
                kinds.add(after <= stones)  # True: the banned stone captures
            move = few_passes(0.0)(rng, state, legal)
            state, loose = state.play(move), loose.play(move)
            k.functions["play"](k.params, s, move)
    assert kinds == {True, False}


@pytest.mark.parametrize("ko", ["simple", "positional"])
def test_ko_suicide_and_captures_in_set_positions(ko: str) -> None:
    game = arena.load_game(f"go:size=5,ko={ko}")
    k = kernel(game)
    for diagram, moves in (
        (KO, "d3 c3 a1 e5 c3"),  # the ko: no retake at once, then a retake after a threat
        ("...O. ....O ..... OO... X.O..", "pass e5 b1"),  # suicide of one stone and of two
        ("..... ..... X.... OX... .O...", "a1 b1"),  # a capture that looks like suicide
        ("..... ..... XX... OOX.. ..X..", "a1 b1 a1"),  # snapback
        ("..... ..... .X.X. XO.OX .X.X.", "c2"),  # one stone takes two groups
    ):
        state = position(game, diagram)
        s = k.encode(state)
        for text in moves.split():
            legal = check_position(k, s, state, f"{diagram} {text}")
            move = game.parse_move(text)
            if move in legal:
                state = state.play(move)
                k.functions["play"](k.params, s, move)
        check_position(k, s, state, diagram)


def test_triple_ko_cycle_only_superko_forbids() -> None:
    cycle = "e8 d2 e5 d8 e2 d5"
    for spec in ("go:size=9,ko=simple", "go:size=9"):
        game = arena.load_game(spec)
        k = kernel(game)
        state = triple_ko(game)
        s = k.encode(state)
        for text in cycle.split():
            legal = check_position(k, s, state, f"{spec} {text}")
            move = game.parse_move(text)
            if move not in legal:
                assert game.superko and text == "d5"
                break
            state = state.play(move)
            k.functions["play"](k.params, s, move)
        else:
            assert not game.superko


# --- perft --------------------------------------------------------------------------------


def test_perft_5x5() -> None:
    game, k = load_kernel("go:size=5")
    assert perfts(k, game.initial_state(), 3) == [26, 651, 15650]


@pytest.mark.slow
@pytest.mark.parametrize("ko", ["simple", "positional"])
def test_perft_5x5_depth_4(ko: str) -> None:
    game, k = load_kernel(f"go:size=5,ko={ko}")
    assert k.perft(game.initial_state(), 4) == 361041


def test_perft_19x19() -> None:
    game, k = load_kernel("go:size=19")
    assert perfts(k, game.initial_state(), 2) == [362, 361 * 361 + 362]


@pytest.mark.parametrize(
    ("spec", "ply"), [("go:size=5,maxlen=300", 60), ("go:size=6,ko=simple", 20)]
)
def test_perft_equals_the_reference_perft_mid_game(spec: str, ply: int) -> None:
    game, k = load_kernel(spec)
    state = random_start(game, lambda s: s.ply == ply and len(s.legal_moves()) > 4, seed=ply)
    assert perfts(k, state, 3) == [arena.perft(state, d) for d in (1, 2, 3)]


# --- playouts and rollouts ----------------------------------------------------------------


def replay(k: Kernel, start: GoState, function: str) -> list[int]:
    """Run ``function`` from ``start``; its moves must be legal, its result the rules'."""
    s = k.encode(start)
    result = k.functions[function](k.params, s)
    moves = moves_played(k, s, start.ply)
    state = start
    for move in moves:
        assert move in state.legal_moves(), f"{function}: illegal {move} at ply {state.ply}"
        state = state.play(move)
    assert state.is_terminal() and result == state.returns()[0] == k.functions["outcome"](
        k.params, s
    )
    return moves


@pytest.mark.parametrize(
    ("spec", "runs"),
    [
        ("go:size=5", 60),
        ("go:size=5,ko=simple", 60),
        ("go:size=9,komi=0", 10),
        ("go:size=19", 1),
        ("go:size=9,handicap=2,komi=0.5", 10),
    ],
)
@pytest.mark.parametrize("function", ["playout", "rollout"])
def test_playouts_replay_through_the_rules(spec: str, runs: int, function: str) -> None:
    game = arena.load_game(spec)
    k = kernel(game)
    k.functions["seed"](runs)
    rng = random.Random(runs)
    for run in range(runs):
        start = game.initial_state()
        for _ in range(run % 8):  # from a few plies in, passes included
            start = start.play(rng.choice(start.legal_moves()))
        replay(k, start, function)


def first_moves_chi2(
    k: Kernel,
    state: GoState,
    per_move: int,
    seed: int,
    function: str = "playout",
    support: tuple[int, ...] | None = None,
) -> tuple[float, int]:
    """(chi-squared, degrees of freedom) of the first move of ``function`` against the
    uniform law over ``support`` (default: the legal moves); a move outside fails."""
    support = state.legal_moves() if support is None else support
    counts = dict.fromkeys(support, 0)
    k.functions["seed"](seed)
    start = k.encode(state)
    for _ in range(per_move * len(support)):
        s = start.copy()
        k.functions[function](k.params, s)
        first = moves_played(k, s, state.ply)[0]
        assert first in counts, f"{function} played {first} outside {support}"
        counts[first] += 1
    chi2 = sum((c - per_move) ** 2 / per_move for c in counts.values())
    return chi2, len(support) - 1


@pytest.mark.parametrize("ko", ["simple", "positional"])
def test_playout_is_uniform_where_points_are_illegal(ko: str) -> None:
    """In a ko, with a suicide point for White: 18 legal moves, uniformly drawn."""
    game = arena.load_game(f"go:size=5,ko={ko}")
    state = play(position(game, KO), "d3")
    assert len(state.legal_moves()) == 18
    chi2, df = first_moves_chi2(kernel(game), state, 200, seed=3)
    assert chi2 < chi2_limit(df)


def test_playout_is_uniform_from_the_start() -> None:
    game = arena.load_game("go:size=5")
    chi2, df = first_moves_chi2(kernel(game), game.initial_state(), 200, seed=4)
    assert df == 25 and chi2 < chi2_limit(df)


def board_key(k: Kernel) -> Callable[[np.ndarray], tuple[int, ...]]:
    """What makes two of ``k``'s end positions the same end: cells, ply and passes."""
    first, last = int(k.params[P_CELL]), int(k.params[P_CELL] + k.params[P_NP])

    def key(s: np.ndarray) -> tuple[int, ...]:
        return (*s[first:last].tolist(), int(s[PLY]), int(s[PASSES]))

    return key


@pytest.mark.parametrize("spec", ["go:size=5,maxlen=14", "go:size=5,ko=simple,maxlen=14"])
def test_playout_follows_the_law_of_uniform_random_moves(spec: str) -> None:
    """End positions two plies (or a pass pair) after a random position of ply 12,
    against their exact probabilities under uniformly random moves."""
    game, k = load_kernel(spec)
    state = random_start(game, lambda s: s.ply == 12, seed=5)
    assert_playout_uniform(k, state, trials=20000, seed=5, key=board_key(k))
    assert_rollout_reachable(k, state, trials=2000, seed=5, key=board_key(k))


def own_eye(state: GoState, move: int, mover: int | None = None) -> bool:
    """The rollout's eye for ``mover`` (default: the side to move): the mover's stones
    or the edge on every side, and at most one opposing diagonal (none when the point
    is on the edge)."""
    game = state.game
    rows = rows_of(state)
    side = state.to_move if mover is None else mover
    mine, theirs = "XO"[side], "OX"[side]
    r, c = divmod(move, game.size)

    def at(row: int, col: int) -> str:
        inside = 0 <= row < game.size and 0 <= col < game.size
        return rows[row][col] if inside else "#"

    if any(at(r + dr, c + dc) not in (mine, "#") for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))):
        return False
    diagonals = [at(r + dr, c + dc) for dr in (-1, 1) for dc in (-1, 1)]
    bad = sum(d == theirs for d in diagonals)
    return bad == 0 if "#" in diagonals else bad <= 1


def with_an_eye(state: GoState) -> bool:
    """Whether the side to move has a true eye and at least four other candidates."""
    support = go_heuristic.candidates(state, state.legal_moves())
    return len(support) >= 4 and any(own_eye(state, m) for m in state.legal_moves()[:-1])


@pytest.mark.parametrize(
    ("spec", "line"),
    [
        ("go:size=5", None),  # a random position where the mover has an eye
        ("go:size=9", "e5"),  # 24 points within two king steps of the stone
        ("go:size=19", "d4 q16"),  # two boxes of 24 points
        ("go:size=9", ""),  # an empty board: every point
    ],
)
def test_rollout_draws_uniformly_from_the_heuristic_candidates(spec: str, line: str | None) -> None:
    """The rollout's move is uniform over what ``mcts:rollout=heuristic`` samples from:
    the go heuristic's ``candidates`` (near stones, no own true eye)."""
    game = arena.load_game(spec)
    if line is None:
        state = random_start(game, with_an_eye, seed=3)
    else:
        state = game.play_moves(game.parse_moves(line))
    legal = state.legal_moves()
    support = go_heuristic.candidates(state, legal)
    assert set(support) < set(legal[:-1]) or not line
    k = kernel(game)
    chi2, df = first_moves_chi2(k, state, 60, seed=9, function="rollout", support=support)
    assert chi2 < chi2_limit(df)


def test_rollout_results_match_the_reference_heuristic_rollout() -> None:
    """Wins and losses of the kernel's rollout and of ``mcts:rollout=heuristic``'s (the
    State API) from the same position agree (two-sample chi-squared, p > 0.001)."""
    game, k = load_kernel("go:size=5,komi=2.5")
    state = game.play_moves(game.parse_moves("c3 c4 b4 d3 d4"))
    rollout = HeuristicRollout()
    rng = random.Random(6)
    trials = 600
    theirs = Counter(rollout(state, rng, Deadline(None))[0] for _ in range(trials))
    result = k.functions["outcome"]
    ours = end_counts(k, state, "rollout", trials, seed=6, key=lambda s: result(k.params, s))
    chi2, df = 0.0, -1
    for result in (-1, 0, 1):
        total = ours[result] + theirs[result]
        if total:
            df += 1
            chi2 += (ours[result] - theirs[result]) ** 2 / total
    assert df >= 1 and chi2 < chi2_limit(df), (ours, theirs)


@pytest.mark.parametrize("spec", ["go:size=5,maxlen=2000", "go:size=9,ko=simple,maxlen=2000"])
def test_rollout_never_fills_an_own_eye_and_ends_by_passes(spec: str) -> None:
    game = arena.load_game(spec)
    k = kernel(game)
    k.functions["seed"](11)
    eyes_left = 0
    for _ in range(40 if game.size == 5 else 10):
        state = game.initial_state()
        for move in replay(k, state, "rollout"):
            assert move in go_heuristic.candidates(state, state.legal_moves())
            if move != game.pass_move:
                assert not own_eye(state, move), f"ply {state.ply}\n{state.render()}"
            else:  # a pass only when every legal point is an own eye
                assert all(own_eye(state, m) for m in state.legal_moves()[:-1])
            state = state.play(move)
        assert state.passes == 2
        eyes_left += sum(own_eye(state, m, side) for m in range(game.points) for side in (0, 1))
    assert eyes_left > 0  # the check had eyes to look at


# --- plain Python ---------------------------------------------------------------------------


def test_kernel_runs_without_jit() -> None:
    """The same checks as plain Python, and the same playouts for the same seed."""
    code = f"""
import sys
sys.path.insert(0, {str(Path(__file__).parent)!r})
import test_go_kernel as t
from kernel_checks import load_kernel, seeded_ends
t.compare_games("go:size=5,maxlen=60", 3, t.few_passes(0.05))
t.compare_games("go:size=5,ko=simple,maxlen=60", 3, t.few_passes(0.05))
game, k = load_kernel("go:size=5")
for function in ("playout", "rollout"):
    t.replay(k, game.initial_state(), function)
assert k.perft(game.initial_state(), 2) == 651
"""
    ends = "print(seeded_ends(*load_kernel({!r}), {!r}, 10, seed=7))"
    cases = [
        (spec, f) for spec in ("go:size=5", "go:size=7,ko=simple") for f in ("playout", "rollout")
    ]
    code += "\n".join(ends.format(spec, function) for spec, function in cases)
    plain = run_without_jit(code).split()
    assert plain == [
        seeded_ends(*load_kernel(spec), function, 10, seed=7) for spec, function in cases
    ]
