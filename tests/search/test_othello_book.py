"""Othello opening books: their symmetric keys, their growth by full plies and deviations,
their files, ``ids:book=FILE`` playing them, and the script that builds them with the
engine's own searches."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import arena
from arena.core.game import State
from arena.search.alphabeta.engines.othello import book as ob
from arena.search.alphabeta.engines.othello.engine import OthelloEngine
from arena.search.alphabeta.engines.othello.evaluation import image
from arena.search.report import format_search
from arena.solvers.othello.solver import discs

ROOT = Path(__file__).parents[2]
GAME = arena.load_game("othello")


def random_states(count: int, seed: int, plies: tuple[int, int] = (0, 30)) -> list[State]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = GAME.initial_state()
        for _ in range(rng.randint(*plies)):
            if state.is_terminal():
                break
            state = state.play(rng.choice(state.legal_moves()))
        out.append(state)
    return out


def images(pos: ob.Position) -> list[ob.Position]:
    me, opp = np.uint64(pos[0]), np.uint64(pos[1])
    return [(int(image(me, g)), int(image(opp, g))) for g in range(8)]


def toy_value(pos: ob.Position) -> int:
    """A cheap evaluation for growing books in tests: not symmetric in any way the book
    could hide (weights by cell), but the same for a position's images (by canonical)."""
    me, opp = ob.canonical(pos)
    return sum((17 * b) % 23 - 11 for b in range(64) if me >> b & 1) - sum(
        (13 * b) % 19 - 9 for b in range(64) if opp >> b & 1
    )


def toy_evaluate(positions: list[ob.Position]) -> list[int]:
    return [toy_value(p) for p in positions]


def test_canonical_is_one_key_for_the_eight_images() -> None:
    for state in random_states(60, seed=1):
        pos = discs(state)
        key = ob.canonical(pos)
        assert key in images(pos)
        assert {ob.canonical(p) for p in images(pos)} == {key}
    # Positions that are not images of each other keep different keys.
    a, b = (
        discs(GAME.play_moves(GAME.parse_moves("d3 c3"))),
        discs(GAME.play_moves(GAME.parse_moves("d3 c5"))),
    )
    assert ob.canonical(a) != ob.canonical(b)


def test_placements_and_child_follow_the_rules() -> None:
    for state in random_states(40, seed=2):
        if state.is_terminal() or state.legal_moves() == (GAME.PASS,):
            continue
        pos = discs(state)
        assert ob.placements(pos) == sorted(state.legal_moves())  # a move's bit is its cell
        for move in state.legal_moves():
            assert ob.child(pos, move) == discs(state.play(move))


def test_a_book_grows_by_its_rules() -> None:
    saved: list[int] = []
    book = ob.build(
        toy_evaluate, plies=6, full=3, window=8, depth=0, done=lambda ply, b: saved.append(ply)
    )
    assert saved == [1, 2, 3, 4, 5, 6] and book.plies == 6 and book.full == 3
    by_ply: dict[int, list[tuple[ob.Position, ob.Entry]]] = {}
    for pos, entry in book.entries.items():
        by_ply.setdefault((pos[0] | pos[1]).bit_count() - 4, []).append((pos, entry))
    # Every position of the first `full` plies is expanded: 1, 1, 3 positions up to symmetry;
    # the 14 of ply 3 are all there.
    assert [sum(e.expanded for _, e in by_ply[p]) for p in range(3)] == [1, 1, 3]
    assert len(by_ply[3]) == 14
    assert not any(e.expanded for _, e in by_ply[6])
    for pos, entry in book.entries.items():
        assert entry.value == toy_value(pos)
        if not entry.expanded:
            continue
        # Every move of an expanded position is in the book; those within the window of
        # the best are expanded too, below the last ply.
        kids = [book.entries[ob.canonical(ob.child(pos, b))] for b in ob.placements(pos)]
        best = max(-k.value for k in kids)
        ply = (pos[0] | pos[1]).bit_count() - 4
        if ply + 1 < 6:
            assert all(k.expanded for k in kids if -k.value >= best - 8)
    # Past the full plies, only deviations were expanded: fewer than all of them.
    assert sum(e.expanded for _, e in by_ply[4]) < len(by_ply[4])
    # Positions reached in real games are found whichever image they are in.
    for state in random_states(30, seed=3, plies=(0, 2)):
        entry = book.get(discs(state))
        assert entry is not None and entry.expanded and entry.value == toy_value(discs(state))


