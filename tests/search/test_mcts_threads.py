"""The compiled MCTS on several threads (mcts:threads=N): one thread is the serial search
exactly; a shared tree keeps its statistics consistent; a tree per thread adds up; both
answer in time (and soon after stop(): tests/agents/test_stop.py)."""

from __future__ import annotations

import os
import random
import time

import numpy as np
import pytest

import arena
from arena.core.agent import start_game
from arena.core.kernel import ONGOING
from arena.search.atomics import LINE, add, private_array, try_cas
from arena.search.clock.deadline import Deadline
from arena.search.mcts import entry as me
from arena.search.mcts import kernel as mk
from arena.search.mcts import warmup as compiled
from arena.search.mcts.options import MCTSOptions
from arena.search.mcts.parallel import HELPER_BATCH_SECONDS, RootParallelSearch, SharedTreeSearch
from arena.search.threads import THREADS_ENV, default_threads

# Root visits of mcts:seed=7,rollouts=3000 before threads existed (main at 0635286).
BEFORE = {
    ("tictactoe", "", ""): (4, [331, 236, 295, 260, 800, 197, 303, 243, 335]),
    ("tictactoe", "", ",solver=1,reuse=1"): (4, [323, 202, 269, 205, 966, 206, 256, 192, 381]),
    ("connect4", "44", ""): (4, [311, 413, 429, 419, 571, 524, 333]),
    ("connect4", "44", ",solver=1,reuse=1"): (2, [380, 426, 522, 411, 459, 503, 299]),
}


@pytest.mark.parametrize(("game_spec", "moves", "extra"), list(BEFORE))
def test_one_thread_plays_exactly_as_the_serial_search_did(
    game_spec: str, moves: str, extra: str
) -> None:
    game = arena.load_game(game_spec)
    state = game.play_moves(game.parse_moves(moves))
    agent = arena.load_agent(f"mcts:seed=7,rollouts=3000,threads=1{extra}")
    start_game(agent, game)
    move = agent.choose(state, arena.Limit())
    stats = agent.root_stats()
    assert stats is not None
    assert (move, stats.visits) == BEFORE[(game_spec, moves, extra)]


def consistent(engine: SharedTreeSearch) -> None:
    """Every node's visits are its children's plus its own simulations: none for the root
    (one for a kept subtree's), one (its first) for an unfinished node, one or more for a
    finished game (no children); and no node has more wins than visits."""
    node, child = engine.node, engine.edge_child
    used = int(engine.sizes[0])
    for x in range(used):
        first, tried = node[x, mk.FIRST], node[x, mk.TRIED]
        below = int(node[child[first : first + tried], mk.VISITS].sum()) if first >= 0 else 0
        own = int(node[x, mk.VISITS]) - below
        if x == engine.root:
            assert own in (0, 1), f"root: {own} visits not through a child"  # 1: a kept root
        elif node[x, mk.OUTCOME] != ONGOING:
            assert own >= 1 and tried == 0
        else:
            assert own == 1, f"node {x}: {own} visits of its own"
    assert (engine.wins[:used] <= node[:used, mk.VISITS] + 1e-9).all()


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"solver": True},
        {"expand_all": True},
        {"tree": "egreedy"},
        {"reuse": True, "solver": True},
    ],
)
@pytest.mark.parametrize("game_spec", ["tictactoe", "connect4"])
def test_a_shared_tree_adds_up_after_two_threads(game_spec: str, options: dict) -> None:
    game = arena.load_game(game_spec)
    o = MCTSOptions(threads=2, parallel="tree", **options)
    engine = compiled.fast_engine(o, game, random.Random(3))
    assert isinstance(engine, SharedTreeSearch)
    state = game.initial_state()
    for budget in (5000, 3000):  # the second one on a kept subtree when reuse=1
        found = engine.search(state, budget, Deadline(None))
        assert found.stats.moves == list(state.legal_moves())
        consistent(engine)
        assert found.simulations == sum(engine.shares)
        kept = found.stats.total - sum(found.stats.visits)
        assert kept in (0, 1)  # the kept root's own first simulation
        if found.simulations == budget:
            assert sum(found.stats.visits) + kept == found.stats.total
        move = found.stats.moves[int(np.argmax(found.stats.visits))]
        engine.observe(state, move)
        state = state.play(move)


def test_the_shared_tree_solver_proves_a_won_position() -> None:
    game = arena.load_game("tictactoe")
    state = game.play_moves(game.parse_moves("a1 b1 a2 b2"))  # x to play: a3 wins
    agent = arena.load_agent("mcts:threads=2,parallel=tree,solver=1,rollouts=100000")
    start_game(agent, game)
    assert game.format_move(agent.choose(state, arena.Limit())) == "a3"


