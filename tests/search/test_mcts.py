"""MCTS: bookkeeping, options, reuse, the solver, and time limits."""

from __future__ import annotations

import time

import pytest

import arena
from arena.core.limit import DEFAULT_GRACE
from arena.search.mcts.tree import Node, Proof, prove
from helpers import Stopwatch, random_states


def check_counts(node: Node, is_root: bool = True) -> int:
    """Visits agree up and down the tree; returns the number of nodes, where a
    finished game visited n times counts n times (it is re-simulated, not re-added)."""
    if is_root:
        assert node.total == sum(node.visits)
    count = node.total if node.state.is_terminal() else 1
    for i, child in enumerate(node.children):
        if child is None:
            assert node.visits[i] == 0
            continue
        assert child.total == node.visits[i]
        if not child.state.is_terminal():
            assert child.total == 1 + sum(child.visits), "own first visit + children's"
        assert 0 <= node.wins[i] <= node.visits[i]
        count += check_counts(child, False)
    return count


@pytest.mark.parametrize(
    "options",
    [
        "",
        "expand=all",
        "tree=egreedy,eps=0.2",
        "rollout=heuristic",
        "solver=1",
        "final=max",
        "c=0.5,expand=all,solver=1",
    ],
)
@pytest.mark.parametrize("spec", ["connect4", "tictactoe", "othello:size=6", "go:size=5"])
def test_visits_add_up(spec: str, options: str) -> None:
    game = arena.load_game(spec)
    agent = arena.load_agent(
        f"mcts:rollouts=400,seed=3,engine=python{',' + options if options else ''}"
    )
    state = random_states(game, 3, seed=1)[-1]
    move = agent.choose(state, arena.Limit())
    assert move in state.legal_moves()
    nodes = check_counts(agent.root)
    info = agent.last_search
    assert info.nodes == agent.root.total
    if "solver" in options and prove(agent.root) != Proof.UNKNOWN:
        assert info.nodes <= 400 + 8 * len(state.legal_moves())  # proven: stopped early
    elif "expand=all" in options:
        assert 400 <= info.nodes < 400 + len(state.legal_moves()) * 8
        assert nodes == info.nodes + 1 or "solver" in options
    elif "solver" not in options:
        assert info.nodes == 400 and nodes == 401  # one new node per simulation
    rates = [r["win_rate"] for r in info.root if r["win_rate"] is not None]
    assert all(0.0 <= r <= 1.0 for r in rates)
    assert [r["rank"] for r in info.root] == list(range(1, len(info.root) + 1))


def test_reuse_keeps_the_subtree() -> None:
    game = arena.load_game("connect4")
    agent = arena.load_agent("mcts:rollouts=3000,reuse=1,seed=5,engine=python")
    state = game.initial_state()
    move = agent.choose(state, arena.Limit())
    root = agent.root
    reply = state.play(move).legal_moves()[3]
    kept = root.children[root.moves.index(move)].children
    grandchild = kept[state.play(move).legal_moves().index(reply)] if kept else None
    assert grandchild is not None
    before = grandchild.total
    agent.observe(state, move)
    state = state.play(move)
    agent.observe(state, reply)
    state = state.play(reply)
    assert agent.root is grandchild and agent.root.total == before > 0
    agent.choose(state, arena.Limit(rollouts=500))
    assert agent.root is grandchild and grandchild.total == before + 500
    # A kept root carries its own first simulation besides its children's.
    assert grandchild.total == 1 + sum(grandchild.visits)
    check_counts(agent.root, is_root=False)
    without = arena.load_agent("mcts:rollouts=500,reuse=0,seed=5")
    without.observe(state, 0)
    assert without.root is None


