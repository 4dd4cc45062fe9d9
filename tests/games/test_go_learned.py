"""Go's fitted prior (``games/go/learned.py``, ``mcts:patterns=K``): the kernel's rates are
the readable reference's, the shipped weights know the opening's lines and the tactics,
the knob is a search option refused where it means nothing, and the fit script learns a
player's habit from a results database."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from test_go_ladders import refused_on_connect4

import arena
from arena.compete.store import ResultsDB
from arena.core.errors import SpecError
from arena.formats.record import GameRecord
from arena.games.go import kernel as gk
from arena.games.go import learned
from arena.search.mcts.agent import MCTSAgent

ROOT = Path(__file__).parents[2]


def rates(k, s, knob: int) -> np.ndarray:  # type: ignore[no-untyped-def]
    """The kernel's prior of position ``s`` with the knob ``patterns`` at ``knob``."""
    out = np.zeros(k.params[gk.P_N] + 1, np.int64)
    k.params[gk.P_LEARNED] = knob
    assert k.functions["prior"](k.params, s, out)
    return out


def reference(k, s, knob: int, last: int, prev: int) -> np.ndarray:  # type: ignore[no-untyped-def]
    """The same rates from ``learned.features`` and numpy."""
    p, n, size = k.params, int(k.params[gk.P_N]), int(k.params[gk.P_SIZE])
    heur = rates(k, s, 0)
    cells = s[p[gk.P_CELL] + p[p[gk.P_IDX] : p[gk.P_IDX] + n]].reshape(size, size)
    feats = learned.features(size, cells, int(s[gk.PLY] & 1) + 1, last, prev, heur)
    table = p[p[gk.P_WEIGHTS] : p[gk.P_WEIGHTS] + learned.LENGTH]
    logit = table[feats].sum(1)
    cand = (cells.ravel() == 0) & (heur[:n] != gk.PRIOR_EYE)
    out = heur.copy()
    rate = np.clip(50 + knob * (logit - logit[cand].mean()) / learned.SCALE, 5, 95)
    out[:n][cand] = (rate[cand] + 0.5).astype(np.int64)
    return out


@pytest.mark.parametrize(("size", "plies"), [(9, 90), (19, 40)])
def test_the_kernels_fitted_prior_is_the_readable_references(size: int, plies: int) -> None:
    """Random weights, a random game with captures and passes: the same rate on every
    point, in every position, for two scales; every candidate's rate in 5..95."""
    game = arena.load_game(f"go:size={size}")
    k = gk.kernel(game)
    p = k.params
    rng = np.random.default_rng(size)
    at = p[gk.P_WEIGHTS]
    p[at : at + learned.LENGTH] = rng.integers(-3000, 3000, learned.LENGTH)
    p[at + learned.HAS_LIBS] = 1
    p[gk.P_LADDERS] = 1
    s = k.encode(game.initial_state())
    buf = np.zeros(game.points + 1, np.int64)
    played: list[int] = []
    for _ in range(plies):
        count = k.functions["legal_moves"](p, s, buf)
        if count == 0:
            break
        last = played[-1] if played else -1
        prev = played[-2] if len(played) > 1 else -1
        for knob in (7, 13):
            got = rates(k, s, knob)
            assert np.array_equal(got, reference(k, s, knob, last, prev))
            assert got.min() >= 5 and got.max() <= 95
        move = int(buf[rng.integers(count)])
        k.functions["play"](p, s, move)
        played.append(move)
    assert len(played) == plies


def board(spec: str, moves: str):  # type: ignore[no-untyped-def]
    game = arena.load_game(spec)
    state = game.play_moves(game.parse_moves(moves))
    k = gk.kernel(game)
    k.params[gk.P_LADDERS] = 1
    return game, state, k, k.encode(state)