@pytest.mark.parametrize("options", [{}, {"rave": 100.0}])
def test_a_tree_per_thread_adds_the_roots_up(options: dict) -> None:
    game = arena.load_game("tictactoe")
    engine = compiled.fast_engine(
        MCTSOptions(threads=2, parallel="root", **options), game, random.Random(3)
    )
    assert isinstance(engine, RootParallelSearch)
    state = game.initial_state()
    found = engine.search(state, 4001, Deadline(None))
    assert found.simulations == 4001
    assert sum(found.stats.visits) == found.stats.total == 4001
    each = [e.root_stats() for e in engine.engines]
    assert [sum(s.visits) for s in each] == [2001, 2000]  # shared out, the first the rest
    assert found.stats.visits == [a + b for a, b in zip(each[0].visits, each[1].visits)]


@pytest.mark.parametrize("parallel", ["tree", "root"])
@pytest.mark.parametrize("game_spec", ["othello", "go:size=9"])
def test_threads_answer_a_legal_move_in_time(game_spec: str, parallel: str) -> None:
    game = arena.load_game(game_spec)
    agent = arena.load_agent(f"mcts:threads=2,parallel={parallel}")
    start_game(agent, game)
    state = game.initial_state()
    start = time.perf_counter()
    move = agent.choose(state, arena.Limit(time=0.2))
    took = time.perf_counter() - start
    assert move in state.legal_moves()
    assert took < 1.0  # the aim is 0.2 s; a busy machine passes
    assert agent.last_search is not None and agent.last_search.nodes > 0


def test_default_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(THREADS_ENV, "3")
    assert default_threads() == 3
    monkeypatch.delenv(THREADS_ENV)
    assert 1 <= default_threads() <= len(os.sched_getaffinity(0))
    # A seeded search is reproducible: one thread unless threads= is given.
    game = arena.load_game("tictactoe")
    seeded = compiled.fast_engine(MCTSOptions(seed=1), game, random.Random(1))
    assert seeded.threads == 1
    two = compiled.fast_engine(MCTSOptions(seed=1, threads=2), game, random.Random(1))
    assert two.threads == 2


def test_atomics() -> None:
    a = np.zeros(2, np.int64)
    assert try_cas(a, 0, 1, 5) == 0 and a[0] == 0  # not expected: unchanged
    assert try_cas(a, 0, 0, 5) == 0 and a[0] == 5
    assert add(a, 1, 4) == 0 and add(a, 1, 4) == 4 and a[1] == 8


@pytest.mark.parametrize("parallel", ["tree", "root"])
def test_a_deadline_stopped_before_the_threads_start_ends_the_search(parallel: str) -> None:
    """A helper that starts after the search was stopped (its deadline minus infinity) ends
    at once, without an error (it once raised converting the moment to nanoseconds)."""
    game = arena.load_game("connect4")
    engine = compiled.fast_engine(MCTSOptions(threads=2, parallel=parallel), game, random.Random(1))
    deadline = Deadline(5.0)
    deadline.stop()
    start = time.perf_counter()
    found = engine.search(game.initial_state(), float("inf"), deadline)
    assert time.perf_counter() - start < 1.0
    assert found.stats.moves == list(game.initial_state().legal_moves())


def test_a_paused_helper_does_not_hold_the_answer_back() -> None:
    """A helper still running past the stop moment (a loaded machine paused it) is left to
    finish on its own: the wait ends GRACE after the stop moment."""
    from concurrent.futures import Future, ThreadPoolExecutor

    from arena.search.mcts.parallel import GRACE, joined

    with ThreadPoolExecutor(1) as pool:
        slow = pool.submit(time.sleep, 0.5)
        start = time.perf_counter()
        assert joined(slow, start) == (False, None)
        assert time.perf_counter() - start < 0.25
        done: Future[int] = Future()
        done.set_result(7)
        assert joined(done, start) == (True, 7)
        assert joined(slow, float("inf")) == (True, None)  # untimed: waits
    assert GRACE < 0.01


