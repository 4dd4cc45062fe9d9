"""Connect Four's compiled engine: the reference's values, the solver's scores, time."""

from __future__ import annotations

from pathlib import Path

import pytest

import arena
from arena.search.alphabeta.alphabeta import AlphaBeta
from arena.search.alphabeta.engines import engine_for
from arena.search.alphabeta.engines.connect4 import (
    X_EVEN,
    X_ODD,
    ZUGZWANG,
    Connect4Engine,
    Connect4Search,
    eval_tables,
    make_engine,
    zugzwang,
)
from arena.search.clock.compiled_deadline import NEVER
from arena.search.values import evaluation, is_proven
from arena.solvers.connect4.solver import Connect4Solver
from helpers import Stopwatch, random_states

DATA = Path(__file__).parents[1] / "solvers" / "data" / "connect4_scored_positions.txt"
SCORED = [(moves, int(score)) for moves, score in (line.split() for line in DATA.open())]


@pytest.fixture(scope="module")
def engine() -> Connect4Engine:
    found = make_engine(arena.load_game("connect4"))
    assert found is not None
    return found


def fresh_value(search: Connect4Search, state: arena.State, depth: int) -> float:
    """One iteration to ``depth`` with an empty table: the plain minimax value."""
    search.reset()
    search.set_root(*bitboards(state))
    found = search.iterate(depth, NEVER)
    assert found is not None
    return found.value


def bitboards(state: arena.State) -> tuple[int, int]:
    engine = make_engine(state.game)
    assert engine is not None
    return engine.bitboards(state)


@pytest.mark.parametrize("spec", ["connect4", "connect4:rows=5,cols=5", "connect4:k=3"])
def test_values_are_the_python_reference_values(spec: str) -> None:
    # Without the zugzwang term the evaluation is the heuristic's, compiled: every depth
    # gives the same value as the readable alpha-beta (no table: plain minimax).
    game = arena.load_game(spec)
    search = Connect4Search(game, zugzwang=False)
    evaluate = evaluation(game, "heuristic")
    states = [s for s in random_states(game, 40, seed=5) if not s.is_terminal()]
    for state in states[::3]:
        for depth in (1, 2, 3):
            expected, _, _ = AlphaBeta(evaluate, cache=False, order=False).root(state, depth)
            assert fresh_value(search, state, depth) == pytest.approx(expected), (
                state.ply,
                depth,
            )


def test_search_proves_the_solver_scores(engine: Connect4Engine) -> None:
    # Positions with 14 empty cells or fewer: deepening to the end proves each one,
    # and the value says who wins and in how many plies, as the solver's score does.
    game = arena.load_game("connect4")
    late = [(m, s) for m, s in SCORED if len(m) >= 28]
    assert len(late) >= 10
    agent = arena.load_agent("ids")
    for moves, score in late:
        state = game.play_moves(game.parse_moves(moves))
        engine.search.set_root(*engine.bitboards(state))
        for depth in range(1, 43 - len(moves)):
            found = engine.search.iterate(depth, NEVER)
            assert found is not None
            if is_proven(found.value) or not found.horizon:
                break
        assert found.value == engine.value_of(score, state.ply), moves
        # With time, the exact solver answers, and its move keeps the score.
        move, info = engine.choose(state, 1.0, 64, agent)
        assert info.method == "exact"
        assert info.value == engine.value_of(score, state.ply)
        assert (
            -Connect4Solver(table_bits=16).solve([*(int(c) - 1 for c in moves), move]).score
            == score
        )


def test_plays_legal_moves_and_keeps_time_with_tiny_limits(engine: Connect4Engine) -> None:
    game = arena.load_game("connect4")
    agent = arena.load_agent("ids")
    for state in random_states(game, 30, seed=11):
        if state.is_terminal():
            continue
        for seconds in (0.002, 0.02):
            watch = Stopwatch()  # the thread's own time: a loaded machine's pauses left out
            move, _ = engine.choose(state, seconds, 64, agent)
            spent = watch.seconds()
            assert move in state.legal_moves()
            assert spent < seconds + 0.05, (state.ply, seconds, spent)  # the referee's grace


def test_ids_uses_the_engine_and_finds_the_win() -> None:
    game = arena.load_game("connect4")
    agent = arena.load_agent("ids")
    assert isinstance(agent.engine(game), Connect4Engine)
    state = game.play_moves(game.parse_moves("4455"))
    assert game.format_move(agent.choose(state, arena.Limit(time=0.3))) in ("3", "6")
    assert agent.last_search is not None and agent.last_search.root[0]["text"] == "win in 3"
    assert agent.last_search.engine == "compiled"


def test_blocks_like_the_python_engine_at_a_fixed_depth() -> None:
    game = arena.load_game("connect4")
    state = game.play_moves(game.parse_moves("17273"))  # Red threatens 4 on the bottom row
    fast = arena.load_agent("ids:maxdepth=4")
    slow = arena.load_agent("ids:engine=python,maxdepth=4,cache=0")
    assert fast.choose(state, arena.Limit(depth=4)) == slow.choose(state, arena.Limit(depth=4)) == 3
    assert fast.last_search is not None and fast.last_search.depth == 4


def test_the_zugzwang_term_follows_allis_rule() -> None:
    x, _ = eval_tables(6, 7, 4)
    odd, even, board = (
        int(x[X_ODD]),
        int(x[X_EVEN]),
        (1 << 49) - 1 - sum(1 << (7 * c + 6) for c in range(7)),
    )

    def cell(col: int, row: int) -> int:  # row 0 at the bottom
        return 1 << (col * 7 + row)

    # The first player's threat on row 3 (an odd row), nothing of the other's: a win.
    assert zugzwang(cell(2, 2), 0, odd, even, 6, board) == ZUGZWANG
    # The second player's even threat under it in the same column comes first.
    assert zugzwang(cell(2, 2), cell(2, 1), odd, even, 6, board) == -ZUGZWANG
    # Good threats on both sides, in different columns: no verdict.
    assert zugzwang(cell(2, 2), cell(5, 3), odd, even, 6, board) == 0
    # A threat on the wrong parity does not count.
    assert zugzwang(cell(2, 1), 0, odd, even, 6, board) == 0


def test_boards_too_large_for_the_bitboards_have_no_engine() -> None:
    assert engine_for(arena.load_game("connect4:rows=9,cols=7")) is None
    assert engine_for(arena.load_game("connect4:rows=6,cols=9")) is not None


def test_an_analysis_values_every_move_where_the_engine_cannot() -> None:
    """Issue 26: the compiled Connect Four engine cannot re-search one root move with an
    open window, so ``ids:multipv=N`` answers with the readable search: every row exact
    (``=``), where the engine's rows carry pruning's bounds."""
    game = arena.load_game("connect4")
    state = game.play_moves(game.parse_moves("4453"))
    agent = arena.load_agent("ids:multipv=7")
    agent.choose(state, arena.Limit(depth=5))
    info = agent.last_search
    assert info is not None and len(info.root) == 7
    assert all(row["bound"] == "=" for row in info.root), info.root
    engine = arena.load_agent("ids")
    engine.choose(state, arena.Limit(depth=5))
    assert engine.last_search is not None
    assert any(row["bound"] != "=" for row in engine.last_search.root)  # pruning's bounds
