"""The last good replies of ``mcts:lgrf`` in Go's kernel: after each tactical rollout the
kernel's reply tables hold exactly what the readable reference (``heuristic.learn_replies``)
learns from the same moves, rollout after rollout, forgetting included; the rollout plays
a stored reply to the last two moves before one to the last move (at 1 before its own
urgent moves, at 2 after them), and falls back to its own policy when the reply is taken
or would fill its own eye; without the knob it learns nothing; the games stay legal
without eye fills or big self-ataris; ``lgrf`` needs the tactical rollout, is refused out
of range and on a game whose kernel has no such knob, and reaches both threads' kernels."""

from __future__ import annotations

import numpy as np
import pytest
from test_go_heuristic import live_states
from test_go_knowledge import clean_tactics_moves
from test_go_ladders import refused_on_connect4, two_threads_with_knob

import arena
from arena.core.errors import SpecError
from arena.games.go import kernel as gk
from arena.games.go.heuristic import learn_replies
from arena.games.go.rules import GoState


def replies_kernel(spec: str, lgrf: int = 1, seed: int = 5) -> gk.Kernel:
    """A Go kernel with the knob ``lgrf`` set and its generator seeded."""
    game = arena.load_game(spec)
    k = gk.kernel(game)  # type: ignore[arg-type]
    k.params[k.knobs["lgrf"]] = lgrf
    k.functions["seed"](seed)
    return k


def tables(k: gk.Kernel) -> tuple[dict, dict]:
    """The kernel's reply tables as the reference's dictionaries (stored entries only)."""
    n1 = int(k.params[gk.P_N]) + 1
    one_at, two_at = gk.reply_offsets(k.params)
    one = k.params[one_at:two_at].reshape(2, n1)
    two = k.params[two_at : two_at + 2 * n1 * n1].reshape(2, n1, n1)
    return (
        {(int(c), int(a)): int(one[c, a]) for c, a in zip(*np.nonzero(one >= 0), strict=True)},
        {
            (int(c), int(a), int(b)): int(two[c, a, b])
            for c, a, b in zip(*np.nonzero(two >= 0), strict=True)
        },
    )


def set_reply(k: gk.Kernel, colour: int, previous: tuple[int, ...], reply: int) -> None:
    """Store ``reply`` for ``colour`` (0 Black) to ``previous`` (one move, or two in order)."""
    n1 = int(k.params[gk.P_N]) + 1
    one_at, two_at = gk.reply_offsets(k.params)
    if len(previous) == 1:
        k.params[one_at + colour * n1 + previous[0]] = reply
    else:
        k.params[two_at + (colour * n1 + previous[0]) * n1 + previous[1]] = reply


@pytest.mark.parametrize("spec", ["go:size=9", "go:size=13,ko=simple"])
def test_the_kernel_learns_what_the_reference_learns_rollout_after_rollout(spec: str) -> None:
    k = replies_kernel(spec)
    game = arena.load_game(spec)
    one: dict = {}
    two: dict = {}
    forgotten = 0
    for state in live_states(spec, 30, seed=9):
        s = k.encode(state)
        result = k.functions["tactics"](k.params, s)
        moves = gk.moves_played(k, s, 0)  # -1 before the encoded position, but its last
        stored = dict(one), dict(two)
        learn_replies(moves, state.ply, result, one, two, passed=game.pass_move)
        forgotten += sum(key not in one for key in stored[0]) + sum(
            key not in two for key in stored[1]
        )
        assert tables(k) == (one, two), f"after the rollout from ply {state.ply}"
    assert len(two) > 100 and forgotten > 0  # both tables filled, and replies forgotten


def first_replies(
    state: GoState, k: gk.Kernel, then: tuple[int, ...] = (), runs: int = 30
) -> list[int]:
    """The first move of ``runs`` tactical rollouts from ``state`` and the moves ``then``
    played in the kernel (``encode`` keeps only the last move before it, as at a search's
    root; moves after it are known, as down the tree); the kernel learns nothing between
    them (its tables are put back after each)."""
    keep = k.params.copy()
    firsts = []
    for _ in range(runs):
        s = k.encode(state)
        for move in then:
            k.functions["play"](k.params, s, move)
        k.functions["tactics"](k.params, s)
        firsts.append(gk.moves_played(k, s, state.ply + len(then))[0])
        k.params[:] = keep
    return firsts


