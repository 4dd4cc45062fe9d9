"""The Othello engine's pattern families (Logistello's): the compiled reading against the
readable one, the symmetries, the pattern files, the fit and the measurement script."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import arena
from arena.search.alphabeta.engines.othello import evaluation as ev
from arena.search.alphabeta.engines.othello.engine import make_engine
from arena.solvers.othello.board import board_mask, moves

ROOT = Path(__file__).parents[2]
BOARD = np.uint64(board_mask(8))


def boards(count: int, seed: int) -> list[tuple[int, int]]:
    """Positions (mover's discs, opponent's) of random 8x8 games, 4 to 60 plies in."""
    game = arena.load_game("othello")
    engine = make_engine(game)
    assert engine is not None
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.initial_state()
        for _ in range(rng.randint(4, 60)):
            if state.is_terminal():
                break
            state = state.play(rng.choice(state.legal_moves()))
        me, opp = engine.bits(state)
        out.append((int(me), int(opp)))
    return out


def test_each_family_has_its_instances() -> None:
    """The families' instances are the distinct images of their cells: four edges, four
    corner blocks, eight 2x5 blocks, two main diagonals, and so on."""
    counts = [len(ev.instances(f)) for f in range(len(ev.FAMILY_CELLS))]
    assert counts == [4, 4, 4, 8, 4, 4, 4, 2, 4, 4, 4, 4]
    edges = {frozenset(cells) for cells in ev.instances(ev.LINE1)}
    assert edges == {
        frozenset((0, c) for c in range(8)),
        frozenset((7, c) for c in range(8)),
        frozenset((r, 0) for r in range(8)),
        frozenset((r, 7) for r in range(8)),
    }
    # A diagonal of 5 cells: (0, 3)-(4, 7) and its three images.
    diagonals = {frozenset(cells) for cells in ev.instances(ev.DIAG5)}
    assert frozenset((i, i + 3) for i in range(5)) in diagonals
    assert frozenset((i + 3, i) for i in range(5)) in diagonals
    assert frozenset((i, 4 - i) for i in range(5)) in diagonals
    for f in range(len(ev.FAMILY_CELLS)):
        sets = [frozenset(cells) for cells in ev.instances(f)]
        assert len(set(sets)) == len(sets)


def test_the_compiled_images_are_the_symmetries() -> None:
    """``image(x, g)`` moves every cell where :func:`symmetry` says."""
    rng = random.Random(1)
    for _ in range(20):
        x = rng.getrandbits(64)
        for g in range(8):
            y = int(ev.image(np.uint64(x), g))
            for r in range(8):
                for c in range(8):
                    rr, cc = ev.symmetry(g, r, c)
                    assert (x >> (r * 8 + c) & 1) == (y >> (rr * 8 + cc) & 1)


def test_the_compiled_reading_is_the_readable_one() -> None:
    """Every family read from its images equals the readable index of its instances'
    cells."""
    for me, opp in boards(60, seed=2):
        for family in range(len(ev.FAMILY_CELLS)):
            images = [int(g) for g in ev.IMAGES[family] if g >= 0]
            for g, cells in zip(images, ev.instances(family), strict=True):
                y, z = np.uint64(ev.image(np.uint64(me), g)), np.uint64(ev.image(np.uint64(opp), g))
                assert ev.family_value(y, z, family) == ev.pattern_index(me, opp, cells)


@pytest.mark.parametrize("families", [ev.LOGISTELLO, (ev.LINE1, ev.BLOCK3), (ev.DIAG4,)])
def test_patterns_value_sums_every_instance(families: tuple[int, ...]) -> None:
    """The compiled sum over a layout equals the readable sum of each instance's value,
    with random values in the table."""
    rng = np.random.default_rng(3)
    m = ev.masks(8, families)
    width = ev.FEATURES + sum(3 ** len(ev.FAMILY_CELLS[f]) for f in families)
    row = rng.integers(-3000, 3000, size=width).astype(np.int16)
    for me, opp in boards(40, seed=4):
        want = 0
        column = ev.FEATURES
        for family in families:
            for cells in ev.instances(family):
                want += int(row[column + ev.pattern_index(me, opp, cells)])
            column += 3 ** len(ev.FAMILY_CELLS[family])
        assert ev.patterns_value(np.uint64(me), np.uint64(opp), m, row) == want


def test_the_shipped_evaluation_is_the_same_under_every_symmetry() -> None:
    """The shipped tables give a configuration and its images under a symmetry of its
    cells one value (the fit's folding), so a position and its seven images evaluate
    alike, to the hundredth."""
    table, families = ev.weights(8)
    assert families == ev.LOGISTELLO
    m = ev.masks(8, families)
    for me, opp in boards(30, seed=5):
        values = set()
        for g in range(8):
            a, b = np.uint64(ev.image(np.uint64(me), g)), np.uint64(ev.image(np.uint64(opp), g))
            mine, theirs = np.uint64(moves(a, b, BOARD)), np.uint64(moves(b, a, BOARD))
            values.add(ev.evaluate(a, b, mine, theirs, ev.HEURISTIC, m, table))
        assert len(values) == 1


def test_files_from_before_the_families_still_load(tmp_path: Path) -> None:
    """A file of edges and corner blocks is the LINE1 and BLOCK3 families with the
    features' ``ANCHORS``."""
    edges = np.arange(3**8 * 5, dtype=np.int16).reshape(3**8, 5) % 97
    corners = np.ones((3**9, 5), dtype=np.int16)
    path = tmp_path / "old.npz"
    np.savez(path, edges=edges, corners=corners, scale=np.int64(16))
    patterns = ev.load_patterns(path)
    assert patterns.families == (ev.LINE1, ev.BLOCK3) and patterns.anchors is None
    assert np.allclose(patterns.values[: 3**8], edges / 16)
    table, families = ev.weights(8, path)
    assert table.shape == (65, ev.FEATURES + 3**8 + 3**9) and families == (ev.LINE1, ev.BLOCK3)
    assert np.allclose(table[:, : ev.FEATURES], np.round(ev.weight_table(8) * ev.FIXED))


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "not an Othello pattern file"),
        (b"hello", "not an Othello pattern file"),
        ({"families": np.array([0]), "scale": np.int64(16)}, "no 'values'"),
        ({"families": np.array([0]), "values": np.zeros((5, 5)), "scale": 16}, "(6561, phases)"),
        ({"families": np.array([40]), "values": np.zeros((5, 5)), "scale": 16}, "unknown"),
        (
            {
                "families": np.array([ev.DIAG4]),
                "values": np.zeros((81, 5)),
                "anchors": np.zeros((3, 5)),
                "scale": 16,
            },
            "anchors have shape (3, 5)",
        ),
    ],
)
def test_bad_pattern_files_fail_in_one_line(tmp_path: Path, content: object, message: str) -> None:
    path = tmp_path / "bad.npz"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif isinstance(content, dict):
        np.savez(path, **content)
    with pytest.raises(ValueError, match=r"^[^\n]*$") as caught:
        ev.load_patterns(path)
    assert str(path) in str(caught.value) and message in str(caught.value)