def test_the_shipped_weights_open_on_the_third_and_fourth_lines() -> None:
    """On the empty 19x19 board the ten best-rated points are on the third and fourth
    lines, and the first line is rated below every one of them and below the centre."""
    game, _, k, s = board("go:size=19", "")
    got = rates(k, s, 10)[: game.points]
    lines = [min(q // 19, q % 19, 18 - q // 19, 18 - q % 19) for q in range(361)]
    best = np.argsort(-got, kind="stable")[:10]
    assert {lines[q] for q in best} <= {2, 3}, [game.format_move(int(q)) for q in best]
    first = [q for q in range(361) if lines[q] == 0]
    assert got[first].max() < got[best].min()
    assert got[first].max() < got[game.parse_move("K10")]


def test_the_shipped_weights_rate_a_capture_and_a_save_high() -> None:
    """White's stone at D5 is in atari: Black's capture at D6 is among the five best-rated
    points of 81; for White to move, no point is rated above the extension that saves it."""
    moves = "d4 d5 c5 j9 e5 j8"  # Black takes D5's liberties C5, E5, D4: D6 is left
    game, state, k, s = board("go:size=9", moves)
    got = rates(k, s, 10)[: game.points]
    capture = game.parse_move("D6")
    assert capture in state.legal_moves()
    assert (got > got[capture]).sum() < 5
    game, state, k, s = board("go:size=9", "d4 d5 c5 j9 e5")  # White to move, D5 in atari
    got = rates(k, s, 10)[: game.points]
    assert got.max() == got[game.parse_move("D6")]


def test_liberty_classes_read_captures_ataris_and_room() -> None:
    """On a 9x9 position with White's D5 in atari and White's J9-J8 on three liberties, the
    liberty classes for Black of a capture, a move beside two of its own strings and a
    move against the corner string are the ones counted by hand; with weights on those
    classes alone the kernel's rates are the reference's."""
    game, _, k, s = board("go:size=9", "d4 d5 c5 j9 e5 j8")
    size = game.size
    p = k.params
    n = game.points
    cells = s[p[gk.P_CELL] + p[p[gk.P_IDX] : p[gk.P_IDX] + n]].reshape(size, size)
    got = learned.liberty_classes(cells, 1)
    hand = {
        "D6": learned.liberty_class(1, 0, 3),  # captures D5: counted as room
        "E4": learned.liberty_class(0, 3, 3),  # beside D4 and E5, three liberties each
        "H9": learned.liberty_class(3, 0, 2),  # against J9-J8, and two liberties of its own
        "A1": learned.liberty_class(0, 0, 2),  # the corner: two liberties
    }
    for name, expected in hand.items():
        assert got[game.parse_move(name)] == expected, name
    assert learned.liberty_class(1, 0, 3) == 23 and learned.liberty_class(3, 0, 2) == 62
    at = p[gk.P_WEIGHTS] + learned.OFF_LIBS  # weights on the liberty classes alone
    p[p[gk.P_WEIGHTS] : p[gk.P_WEIGHTS] + learned.LENGTH] = 0
    p[at : at + learned.NLIBS] = np.arange(learned.NLIBS) * 100
    p[p[gk.P_WEIGHTS] + learned.HAS_LIBS] = 1
    last, prev = game.parse_move("J8"), game.parse_move("E5")
    assert np.array_equal(rates(k, s, 1), reference(k, s, 1, last, prev))


def test_patterns_needs_the_prior_and_a_kernel_with_the_knob() -> None:
    with pytest.raises(SpecError, match="patterns=10 shapes the prior"):
        arena.load_agent("mcts:patterns=10")
    refused_on_connect4("mcts:rave=1000,prior=20,patterns=10,rollouts=10", "patterns=10")


def test_a_search_with_patterns_plays_a_legal_move_from_its_own_kernel() -> None:
    game = arena.load_game("go:size=9")
    state = game.play_moves(game.parse_moves("e5 c3 g7"))
    spec = "mcts:c=0,rave=1000,prior=20,rollout=tactics,ladders=1,patterns=10,rollouts=300,seed=3"
    agent = arena.load_agent(f"{spec},threads=1")
    assert isinstance(agent, MCTSAgent)
    assert agent.choose(state, arena.Limit()) in state.legal_moves()
    assert agent.engine.kernel.params[gk.P_LEARNED] == 10  # type: ignore[attr-defined]


def test_priors_loads_a_weights_file_into_the_agents_own_kernel(tmp_path: Path) -> None:
    """``priors=FILE`` puts the file's weights in that agent's kernel alone (another agent
    keeps the shipped ones), and the search plays from them; a file without liberty
    classes switches their count off."""
    with np.load(learned.WEIGHTS_FILE) as data:
        weights = {k: data[k] for k in data.files}
    weights["patterns"] = -weights["patterns"]  # shapes the other way round
    weights.pop("libs", None)
    path = tmp_path / "My Weights.npz"  # the case kept, a space allowed
    np.savez(path, **weights)
    game = arena.load_game("go:size=9")
    state = game.play_moves(game.parse_moves("e5 c3 g7"))
    spec = "mcts:c=0,rave=1000,prior=20,rollout=tactics,patterns=10,rollouts=200,threads=1"
    mine, shipped = arena.load_agent(f"{spec},priors={path}"), arena.load_agent(spec)
    assert isinstance(mine, MCTSAgent) and isinstance(shipped, MCTSAgent)
    assert mine.choose(state, arena.Limit()) in state.legal_moves()
    assert shipped.choose(state, arena.Limit()) in state.legal_moves()
    p, q = mine.engine.kernel.params, shipped.engine.kernel.params  # type: ignore[attr-defined]
    table = p[p[gk.P_WEIGHTS] : p[gk.P_WEIGHTS] + learned.LENGTH]
    assert np.array_equal(table, learned.load_table(path)) and table[learned.HAS_LIBS] == 0
    assert np.array_equal(q[q[gk.P_WEIGHTS] : q[gk.P_WEIGHTS] + learned.LENGTH],
                          learned.weight_table())  # fmt: skip


def test_priors_refuses_bad_files_and_games_in_one_line(tmp_path: Path) -> None:
    spec = "mcts:c=0,rave=1000,prior=20,patterns=10,rollouts=10"
    with pytest.raises(SpecError, match="give patterns=K too"):
        arena.load_agent("mcts:c=0,rave=1000,prior=20,priors=w.npz")
    text = tmp_path / "notes.npz"
    text.write_text("not an archive\n")
    partial = tmp_path / "partial.npz"
    np.savez(partial, codes=np.array([0]), patterns=np.array([0.5]))
    wrong = tmp_path / "wrong.npz"
    with np.load(learned.WEIGHTS_FILE) as data:
        np.savez(wrong, **{k: data[k] for k in data.files}, libs=np.zeros(3))
    single = tmp_path / "single.npy"
    np.save(single, np.zeros(3))
    cut = tmp_path / "cut.npz"
    cut.write_bytes(learned.WEIGHTS_FILE.read_bytes()[:400])
    cases = {
        tmp_path / "missing.npz": "no such file",
        text: "not a weights file",
        single: "not a weights file (.npz) (one array, no names)",
        cut: "not a weights file",
        partial: "no 'last'",
        wrong: "'libs' has shape (3,)",
    }
    for path, message in cases.items():
        agent = arena.load_agent(f"{spec},priors={path}")
        with pytest.raises(SpecError) as error:
            agent.reset(arena.load_game("go:size=9"))
        assert message in str(error.value) and "\n" not in str(error.value), error.value
        assert str(error.value).startswith(f"mcts: priors={path}: ")
    refused_on_connect4(f"{spec},priors={text}", "patterns=10")  # before its file


def neighbour_habit_games(path: Path, games: int) -> None:
    """A results database of 9x9 games in which Black always plays on the point above the
    opponent's last move when it is empty and legal (else a random move), White at random."""
    game = arena.load_game("go:size=9")
    rng = random.Random(7)
    db = ResultsDB(path)
    db.bind({"game": "go:size=9", "agents": ["habit", "random"]})
    for g in range(games):
        state, moves = game.initial_state(), []
        while not state.is_terminal() and len(moves) < 60:
            legal = [m for m in state.legal_moves() if m != game.points] or [game.points]
            move = rng.choice(legal)
            last = state.last_move if moves else -1
            if state.to_move == 0 and 0 <= last < game.points and last >= 9 and last - 9 in legal:
                move = last - 9
            moves.append(game.format_move(move))
            state = state.play(move)
        record = GameRecord(game="go:size=9", players=("habit", "random"), moves=moves,
                            returns=(0, 0), game_id=f"g{g}")  # fmt: skip
        db.add(record, "habit", "random", g)
    db.close()


def test_the_fit_script_learns_a_players_habit(tmp_path: Path) -> None:
    """Fitted to Black's moves of games where Black answers above the last move, the model
    puts the distance of that point (2) first and its held-out first choice is the move
    played far more often than the hand-set prior's; a file that is no database fails in
    one line."""
    db = tmp_path / "habit.db"
    neighbour_habit_games(db, 30)
    out = tmp_path / "w.npz"
    script = str(ROOT / "scripts" / "fit_go_priors.py")
    env = {"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, script, str(db), "--player", "habit", "--holdout", "3", "--out", str(out)],
        capture_output=True, text=True, env=env, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    held = [line for line in done.stdout.splitlines() if line.startswith("held out")]
    model = float(held[0].split("played ")[1].split("%")[0])
    hand = float(held[0].split("prior's ")[1].split("%")[0])
    assert model > 30 and model > hand + 25, held
    with np.load(out) as w:
        assert w["last"].argmax() == 0  # next to the last move
    table = learned.load_table(out)  # every array has the shape the kernel reads
    assert table.shape == (learned.LENGTH,) and table[learned.HAS_LIBS] == 1
    bad = tmp_path / "notes.db"
    bad.write_text("not a database\n")
    done = subprocess.run(
        [sys.executable, script, str(bad), "--out", str(out)],
        capture_output=True, text=True, env=env, timeout=600,
    )  # fmt: skip
    assert done.returncode == 2 and done.stderr.strip().count("\n") == 0, done.stderr
    assert done.stderr.startswith("fit_go_priors: ")
