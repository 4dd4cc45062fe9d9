"""Ladders in Go's kernel (``ladder``) against the readable reference
(``heuristic.ladder_captured``), and in the prior behind ``mcts:ladders=1``: a working
ladder captures, a ladder breaker or an attacker left in atari lets the string escape, three
liberties after the extension are no ladder; the kernel reads as the reference on random
positions; the prior scores a broken ladder's extension low and a working ladder's atari
as a capture only with the knob on, and as before with it off; ``ladders=1`` is refused on a
game whose kernel has no such knob, and a search with it plays a legal move. With the knob at
2 (``mcts:ladders=2``) the tactical rollout reads ladders too: it never runs a string the
ladder captures, runs it when a breaker stands, gives the atari that starts a working ladder
on the last move's string, and still plays legal games without eye fills or big
self-ataris."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from test_go_heuristic import live_states
from test_go_knowledge import clean_tactics_moves

import arena
from arena.core.bitboard import iter_bits
from arena.core.errors import SpecError
from arena.games.go import kernel as gk
from arena.games.go.heuristic import ladder_captured
from arena.games.go.rules import Go, GoState
from arena.search.mcts.agent import MCTSAgent

# White's D4 is in atari and runs to E4; Black's stones make the ladder.
LADDER = "c4 d5 e3 d3"


def board(spec: str, black: str, white: str, to_move: int) -> GoState:
    """A live position with the stones given (points as ``d4 e5``) and ``to_move`` to play."""
    game = arena.load_game(spec)
    assert isinstance(game, Go)
    b = sum(1 << game.parse_move(m) for m in black.split())
    w = sum(1 << game.parse_move(m) for m in white.split())
    return GoState._make(game, to_move, b, w, 0, -1, frozenset(), (b | w << game.points,), -1)


def kernel_reads(k: object, state: GoState, move: int, target: int) -> bool:
    """The kernel's ``ladder`` for ``move`` and the group on point ``target``; ``s`` keeps
    its position (only the scratch room changes)."""
    p = k.params  # type: ignore[attr-defined]
    s = k.encode(state)  # type: ignore[attr-defined]
    before = s[: p[gk.P_SCRATCH]].copy()
    found = gk.ladder(p, s, p[p[gk.P_IDX] + move], p[p[gk.P_IDX] + target])
    assert np.array_equal(s[: p[gk.P_SCRATCH]], before)
    return bool(found)


def both(state: GoState, move: str, target: str | None = None) -> bool:
    """The reference's answer, after checking that the kernel's is the same."""
    game = state.game
    m = game.parse_move(move)
    t = game.parse_move(target) if target else m
    expected = ladder_captured(state, m, t)
    assert kernel_reads(gk.kernel(game), state, m, t) == expected
    return expected


@pytest.mark.parametrize("size", [19, 9])
def test_a_working_ladder_captures_and_a_breaker_saves(size: int) -> None:
    spec = f"go:size={size}"
    assert both(board(spec, LADDER, "d4", 1), "e4")
    breaker = "o14" if size == 19 else "g7"  # on the ladder's diagonal, White's
    assert not both(board(spec, LADDER, f"d4 {breaker}", 1), "e4")
    # The same stones with Black to move: White's D4 has two liberties, an atari at D3
    # starts the ladder, but not with the breaker there.
    two = board(spec, "c4 d5 e3", "d4", 0)
    assert both(two, "d3", "d4")
    assert not both(board(spec, "c4 d5 e3", f"d4 {breaker}", 0), "d3", "d4")


def test_the_defender_escapes_by_taking_an_attacker_in_atari() -> None:
    # White's D2, E2 and F3 leave Black's D3-E3 one liberty (C3): once Black gives atari,
    # White takes them.
    assert not both(board("go:size=19", LADDER, "d4 d2 e2 f3", 1), "e4")


def test_three_liberties_after_the_extension_are_no_ladder() -> None:
    assert not both(board("go:size=19", "c4 d5 d3", "d4", 1), "e4")  # E4: E5, F4, E3
    assert not both(board("go:size=9", "c4 d5 d3", "d4", 1), "e4")


def readings(state: GoState) -> list[tuple[int, int]]:
    """(move, target) of every extension of a group of the player to move in atari, and of
    every atari on an opposing group of two liberties."""
    game = state.game
    stones = (state.black, state.white)
    empty = game.full & ~(state.black | state.white)
    found = []
    for colour in (0, 1):
        for group in game.groups(stones[colour]):
            libs = list(iter_bits(game.adjacent(group) & empty))
            target = (group & -group).bit_length() - 1
            if colour == state.to_move and len(libs) == 1:
                found.append((libs[0], libs[0]))
            elif colour != state.to_move and len(libs) == 2:
                found += [(libs[0], target), (libs[1], target)]
    return found


@pytest.mark.parametrize(("spec", "count"), [("go:size=9", 150), ("go:size=13", 60)])
def test_the_kernel_reads_as_the_reference_on_live_states(spec: str, count: int) -> None:
    game = arena.load_game(spec)
    k = gk.kernel(game)  # type: ignore[arg-type]
    answers = []
    for state in live_states(spec, count, seed=count):
        for move, target in readings(state):
            expected = ladder_captured(state, move, target)
            assert kernel_reads(k, state, move, target) == expected, (
                f"{game.format_move(move)} on {game.format_move(target)}\n{state.render()}"
            )
            answers.append(expected)
    assert len(answers) > 100 and 0 < sum(answers) < len(answers)  # both answers seen


def priors(state: GoState, ladders: int) -> np.ndarray:
    k = gk.kernel(state.game)
    k.params[k.knobs["ladders"]] = ladders
    out = np.zeros(k.max_moves, np.int64)
    assert k.functions["prior"](k.params, k.encode(state), out) == 1
    return out


def test_the_prior_reads_ladders_only_with_the_knob() -> None:
    game = arena.load_game("go:size=19")
    e4, d3 = game.parse_move("e4"), game.parse_move("d3")
    run = board("go:size=19", LADDER, "d4", 1)  # a broken ladder to run
    assert priors(run, 0)[e4] == gk.PRIOR_SAVE
    assert priors(run, 1)[e4] == gk.PRIOR_SELF_ATARI
    broken = board("go:size=19", LADDER, "d4 o14", 1)  # the breaker: running works
    assert priors(broken, 1)[e4] == priors(broken, 0)[e4] == gk.PRIOR_SAVE
    atari = board("go:size=19", "c4 d5 e3", "d4", 0)  # the atari that starts the ladder
    assert priors(atari, 0)[d3] < gk.PRIOR_CAPTURE
    assert priors(atari, 1)[d3] == gk.PRIOR_CAPTURE


def test_without_the_knob_the_prior_differs_only_where_a_ladder_was_read() -> None:
    changed = 0
    for state in live_states("go:size=9", 120, seed=7):
        off, on = priors(state, 0), priors(state, 1)
        found = readings(state)
        for move in map(int, np.flatnonzero(off != on)):
            changed += 1
            if on[move] < off[move]:  # an extension the ladder captures
                assert (off[move], on[move]) == (gk.PRIOR_SAVE, gk.PRIOR_SELF_ATARI)
                assert ladder_captured(state, move, move)
            else:  # an atari that starts a working ladder
                assert on[move] >= gk.PRIOR_CAPTURE
                assert any(ladder_captured(state, move, t) for m, t in found if m == move != t)
    assert changed > 0


def refused_on_connect4(spec: str, knob: str) -> None:
    """``spec`` loads, but a game whose kernel has no such knob refuses it in one line
    that names ``knob``."""
    agent = arena.load_agent(spec)
    with pytest.raises(SpecError) as error:
        agent.reset(arena.load_game("connect4"))
    assert knob in str(error.value) and "\n" not in str(error.value)


def two_threads_with_knob(spec: str, state: GoState, knob: int, value: int = 1) -> list[Any]:
    """A search of ``spec`` on two threads plays a legal move from ``state``, and both
    threads' kernels hold ``value`` at ``knob`` (a ``gk.P_...`` offset); their engines."""
    agent = arena.load_agent(f"{spec},threads=2")
    assert isinstance(agent, MCTSAgent)
    assert agent.choose(state, arena.Limit()) in state.legal_moves()
    engines: list[Any] = agent.engine.engines  # type: ignore[attr-defined]
    assert len(engines) == 2 and all(e.kernel.params[knob] == value for e in engines)
    return engines


