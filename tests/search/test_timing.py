"""Time management: the allocation's properties, agents deciding their own time, and MCTS's
``manage=1`` stopping early or thinking on."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

import arena
from arena.core.limit import DEFAULT_GRACE
from arena.search.clock.stopping import EXTEND, extended
from arena.search.clock.time_management import allocate, move_time, reserve
from arena.search.mcts.agent import MCTSAgent
from arena.search.mcts.root import RootStats, Searched
from arena.search.mcts.tree import Proof


@given(
    st.floats(0.001, 1000),
    st.floats(0.001, 1000),
    st.floats(0, 10),
    st.integers(0, 300),
    st.integers(1, 400),
)
def test_more_time_on_the_clock_never_means_less_for_the_move(
    low: float, high: float, increment: float, ply: int, legal: int
) -> None:
    low, high = sorted((low, high))
    assert allocate(low, increment, ply=ply, legal=legal) <= allocate(
        high, increment, ply=ply, legal=legal
    )


@given(
    st.floats(0.06, 1000),
    st.floats(0, 10),
    st.integers(0, 300),
    st.one_of(st.none(), st.floats(0, 800)),
)
def test_the_move_always_leaves_the_reserve(
    clock: float, increment: float, ply: int, expected: float | None
) -> None:
    spent = allocate(clock, increment, ply=ply, legal=30, expected=expected)
    assert 0 < spent <= clock - reserve(clock) + 1e-6


@pytest.mark.parametrize(("clock", "increment"), [(1.0, 0.1), (15.0, 1.0), (300.0, 0.0)])
def test_one_legal_move_is_near_instant(clock: float, increment: float) -> None:
    assert allocate(clock, increment, ply=30, legal=1) <= 0.002
    assert allocate(clock, increment, ply=30, legal=2) > 10 * allocate(
        clock, increment, ply=30, legal=1
    )


@pytest.mark.parametrize(("clock", "increment"), [(1.0, 0.1), (15.0, 1.0), (60.0, 0.0)])
def test_the_middle_game_gets_more_than_the_opening(clock: float, increment: float) -> None:
    opening = allocate(clock, increment, ply=0, legal=20)
    middle = allocate(clock, increment, ply=24, legal=20)
    assert middle > 1.5 * opening - increment  # the share part at least 1.5 times larger
    assert middle > opening


@pytest.mark.parametrize(
    ("initial", "increment", "plies", "overhead"),
    [(1.0, 0.1, 400, 0.02), (15.0, 1.0, 120, 0.02), (5.0, 0.0, 120, 0.005), (0.3, 0.0, 100, 0.0)],
)
def test_a_whole_game_never_overruns_the_clock(
    initial: float, increment: float, plies: int, overhead: float
) -> None:
    # The agent spends its allocation (its deadline is hard) plus some overhead
    # the referee sees on top; the clock must never be overrun by more than the grace.
    # (Without an increment no allocation survives a fixed overhead per move for ever:
    # the sudden-death case is a game of 60 moves each.)
    clock = initial
    used = 0.0
    for ply in range(0, plies, 2):
        spent = allocate(clock, increment, ply=ply, legal=7) + overhead
        assert spent <= clock + DEFAULT_GRACE
        clock = clock - spent + increment
        used += spent
    if increment:  # with an increment the clock is used, not hoarded
        assert used > 0.8 * increment * plies / 2


def test_without_a_clock_the_limit_time_stands() -> None:
    state = arena.load_game("connect4").initial_state()
    assert move_time(arena.Limit(time=0.25), state) == 0.25
    assert move_time(arena.Limit(depth=2), state) is None
    on_clock = arena.Limit(time=5.0, clock=10.0, increment=0.1)
    assert move_time(on_clock, state) == allocate(10.0, 0.1, ply=0, legal=7)


def test_ids_plays_a_lone_legal_move_at_once() -> None:
    game = arena.load_game("tictactoe")
    state = game.play_moves(game.parse_moves(["a1", "b2", "c3", "b1", "b3", "a3", "c1", "c2"]))
    assert len(state.legal_moves()) == 1 and not state.is_terminal()
    agent = arena.load_agent("ids")
    agent.choose(state, arena.Limit(time=1.0, clock=10.0, increment=1.0))
    assert agent.last_search.seconds < 0.5  # a generous bound: 1 s would have been allotted


def test_a_19x19_clock_lasts_through_the_middle_game() -> None:
    """Go says how long its game may last (one ply per empty point), so ten minutes of
    sudden death are spread over hundreds of plies: the move at ply 200 gets at least half
    the time of the move at ply 40, and 5% of the clock is left at ply 320. Shared over
    the general 40-ply guess, the same clock was three quarters spent by ply 40, and a
    move at ply 200 got a twentieth of a second."""
    game = arena.load_game("go:size=19")
    rng = random.Random(1)
    state, clock, spent = game.initial_state(), 600.0, {}
    for ply in range(320):
        if ply % 2 == 0:
            spent[ply] = move_time(arena.Limit(time=20.0, clock=clock), state)
            clock -= spent[ply]
        moves = [m for m in state.legal_moves() if m != game.pass_move]
        state = state.play(rng.choice(moves or list(state.legal_moves())))
    assert spent[200] >= 0.5 * spent[40], spent
    assert clock >= 0.05 * 600, clock
    # A game without an estimate keeps the general guess.
    connect4 = arena.load_game("connect4").initial_state()
    assert connect4.expected_plies_left() is None
    assert move_time(arena.Limit(time=1.0, clock=10.0), connect4) == allocate(10.0, ply=0, legal=7)


def test_mcts_shares_a_go_clock_by_the_empty_points() -> None:
    """The compiled MCTS (``best`` on Go) asks for its time with the position: 81 empty
    points on 9x9 make about 40 moves to come, not the general guess's 20."""
    state = arena.load_game("go:size=9").initial_state()
    agent = arena.load_agent("mcts:threads=1")
    rollouts, seconds = agent.budget(arena.Limit(time=5.0, clock=10.0), state)
    assert rollouts == float("inf")  # no rollout budget: the clock alone bounds it
    assert seconds == allocate(10.0, ply=0, legal=82, expected=81.0)
    assert seconds is not None and seconds < 0.6 * allocate(10.0, ply=0, legal=82)


