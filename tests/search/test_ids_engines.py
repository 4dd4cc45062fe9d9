"""The compiled-engine hook of ``ids`` (each engine's own tests sit beside this file)."""

from __future__ import annotations

import arena
from arena.search.alphabeta.engines import ENGINES, connect4, engine_for, gomoku, othello_search


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