def test_the_fit_script_writes_a_file_the_engine_plays(tmp_path: Path) -> None:
    """``fit_othello_weights.py`` plays a few games, saves their positions, fits them
    again from the file, and writes a pattern file that loads and plays."""
    script = ROOT / "scripts" / "fit_othello_weights.py"
    env = {"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"}
    saved = tmp_path / "positions.npz"
    run = [sys.executable, str(script), "--iterations", "20", "--families", "diag4,line1_x"]
    first = subprocess.run(
        [*run, "--games", "6", "--save", str(saved), "--out", str(tmp_path / "a")],
        capture_output=True, text=True, env=env, timeout=600, check=False,
    )  # fmt: skip
    assert first.returncode == 0, first.stderr[-2000:]
    assert "held-out" in first.stdout
    again = subprocess.run(
        [*run, "--positions", str(saved), "--out", str(tmp_path / "b")],
        capture_output=True, text=True, env=env, timeout=600, check=False,
    )  # fmt: skip
    assert again.returncode == 0, again.stderr[-2000:]
    a = np.load(tmp_path / "a" / "patterns.npz")
    b = np.load(tmp_path / "b" / "patterns.npz")
    assert list(a["families"]) == [ev.DIAG4, ev.LINE1_X]
    assert np.array_equal(a["values"], b["values"])
    patterns = ev.load_patterns(tmp_path / "b" / "patterns.npz")
    # An edge read either way is one configuration: the fit gives both one value.
    values = patterns.values[81:]
    config = ev.pattern_index(0b1011, 0b100000, ev.FAMILY_CELLS[ev.LINE1_X])
    mirrored = ev.pattern_index(0b11010000, 0b100, ev.FAMILY_CELLS[ev.LINE1_X])
    assert np.array_equal(values[config], values[mirrored])
    bad = subprocess.run(
        [*run, "--families", "diag4,hexagon"], capture_output=True, text=True, env=env,
        timeout=60, check=False,
    )  # fmt: skip
    assert bad.returncode == 2 and "not in line1" in bad.stderr and "Traceback" not in bad.stderr
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not numpy")
    cut = tmp_path / "cut.npz"
    cut.write_bytes(saved.read_bytes()[:300])
    refused = [
        ([*run, "--positions", str(junk)], "--positions: " + str(junk) + ": not a file of --save"),
        ([*run, "--positions", str(cut)], "--positions: " + str(cut) + ": not a file of --save"),
        (
            [*run, "--positions", str(tmp_path / "a" / "patterns.npz")],
            "not a file of --save",
        ),
        ([*run, "--positions", str(saved), "--phases", "1"], "--phases: at least 2"),
        ([*run, "--positions", str(saved), "--iterations", "0"], "--iterations: at least 1"),
    ]
    for command, message in refused:
        done = subprocess.run(
            command, capture_output=True, text=True, env=env, timeout=120, check=False
        )
        assert done.returncode == 2 and message in done.stderr, done.stderr[-500:]
        assert "Traceback" not in done.stderr


def test_the_variant_plays_another_pattern_file(tmp_path: Path) -> None:
    """``scripts/othello_variant.py``'s ``patterns=FILE`` puts that file's table in the
    agent's engine; a bad file is refused at load, in one line."""
    path = tmp_path / "Old Patterns.npz"
    np.savez(
        path,
        edges=np.zeros((3**8, 5), np.int16),
        scale=np.int64(16),
        corners=np.zeros((3**9, 5), np.int16),
    )
    script = ROOT / "scripts" / "othello_variant.py"
    game = arena.load_game("othello")
    agent = arena.load_agent(f"py:{script}:Variant:patterns={path},threads=1")
    engine = agent.engine(game)  # type: ignore[attr-defined]
    assert engine.weights.shape[1] == ev.FEATURES + 3**8 + 3**9
    state = game.initial_state()
    move, _ = engine.choose(state, 0.2, 64, agent)
    assert move in state.legal_moves()
    with pytest.raises(arena.SpecError, match=r"^othello-variant: patterns=.*not an Othello"):
        arena.load_agent(f"py:{script}:Variant:patterns={tmp_path / 'none.npz'}")
