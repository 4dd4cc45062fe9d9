"""The low-liberty knob of Go's kernel (``mcts:lowlib=1``): after a move that leaves a
string with two liberties, the tactical rollout answers it (before its shapes): the owner
of a string next to the move extends to three liberties or more, or captures a string in
atari next to it; the opponent's string of the move is put in atari where extending at
its other liberty would not reach three liberties. The kernel's answers agree with a
readable reference on live states; the rollout's first moves are those answers with the
knob and not without it; its games stay legal, without eye fills or big self-ataris;
the knob needs the tactical rollout, is refused out of range and where the kernel has
none, and reaches every thread."""

from __future__ import annotations

import pytest
from test_go_heuristic import live_states
from test_go_kernel import own_eye
from test_go_knowledge import clean_tactics_moves
from test_go_ladders import refused_on_connect4, two_threads_with_knob
from test_go_nakade import position

import arena
from arena.core.errors import SpecError
from arena.games.go import kernel as gk
from arena.games.go.rules import GoState

TACTICS = "mcts:c=0,rave=1000,prior=20,rollout=tactics,ladders=1"


def rollout_firsts(state: GoState, lowlib: int, runs: int = 40) -> set[int]:
    """The first moves of ``runs`` tactical rollouts from ``state``, the knob at ``lowlib``."""
    k = gk.kernel(state.game)
    k.params[k.knobs["lowlib"]] = lowlib
    k.functions["seed"](7)
    firsts = set()
    for _ in range(runs):
        s = k.encode(state)
        k.functions["tactics"](k.params, s)
        firsts.add(gk.moves_played(k, s, state.ply)[0])
    return firsts


def points(state: GoState, text: str) -> set[int]:
    return set(state.game.parse_moves(text))


def test_an_own_string_left_with_two_liberties_extends_where_it_gains() -> None:
    # White's d5 leaves Black's e5 with two liberties, e4 and f5; e4 leads into White's
    # net (one liberty after it), f5 out to four.
    state = position("e5", "e6 d4 e3 f4 d5")
    assert rollout_firsts(state, 1) == points(state, "f5")
    assert rollout_firsts(state, 0) != points(state, "f5")  # the shapes around d5


def test_the_opponents_string_with_two_liberties_gets_the_atari_it_cannot_run_from() -> None:
    # White's e1 has two liberties, e2 and f1. Black's e2 leaves it f1, where it reaches
    # only two (g1, f2); Black's f1 leaves it e2, where it would reach three (d2, e3, f2).
    state = position("c1 d1 c2", "h9 h8 e1")
    assert rollout_firsts(state, 1) == points(state, "e2") == set(reference(state))


def test_a_capture_next_to_a_short_string_is_an_answer() -> None:
    # White's e4 leaves Black's d4-d5-d6 with two liberties, d7 and e5. White's e6, next
    # to it, is in atari at e5: taking it and extending to d7 are the answers.
    state = position("d4 d5 d6 e7 f6", "c4 c5 c6 d3 e6 e4")
    firsts = rollout_firsts(state, 1)
    assert firsts == points(state, "e5 d7") == set(reference(state))