def test_ladders_is_refused_where_the_kernel_has_no_such_knob() -> None:
    with pytest.raises(SpecError, match="ladders=1 shapes the prior"):
        arena.load_agent("mcts:ladders=1")
    refused_on_connect4("mcts:rave=1000,prior=20,ladders=1,rollouts=10", "ladders=1")


def test_a_search_with_ladders_plays_a_legal_move_from_its_own_kernel() -> None:
    state = board("go:size=9", LADDER, "d4", 1)
    spec = "mcts:c=0,rave=1000,prior=20,rollout=tactics,ladders=1,rollouts=200,seed=3"
    knob = gk.P_LADDERS
    two_threads_with_knob(spec, state, knob)
    plain = arena.load_agent("mcts:c=0,rave=1000,prior=20,rollouts=50,seed=3,threads=1")
    plain.choose(state, arena.Limit())
    assert plain.engine.kernel.params[knob] == 0  # type: ignore[attr-defined]


def rollout_firsts(moves: str, ladders: int, runs: int = 40) -> tuple[GoState, list[int]]:
    """The first move of ``runs`` tactical rollouts after ``moves`` on 19x19, the knob at
    ``ladders``."""
    game = arena.load_game("go:size=19")
    state = game.play_moves(game.parse_moves(moves))
    k = gk.kernel(game)  # type: ignore[arg-type]
    k.params[k.knobs["ladders"]] = ladders
    k.functions["seed"](11)
    firsts = []
    for _ in range(runs):
        s = k.encode(state)
        k.functions["tactics"](k.params, s)
        firsts.append(gk.moves_played(k, s, state.ply)[0])
    return state, firsts  # type: ignore[return-value]


