"""``eval=net:FILE``: an az network's value head at the horizon of alphabeta, ids, minimax
and greedy — legal moves and the clock with a random network, the moves the readable
search predicts with a network built by hand, the table of evaluations, and the errors."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import numpy as np
import pytest

import arena
from arena.cli.main import main
from arena.core.errors import SpecError
from arena.core.evaluation import SCALE
from arena.search.alphabeta.alphabeta import AlphaBeta
from arena.search.alphabeta.minimax import minimax
from arena.search.az.network import Network, forward, random_network
from arena.search.az.planes import encode, encoding
from arena.search.az.value import NET_UNITS, cutoff_evaluation
from arena.search.values import terminal_value
from arena.web.catalog import agents_json, check_agent


def weighted_network(game: arena.Game, weights: list[float], k: float) -> Network:
    """A network whose value is ``tanh(k * (sum of weights of the mover's cells - sum of
    weights of the opponent's cells))``, built by hand.

    Stem: filter 0 copies the mover's plane, filter 1 the opponent's. Value plane:
    ``relu(1 + mover - opponent)``, 2 on the mover's cells, 1 on empty ones, 0 on the
    opponent's. Two hidden units take ``sum w * (plane - 1)`` and its negation through a
    ReLU, so their difference is the weighted material difference ``D``; the output is
    ``tanh(k * D)``. The policy head is all zeros."""
    enc = encoding(game)
    c, h, w, a = enc.channels, enc.rows, enc.cols, enc.actions
    cells = np.asarray(weights, np.float32).reshape(h * w)
    f, p = 2, 1
    stem_w = np.zeros((f, c, 3, 3), np.float32)
    stem_w[0, 0, 1, 1] = stem_w[1, 1, 1, 1] = 1.0
    fc1 = np.stack([cells, -cells])
    arrays = {
        "stem_w": stem_w,
        "stem_b": np.zeros(f, np.float32),
        "res_w": np.zeros((0, 2, f, f, 3, 3), np.float32),
        "res_b": np.zeros((0, 2, f), np.float32),
        "pol_w": np.zeros((p, f), np.float32),
        "pol_b": np.zeros(p, np.float32),
        "pol_fc_w": np.zeros((a, p * h * w), np.float32),
        "pol_fc_b": np.zeros(a, np.float32),
        "val_w": np.array([[1.0, -1.0]], np.float32),
        "val_b": np.ones(1, np.float32),
        "val_fc1_w": fc1.astype(np.float32),
        "val_fc1_b": np.array([-cells.sum(), cells.sum()], np.float32),
        "val_fc2_w": np.array([[k, -k]], np.float32),
        "val_fc2_b": np.zeros(1, np.float32),
    }
    return Network(game.spec, arrays)


def weighted_value(state: arena.State, weights: list[float], k: float) -> float:
    """What :func:`weighted_network` computes, in plain Python, on the search's scale."""
    board = encode(state)  # planes 0 and 1: the mover's and the opponent's stones
    cells = np.asarray(weights).reshape(board.shape[1:])
    return float(np.tanh(k * ((board[0] - board[1]) * cells).sum())) * SCALE


def random_positions(game: arena.Game, count: int, seed: int = 0) -> list[arena.State]:
    rng = random.Random(seed)
    found: list[arena.State] = []
    while len(found) < count:
        state = game.initial_state()
        for _ in range(rng.randrange(0, 8)):
            if state.is_terminal():
                break
            state = state.play(rng.choice(state.legal_moves()))
        if not state.is_terminal():
            found.append(state)
    return found


TTT_WEIGHTS = [3, 2, 3, 2, 4, 2, 3, 2, 3]
"""Tic-tac-toe cells by the lines through them (centre 4, corners 3, edges 2)."""


@pytest.fixture(scope="module")
def nets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("nets")
    out = {}
    for name, spec in (("ttt", "tictactoe"), ("c4", "connect4")):
        path = folder / f"{name}.npz"
        random_network(arena.load_game(spec), filters=4, blocks=1, hidden=8, seed=2).save(path)
        out[name] = path
    ttt = arena.load_game("tictactoe")
    out["weighted"] = folder / "Weighted.npz"  # a capital letter: paths keep their case
    weighted_network(ttt, TTT_WEIGHTS, 0.3).save(out["weighted"])
    out["corner"] = folder / "corner.npz"  # a1 is worth far more than any other cell
    weighted_network(ttt, [10, 1, 1, 1, 1, 1, 1, 1, 1], 0.1).save(out["corner"])
    return out


def test_the_hand_made_network_computes_its_formula(nets: dict[str, Path]) -> None:
    game = arena.load_game("tictactoe")
    net = weighted_network(game, TTT_WEIGHTS, 0.3)
    evaluate = cutoff_evaluation(f"net:{nets['weighted']}", "alphabeta").evaluation(game)
    for state in random_positions(game, 30):
        expected = weighted_value(state, TTT_WEIGHTS, 0.3)
        assert forward(net, encode(state))[1] * SCALE == pytest.approx(expected, abs=1e-3)
        assert evaluate(state) == pytest.approx(expected, abs=1e-3)


@pytest.mark.parametrize("spec", ["alphabeta:depth=1", "minimax:depth=1", "greedy"])
def test_a_depth_one_search_takes_the_cell_the_network_values_most(
    nets: dict[str, Path], spec: str
) -> None:
    game = arena.load_game("tictactoe")
    agent = arena.load_agent(f"{spec}{',' if ':' in spec else ':'}eval=net:{nets['corner']}")
    agent.reset(game)
    assert game.format_move(agent.choose(game.initial_state(), arena.Limit())) == "a1"
    assert agent.last_search.units == NET_UNITS.note


@pytest.mark.parametrize("depth", [2, 3, 4])
def test_equal_depth_play_is_the_readable_search_s_with_the_network_s_values(
    nets: dict[str, Path], depth: int
) -> None:
    # The reference: plain minimax over the formula in Python; the agents must choose a
    # move whose reference value is the best, and report that value.
    game = arena.load_game("tictactoe")
    reference = lambda state: weighted_value(state, TTT_WEIGHTS, 0.3)  # noqa: E731
    for spec in (f"alphabeta:depth={depth}", f"minimax:depth={depth}"):
        agent = arena.load_agent(f"{spec},eval=net:{nets['weighted']}")
        agent.reset(game)
        for state in random_positions(game, 6, seed=depth):
            values = {
                m: -minimax(state.play(m), depth - 1, reference, 1) for m in state.legal_moves()
            }
            move = agent.choose(state, arena.Limit())
            assert values[move] == pytest.approx(max(values.values()), abs=0.05), spec
            assert agent.last_search.value == pytest.approx(max(values.values()), abs=0.05)


def test_ids_searches_the_network_with_the_readable_alpha_beta(nets: dict[str, Path]) -> None:
    game = arena.load_game("tictactoe")
    state = game.play_moves(game.parse_moves("b2 a1"))
    agent = arena.load_agent(f"ids:eval=net:{nets['weighted']}")
    assert not agent.compiled  # no compiled engine calls a network
    move = agent.choose(state, arena.Limit(depth=3))
    searcher = AlphaBeta(lambda s: weighted_value(s, TTT_WEIGHTS, 0.3), cache=True, order=True)
    value, _, rows = searcher.root(state, 3)
    assert agent.last_search.depth == 3
    assert agent.last_search.value == pytest.approx(value, abs=0.05)
    assert dict((m, v) for m, v, _ in rows)[move] == pytest.approx(value, abs=0.05)
    assert agent.spec.endswith("Weighted.npz")  # the path as written


def test_finished_games_are_valued_exactly_not_by_the_network(nets: dict[str, Path]) -> None:
    # O to move can lose at once unless it blocks: a3 (X threatens a1-a2-a3).
    game = arena.load_game("tictactoe")
    state = game.play_moves(game.parse_moves("a1 b2 a2"))
    agent = arena.load_agent(f"alphabeta:depth=2,eval=net:{nets['corner']}")
    assert game.format_move(agent.choose(state, arena.Limit())) == "a3"
    won = game.play_moves(game.parse_moves("a1 b1 a2 b2 a3"))
    assert terminal_value(won, 0) != 0  # what the search uses for it


@pytest.mark.parametrize("spec", ["ids", "alphabeta:depth=3", "minimax:depth=2"])
def test_a_random_network_plays_legal_moves_to_the_end(nets: dict[str, Path], spec: str) -> None:
    game = arena.load_game("connect4")
    sep = "," if ":" in spec else ":"
    agent = arena.load_agent(f"{spec}{sep}eval=net:{nets['c4']}")
    agent.reset(game)
    state, rng = game.initial_state(), random.Random(1)
    while not state.is_terminal():
        if state.ply % 2:
            move = rng.choice(state.legal_moves())
        else:
            move = agent.choose(state, arena.Limit(time=0.05))
        assert move in state.legal_moves()
        state = state.play(move)


def test_ids_with_a_network_keeps_to_its_time(nets: dict[str, Path]) -> None:
    game = arena.load_game("connect4")
    agent = arena.load_agent(f"ids:eval=net:{nets['c4']}")
    agent.reset(game)  # off the clock: the forward pass is compiled
    state = game.play_moves(game.parse_moves("4433"))
    for seconds in (0.05, 0.3):
        start = time.perf_counter()
        move = agent.choose(state, arena.Limit(time=seconds))
        took = time.perf_counter() - start
        assert move in state.legal_moves() and agent.last_search.depth >= 1
        assert took < seconds + 2.0  # generous: the machine is shared; speed is for bench


def test_evaluations_are_kept_by_position(nets: dict[str, Path]) -> None:
    game = arena.load_game("connect4")
    cutoff = cutoff_evaluation(f"net:{nets['c4']}", "alphabeta")
    evaluate = cutoff.evaluation(game)
    assert cutoff.evaluation(game) is evaluate  # one table per game, kept between games
    states = random_positions(game, 20, seed=5)
    first = [evaluate(s) for s in states]
    calls = evaluate.calls  # type: ignore[attr-defined]
    assert [evaluate(s) for s in states] == first
    assert evaluate.calls == calls  # type: ignore[attr-defined]
    net = random_network(game, filters=4, blocks=1, hidden=8, seed=2)
    for state, value in zip(states, first, strict=True):
        assert value == pytest.approx(forward(net, encode(state))[1] * SCALE, abs=0.1)


def test_a_wrong_file_is_a_one_line_error_when_the_agent_is_made(
    nets: dict[str, Path], tmp_path: Path
) -> None:
    text = tmp_path / "notes.npz"
    text.write_text("not a network")
    for spec, message in [
        (f"ids:eval=net:{tmp_path / 'none.npz'}", "ids: eval=net:.*: no such file"),
        (f"alphabeta:eval=net:{text}", "alphabeta: eval=net:.*: not a network file"),
        ("minimax:eval=nets", re.escape("minimax: eval=nets is not one of heuristic|utility|net:")),
        ("ids:eval=net:", re.escape("ids: eval=net: is not one of heuristic|utility|net:FILE")),
    ]:
        with pytest.raises(SpecError, match=message):
            arena.load_agent(spec)
    agent = arena.load_agent(f"ids:eval=net:{nets['c4']}")
    with pytest.raises(SpecError, match="ids: eval=net: the network is for connect4, not tic"):
        agent.reset(arena.load_game("tictactoe"))


def test_the_command_line_refuses_a_network_for_another_game(
    nets: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["play", "tictactoe", f"alphabeta:eval=net:{nets['c4']}", "random"])
    assert status == 2
    err = capsys.readouterr().err
    assert "the network is for connect4, not tictactoe" in err and err.count("\n") == 1
    status = main(["play", "tictactoe", "ids:eval=net:/no/such.npz", "random"])
    assert status == 2
    assert "no such file" in capsys.readouterr().err


def test_the_web_board_opens_no_network_file_a_page_names(nets: dict[str, Path]) -> None:
    # eval=net: reads a file on the server: like az, only with --allow-programs.
    spec = f"ids:time=0.1,eval=NET:{nets['c4']}"
    with pytest.raises(SpecError, match="eval=net: reads a network file on the server"):
        check_agent(spec, allow_programs=False)
    assert check_agent(spec, allow_programs=True).spec.endswith("c4.npz")
    assert check_agent("ids:eval=utility", allow_programs=False).spec == "ids:eval=utility"
    # The forms offer the hand-written evaluations, as before eval took a file.
    (ids,) = [a for a in agents_json() if a["name"] == "ids"]
    (param,) = [p for p in ids["params"] if p["name"] == "eval"]
    assert param["choices"] == ["heuristic", "utility"]
