"""``openspiel:mcts``: the move mapping against OpenSpiel's own rules, whole games, bad specs."""

from __future__ import annotations

import random

import pytest

import arena
from arena.agents.openspiel import mapping
from arena.compete.match import play_game
from arena.compete.timecontrol import TimeControl
from arena.core.errors import SpecError

pyspiel = pytest.importorskip("pyspiel")

GAMES = [
    "tictactoe",
    "connect4",
    "connect4:rows=5,cols=6,k=4",
    "othello",
    "go:size=5",
    "go:size=9,komi=6.5",
    "gomoku:size=9",
]


@pytest.mark.parametrize("spec", GAMES)
def test_every_legal_move_maps_to_openspiels_and_the_games_end_alike(spec: str) -> None:
    game = arena.load_game(spec)
    bridge = mapping(game)
    rng = random.Random(7)
    for _ in range(6 if game.name in ("go", "gomoku", "othello") else 20):
        state = game.initial_state()
        theirs = pyspiel.load_game(bridge.name).new_initial_state()
        while not state.is_terminal():
            ours = {bridge.to_action(m) for m in state.legal_moves()}
            if game.name == "go":
                # Positional superko forbids a few moves OpenSpiel's simple ko allows.
                assert ours <= set(theirs.legal_actions())
            else:
                assert ours == set(theirs.legal_actions())
            move = rng.choice(state.legal_moves())
            assert bridge.from_action(bridge.to_action(move)) == move
            state = state.play(move)
            theirs.apply_action(bridge.to_action(move))
        assert theirs.is_terminal()
        assert tuple(round(r) for r in theirs.returns()) == state.returns()


@pytest.mark.parametrize("spec", ["connect4", "go:size=5", "othello"])
def test_it_plays_whole_games_in_a_match_from_either_side(spec: str) -> None:
    game = arena.load_game(spec)
    control = TimeControl.parse("rollouts=50")
    for players in (
        ["openspiel:mcts:seed=1", "random:seed=2"],
        ["random:seed=3", "openspiel:mcts"],
    ):
        record = play_game(game, players, control)
        assert record.reason == "normal", record.detail


def test_it_beats_random_at_connect_four() -> None:
    game = arena.load_game("connect4")
    control = TimeControl.parse("rollouts=300")
    wins = 0
    for seed in range(4):
        players = [f"openspiel:mcts:seed={seed}", f"random:seed={seed}"]
        first = seed % 2 == 0
        record = play_game(game, players if first else players[::-1], control)
        wins += record.returns[0 if first else 1] == 1
    assert wins == 4


def test_its_search_report_lists_root_moves_by_visits() -> None:
    agent = arena.load_agent("openspiel:mcts:seed=1")
    game = arena.load_game("connect4")
    agent.reset(game)
    move = agent.choose(game.initial_state(), arena.Limit(rollouts=2000))
    info = agent.last_search
    assert info is not None and info.nodes >= 2000
    visits = [row["visits"] for row in info.root]
    assert visits == sorted(visits, reverse=True) and len(visits) == 7
    assert info.root[0]["move"] == game.format_move(move) == "4"


@pytest.mark.parametrize(
    ("spec", "game", "message"),
    [
        ("openspiel:alphazero", None, "unknown algorithm 'alphazero'; valid: mcts"),
        ("openspiel:mcts:c=-1", None, "c=-1"),
        ("openspiel:mcts", "colosseum", "no OpenSpiel counterpart"),
        ("openspiel:mcts", "othello:size=6", "no OpenSpiel counterpart"),
    ],
)
def test_bad_specs_and_games_are_refused(spec: str, game: str | None, message: str) -> None:
    with pytest.raises(SpecError, match=message):
        agent = arena.load_agent(spec)
        agent.reset(arena.load_game(game))  # type: ignore[arg-type]