def test_the_rollout_runs_a_string_only_where_the_ladder_breaks() -> None:
    # Black's D3 puts White's D4 in atari; E4 runs into a working ladder.
    run = "c4 d4 d5 pass e3 pass d3"
    state, firsts = rollout_firsts(run, 1)
    e4 = state.game.parse_move("e4")
    assert firsts == [e4] * 40  # the prior's reading alone: the rollout still runs
    _, firsts = rollout_firsts(run, 2)
    assert e4 not in firsts
    _, firsts = rollout_firsts("c4 d4 d5 o14 e3 pass d3", 2)  # White's breaker on O14
    assert firsts == [e4] * 40


def test_the_rollout_gives_the_atari_that_starts_a_working_ladder() -> None:
    # White's last stone, D4, has two liberties: the atari at D3 starts a working ladder
    # (and the one at E4 too, by the reference: it drives White to the near edges).
    moves = "c4 pass d5 pass e3 d4"
    state, firsts = rollout_firsts(moves, 2)
    game = state.game
    d4 = game.parse_move("d4")
    working = {m for m in game.parse_moves("d3 e4") if ladder_captured(state, m, d4)}
    assert game.parse_move("d3") in working
    assert set(firsts) == working
    _, firsts = rollout_firsts(moves, 1)
    assert not set(firsts) <= working  # without the knob: the shapes around D4


def test_the_rollout_with_ladders_plays_legal_games_without_eye_fills_or_self_ataris() -> None:
    game = arena.load_game("go:size=9")
    k = gk.kernel(game)  # type: ignore[arg-type]
    k.params[k.knobs["ladders"]] = 2
    k.functions["seed"](2)
    assert clean_tactics_moves(k, live_states("go:size=9", 12, seed=2)) > 100


def test_ladders_2_needs_the_tactical_rollout_and_reaches_every_thread() -> None:
    with pytest.raises(SpecError, match="ladders=2 reads ladders in the tactical rollout"):
        arena.load_agent("mcts:rave=1000,prior=20,ladders=2")
    with pytest.raises(SpecError, match="ladders"):
        arena.load_agent("mcts:rave=1000,prior=20,rollout=tactics,ladders=3")
    state = board("go:size=9", LADDER, "d4", 1)
    spec = "mcts:c=0,rave=1000,prior=20,rollout=tactics,ladders=2,rollouts=200,seed=3"
    agent = arena.load_agent(f"{spec},threads=2")
    assert agent.choose(state, arena.Limit()) in state.legal_moves()
    engines = agent.engine.engines  # type: ignore[attr-defined]
    assert len(engines) == 2 and all(e.kernel.params[gk.P_LADDERS] == 2 for e in engines)
