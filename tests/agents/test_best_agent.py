"""``best``: one name for the strongest configuration of each game."""

from __future__ import annotations

import pytest

import arena
from arena.agents.best import BEST, best_spec
from arena.compete.match import play_game
from arena.compete.timecontrol import TimeControl
from arena.core.agent import SearchInfo


@pytest.mark.parametrize("key", sorted(BEST))
def test_every_row_names_a_game_and_an_agent_that_load(key: str) -> None:
    game = arena.load_game(key)
    assert best_spec(game) == BEST[key]
    assert arena.load_agent(BEST[key]).name in BEST[key]


def test_a_game_spec_row_comes_before_its_games_row(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BEST, "go:size=5", "random")
    assert best_spec(arena.load_game("go:size=5")) == "random"
    assert best_spec(arena.load_game("go:size=9")) == BEST["go"]


def test_go_from_9x9_up_plays_the_fitted_prior_and_5x5_the_hand_set_one() -> None:
    """The fitted prior (``patterns=10``) won its SPRTs on 13x13 and 9x9; 5x5, where it was
    not measured, keeps the spec it had."""
    for spec in ("go:size=9", "go:size=13", "go:size=19,handicap=4,komi=0.5"):
        assert "patterns=10" in best_spec(arena.load_game(spec)).split(",")
    small = best_spec(arena.load_game("go:size=5"))
    assert "patterns" not in small and small == BEST["go"].replace(",patterns=10", "")


def test_the_rows_agent_searches_the_matchs_time_and_best_s_own_without_one() -> None:
    """At 2 s a move the row's agent must get 2 s (a time= of its own would cap it: the
    GNU Go games were once played at 1 s this way); ``best:time=`` fills an empty limit."""
    agent = arena.load_agent("best:time=0.2")
    game = arena.load_game("connect4")
    agent.reset(game)
    assert agent.playing is not None and agent.playing.spec == "ids"  # no time= of its own
    seen: list[arena.Limit] = []
    choose = agent.playing.choose
    agent.playing.choose = lambda state, limit: seen.append(limit) or choose(state, limit)  # type: ignore[method-assign]
    state = game.play_moves(game.parse_moves("4455"))
    move = agent.choose(state, arena.Limit(time=0.5))
    assert game.format_move(move) in ("3", "6")
    agent.choose(state, arena.Limit())
    assert seen == [arena.Limit(time=0.5), arena.Limit(time=0.2)]
    assert agent.last_search is not None and agent.last_search.engine == agent.playing.spec


def test_progress_reaches_the_listener() -> None:
    agent = arena.load_agent("best")
    seen: list[SearchInfo] = []
    agent.listener = lambda info: seen.append(info) and False
    game = arena.load_game("go:size=5")
    agent.choose(game.initial_state(), arena.Limit(time=0.3))
    assert seen and seen[-1].nodes > 0


def test_it_never_loses_tictactoe_to_a_searching_opponent() -> None:
    game = arena.load_game("tictactoe")
    for seed in range(4):
        players = ["best", "mcts:rollouts=200"] if seed % 2 == 0 else ["mcts:rollouts=200", "best"]
        agents = [arena.load_agent(spec) for spec in players]
        # Strength, not speed: a pause of the machine past the referee's 50 ms grace lost
        # best its first move on time under load (0.62 s for a 0.2 s move, 0.09 s idle).
        record = play_game(
            game, agents, TimeControl.moving(0.2), seed=seed, names=players, grace=5.0
        )
        assert record.winner is None or record.players[record.winner] == "best", record


@pytest.mark.parametrize(
    ("game_spec", "inner"),
    [("othello", "ids"), ("go:size=9", "mcts")],
)
def test_threads_reach_the_rows_agent(game_spec: str, inner: str) -> None:
    """best:threads=N searches with N threads (ids: Lazy SMP; Go's MC-RAVE: a tree per
    thread) and plays legal moves."""
    game = arena.load_game(game_spec)
    agent = arena.load_agent("best:threads=2")
    agent.reset(game)
    state = game.initial_state()
    move = agent.choose(state, arena.Limit(time=0.1))
    assert move in state.legal_moves()
    engine = agent.last_search.engine if agent.last_search is not None else ""
    assert engine.startswith(inner) and engine.endswith("threads=2")
    assert best_spec(arena.load_game("tictactoe"), 2) == "solver"  # no threads to give


def test_a_knob_of_the_rows_agent_is_refused_with_the_spec_to_give_instead() -> None:
    with pytest.raises(arena.SpecError) as err:
        arena.load_agent("best:dynkomi=1")
    message = str(err.value)
    assert "\n" not in message and "unknown parameter 'dynkomi'" in message
    assert "threads=free cores" in message
    assert f"give that spec with the knob added instead (go: {BEST['go']},KEY=VALUE)" in message
    # The spec it names takes the knob.
    assert arena.load_agent(f"{BEST['go']},dynkomi=1").config["dynkomi"] == 1
