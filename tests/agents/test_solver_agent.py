"""The ``solver`` agent and the exact endgame of ``ids`` on Othello."""

from __future__ import annotations

import random

import arena
from arena.core.agent import start_game
from arena.core.game import State
from arena.solvers import exact
from arena.solvers.solve import move_values, solve_state


def othello_endgame(empties: int, seed: int) -> State:
    game = arena.load_game("othello")
    rng = random.Random(seed)
    while True:
        state = game.initial_state()
        while not state.is_terminal() and exact.empty_cells(state) > empties:
            state = state.play(rng.choice(state.legal_moves()))
        if not state.is_terminal() and state.legal_moves() != (game.PASS,):  # type: ignore[attr-defined]
            return state


def test_solver_plays_a_best_move_and_says_it_was_exact() -> None:
    game = arena.load_game("connect4")
    agent = arena.load_agent("solver")
    start_game(agent, game)
    state = game.play_moves(game.parse_moves("4455443"))  # Yellow must block at 3 or 6 ...
    move = agent.choose(state, arena.Limit(time=2.0))
    assert agent.last_method == "exact" and agent.last_search.method == "exact"  # type: ignore[union-attr]
    assert agent.last_search is not None and agent.last_search.root[0]["text"].startswith("exact")
    best = solve_state(state).score
    assert dict(move_values(state))[move].score == best


def test_solver_falls_back_to_ids_when_it_cannot_solve() -> None:
    game = arena.load_game("connect4")
    agent = arena.load_agent("solver")
    start_game(agent, game)
    move = agent.choose(game.initial_state(), arena.Limit(time=1.0))
    assert move in range(7) and agent.last_search.method == "ids"  # type: ignore[union-attr]
    assert not any(r.get("exact") for r in agent.last_search.root)  # type: ignore[union-attr]


def test_ids_switches_to_the_exact_endgame_on_othello() -> None:
    state = othello_endgame(10, seed=3)
    agent = arena.load_agent("ids")
    start_game(agent, state.game)
    agent.choose(state, arena.Limit(time=1.0))
    exact.wait_for_solver(state.game)  # the solver loads in the background at first
    move = agent.choose(state, arena.Limit(time=1.0))
    info = agent.last_search
    assert info is not None and info.method == "exact" and info.root[0]["text"].startswith("exact")
    assert dict(move_values(state))[move].score == solve_state(state).score == info.value
    # Far from the end it searches as before.
    agent.choose(arena.load_game("othello").initial_state(), arena.Limit(time=0.5))
    assert not any(r.get("exact") for r in agent.last_search.root)  # type: ignore[union-attr]
