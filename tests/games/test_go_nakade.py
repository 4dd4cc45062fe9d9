"""The nakade knob of Go's kernel (``mcts:nakade=1``): a group whose three-point eye space
has its vital point taken and no liberty outside is dead, yet the tactical rollout, which
never puts two stones or more in atari, counted it alive in every rollout; with the knob
the attacker fills the space and the rollout counts it dead, while a group with two eyes
stays alive. ``nakade`` allows only a stone that leaves an opposing string next to it with
one liberty, inside a region of at most six cells, empty or its own, that the opponent
encloses (never the defender filling its own space, never a self-atari in the open, never
while the opponent has a liberty outside); the prior stops scoring such a move as a
self-atari; the rollout's games stay legal, without eye fills, and every big self-atari it
plays is such a nakade; the knob needs the tactical rollout, is refused out of range and
where the kernel has none, and reaches every thread."""

from __future__ import annotations

import numpy as np
import pytest
from test_go_heuristic import live_states
from test_go_kernel import own_eye, replay
from test_go_knowledge import self_atari
from test_go_ladders import refused_on_connect4, two_threads_with_knob

import arena
from arena.core.errors import SpecError
from arena.core.kernel import Kernel
from arena.games.go import kernel as gk
from arena.games.go.rules import GoState

# Black's corner group (a2 b2 c2 d2 d1) with the straight-three eye space a1 b1 c1 behind
# White's wall (a3 b3 c3 d3 e3 e2 e1). With White on b1, the vital point, Black is dead.
BLACK_CORNER = "a2 b2 c2 d2 d1"
WHITE_WALL = "a3 b3 c3 d3 e3 e2 e1"


def position(black: str, white: str, spec: str = "go:size=9") -> GoState:
    """Black's and White's stones put down in turn (passes where one has none left)."""
    game = arena.load_game(spec)
    b, w = black.split(), white.split()
    moves = []
    for i in range(max(len(b), len(w))):
        moves += [b[i] if i < len(b) else "pass", w[i] if i < len(w) else "pass"]
    return game.play_moves(game.parse_moves(" ".join(moves)))  # type: ignore[return-value]


def nakade_kernel(state: GoState, on: bool, seed: int = 1) -> Kernel:
    k = gk.kernel(state.game)
    k.params[gk.P_NAKADE] = int(on)
    k.functions["seed"](seed)
    return k


def corner_alive(state: GoState, on: bool, runs: int = 200) -> int:
    """In how many of ``runs`` tactical rollouts from ``state`` a2 ends Black's."""
    k = nakade_kernel(state, on)
    out = np.empty(k.max_moves, np.int64)
    a2 = state.game.parse_moves("a2")[0]
    alive = 0
    for _ in range(runs):
        s = k.encode(state)
        k.functions["tactics"](k.params, s)
        k.functions["owners"](k.params, s, out)
        alive += int(out[a2] == 0)
    return alive


def allows(state: GoState, point: str, colour: int) -> bool:
    """What the kernel's ``nakade`` answers for ``colour`` (1 Black, 2 White) on ``point``."""
    k = nakade_kernel(state, True)
    s = k.encode(state)
    cell = int(k.params[k.params[gk.P_IDX] + state.game.parse_moves(point)[0]])
    return bool(gk.nakade(k.params, s, cell, colour))


def test_the_rollout_counts_a_dead_three_point_eye_dead_only_with_the_knob() -> None:
    dead = position(BLACK_CORNER, WHITE_WALL + " b1")  # Black to move: nothing saves it
    assert corner_alive(dead, on=False) == 200  # the old rollout: alive every time
    assert corner_alive(dead, on=True) < 50


def test_nakade_waits_for_the_outside_liberty() -> None:
    # Without White's e1 Black keeps a liberty outside: White may not fill a1 or c1 yet
    # (it would leave Black two liberties), only once e1 is White's.
    dead = position(BLACK_CORNER, WHITE_WALL.replace(" e1", "") + " b1")
    assert not allows(dead, "a1", 2) and not allows(dead, "c1", 2)
    game = dead.game
    assert allows(dead.play(game.pass_move).play(game.parse_moves("e1")[0]), "a1", 2)


def test_a_group_with_two_eyes_stays_alive() -> None:
    alive = position(BLACK_CORNER + " b1", WHITE_WALL)  # eyes at a1 and c1
    assert corner_alive(alive, on=True) == 200