def test_rows_of_an_image_are_the_images_of_the_rows() -> None:
    book = ob.build(toy_evaluate, plies=4, full=4, window=0, depth=0)
    state = GAME.play_moves(GAME.parse_moves("f5 f6 e6"))
    pos = discs(state)
    rows = book.rows(*pos)
    assert rows is not None and [v for _, v in rows] == sorted((v for _, v in rows), reverse=True)
    assert sorted(rows) == sorted(
        (m, -toy_value(discs(state.play(m)))) for m in state.legal_moves()
    )
    for g in range(8):
        mapped = images(pos)[g]
        cells = {int(image(np.uint64(1 << b), g)).bit_length() - 1: v for b, v in rows}
        assert dict(book.rows(*mapped) or []) == cells
    # A position the book did not expand (a leaf, or none at all) has no rows.
    far = discs(GAME.play_moves(GAME.parse_moves("f5 f6 e6 f4 e3")))
    assert book.rows(*far) is None


def test_a_book_file_round_trips_and_bad_files_fail_in_one_line(tmp_path: Path) -> None:
    book = ob.build(toy_evaluate, plies=3, full=2, window=4, depth=7)
    path = tmp_path / "My Book.npz"
    book.save(path)
    again = ob.read_book(path)
    assert again.entries == book.entries
    assert (again.depth, again.plies, again.full, again.window) == (7, 3, 2, 4)
    assert not list(tmp_path.glob("*.part*"))
    good = dict(np.load(path))
    cases = {
        "text.npz": None,
        "array.npy": None,
        "no-value.npz": {k: v for k, v in good.items() if k != "value"},
        "version.npz": {**good, "version": np.int64(9)},
        "short.npz": {**good, "expanded": good["expanded"][:-1]},
    }
    messages = {
        "text.npz": "not an Othello book",
        "array.npy": "not an Othello book",
        "no-value.npz": "no 'value'",
        "version.npz": "version 9, not 1",
        "short.npz": "differ in length",
    }
    for name, content in cases.items():
        bad = tmp_path / name
        if name == "text.npz":
            bad.write_text("hello")
        elif name == "array.npy":
            np.save(bad, np.zeros(3))
        else:
            np.savez(bad, **content)
        with pytest.raises(ValueError, match=r"^[^\n]*$") as caught:
            ob.read_book(bad)
        assert str(bad) in str(caught.value) and messages[name] in str(caught.value)


def test_ids_plays_the_book_on_a_clock_and_searches_elsewhere(tmp_path: Path) -> None:
    path = tmp_path / "Toy Book.npz"
    ob.build(toy_evaluate, plies=3, full=3, window=0, depth=5).save(path)
    state = GAME.initial_state()
    agent = arena.load_agent(f"ids:threads=1,book={path}")
    agent.reset(GAME)
    move = agent.choose(state, arena.Limit(time=1.0))
    info = agent.last_search
    assert info is not None and info.method == "book" and info.nodes == 0
    assert GAME.format_move(move) in ("d3", "c4", "f5", "e6")
    assert info.seconds < 0.5 and len(info.root) == 4 and info.depth == 6
    assert info.root[0]["text"].endswith("discs") and "book" in info.units
    shown = format_search(info)
    assert "the opening book's move, no search" in shown and "principal variation" in shown
    # A fixed depth, a node budget and an analysis search; book=none searches.
    for spec, limit in (
        (f"ids:threads=1,book={path}", arena.Limit(depth=3)),
        (f"ids:threads=1,book={path}", arena.Limit(nodes=2000)),
        (f"ids:threads=1,multipv=4,book={path}", arena.Limit(time=0.3)),
        ("ids:threads=1", arena.Limit(time=0.3)),
        ("ids:threads=1,book=None", arena.Limit(time=0.3)),
    ):
        other = arena.load_agent(spec)
        other.reset(GAME)  # the engine built now: the first move is the engine's
        other.choose(state, limit)
        assert other.last_search is not None and other.last_search.method != "book", spec
        assert other.last_search.nodes > 0
    # Out of the book (a game 20 plies in), it searches.
    away = random_states(1, seed=6, plies=(20, 20))[0]
    assert ob.read_book(path).rows(*discs(away)) is None
    agent.choose(away, arena.Limit(time=0.2))
    assert agent.last_search is not None and agent.last_search.method != "book"


