"""The compiled MCTS keeps its clock: a batch stops when its moment passes, a timed search
stops at its deadline less the reserve for recent pauses, on every game with a kernel."""

from __future__ import annotations

import math
import random
import statistics
import time

import numpy as np
import pytest

import arena
from arena.core.agent import start_game
from arena.games import load_kernel
from arena.search.clock import compiled as compiled_clock
from arena.search.clock.deadline import MOST, Deadline, answer_margin
from arena.search.clock.pauses import CAP, PAUSES, RecentPauses
from arena.search.mcts import kernel as mk
from arena.search.mcts.batch_clock import batch_clock
from arena.search.mcts.options import MCTSOptions
from arena.search.mcts.warmup import fast_engine

GAMES = ["tictactoe", "connect4", "othello", "gomoku", "go:size=9", "go:size=19", "colosseum"]
needs_clock = pytest.mark.skipif(not compiled_clock.AVAILABLE, reason="no compiled clock here")


def engine(spec: str):  # type: ignore[no-untyped-def]
    found = fast_engine(MCTSOptions(), arena.load_game(spec), random.Random(1))
    assert found is not None
    return found


def batch(search, state, sims: int, until: int) -> int:  # type: ignore[no-untyped-def]
    """One batch of at most ``sims`` simulations of ``state`` with ``report[UNTIL] = until``."""
    search.search(state, 0, Deadline(None))  # the root, no simulation
    search.report[mk.UNTIL] = until
    s, leaf = np.empty_like(search.root_s), np.empty_like(search.root_s)
    o = search.options
    arrays = (search.node, search.wins, search.edge_move, search.edge_child, search.sizes)
    done = search.run(
        *search.functions, search.kernel.params, search.root_s, s, leaf, search.buf,
        *arrays, search.path, search.root, sims, search.policy, float(o.c), float(o.eps),
        bool(o.expand_all), bool(o.solver), search.report, search.logs,
    )  # fmt: skip
    return int(done)


@needs_clock
def test_the_compiled_clock_reads_pythons_clock() -> None:
    """``now_ns`` in compiled code and ``deadline_ns`` of ``perf_counter`` agree: a moment
    read between two compiled reads lies between them."""
    kernel = load_kernel(arena.load_game("tictactoe"))
    assert kernel is not None
    search = engine("tictactoe")
    state = arena.load_game("tictactoe").initial_state()
    search.search(state, 0, Deadline(None))
    # A batch whose moment is long past does nothing; one whose moment is far ahead does all.
    assert batch(search, state, 1000, 1) == 0 and search.report[mk.REASON] == mk.TIME
    far = compiled_clock.deadline_ns(Deadline(3600).end)
    assert batch(search, state, 1000, far) == 1000 and search.report[mk.REASON] == mk.BUDGET


@needs_clock
@pytest.mark.parametrize("spec", GAMES)
def test_a_batch_stops_at_its_clock(spec: str) -> None:
    """A batch asked for a billion simulations ends when its moment (1 ms ahead) passes, and
    says so (its arrays have room for far more than a millisecond's nodes)."""
    search = engine(spec)
    search._allocate(1 << 17, 1 << 21)
    state = arena.load_game(spec).initial_state(1)
    until = compiled_clock.deadline_ns(Deadline(0.001).start + 0.001)
    done = batch(search, state, 10**9, until)
    assert search.report[mk.REASON] == mk.TIME and done < 10**9
    assert compiled_clock.now_ns() >= until


@pytest.mark.parametrize("spec", GAMES)
def test_a_search_past_its_deadline_runs_nothing_and_answers(spec: str) -> None:
    """With its deadline already past when it starts, a search checks the clock before its
    first simulation; the agent still answers a legal move after a search that long."""
    game = arena.load_game(spec)
    state = game.initial_state(2)
    search = engine(spec)
    found = search.search(state, math.inf, Deadline(1e-9))
    if compiled_clock.AVAILABLE:
        assert found.simulations == 0 and search.report[mk.REASON] == mk.TIME
    a = arena.load_agent("mcts:seed=1")
    a.reset(game)
    assert a.choose(state, arena.Limit(time=1e-6)) in state.legal_moves()


def test_the_stop_moment_keeps_the_pause_reserve() -> None:
    """A deadline's end keeps the remembered pause, capped to a share of the search, on
    top of the answer's margin; ``batch_clock`` stops there; no clock at all without a
    deadline."""
    report = np.zeros(mk.REPORT_SIZE, np.int64)
    assert batch_clock(report, Deadline(None)) == math.inf and report[mk.UNTIL] == 0
    PAUSES.forget()
    deadline = Deadline(1.0)
    assert deadline.end == pytest.approx(deadline.start + 1.0 - answer_margin(1.0))
    assert batch_clock(report, deadline) == deadline.end
    PAUSES.seen(0.1)
    try:
        deadline = Deadline(1.0)
        kept = deadline.start + 1.0 - deadline.end - answer_margin(1.0)
        assert 0.09 < kept <= 0.1 and batch_clock(report, deadline) == deadline.end
        short = Deadline(0.02)
        assert short.end == pytest.approx(short.start + (1 - MOST) * 0.02)
        assert Deadline(0.02, margin=0.0).end == pytest.approx(short.start + 0.02, abs=1e-3)
    finally:
        PAUSES.forget()
    if compiled_clock.AVAILABLE:
        assert batch_clock(report, short) == short.end
        assert report[mk.UNTIL] == compiled_clock.deadline_ns(short.end)