def test_the_rollout_plays_the_stored_reply_two_moves_first() -> None:
    game = arena.load_game("go:size=9")
    state = game.play_moves(game.parse_moves("e5"))
    e5, c3, g3 = game.parse_moves("e5 c3 g3")
    then = (c3, g3)  # White to move after them, nothing urgent
    g7, b8 = game.parse_move("g7"), game.parse_move("b8")
    k = replies_kernel("go:size=9")
    set_reply(k, 1, (g3,), g7)  # White's reply to G3
    assert first_replies(state, k, then) == [g7] * 30
    set_reply(k, 1, (c3, g3), b8)  # and to C3 then G3: it comes first
    assert first_replies(state, k, then) == [b8] * 30
    set_reply(k, 0, (c3, g3), e5)  # Black's table: not White's reply
    assert first_replies(state, k, then) == [b8] * 30
    off = replies_kernel("go:size=9", lgrf=0)
    set_reply(off, 1, (c3, g3), b8)
    assert first_replies(state, off, then).count(b8) < 5  # without the knob: one of ~78


def test_at_2_the_urgent_moves_come_before_the_stored_reply() -> None:
    # After White's C4, Black's C3 is in atari and extends to C2; Black's stored reply to
    # C4 is E5, played first at 1 and only when nothing is urgent at 2.
    game = arena.load_game("go:size=5")
    state = game.play_moves(game.parse_moves("c3 b3 pass d3 pass c4"))
    c2, c4, e5 = game.parse_moves("c2 c4 e5")
    for lgrf, expected in ((1, e5), (2, c2)):
        k = replies_kernel("go:size=5", lgrf=lgrf)
        set_reply(k, 0, (c4,), e5)
        assert first_replies(state, k) == [expected] * 30
    nine = arena.load_game("go:size=9")
    calm = nine.play_moves(nine.parse_moves("e5 c3"))  # nothing urgent for Black
    k = replies_kernel("go:size=9", lgrf=2)
    g7 = nine.parse_move("g7")
    set_reply(k, 0, (nine.parse_move("c3"),), g7)
    assert first_replies(calm, k) == [g7] * 30


def test_a_stored_reply_that_is_taken_or_fills_an_own_eye_is_passed_over() -> None:
    game = arena.load_game("go:size=9")
    # Black's eye at A1 (B1, A2 and B2 are Black); White then plays E5.
    state = game.play_moves(game.parse_moves("b1 e5 a2 f5 b2 g5"))
    g5 = game.parse_move("g5")
    k = replies_kernel("go:size=9")
    set_reply(k, 0, (g5,), game.parse_move("e5"))  # taken
    assert game.parse_move("e5") not in first_replies(state, k)
    set_reply(k, 0, (g5,), game.parse_move("a1"))  # Black's own eye
    assert game.parse_move("a1") not in first_replies(state, k)


def test_without_the_knob_the_rollout_learns_nothing() -> None:
    k = replies_kernel("go:size=9", lgrf=0)
    for state in live_states("go:size=9", 10, seed=4):
        k.functions["tactics"](k.params, k.encode(state))
    assert tables(k) == ({}, {})


def test_the_rollout_with_replies_plays_legal_games_without_eye_fills_or_self_ataris() -> None:
    k = replies_kernel("go:size=9", seed=2)
    assert clean_tactics_moves(k, live_states("go:size=9", 12, seed=2)) > 100
    assert len(tables(k)[1]) > 50  # it learnt replies on the way


def test_lgrf_needs_the_tactical_rollout_and_reaches_every_thread() -> None:
    with pytest.raises(SpecError, match="lgrf=1 shapes the tactical rollout"):
        arena.load_agent("mcts:rave=1000,prior=20,lgrf=1")
    with pytest.raises(SpecError, match="lgrf"):
        arena.load_agent("mcts:rollout=tactics,lgrf=3")
    refused_on_connect4("mcts:rollout=tactics,lgrf=1,rollouts=10", "lgrf=1")
    game = arena.load_game("go:size=9")
    state = game.play_moves(game.parse_moves("e5 c3"))
    spec = "mcts:c=0,rave=1000,prior=20,rollout=tactics,ladders=1,lgrf=1,rollouts=300,seed=3"
    engines = two_threads_with_knob(spec, state, gk.P_LGRF)
    assert len(tables(engines[0].kernel)[1]) > 0  # the search's rollouts learnt replies
