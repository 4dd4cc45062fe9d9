"""Gomoku's compiled engine: threats found and blocked, counts kept right, time kept."""

from __future__ import annotations

import random

import numpy as np
import pytest

import arena
from arena.search.alphabeta.engines import engine_for
from arena.search.alphabeta.engines.gomoku import C_FOURS, GomokuEngine, make_engine, place, remove
from helpers import Stopwatch, random_states


@pytest.fixture(scope="module")
def engine() -> GomokuEngine:
    found = make_engine(arena.load_game("gomoku"))
    assert found is not None
    return found


def position(text: str, spec: str = "gomoku") -> arena.State:
    game = arena.load_game(spec)
    return game.play_moves(game.parse_moves(text))


def choose(engine: GomokuEngine, state: arena.State, seconds: float = 0.5) -> tuple[str, str]:
    move, info = engine.choose(state, seconds, 64, arena.load_agent("ids"))
    assert move in state.legal_moves()
    return state.game.format_move(move), info.root[0]["text"]


def test_takes_a_win_and_sees_a_lost_position(engine: GomokuEngine) -> None:
    state = position("H8 A1 J8 A2 K8 A3 L8 A4")  # Black: four in a row, to move
    assert choose(engine, state) in (("G8", "win in 1"), ("M8", "win in 1"))
    state = position("H8 A1 J8 A2 K8 A3 L8")  # White cannot block both ends
    assert choose(engine, state)[1] == "loss in 2"


def test_blocks_a_four(engine: GomokuEngine) -> None:
    # Black H8-L8 is closed at G8 by White: White must take M8.
    state = position("H8 G8 J8 A1 K8 A3 L8")
    assert choose(engine, state)[0] == "M8"


def test_makes_an_open_four_from_an_open_three(engine: GomokuEngine) -> None:
    state = position("H8 A1 J8 A3 K8 A5")  # Black to move with the open three H8-K8
    move, text = choose(engine, state)
    assert move in ("G8", "L8")
    assert text == "win in 3"


def test_finds_a_double_four_by_continuous_fours(engine: GomokuEngine) -> None:
    # Black's closed three H8-K8 (White G8) and closed three L9-L11 (White L12):
    # L8 makes two fours at once (M8 and L7), and only a search of fours sees it.
    state = position("H8 G8 J8 L12 K8 A1 L9 A3 L10 A5 L11 A15")
    assert choose(engine, state) == ("L8", "win in 3")


def test_counts_are_undone_exactly_and_fours_are_counted_right(engine: GomokuEngine) -> None:
    search = engine.search
    rng = random.Random(4)
    state = position("H8 H9 J8 J9")
    search.set_root(state)
    before = [a.copy() for a in (search.board, search.cnt, search.sums, search.nearby, search.c)]
    arrays = search.arrays()
    played = []
    empty = [c for c in range(225) if search.board[c] == 0]
    rng.shuffle(empty)
    for i, cell in enumerate(empty[:60]):
        place(*arrays, cell, i % 2)
        played.append((cell, i % 2))
        w, cnt = search.geo[1], search.cnt
        for p in (0, 1):
            fours = int(np.sum((cnt[:, p] == 4) & (cnt[:, 1 - p] == 0)))
            assert search.c[C_FOURS + p] == fours
        assert np.array_equal(cnt[:, 0], (search.board[w] == 1).sum(axis=1))
    for cell, p in reversed(played):
        remove(*arrays, cell, p)
    after = (search.board, search.cnt, search.sums, search.nearby, search.c)
    for old, new in zip(before, after, strict=True):
        assert np.allclose(old, new)


def test_plays_legal_moves_and_keeps_time_with_tiny_limits(engine: GomokuEngine) -> None:
    game = arena.load_game("gomoku")
    agent = arena.load_agent("ids")
    for state in random_states(game, 12, seed=11):
        if state.is_terminal():
            continue
        for seconds in (0.002, 0.02):
            watch = Stopwatch()  # the thread's own time: a loaded machine's pauses left out
            move, _ = engine.choose(state, seconds, 64, agent)
            spent = watch.seconds()
            assert move in state.legal_moves()
            assert spent < seconds + 0.05, (state.ply, seconds, spent)  # the referee's grace


def test_proven_values_agree_with_the_python_reference() -> None:
    # Where both searches prove the result (a win in one, a loss in two) they report it alike.
    spec = "gomoku:size=9"
    fast, slow = arena.load_agent("ids"), arena.load_agent("ids:engine=python")
    assert isinstance(fast.engine(arena.load_game(spec)), GomokuEngine)
    for text in ("E5 A1 F5 A2 G5 A3 H5 B9", "E5 A1 F5 A2 G5 A3 D5"):
        state = position(text, spec)
        texts = []
        for agent in (fast, slow):
            agent.choose(state, arena.Limit(depth=2))
            texts.append(agent.last_search.root[0]["text"])
        assert texts[0] == texts[1] and texts[0] in ("win in 1", "loss in 2")


def test_exactly_five_has_no_engine() -> None:
    assert engine_for(arena.load_game("gomoku:overline=nowin")) is None
    assert engine_for(arena.load_game("gomoku:size=9")) is not None