class Root:
    """An engine stand-in whose root holds the given statistics."""

    def __init__(self, visits: list[int], rates: list[float]) -> None:
        wins = [n * r for n, r in zip(visits, rates, strict=True)]
        self.stats = RootStats(list(range(len(visits))), visits, wins, [Proof.UNKNOWN] * 3, 0)

    def snapshot(self, simulations: int) -> Searched:
        return Searched(self.stats, simulations, 1, [], "stand-in")


@pytest.mark.parametrize(
    ("elapsed", "visits", "rates", "stops"),
    [
        (0.3, [500, 450, 50], [0.5, 0.5, 0.5], False),  # before the share, in doubt
        (0.6, [900, 50, 50], [0.6, 0.4, 0.4], True),  # settled: 850 > 1000/0.6*0.4
        (0.4, [900, 50, 50], [0.6, 0.4, 0.4], False),  # the same lead, more time left
        (1.01, [500, 450, 50], [0.5, 0.56, 0.4], False),  # share spent, runner-up rated better
        (1.01, [500, 450, 40], [0.56, 0.5, 0.6], True),  # share spent; 40 visits too thin
    ],
)
def test_manage_stops_when_settled_and_thinks_on_when_in_doubt(
    elapsed: float, visits: list[int], rates: list[float], stops: bool
) -> None:
    watch = MCTSAgent._manager(Root(visits, rates), 1.0, time.perf_counter() - elapsed)
    assert watch(sum(visits)) is stops
    assert extended(arena.Limit(time=1.0, clock=100.0), 1.0) == 1.0 + EXTEND


def test_manage_ends_a_settled_search_early() -> None:
    """Connect Four, the first player threatening to complete columns 1-4 on the bottom
    row: every move but column 2 loses at once, so it takes nearly every simulation. On a
    20 s clock, with manage=1 the search stops near half its share (the earliest the rule
    allows when one move has every visit); without it, it spends the share. Both block."""
    game = arena.load_game("connect4")
    state = game.play_moves(game.parse_moves("4 4 3 3 1"))
    limit = arena.Limit(time=20.0, clock=20.0)
    share = move_time(limit, state)
    assert share is not None and share > 0.3
    spent = {}
    for spec in ("", ",manage=1"):
        agent = arena.load_agent(f"mcts:threads=1{spec}")
        agent.reset(game)
        assert agent.choose(state, limit) == game.parse_move("2")
        spent[spec] = agent.last_search.seconds
    assert spent[",manage=1"] < 0.8 * share < spent[""], (spent, share)
