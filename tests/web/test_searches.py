"""The searches on threads without a browser: a fake agent, an event loop of the test's own."""

from __future__ import annotations

import asyncio
import logging
import math
import threading
import time
from typing import Any

import pytest

import arena
from arena.core.agent import Agent, SearchInfo
from arena.core.game import State
from arena.core.limit import Limit
from arena.web.board import Board
from arena.web.messages import BadMessage
from arena.web.searches import (
    MAX_ROWS,
    PERSON,
    Players,
    Search,
    Searches,
    check_players,
    close_agents,
    ready_agents,
)

GAME = arena.load_game("tictactoe")


class Fake(Agent):
    """Plays the first legal move after reporting twice; ``stop`` counts only while it
    searches (as an agent whose search had not begun would miss it)."""

    name = "fake"

    def __init__(self, fail: bool = False, wait: bool = False) -> None:
        super().__init__()
        self.fail, self.wait = fail, wait
        self.searching = threading.Event()
        self.stopped = threading.Event()
        self.threads: list[str] = []

    def choose(self, state: State, limit: Limit) -> int:
        self.threads.append(threading.current_thread().name)
        if self.fail:
            raise RuntimeError("no move today")
        self.searching.set()
        for nodes in (10, 20):
            info = SearchInfo(seconds=0.1, nodes=nodes, value=math.inf)
            if self.listener is not None and self.listener(info):
                break
        deadline = time.monotonic() + 10.0
        while self.wait and not self.stopped.is_set() and time.monotonic() < deadline:
            time.sleep(0.005)
        self.last_search = SearchInfo(seconds=0.2, nodes=20)
        return state.legal_moves()[0]

    def stop(self) -> None:
        if self.searching.is_set():
            self.stopped.set()


def search_of(agent: Agent, purpose: str = "move") -> Search:
    return Search(1, purpose, agent, ply=0, to_move=0)


def test_a_search_runs_on_its_own_thread_and_reports_on_the_loop() -> None:
    agent, ended, progress = Fake(), [], []

    async def go() -> tuple[Any, ...]:
        search = search_of(agent)
        done = search.start(
            GAME.initial_state(),
            Limit(time=1.0),
            on_progress=lambda s, info: progress.append((s, info.nodes, threading.get_ident())),
            on_end=lambda: ended.append(threading.current_thread().name),
            begin=lambda: agent.threads.append("begin"),
        )
        answer = await done
        await asyncio.sleep(0.01)  # the progress calls queued before the answer
        return answer, search

    (move, error), search = asyncio.run(go())
    assert (move, error) == (GAME.initial_state().legal_moves()[0], None)
    assert agent.threads == ["begin", "arena-web-move"] and ended == ["arena-web-move"]
    assert search.ended.is_set() and not search.cancelled
    assert [nodes for _, nodes, _ in progress] == [10, 20]
    assert all(s is search and ident == threading.get_ident() for s, _, ident in progress)


def test_an_agents_failure_is_the_answer_and_its_count_is_released() -> None:
    searches = Searches(per_client=1)
    assert searches.claim("me") is None

    async def go() -> tuple[Any, ...]:
        search = search_of(Fake(fail=True))
        return await search.start(
            GAME.initial_state(), Limit(time=1.0), lambda s, i: None, lambda: searches.release("me")
        )

    move, error = asyncio.run(go())
    assert move is None and isinstance(error, RuntimeError) and "no move today" in str(error)
    assert searches.running() == 0


def test_a_cancelled_search_is_stopped_again_until_its_thread_ends() -> None:
    agent = Fake(wait=True)

    async def go() -> tuple[Any, ...]:
        search = search_of(agent, "analyze")
        # The agent's search begins after a pause: the first stop comes before it and is
        # lost, the repeats are not.
        done = search.start(
            GAME.initial_state(),
            Limit(time=10.0),
            lambda s, i: None,
            lambda: None,
            begin=lambda: time.sleep(0.2),
        )
        search.cancel()
        answer = await asyncio.wait_for(done, 5.0)
        return answer, search

    (move, error), search = asyncio.run(go())
    assert agent.stopped.is_set() and search.cancelled and search.stop.is_set()
    assert move is not None and error is None


def test_progress_messages_are_spaced_and_json_safe() -> None:
    search = search_of(Fake(), "hint")
    assert search.due(10.0) and not search.due(10.01) and search.due(10.1)
    root = [{"move": str(i), "visits": i} for i in range(MAX_ROWS + 5)]
    message = search.message(SearchInfo(seconds=2.0, nodes=100, value=-math.inf, root=root), True)
    assert message["type"] == "search" and message["purpose"] == "hint" and message["final"]
    assert message["agent"] == "fake" and (message["ply"], message["side"]) == (0, 0)
    info = message["info"]
    assert info["value"] is None and len(info["root"]) == MAX_ROWS and info["rate"] == 50


def test_the_players_agents_start_the_game_and_people_have_none() -> None:
    agents = ready_agents([PERSON, "random"], Board(GAME, 3), allow_programs=False)
    assert agents[0] is None and agents[1] is not None and agents[1].spec.startswith("random")


def test_closing_agents_survives_one_that_will_not_close(caplog: pytest.LogCaptureFixture) -> None:
    closed = []

    class Stubborn(Fake):
        def close(self) -> None:
            raise OSError("still here")

    class Polite(Fake):
        def close(self) -> None:
            closed.append(self)

    polite = Polite()
    with caplog.at_level(logging.WARNING, "arena.web"):
        close_agents([Stubborn(), None, polite])
    assert closed == [polite] and "closing" in caplog.text


class Follower(Fake):
    def __init__(self) -> None:
        super().__init__()
        self.seen: list[int] = []

    def observe(self, state: State, move: int) -> None:
        self.seen.append(move)


def test_an_agent_that_starts_over_is_not_told_the_moves_before_its_start() -> None:
    first, second = Follower(), Follower()
    players = Players(["fake", "fake"], [first, second])
    state = GAME.initial_state()
    players.observe(state, 4)
    players.restart()  # the board went back: both start over before their next move
    assert players.starts(0) and not players.starts(0)
    players.observe(state, 0)
    assert first.seen == [4, 0] and second.seen == [4]
    assert players.label(0) == "fake" and not players.person(1)


def test_closing_the_players_leaves_people_on_both_sides() -> None:
    closed: list[Agent] = []

    class Polite(Fake):
        def close(self) -> None:
            closed.append(self)

    polite = Polite()
    players = Players([PERSON, "fake"], [None, polite])
    players.close()
    assert closed == [polite] and players.person(0) and players.person(1)


def test_the_players_of_a_message_are_checked_and_spelled_out() -> None:
    assert check_players([PERSON, "random"], allow_programs=False) == [PERSON, "random"]
    for bad in (None, ["random"], "random,random", [PERSON, PERSON, PERSON]):
        with pytest.raises(BadMessage, match="'players' is a list of two"):
            check_players(bad, allow_programs=False)
    with pytest.raises(arena.ArenaError):
        check_players([PERSON, "cmd:sh"], allow_programs=False)