def test_ids_plays_a_book_file_it_is_given(tmp_path: Path) -> None:
    book = ob.build(toy_evaluate, plies=3, full=3, window=0, depth=1)
    path = tmp_path / "Toy Book.npz"
    book.save(path)
    agent = arena.load_agent(f"ids:threads=1,book={path}")
    agent.reset(GAME)
    state = GAME.play_moves(GAME.parse_moves("f5 f6"))
    rows = book.rows(*discs(state))
    assert rows is not None
    move = agent.choose(state, arena.Limit(time=0.5))
    assert agent.last_search is not None and agent.last_search.method == "book"
    assert move == rows[0][0] and agent.last_search.depth == 2
    with pytest.raises(arena.SpecError, match=r"^ids: book=.*not an Othello book[^\n]*$"):
        arena.load_agent(f"ids:book={tmp_path / 'missing.npz'}")


def test_the_build_script_writes_resumes_and_refuses_bad_arguments(tmp_path: Path) -> None:
    script = ROOT / "scripts" / "build_othello_book.py"
    env = {"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"}
    folder = tmp_path / "a Folder"
    folder.mkdir()
    out = folder / "book.npz"
    run = [sys.executable, str(script), "--depth", "2", "--jobs", "1", "--out", str(out)]
    first = subprocess.run(
        [*run, "--full", "2", "--plies", "3"],
        capture_output=True, text=True, env=env, timeout=600, check=False,
    )  # fmt: skip
    assert first.returncode == 0, first.stderr[-2000:]
    assert first.stdout.splitlines()[-1].startswith("ply 3: ")
    book = ob.read_book(out)
    assert (book.depth, book.plies, book.full) == (2, 3, 2)
    engine = OthelloEngine(GAME)
    for pos, entry in list(book.entries.items())[:5]:
        engine.reset()
        assert engine.search_bits(*pos, 2) == entry.value
    again = subprocess.run(
        [*run, "--full", "2", "--plies", "4", "--resume"],
        capture_output=True, text=True, env=env, timeout=600, check=False,
    )  # fmt: skip
    assert again.returncode == 0, again.stderr[-2000:]
    # The first three plies' positions were not searched again.
    lines = again.stdout.splitlines()
    assert lines[2].startswith("ply 3: ") and lines[2].split(", ")[2] == "0 searched"
    grown = ob.read_book(out)
    assert grown.plies == 4 and set(book.entries) <= set(grown.entries)
    refused = [
        ([*run, "--full", "5", "--plies", "3"], "--full (5) is more than --plies (3)"),
        ([*run, "--window", "-1"], "--window: not negative"),
        ([*run, "--depth", "0"], "--depth: at least 1"),
        ([*run[:-1], str(tmp_path / "none" / "b.npz")], "--out: no such folder"),
        ([*run[:3], "3", *run[4:], "--resume"], "was searched to depth 2, not 3"),
    ]
    for command, message in refused:
        done = subprocess.run(
            command, capture_output=True, text=True, env=env, timeout=120, check=False
        )
        assert done.returncode == 2 and message in done.stderr, done.stderr[-500:]
        assert "Traceback" not in done.stderr