def test_nakade_allows_only_a_stone_in_the_opponents_small_enclosed_space() -> None:
    dead = position(BLACK_CORNER, WHITE_WALL + " b1")
    assert allows(dead, "a1", 2) and allows(dead, "c1", 2)  # White fills Black's space
    for point in ("a1", "c1"):
        move = dead.game.parse_moves(point)[0]
        assert nakade_reference(dead.play(dead.game.pass_move), move)
    assert not allows(dead, "a1", 1)  # Black's own group counts: 7 cells, not an eye space
    # Black e5 in atari: extending to f5 leaves two stones with one liberty, in the open.
    open_board = position("e5", "d5 e6 e4 f6 f4")
    game = open_board.game
    assert self_atari(open_board, game.parse_moves("f5")[0])
    assert not allows(open_board, "f5", 1)
    # Seven points of eye space (a1-g1) are more than a nakade.
    wide = position("a2 b2 c2 d2 e2 f2 g2 h2 h1", "a3 b3 c3 d3 e3 f3 g3 h3 j3 j2 j1 b1")
    assert allows(wide, "a1", 2) is False


def test_the_prior_stops_scoring_a_nakade_as_a_self_atari() -> None:
    dead = position(BLACK_CORNER, WHITE_WALL + " b1")
    dead = dead.play(dead.game.pass_move)  # White to move
    a1 = dead.game.parse_moves("a1")[0]
    assert self_atari(dead, a1)
    out = np.zeros(dead.game.points + 1, np.int64)
    for on, low in ((False, True), (True, False)):
        k = nakade_kernel(dead, on)
        assert k.functions["prior"](k.params, k.encode(dead), out) == 1
        assert (int(out[a1]) == gk.PRIOR_SELF_ATARI) is low


def nakade_reference(state: GoState, move: int) -> bool:
    """The readable reference of ``nakade``: an opposing string next to ``move`` has two
    liberties, ``move`` one of them, and the cells connected to ``move`` that are empty or
    the mover's (the move's own cell included) number at most ``NAKADE_CELLS``."""
    game = state.game
    theirs = state.white if state.to_move == 0 else state.black
    empty = game.full & ~(state.black | state.white)
    short = False
    for stone in range(game.points):
        if theirs >> stone & 1 and game.adjacent(1 << move) >> stone & 1:
            libs = game.adjacent(game.flood(1 << stone, theirs)) & empty
            short |= libs.bit_count() == 2 and bool(libs >> move & 1)
    region = game.flood(1 << move, game.full & ~theirs)
    return short and region.bit_count() <= gk.NAKADE_CELLS


@pytest.mark.parametrize(("spec", "count"), [("go:size=7", 30), ("go:size=9", 12)])
def test_the_rollout_plays_legal_games_whose_big_self_ataris_are_nakades(
    spec: str, count: int
) -> None:
    k = gk.kernel(arena.load_game(spec))
    k.params[gk.P_NAKADE] = 1
    k.functions["seed"](count)
    placed = nakades = 0
    for start in live_states(spec, count, seed=count):
        state = start
        for move in replay(k, start, "tactics"):
            if move != state.game.pass_move:
                assert not own_eye(state, move), f"ply {state.ply}\n{state.render()}"
                if self_atari(state, move):
                    assert nakade_reference(state, move), f"ply {state.ply}\n{state.render()}"
                    nakades += 1
                placed += 1
            state = state.play(move)
    assert placed > 10 * count and nakades > 0


def test_nakade_needs_the_tactical_rollout_and_reaches_every_thread() -> None:
    with pytest.raises(SpecError, match="nakade=1 shapes the tactical rollout"):
        arena.load_agent("mcts:rave=1000,prior=20,nakade=1")
    with pytest.raises(SpecError, match="nakade"):
        arena.load_agent("mcts:rollout=tactics,nakade=2")
    refused_on_connect4("mcts:rollout=tactics,nakade=1,rollouts=10", "nakade=1")
    dead = position(BLACK_CORNER, WHITE_WALL + " b1")
    dead = dead.play(dead.game.pass_move)
    spec = "mcts:c=0,rave=1000,prior=20,rollout=tactics,ladders=1,nakade=1,rollouts=300,seed=3"
    two_threads_with_knob(spec, dead, gk.P_NAKADE)
