"""Minimax, alpha-beta and iterative deepening: exact values, pruning, tables, time."""

from __future__ import annotations

import time
import weakref

import pytest

import arena
from arena.search.alphabeta.alphabeta import AlphaBeta
from arena.search.alphabeta.minimax import minimax
from arena.search.clock.deadline import quiet_gc, release_gc
from arena.search.values import WIN, evaluation, terminal_value
from helpers import Stopwatch, random_states

# (spec, depth) small enough for plain minimax to finish quickly.
CASES = [
    ("tictactoe", 5),
    ("connect4", 4),
    ("connect4:rows=5,cols=5,k=4", 5),
    ("othello:size=6", 3),
    ("gomoku:size=7,k=4", 2),
    ("go:size=5", 2),
    ("colosseum:size=6", 2),
]


def positions(spec: str, count: int) -> list[arena.State]:
    states = [
        s for s in random_states(arena.load_game(spec), count * 4, seed=3) if not s.is_terminal()
    ]
    return states[:: max(1, len(states) // count)][:count]


@pytest.mark.parametrize(("spec", "depth"), CASES)
@pytest.mark.parametrize("eval_kind", ["heuristic", "utility"])
def test_alphabeta_returns_the_minimax_value(spec: str, depth: int, eval_kind: str) -> None:
    game = arena.load_game(spec)
    evaluate = evaluation(game, eval_kind)
    nodes = {}
    for state in positions(spec, 12):
        expected = minimax(state, depth, evaluate)
        for cache in (False, True):
            for order in (False, True):
                searcher = AlphaBeta(evaluate, cache, order)
                value, move, _ = searcher.root(state, depth)
                assert value == pytest.approx(expected), (spec, cache, order, state.ply)
                assert move in state.legal_moves()
                nodes[cache, order] = nodes.get((cache, order), 0) + searcher.nodes
    assert nodes[True, True] < nodes[False, False], nodes


def naive_cached_alphabeta(
    state: arena.State, depth: int, alpha: float, beta: float, evaluate, table: dict, ply: int = 0
) -> float:  # type: ignore[no-untyped-def]
    """The tempting mistake: cache the value alpha-beta returned, whatever the window."""
    if state.key() in table:
        return table[state.key()]
    if state.is_terminal():
        return terminal_value(state, ply)
    if depth == 0:
        return evaluate(state)
    best = -float("inf")
    for move in state.legal_moves():
        value = -naive_cached_alphabeta(
            state.play(move), depth - 1, -beta, -alpha, evaluate, table, ply + 1
        )
        best = max(best, value)
        alpha = max(alpha, value)
        if alpha >= beta:
            break
    table[state.key()] = best
    return best


def keyed_noise(state: arena.State) -> float:
    """A fixed pseudo-random evaluation: it makes many cut-offs, independent of any heuristic."""
    return float(state.key() % 201 - 100)


@pytest.mark.parametrize(("spec", "depth", "count"), [("tictactoe", 6, 40), ("connect4", 4, 60)])
def test_a_naive_cache_is_wrong_where_ours_is_right(spec: str, depth: int, count: int) -> None:
    naive_wrong = 0
    for state in positions(spec, count):
        expected = minimax(state, depth, keyed_noise)
        naive = naive_cached_alphabeta(state, depth, -float("inf"), float("inf"), keyed_noise, {})
        naive_wrong += naive != pytest.approx(expected)
        for order in (False, True):
            ours = AlphaBeta(keyed_noise, cache=True, order=order).root(state, depth)[0]
            assert ours == pytest.approx(expected)
    assert naive_wrong >= 2, "a table that stores bounds as values should go wrong here"


def test_wins_are_valued_by_distance() -> None:
    game = arena.load_game("tictactoe")
    state = game.play_moves(game.parse_moves("a1 b1 a2 b2"))  # X: a3 wins now
    value, move, _ = AlphaBeta(evaluation(game, "heuristic"), True, True).root(state, 5)
    assert game.format_move(move) == "a3" and value == WIN - 1
    agent = arena.load_agent("alphabeta:depth=5")
    agent.choose(state, arena.Limit())
    assert agent.last_search.root[0]["text"] == "win in 1"


def test_limit_depth_caps_the_agent_depth() -> None:
    agent = arena.load_agent("alphabeta:depth=6")
    agent.choose(arena.load_game("connect4").initial_state(), arena.Limit(depth=2))
    assert agent.last_search.depth == 2


@pytest.mark.parametrize(
    "spec", ["tictactoe", "connect4", "othello", "gomoku", "go:size=9", "colosseum"]
)
@pytest.mark.parametrize("seconds", [0.02, 0.1])
def test_ids_answers_within_its_time(spec: str, seconds: float) -> None:
    game = arena.load_game(spec)
    agent = arena.load_agent("ids")
    agent.reset(game)  # as a match does before the clock starts
    for state in positions(spec, 3):
        start = time.perf_counter()
        move = agent.choose(state, arena.Limit(time=seconds))
        spent = time.perf_counter() - start
        assert move in state.legal_moves()
        # The deadline is honoured: 5x is slack that only a search ignoring it would use up
        # (exact overruns are measured over 10,000 moves by `arena bench timing`).
        assert spent <= 5 * seconds, (
            f"{spec}: {spent * 1000:.1f} ms for a {seconds * 1000:.0f} ms limit"
        )


@pytest.mark.parametrize("spec", ["connect4", "othello", "gomoku", "go:size=19", "colosseum"])
def test_ids_answers_a_legal_move_given_1_ms(spec: str) -> None:
    """A legal move, and the search gives up at once. At a millisecond the OS scheduler on a
    shared machine decides the exact time, so the bound here only catches a search that
    ignores its limit (`arena bench timing` measures the real overruns)."""
    game = arena.load_game(spec)
    agent = arena.load_agent("ids")
    agent.reset(game)
    for state in positions(spec, 3):
        watch = Stopwatch()  # the search's own time: a loaded machine's waits are not its
        move = agent.choose(state, arena.Limit(time=0.001))
        assert move in state.legal_moves()
        assert watch.seconds() < 0.25


def test_ids_deepens_and_stops_on_a_proven_win() -> None:
    game = arena.load_game("connect4")
    state = game.play_moves(game.parse_moves("4455"))
    agent = arena.load_agent("ids")
    move = agent.choose(state, arena.Limit(time=5.0))
    info = agent.last_search
    assert game.format_move(move) in ("3", "6")
    assert info.root[0]["text"] == "win in 3" and info.seconds < 5.0


def test_ids_reaches_deeper_with_more_time() -> None:
    state = arena.load_game("othello").initial_state()
    depths = []
    for seconds in (0.05, 0.8):
        agent = arena.load_agent("ids")
        agent.choose(state, arena.Limit(time=seconds))
        depths.append(agent.last_search.depth)
    assert depths[1] > depths[0] >= 1


def test_greedy_takes_a_win_and_blocks_by_heuristic() -> None:
    game = arena.load_game("connect4")
    greedy = arena.load_agent("greedy:seed=1")
    assert (
        game.format_move(greedy.choose(game.play_moves(game.parse_moves("112233")), arena.Limit()))
        == "4"
    )


def test_minimax_agent_reports_every_root_move() -> None:
    game = arena.load_game("tictactoe")
    agent = arena.load_agent("minimax:depth=2,eval=utility")
    agent.choose(game.initial_state(), arena.Limit())
    assert len(agent.last_search.root) == 9
    assert agent.last_search.nodes == 1 + 9 + 72


def test_go_values_are_points_for_the_player_to_move() -> None:
    """Issue 26: Go's evaluation is an estimated score margin, so reports show points."""
    game = arena.load_game("go:size=5,komi=0.5")
    state = game.play_moves(game.parse_moves("c3"))  # White to move, a stone behind
    agent = arena.load_agent("alphabeta:depth=1")
    agent.choose(state, arena.Limit(time=5))
    info = agent.last_search
    assert info is not None and "score margin in points" in info.units
    assert info.root[0]["text"].endswith(" points") and info.root[0]["unit"] == "points"


class Linked:
    """A node with a partner: two of them make a cycle, which only the collector frees."""

    partner: Linked | None = None


def garbage_cycles(pairs: int) -> weakref.ref[Linked]:
    """Make ``pairs`` cycles and drop them: a reference to one, dead once it is collected."""
    first = None
    for _ in range(pairs):
        a, b = Linked(), Linked()
        a.partner, b.partner = b, a
        first = first or a
    assert first is not None
    return weakref.ref(first)


def test_release_gc_collects_once_enough_is_frozen_and_then_frees_the_cycles() -> None:
    """Between games ``release_gc`` skips the full collection (0.13 s with numba loaded)
    while little was frozen since the last one; past its room it collects, and a search's
    cyclic garbage frozen by ``quiet_gc`` is freed."""
    release_gc(room=0)  # a clean start: what is alive now is frozen, nothing pending
    with quiet_gc():
        few = garbage_cycles(10)
    assert not release_gc(room=1000) and few() is not None  # kept frozen, not scanned
    with quiet_gc():
        many = garbage_cycles(5000)
    assert release_gc(room=1000)
    assert few() is None and many() is None
    assert not release_gc(room=1000)  # what is left is frozen again: nothing to do