def test_recent_pauses_keep_the_longest_and_forget_it() -> None:
    now = [0.0]
    pauses = RecentPauses(half_life=2.0, clock=lambda: now[0])
    pauses.seen(0.004)
    pauses.seen(0.02)
    pauses.seen(0.001)  # a shorter one does not lower the level
    assert pauses.level() == 0.02
    now[0] = 4.0  # two half-lives
    assert pauses.level() == pytest.approx(0.005)
    assert pauses.reserve(0.004) == pytest.approx(CAP * 0.004)  # capped
    pauses.forget()
    assert pauses.level() == 0.0


@needs_clock
def test_a_short_limit_is_nearly_all_search() -> None:
    """Issue 30, item 3: ``mcts`` with 20 ms a move searched 15 ms of it on a quiet machine
    (a fixed 4 ms + 5% kept for the answer, whose way back costs well under a
    millisecond), 1-5 ms of 10 ms. With no pause remembered, the search now stops 1.4 ms
    before the end: the time used is measured (a busy machine only lengthens it), the
    limit is not asserted (that is `arena bench timing`'s)."""
    game = arena.load_game("connect4")
    agent = arena.load_agent("mcts:seed=1")
    start_game(agent, game)
    # A longer search first grows the tree's arrays: a growth under way is skipped when a
    # pause seen in the move says it might not finish (the reserve is not what is tested).
    agent.choose(game.initial_state(), arena.Limit(time=0.3))
    state = game.play_moves(game.parse_moves("4453"))
    used = []
    for _ in range(7):
        PAUSES.forget()  # a pause another test saw would be kept in reserve
        start = time.perf_counter()
        move = agent.choose(state, arena.Limit(time=0.02))
        used.append((time.perf_counter() - start) / 0.02)
        state = state.play(move)
    PAUSES.forget()
    assert statistics.median(used) > 0.85


@pytest.mark.parametrize(
    ("spec", "game"),
    [
        ("ids", "connect4"),  # the compiled engine
        ("ids", "colosseum:size=8"),  # the readable search
        ("mcts", "connect4"),
        ("mcts:engine=python", "connect4"),
    ],
)
def test_a_late_answer_teaches_every_search_the_pause_reserve(spec: str, game: str) -> None:
    """A pause after a search's last look at its clock (here: a listener that sleeps
    past the deadline) makes its answer late; the reserve of the next search of any
    agent grows by what the late one would have needed, whatever the search."""
    g = arena.load_game(game)
    agent = arena.load_agent(spec)
    start_game(agent, g)
    slept: list[float] = []

    def listener(info: object) -> bool:
        if not slept:
            slept.append(0.3)
            time.sleep(0.3)
        return False

    agent.listener = listener
    PAUSES.forget()
    try:
        started = time.perf_counter()
        agent.choose(g.initial_state(), arena.Limit(time=0.05))
        late = time.perf_counter() - started - 0.05
        assert slept and late > 0.2
        assert PAUSES.level() > 0.2
        assert Deadline(0.5).end - time.perf_counter() < 0.5 - 0.2  # the next one keeps it
    finally:
        PAUSES.forget()


def test_an_answer_inside_its_reserve_does_not_raise_it() -> None:
    """An answer after ``end`` but inside the reserve it kept is on time: the reserve must
    not grow by the answer's own work search after search (it once doubled-counted the
    reserve, and ``best`` ended up searching 4/10 of its move)."""
    PAUSES.forget()
    try:
        PAUSES.seen(0.02)
        levels = []
        for _ in range(20):
            deadline = Deadline(0.2, start=time.perf_counter())
            assert deadline.reserve == pytest.approx(PAUSES.level(), abs=1e-3)
            # The answer comes 10 ms after the end: within the 20 ms reserve.
            deadline.end = time.perf_counter() - 0.01
            deadline.finish()
            levels.append(PAUSES.level())
        assert max(levels) <= 0.02 + 1e-6, levels  # decays, never climbs
        late = Deadline(0.2, start=time.perf_counter())
        late.end = time.perf_counter() - late.reserve - 0.05  # 50 ms past what it kept
        late.finish()
        assert PAUSES.level() >= 0.05 + late.reserve - 1e-3  # a real lateness still teaches
    finally:
        PAUSES.forget()