def blocks(array: np.ndarray) -> range:
    """The 128-byte blocks (:data:`LINE`) ``array``'s data touches."""
    start = array.ctypes.data
    return range(start // LINE, (start + max(array.nbytes, 1) - 1) // LINE + 1)


def owns_its_lines(array: np.ndarray) -> bool:
    """``array`` starts on a block and its allocation covers its last block: no other data
    can share a cache line with it."""
    base = array.base if array.base is not None else array
    while getattr(base, "base", None) is not None:
        base = base.base
    end = base.ctypes.data + base.nbytes
    return array.ctypes.data % LINE == 0 and blocks(array)[-1] * LINE + LINE <= end


@pytest.mark.parametrize(
    ("parallel", "options"), [("root", {}), ("root", {"rave": 100.0}), ("tree", {})]
)
def test_no_two_threads_write_one_cache_line(parallel: str, options: dict) -> None:
    """Every array a thread's compiled search writes (or reads each simulation) is alone on
    its cache lines: before, the position one thread played in and the root position the
    other read every simulation sat in one line, and every move took it from the other core."""
    game = arena.load_game("tictactoe")
    o = MCTSOptions(threads=2, parallel=parallel, **options)
    engine = compiled.fast_engine(o, game, random.Random(3))
    seen: dict[int, list[np.ndarray]] = {}
    if isinstance(engine, RootParallelSearch):
        for i, e in enumerate(engine.engines):

            def batch(s, leaf, sims, flags=0, i=i, e=e, run=e._batch):  # type: ignore[no-untyped-def]
                names = ("buf", "path", "report", "sizes", "root_s", "node", "wins")
                read = ("root_moves", "root_visits", "root_won", "root_proven", "root_line")
                extra = ("moves", "traced", "marks", "scores", "amaf_n", "amaf_w")
                arrays = (getattr(e, n) for n in names + read + extra if hasattr(e, n))
                seen[i] = [s, leaf, *arrays]
                return run(s, leaf, sims, flags)

            e._batch = batch  # type: ignore[method-assign]
    engine.search(game.initial_state(), 400, Deadline(None))  # every thread runs
    if isinstance(engine, SharedTreeSearch):
        seen = {i: list(arrays) for i, arrays in enumerate(engine.scratch)}
        seen[0] += [engine.control]
        for i, position in enumerate(engine.positions, 1):
            seen[i] += list(position)
    assert len(seen) == 2
    for arrays in seen.values():
        assert all(owns_its_lines(a) for a in arrays)
    first, second = ({b for a in arrays for b in blocks(a)} for arrays in seen.values())
    assert not first & second


def test_a_private_array_fills_whole_lines_of_its_own() -> None:
    arrays = [private_array(n, np.int64, zero=n % 2 == 0) for n in (1, 2, 7, 16, 17)]
    assert all(owns_its_lines(a) for a in arrays)
    assert private_array((3, 7), np.float64).shape == (3, 7)
    assert not private_array(5).any()


def test_a_tree_per_thread_does_the_whole_budget_under_a_clock() -> None:
    """rollouts=N in a timed game: the helpers did their share only until the first tree
    had done its own (a match at rollouts=3840 searched 3000 a move on average)."""
    game = arena.load_game("connect4")
    engine = compiled.fast_engine(MCTSOptions(threads=2, parallel="root"), game, random.Random(3))
    assert isinstance(engine, RootParallelSearch)
    slow = engine.engines[1]
    run = slow._batch

    def batch(s, leaf, sims, flags=0):  # type: ignore[no-untyped-def]
        time.sleep(0.001)  # the helper is the slower thread
        return run(s, leaf, sims, flags)

    slow._batch = batch  # type: ignore[method-assign]
    found = engine.search(game.initial_state(), 2001, Deadline(30.0))
    assert found.simulations == 2001
    assert [sum(e.root_stats().visits) for e in engine.engines] == [1001, 1000]


@pytest.mark.parametrize(
    "game_spec", ["tictactoe", "connect4", "othello", "go:size=5", "go:size=9", "gomoku"]
)
def test_auto_grows_a_tree_per_thread_on_every_game(game_spec: str) -> None:
    """What the equal-time matches chose (docs/speed.md, Threads); parallel=tree stays."""
    from arena.games import load_kernel
    from arena.search.mcts.parallel import kind, resolved

    kernel = load_kernel(arena.load_game(game_spec))
    assert kind(resolved(MCTSOptions(threads=2), kernel)) == "root"
    assert kind(resolved(MCTSOptions(threads=2, parallel="tree"), kernel)) == "tree"
    assert kind(resolved(MCTSOptions(threads=1), kernel)) == "serial"


def test_a_helper_tree_is_read_by_the_thread_that_answers() -> None:
    """The helpers only simulate: their roots and lines are read once, by the answering
    thread (they read them too, in their own thread, competing for the GIL with the answer)."""
    import threading

    game = arena.load_game("connect4")
    engine = compiled.fast_engine(MCTSOptions(threads=2, parallel="root"), game, random.Random(3))
    assert isinstance(engine, RootParallelSearch)
    readers: list[str] = []
    helper = engine.engines[1]
    real = helper._entry

    def entry(sims, flags, *args):  # type: ignore[no-untyped-def]
        if flags & me.READ:  # the compiled call that reads the root and its best line
            readers.append(threading.current_thread().name)
        return real(sims, flags, *args)

    helper._entry = entry  # type: ignore[method-assign]
    found = engine.search(game.initial_state(), 2000, Deadline(None))
    assert readers == [threading.current_thread().name]  # the merge's one root_stats
    # and between its batches, a third as often as the answering thread (fewer GIL turns)
    assert helper.batch_seconds == HELPER_BATCH_SECONDS >= 3 * engine.engines[0].batch_seconds
    assert found.simulations == sum(sum(e.root_stats().visits) for e in engine.engines)