@pytest.mark.parametrize(
    ("spec", "moves", "winning"),
    [
        ("tictactoe", "a1 b1 a2 b2", {"a3"}),  # win in 1
        ("connect4", "4455", {"3", "6"}),  # win in 3
        ("connect4:rows=6,cols=7", "4 4 3 3", {"2", "5"}),  # win in 3
    ],
)
def test_solver_proves_forced_wins(spec: str, moves: str, winning: set[str]) -> None:
    game = arena.load_game(spec)
    state = game.play_moves(game.parse_moves(moves))
    agent = arena.load_agent("mcts:rollouts=20000,solver=1,seed=2,engine=python")
    move = agent.choose(state, arena.Limit())
    assert game.format_move(move) in winning
    assert prove(agent.root) == Proof.WON, "the root should be proven won"
    proven_rows = [r for r in agent.last_search.root if r["proven"] == "win"]
    assert proven_rows and proven_rows[0]["move"] in winning
    # A proven root stops the search early.
    assert agent.last_search.nodes < 20000


def test_solver_never_resamples_proven_children() -> None:
    game = arena.load_game("tictactoe")
    state = game.play_moves(game.parse_moves("a1 b1 a2 b2"))
    agent = arena.load_agent("mcts:rollouts=2000,solver=1,seed=1,engine=python")
    agent.choose(state, arena.Limit())
    win = agent.root.moves.index(game.parse_move("a3"))
    assert agent.root.proven[win] == Proof.WON and agent.root.visits[win] == 1


def test_prove_rules() -> None:
    game = arena.load_game("tictactoe")
    node = Node(game.initial_state())
    node.untried = []
    node.proven = [Proof.LOST] * 9
    assert prove(node) == Proof.LOST
    node.proven[3] = Proof.DRAWN
    assert prove(node) == Proof.DRAWN
    node.proven[5] = Proof.WON
    assert prove(node) == Proof.WON
    node.proven[5] = Proof.UNKNOWN
    assert prove(node) == Proof.UNKNOWN


@pytest.mark.parametrize("spec", ["connect4", "othello", "go:size=9", "gomoku", "colosseum"])
@pytest.mark.parametrize("seconds", [0.02, 0.2])
def test_mcts_answers_within_its_time(spec: str, seconds: float) -> None:
    game = arena.load_game(spec)
    agent = arena.load_agent("mcts:reuse=1,seed=1")
    agent.reset(game)
    state = game.initial_state(1)
    for _ in range(4):
        start = time.perf_counter()
        move = agent.choose(state, arena.Limit(time=seconds))
        spent = time.perf_counter() - start
        # Within the referee's grace: what loses a game (the bench times it closely).
        assert spent <= seconds + DEFAULT_GRACE, f"{spec}: {spent * 1000:.1f} ms for {seconds}"
        assert agent.last_search.nodes >= 1
        agent.observe(state, move)
        state = state.play(move)
        if state.is_terminal():
            break


def test_one_legal_move_is_played_at_once() -> None:
    game = arena.load_game("othello:size=4")
    state = game.initial_state()
    while len(state.legal_moves()) != 1:
        state = state.play(state.legal_moves()[0])
    agent = arena.load_agent("mcts:rollouts=100000")
    assert agent.choose(state, arena.Limit()) == state.legal_moves()[0]
    assert agent.last_search.nodes == 0


@pytest.mark.parametrize("spec", ["go:size=19", "colosseum:size=12", "gomoku"])
def test_expand_all_with_heuristic_rollouts_stops_in_time(spec: str) -> None:
    """Expanding every child with a slow rollout each must still stop at the deadline,
    leaving the tree consistent (unfinished children stay untried)."""
    game = arena.load_game(spec)
    agent = arena.load_agent("mcts:expand=all,rollout=heuristic,seed=1")
    agent.reset(game)
    state = random_states(game, 6, seed=2)[-1]
    watch = Stopwatch()  # the search's own time: a loaded machine's waits are not its
    move = agent.choose(state, arena.Limit(time=0.02))
    assert watch.seconds() <= 0.02 + DEFAULT_GRACE
    assert move in state.legal_moves()
    check_counts(agent.root)
