"""ids:threads=N — Lazy SMP in the compiled engines (Connect Four, Othello, Gomoku): one
thread searches exactly as before; helper threads change no proven value; moves stay legal
and in time (tests/agents/test_stop.py: stop() ends every thread)."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Sequence
from typing import Any

import pytest

import arena
from arena.core.agent import start_game
from arena.core.game import State
from arena.search.values import is_proven
from arena.solvers.exact import empty_cells

# (move, value, nodes) of ids:exact=0 at a fixed depth before threads existed (main 0635286;
# Gomoku's since a node facing a three searches only its answers and the evaluation's
# constants were fitted: G8, -20.234604 and 3558 nodes before; since the evaluation is by
# pattern classes: J9, -145.915375 and 1987 nodes before; since its pattern weights are by
# combination of shapes: G8, -188.818649 and 1902 nodes before; since they have count
# terms: G8, -128.955339 and 2487 nodes before; Othello's since its evaluation
# has Logistello's pattern families: f5, -65.987951 and 2626 nodes before; and since its
# ProbCut is Multi-ProbCut's fitted table: the same move and value, 1741 nodes before).
BEFORE = {
    ("connect4", "4453", 9): ("4", 89.189189, 26166),
    ("othello", "d3 c5 f6", 6): ("e3", -72.528288, 1442),
    ("gomoku", "H8 H9 J8", 4): ("G8", -158.520799, 2823),
}


@pytest.mark.parametrize(("game_spec", "moves", "depth"), list(BEFORE))
def test_one_thread_searches_exactly_as_before(game_spec: str, moves: str, depth: int) -> None:
    game = arena.load_game(game_spec)
    state = game.play_moves(game.parse_moves(moves))
    agent = arena.load_agent("ids:exact=0,threads=1")
    start_game(agent, game)
    move = agent.choose(state, arena.Limit(depth=depth))
    info = agent.last_search
    assert info is not None and info.value is not None
    found = (game.format_move(move), round(info.value, 6), info.nodes)
    assert found == BEFORE[(game_spec, moves, depth)]


def empties(state: State) -> int:
    if state.game.name == "othello":
        return empty_cells(state)
    return state.game.rows * state.game.cols - state.ply  # type: ignore[attr-defined]


def near_the_end(game_spec: str, empty: int, seed: int) -> State:
    """A position of random play with ``empty`` empty cells left, the game not over."""
    game = arena.load_game(game_spec)
    rng = random.Random(seed)
    while True:
        state = game.initial_state()
        while not state.is_terminal() and empties(state) > empty:
            state = state.play(rng.choice(state.legal_moves()))
        if not state.is_terminal():
            return state


@pytest.mark.parametrize(("game_spec", "empty"), [("connect4", 14), ("othello", 10)])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_helpers_change_no_solved_value(game_spec: str, empty: int, seed: int) -> None:
    state = near_the_end(game_spec, empty, seed)
    values = []
    for threads in (1, 2):
        agent = arena.load_agent(f"ids:exact=0,threads={threads}")
        start_game(agent, state.game)
        move = agent.choose(state, arena.Limit(depth=empty + 2))
        assert move in state.legal_moves()
        info = agent.last_search
        assert info is not None and info.value is not None
        values.append(info.value)
    assert is_proven(values[0]) or values[0] == 0  # searched to the end: exact
    assert values[1] == values[0]


@pytest.mark.parametrize("game_spec", ["connect4", "othello", "gomoku"])
def test_two_threads_answer_a_legal_move_in_time(game_spec: str) -> None:
    game = arena.load_game(game_spec)
    agent = arena.load_agent("ids:threads=2")
    start_game(agent, game)
    state = game.initial_state()
    for _ in range(3):
        start = time.perf_counter()
        move = agent.choose(state, arena.Limit(time=0.2))
        assert time.perf_counter() - start < 1.0  # the aim is 0.2 s; a busy machine passes
        assert move in state.legal_moves()
        state = state.play(move)
    info = agent.last_search
    assert info is not None and info.nodes > 0


class SlowHelper:
    """A helper whose iteration the system 'pauses' for 0.5 s."""

    halted = False
    nodes = 0

    def __init__(self) -> None:
        self.inside = threading.Event()

    def iterate(self, depth: int, end_ns: int) -> None:
        self.inside.set()
        time.sleep(0.5)
        self.nodes += 1
        return None

    def stop(self) -> None:
        self.halted = True


def test_the_main_search_does_not_wait_for_a_paused_helper() -> None:
    from arena.search.alphabeta.engines.driver import LazySMP

    helper = SlowHelper()
    smp = LazySMP([helper])
    smp.begin(8, 0, lambda found: True)
    assert helper.inside.wait(5)
    start = time.perf_counter()
    smp.finish(start)  # the move's stop moment is now
    assert time.perf_counter() - start < 0.25
    assert smp.ready() == [helper] and helper.nodes == 1  # waited for before the next use


@pytest.mark.parametrize("game_spec", ["connect4", "othello", "gomoku"])
def test_each_helper_writes_cache_lines_of_its_own(game_spec: str) -> None:
    """A helper's counters and move lists (written every node) share no cache line with any
    other data: copies made one after the other sat side by side."""
    from arena.search.alphabeta.engines import engine_for
    from arena.search.atomics import LINE

    engine = engine_for(arena.load_game(game_spec), 3)
    assert engine is not None and engine.smp is not None  # type: ignore[attr-defined]
    for helper in engine.smp.helpers:  # type: ignore[attr-defined]
        names = getattr(helper, "SCRATCH", ())
        arrays = [getattr(helper, n) for n in names] or list(helper.arrays)
        for array in arrays:
            base = array
            while base.base is not None:
                base = base.base
            end = array.ctypes.data + -(-array.nbytes // LINE) * LINE
            assert array.ctypes.data % LINE == 0 and end <= base.ctypes.data + base.nbytes


def test_the_default_threads_are_what_was_measured() -> None:
    """Othello's two threads measured as strong as one in time (49.5 of 100 at 0.5 s a
    move, docs/speed.md): it searches on one thread unless threads= asks, so a free core
    is not spent for nothing; Gomoku and Connect Four search on the free cores, and
    threads= gives what it asks."""
    from arena.core.agent import start_game as start
    from arena.search.alphabeta.ids import ONE_THREAD_UNLESS_ASKED

    assert {"othello"} == ONE_THREAD_UNLESS_ASKED
    othello = arena.load_game("othello")
    default, asked = arena.load_agent("ids"), arena.load_agent("ids:threads=2")
    default.threads = 2  # as on a machine with two free cores  # type: ignore[attr-defined]
    for name in ("gomoku", "connect4"):
        assert default.threads_for(arena.load_game(name)) == 2  # type: ignore[attr-defined]
    assert default.threads_for(othello) == 1  # type: ignore[attr-defined]
    assert asked.threads_for(othello) == 2  # type: ignore[attr-defined]
    start(default, othello)
    assert default.engine(othello).smp is None  # type: ignore[attr-defined, union-attr]
    start(asked, othello)
    assert asked.engine(othello).smp is not None  # type: ignore[attr-defined, union-attr]


class Scripted:
    """A search whose iterations are scripted: depth ``d`` completes (move ``move``) up
    to ``deepest``, deeper ones are cut short; ``wait`` holds a cut-short one back until
    set (so the other thread gets ahead); from depth ``settles`` on, an iteration is
    final (every line ended the game)."""

    def __init__(
        self, move: int, deepest: int, wait: threading.Event | None = None, settles: int = 99
    ) -> None:
        self.move, self.deepest, self.wait, self.settles = move, deepest, wait, settles
        self.halted = False
        self.nodes = 0
        self.done = threading.Event()
        self.started = threading.Event()
        self.depths: list[int] = []

    def iterate(self, depth: int, end_ns: int) -> object:
        from arena.search.alphabeta.engines.driver import Iteration

        self.depths.append(depth)
        self.started.set()
        self.nodes += 1
        if depth > self.deepest or self.halted:
            if self.wait is not None:
                self.wait.wait(5)
            return None
        if depth == self.deepest:
            self.done.set()
        horizon = depth < self.settles
        return Iteration(float(depth), self.move, [(self.move, float(depth), "=")], [], horizon)

    def partial_best(self) -> None:
        return None

    def stop(self) -> None:
        self.halted = True


def test_the_deepest_completed_iteration_is_played() -> None:
    """A helper that completed depth 5 while the main search completed 3 gives the move."""
    from arena.search.alphabeta.engines.driver import LazySMP, deepen

    game = arena.load_game("connect4")
    helper = Scripted(move=6, deepest=5)
    main = Scripted(move=2, deepest=3, wait=helper.done)
    smp = LazySMP([helper])
    move, info = deepen(game.initial_state(), main, 5.0, 20, arena.load_agent("ids"), 0, smp=smp)
    assert (move, info.depth, info.value) == (6, 5, 5.0)
    assert info.root[0]["move"] == "7"  # column 6, as the game writes it
    assert all(future.done() for future in smp.running)
    # A helper no deeper than the main search: the main search's move.
    helper, main = Scripted(move=6, deepest=2), Scripted(move=2, deepest=3)
    move, info = deepen(
        game.initial_state(), main, 5.0, 3, arena.load_agent("ids"), 0, smp=LazySMP([helper])
    )
    assert (move, info.depth) == (2, 3)


def test_a_settled_result_is_never_replaced_by_a_deeper_estimate() -> None:
    """The main search stops on a final result at depth 3 (a proof the helper put in the
    table): the helper's deeper depth 5, an estimate, must not replace it. And a helper's
    final result, even at a shallower depth, replaces the main search's estimate."""
    from arena.search.alphabeta.engines.driver import LazySMP, deepen

    game = arena.load_game("connect4")

    class After(Scripted):
        """The main search, whose depth ``at`` waits for event ``event``."""

        def __init__(self, at: int, event: threading.Event, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.at, self.event = at, event

        def iterate(self, depth: int, end_ns: int) -> object:
            if depth == self.at:
                self.event.wait(5)
            return super().iterate(depth, end_ns)

    helper = Scripted(move=6, deepest=5)
    # The main search's proof at depth 3 comes after the helper's depth 5.
    main = After(3, helper.done, move=2, deepest=3, settles=3)
    smp = LazySMP([helper])
    move, info = deepen(game.initial_state(), main, 5.0, 20, arena.load_agent("ids"), 0, smp=smp)
    assert helper.done.is_set()  # the helper did complete its deeper estimate
    assert (move, info.depth, info.value) == (2, 3, 3.0)
    # The same when a listener (an analysis window) asks to stop at the settled depth.
    helper = Scripted(move=6, deepest=5)
    main = After(3, helper.done, move=2, deepest=3, settles=3)
    watching = arena.load_agent("ids")
    watching.listener = lambda info: info.depth >= 3
    move, info = deepen(game.initial_state(), main, 5.0, 20, watching, 0, smp=LazySMP([helper]))
    assert (move, info.depth, info.value) == (2, 3, 3.0)
    # A helper's deeper result that settles too: the same value, a longer line.
    helper = Scripted(move=6, deepest=5, settles=5)
    main = After(3, helper.done, move=2, deepest=3, settles=3)
    move, info = deepen(
        game.initial_state(), main, 5.0, 20, arena.load_agent("ids"), 0, smp=LazySMP([helper])
    )
    assert (move, info.depth) == (6, 5)
    # The other way round: the helper settles at depth 2, the main search estimates at 3.
    helper = Scripted(move=6, deepest=2, settles=2)
    # The helper starts at depth 1 (the main search waits for it); the main search's
    # depth 4 waits for the helper's end.
    main = After(1, helper.started, move=2, deepest=3, wait=helper.done)
    move, info = deepen(
        game.initial_state(), main, 5.0, 4, arena.load_agent("ids"), 0, smp=LazySMP([helper])
    )
    assert (move, info.depth, info.value) == (6, 2, 2.0)


def helpers_idle(agent: arena.Agent, game: arena.Game) -> bool:
    """Whether every Lazy SMP helper loop of ``agent``'s engine has ended (a helper the
    system paused may take a moment past the move)."""
    engine = agent.engine(game)  # type: ignore[attr-defined]
    deadline = time.perf_counter() + 2.0
    while time.perf_counter() < deadline:
        if all(future.done() for future in engine.smp.running):
            return True
        time.sleep(0.01)
    return False


@pytest.mark.parametrize("game_spec", ["othello", "gomoku"])
def test_no_helper_searches_after_a_move_or_a_stop(game_spec: str) -> None:
    game = arena.load_game(game_spec)
    agent = arena.load_agent("ids:threads=2,exact=0")
    start_game(agent, game)
    state = game.play_moves(game.parse_moves("d3 c5" if game_spec == "othello" else "H8 H9"))
    agent.choose(state, arena.Limit(time=0.1))
    assert helpers_idle(agent, game)
    thread = threading.Thread(target=lambda: agent.choose(state, arena.Limit(time=60.0)))
    thread.start()
    time.sleep(0.3)
    agent.stop()
    thread.join(10)
    assert not thread.is_alive()
    assert helpers_idle(agent, game)


def test_connect_four_helpers_deepen_while_the_solver_tries(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Half an early move goes to the exact solver on one thread: the helpers search
    meanwhile (they sat idle, the second core unused, before), their deeper iteration is
    the answer, and a stop during the solve ends every thread."""
    game = arena.load_game("connect4")
    agent = arena.load_agent("ids:threads=2")
    start_game(agent, game)
    engine = agent.engine(game)  # type: ignore[attr-defined]
    seen: list[bool] = []

    def solver_that_fails(state: State, pos: int, mask: int, seconds: float) -> None:
        seen.append(engine.smp.active and not all(f.done() for f in engine.smp.running))
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline and not engine.halt.is_set():
            time.sleep(0.005)  # the solve's share of the move, not finished
        return None

    monkeypatch.setattr(engine, "exact", solver_that_fails)
    state = game.initial_state()
    move = agent.choose(state, arena.Limit(time=0.4))
    assert seen == [True] and move in state.legal_moves()
    assert engine.smp.done[0] is not None and engine.smp.done[0][0] >= 6  # the helper's depth
    assert helpers_idle(agent, game)
    later = game.play_moves(game.parse_moves("1177"))  # the solver is tried again 4 plies on
    thread = threading.Thread(target=lambda: agent.choose(later, arena.Limit(time=60.0)))
    thread.start()
    time.sleep(0.3)
    agent.stop()  # during the solve's 30 s
    thread.join(10)
    assert not thread.is_alive() and len(seen) == 2
    assert helpers_idle(agent, game)


def test_a_row_two_writers_interleaved_is_no_match() -> None:
    """The shared tables check an entry by XOR of all its words: a row holding one
    writer's key and another's data (the words of two stores interleaved) matches neither
    position, where a check of the key alone took the other position's data."""
    import numpy as np

    from arena.search.alphabeta.engines.othello import search as othello_search
    from arena.search.alphabeta.engines.table_values import EXACT, entry_key, store_entry

    table = othello_search.new_table(4)
    me, opp = np.uint64(0x0000000810000000), np.uint64(0x0000001008000000)
    othello_search.store(table, me, opp, 5, 120, EXACT, 19, 1, 1)
    assert othello_search.table_move(table, me, opp) == 19
    row = table[:, 0].nonzero()[0][0]
    other = othello_search.new_table(4)
    othello_search.store(other, me ^ np.uint64(1 << 40), opp, 3, -50, EXACT, 37, 1, 1)
    table[row, 2] = other[other[:, 2].nonzero()[0][0], 2]  # another store's data word
    assert othello_search.table_move(table, me, opp) == -1

    keys, values, meta = np.zeros(4, np.int64), np.zeros(4), np.zeros(4, np.int64)
    store_entry(keys, values, meta, 1, 12345, 2.5, 777)
    assert entry_key(keys[1], values[1], meta[1]) == 12345
    values[1] = -7.25  # another writer's value
    assert entry_key(keys[1], values[1], meta[1]) != 12345


def othello_fixed_depth(
    state: State, depth: int, busy_states: Sequence[State]
) -> tuple[int, int, int, int, int]:
    """One thread's fixed-depth search with the sharing on (``stats[SPLIT]``), the
    positions ``busy_states`` marked busy by 'another thread': (value, best root move's
    index, its value, moves deferred, marks left behind)."""
    import numpy as np

    from arena.search.alphabeta.engines.othello import search
    from arena.search.alphabeta.engines.othello.engine import OthelloEngine

    engine = OthelloEngine(state.game, threads=2)
    me, opp = engine.bits(state)
    order = np.array([engine.bit_of(m) for m in state.legal_moves()], dtype=np.int64)
    busy = search.new_busy()
    for marked in busy_states:
        a, b = engine.bits(marked)
        key = int(search.busy_key(a, b))
        busy[key >> (64 - search.BUSY_BITS)] = key
    stats, scratch = search.new_stats(), search.new_scratch()
    stats[search.DEADLINE] = 1 << 62
    stats[search.NODE_CAP] = search.NO_CAP
    stats[search.SPLIT] = 1
    values = np.zeros(len(order), dtype=np.int64)
    bounds = np.zeros(len(order), dtype=np.int64)
    value = search.root(
        me, opp, depth, -search.INF, search.INF, order, values, bounds, engine.board,
        search.new_table(16), busy, stats, engine.masks, engine.weights, engine.squares,
        engine.cuts, scratch,
    )  # fmt: skip
    best = int(stats[search.ROOT_BEST])
    marks = int(np.count_nonzero(busy)) - len(busy_states)
    return value, best, int(values[best]), int(stats[search.DEFERRED]), marks


@pytest.mark.parametrize("seed", [1, 2])
def test_othello_threads_share_a_nodes_later_moves_without_changing_its_value(seed: int) -> None:
    """ABDADA: moves another thread is searching are left for last, which changes the
    order (the nodes), never the value of a full-window search; and a search leaves no
    mark of its own behind (a stale mark would send later searches' moves to the back)."""
    state = near_the_end("othello", 40, seed)
    # Every position two plies down marked: each node's later moves wait.
    two_down = [
        state.play(first).play(second)
        for first in state.legal_moves()
        for second in state.play(first).legal_moves()
    ]
    plain = othello_fixed_depth(state, 6, [])
    shared = othello_fixed_depth(state, 6, two_down)
    assert plain[0] == shared[0]
    assert plain[3] == 0 < shared[3]  # 'another thread's' moves were left for later
    assert plain[4] == 0  # its own marks were all taken back


def test_othello_root_leaves_a_move_another_thread_searches_for_later() -> None:
    """The root shares too: its second move, marked busy by 'another thread', is searched
    after the others (the threads take different root moves), and the value, the best
    move and every root move's value stay those of the search in order."""
    state = near_the_end("othello", 40, 1)
    legal = state.legal_moves()
    found = [othello_fixed_depth(state, 6, marked) for marked in ([], [state.play(legal[1])])]
    assert len(legal) > 2
    assert found[0][:3] == found[1][:3]
    assert found[0][3] == 0 and found[1][3] == 1  # the marked root move waited


def test_othello_two_threads_leave_no_mark_after_a_move_or_a_stop() -> None:
    game = arena.load_game("othello")
    agent = arena.load_agent("ids:exact=0,threads=2")
    start_game(agent, game)
    engine = agent.engine(game)  # type: ignore[attr-defined]
    assert engine.split  # on by default (docs/speed.md)
    state = game.play_moves(game.parse_moves("d3 c5 f6 f5"))
    agent.choose(state, arena.Limit(time=0.3))
    assert not engine.busy.any()  # a move stopped by its clock took its marks back
    agent.choose(state, arena.Limit(depth=7))
    assert not engine.busy.any()


def gomoku_fixed_depth(state: State, depth: int, busy_child: bool) -> tuple[float, int, int]:
    """Gomoku's search with the sharing on, on one thread, every position two plies down
    near the stones marked by 'another thread' when asked: (value, moves deferred, marks
    left in the table)."""
    from arena.search.alphabeta.engines.gomoku import engine as gomoku
    from arena.search.clock.compiled_deadline import NEVER

    search = gomoku.GomokuSearch(state.game)
    search.split = True
    search.set_root(state)
    if busy_child:
        size = search.size
        stones = [cell for cell in range(size * size) if state.stone(cell) is not None]  # type: ignore[attr-defined]
        near = {
            r * size + c
            for cell in stones
            for r in range(max(0, cell // size - 2), min(size, cell // size + 3))
            for c in range(max(0, cell % size - 2), min(size, cell % size + 3))
        } - set(stones)
        p, root = search.player, int(search.c[gomoku.C_HASH])
        for a in near:
            for b in near - {a}:
                key = (root ^ int(search.zobrist[p, a]) ^ int(search.zobrist[1 - p, b]) ^ p) | (
                    gomoku.BUSY_MARK
                )
                search.busy[key & (search.busy.size - 1)] = key
    marked_before = int((search.busy != 0).sum())
    found = search.iterate(depth, NEVER)
    assert found is not None
    left = int((search.busy != 0).sum())
    return found.value, int(search.stats[gomoku.DEFERRED]), left - marked_before


def test_gomoku_threads_share_a_nodes_later_moves() -> None:
    """As Othello's: 'another thread's' moves are left for later, and a search takes back
    every mark of its own (the marks it found stay or are taken by the nodes that share
    their position)."""
    game = arena.load_game("gomoku")
    state = game.play_moves(game.parse_moves("H8 H9 J8 G7 J10 K9"))
    plain = gomoku_fixed_depth(state, 5, busy_child=False)
    shared = gomoku_fixed_depth(state, 5, busy_child=True)
    assert plain[1] == 0 < shared[1]
    assert plain[2] == 0 and shared[2] <= 0
    assert plain[0] == shared[0]


def test_gomoku_helpers_may_search_another_beam_through_the_same_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A helper varied in its beam and horizon VCF (``GomokuSearch.varied``) searches
    other moves than the main search, stores them in the shared table, and leaves the
    main search's own settings alone; a helper varied to the main search's settings
    searches node for node as it does."""
    from arena.search.alphabeta.engines.gomoku import engine as gomoku
    from arena.search.clock.compiled_deadline import NEVER

    game = arena.load_game("gomoku")
    state = game.play_moves(game.parse_moves("H8 H9 J8 G7 J10 K9"))
    main = gomoku.GomokuSearch(game)
    nodes = {}
    for name, search in (
        ("main", main),
        ("same", main.varied(gomoku.BEAM, gomoku.LEAF_PLIES)),
        ("wide", main.varied(gomoku.BEAM + 8, gomoku.LEAF_PLIES)),
    ):
        main.reset()  # the table is shared: each search starts from an empty one
        search.set_root(state)
        assert search.iterate(4, NEVER) is not None
        nodes[name] = search.nodes
        assert search.keys is main.keys and main.meta.any()
    assert nodes["same"] == nodes["main"]
    assert nodes["wide"] > nodes["main"]
    assert main.geo[0][gomoku.G_BEAM] == gomoku.BEAM and main.leaf_vcf == gomoku.LEAF_PLIES
    # The engine's helpers take the module's settings; its main search keeps its own.
    monkeypatch.setattr(gomoku, "HELPER_BEAM", gomoku.BEAM + 4)
    monkeypatch.setattr(gomoku, "HELPER_LEAF_PLIES", gomoku.LEAF_PLIES + 2)
    engine = gomoku.make_engine(game, threads=2)
    assert engine is not None and engine.smp is not None
    helper = engine.smp.helpers[0]
    assert helper.geo[0][gomoku.G_BEAM] == gomoku.BEAM + 4
    assert helper.leaf_vcf == gomoku.LEAF_PLIES + 2
    assert engine.search.geo[0][gomoku.G_BEAM] == gomoku.BEAM