def reference(state: GoState) -> list[int]:
    """The readable reference of the kernel's ``low_liberties`` after ``state.last_move``:
    the moves it lists, in no order."""
    game = state.game
    mine, theirs = (state.black, state.white) if state.to_move == 0 else (state.white, state.black)
    empty = game.full & ~(state.black | state.white)
    legal = set(state.legal_moves())

    def libs(string: int) -> int:
        return game.adjacent(string) & empty

    def string_of(point: int, own: int) -> int:
        return game.flood(1 << point, own)

    def captures(move: int, foe: int) -> bool:
        return any(
            foe >> q & 1 and libs(string_of(q, foe)) == 1 << move
            for q in range(game.points)
            if game.adjacent(1 << move) >> q & 1
        )

    def three(move: int, own: int, foe: int, skip: int) -> bool:
        if captures(move, foe):
            return True
        string = game.flood(1 << move, own | 1 << move)
        free = libs(string) & ~(1 << move)
        if skip >= 0:
            free &= ~(1 << skip)
        return free.bit_count() >= 3

    def safe(move: int) -> bool:
        if captures(move, theirs):
            return True
        string = game.flood(1 << move, mine | 1 << move)
        return (libs(string) & ~(1 << move)).bit_count() >= 2

    last = state.last_move
    out: list[int] = []
    near = game.adjacent(1 << last)
    seen = 0
    for q in range(game.points):
        if not (near >> q & 1 and mine >> q & 1) or seen >> q & 1:
            continue
        string = string_of(q, mine)
        seen |= string
        free = libs(string)
        if free.bit_count() != 2:
            continue
        for r in range(game.points):
            if theirs >> r & 1 and game.adjacent(string) >> r & 1:
                foe = libs(string_of(r, theirs))
                if foe.bit_count() == 1 and foe.bit_length() - 1 in legal:
                    out.append(foe.bit_length() - 1)
        for lib in range(game.points):
            if (
                free >> lib & 1
                and lib in legal
                and not own_eye(state, lib)
                and three(lib, mine, theirs, -1)
            ):
                out.append(lib)
    free = libs(string_of(last, theirs))
    if free.bit_count() == 2:
        a, b = (q for q in range(game.points) if free >> q & 1)
        for x, y in ((a, b), (b, a)):
            if x in legal and safe(x) and not three(y, theirs, mine, x):
                out.append(x)
    return out


def kernel_answers(k: object, state: GoState) -> list[int]:
    """What the kernel's ``low_liberties`` lists after ``state.last_move``, as points."""
    p = k.params  # type: ignore[attr-defined]
    s = k.encode(state)  # type: ignore[attr-defined]
    at = int(p[p[gk.P_IDX] + state.last_move])
    room = int(p[gk.P_SCRATCH])  # the area count's marks: free while nothing counts
    n = gk.low_liberties(p, s, at, state.to_move + 1, room)
    return [int(p[p[gk.P_POINT] + c]) for c in s[room : room + n]]


@pytest.mark.parametrize(("spec", "count"), [("go:size=7", 300), ("go:size=9", 300)])
def test_the_kernel_lists_the_references_answers_on_live_states(spec: str, count: int) -> None:
    k = gk.kernel(arena.load_game(spec))
    found = 0
    for state in live_states(spec, count, seed=count + len(spec)):
        if state.last_move < 0 or state.last_move == state.game.pass_move:
            continue
        mine = kernel_answers(k, state)
        assert sorted(set(mine)) == sorted(set(reference(state))), state.render()
        found += bool(mine)
    assert found > count // 20  # the positions ask the question often enough to mean it


def test_the_rollout_with_the_knob_plays_legal_games_without_eye_fills_or_self_ataris() -> None:
    k = gk.kernel(arena.load_game("go:size=9"))
    k.params[k.knobs["lowlib"]] = 1
    k.functions["seed"](4)
    assert clean_tactics_moves(k, live_states("go:size=9", 12, seed=4)) > 100


def test_lowlib_needs_the_tactical_rollout_and_reaches_every_thread() -> None:
    with pytest.raises(SpecError, match="lowlib=1 shapes the tactical rollout"):
        arena.load_agent("mcts:rave=1000,prior=20,lowlib=1")
    with pytest.raises(SpecError, match="lowlib"):
        arena.load_agent("mcts:rollout=tactics,lowlib=2")
    refused_on_connect4("mcts:rollout=tactics,lowlib=1,rollouts=10", "lowlib=1")
    state = position("e5", "e6 d4 e3 f4 d5")
    two_threads_with_knob(f"{TACTICS},lowlib=1,rollouts=300,seed=3", state, gk.P_LOWLIB)
