"""The compiled-engine hook of ``ids`` (each engine's own tests sit beside this file)."""

from __future__ import annotations

import pytest

import arena
from arena.search.alphabeta.engines import ENGINES, connect4, engine_for
from arena.search.alphabeta.engines.gomoku import engine as gomoku
from arena.search.alphabeta.engines.othello import search as othello_search


def test_games_without_an_engine_get_none() -> None:
    game = arena.load_game("tictactoe")
    assert "tictactoe" not in ENGINES
    assert engine_for(game) is None


def test_python_engine_is_the_reference_search() -> None:
    agent = arena.load_agent("ids:engine=python")
    game = arena.load_game("connect4")
    assert agent.engine(game) is None
    state = game.play_moves(game.parse_moves("4455"))
    assert game.format_move(agent.choose(state, arena.Limit(time=0.3))) in ("3", "6")


def test_unknown_engine_is_a_spec_error() -> None:
    try:
        arena.load_agent("ids:engine=turbo")
    except arena.SpecError as error:
        assert "engine" in str(error)
    else:
        raise AssertionError("engine=turbo was accepted")


def test_the_compiled_searches_let_other_threads_run() -> None:
    """An iteration of a compiled engine runs for seconds on a long move: it must not hold
    the interpreter (a web server's event loop, serving every board, would wait; issue 31)."""
    for kernel in (connect4.search_root, gomoku.search_root, othello_search.root):
        assert kernel.targetoptions.get("nogil"), kernel


@pytest.mark.parametrize(
    "spec", ["connect4", "othello", "gomoku:size=9", "gomoku:size=9,overline=nowin"]
)
def test_a_node_budget_runs_the_compiled_engine_the_same_on_any_thread_count(spec: str) -> None:
    """``Limit(nodes=N)`` is searched by the compiled engine (it was the readable search),
    on one thread whatever ``threads=`` says, within a check of the count past N: the same
    move, nodes and depth every time; more nodes, deeper."""
    game = arena.load_game(spec)
    state = game.initial_state()
    for _ in range(4):
        state = state.play(state.legal_moves()[len(state.legal_moves()) // 3])
    found = []
    for threads in (1, 2, 2):
        agent = arena.load_agent(f"ids:threads={threads}")
        agent.reset(game)
        move = agent.choose(state, arena.Limit(nodes=20_000, time=60))
        info = agent.last_search
        assert info.engine in ("compiled", "fast"), info.engine
        assert 20_000 <= info.nodes <= 20_000 + 256, info.nodes
        found.append((move, info.nodes, info.depth))
    assert found[0] == found[1] == found[2]
    agent.choose(state, arena.Limit(nodes=200_000))
    assert agent.last_search.depth > found[0][2]
