"""Multi-ProbCut in the Othello engine: the cut table's rows, the compiled search taking
its cuts from the table (each try, cheapest first), the cuts keeping the values close to
the full-width search, and the script that fits the tries."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import arena
from arena.core.game import State
from arena.search.alphabeta.engines.othello import probcut as mpc
from arena.search.alphabeta.engines.othello import search
from arena.search.alphabeta.engines.othello.engine import OthelloEngine

ROOT = Path(__file__).parents[2]
GAME = arena.load_game("othello")
SCRIPT = ROOT / "scripts" / "fit_othello_probcut.py"


def midgame_states(count: int, seed: int) -> list[State]:
    rng = random.Random(seed)
    out: list[State] = []
    while len(out) < count:
        state = GAME.initial_state()
        for _ in range(rng.randint(12, 30)):
            if state.is_terminal():
                break
            state = state.play(rng.choice(state.legal_moves()))
        if not state.is_terminal() and state.legal_moves() != (GAME.PASS,):  # type: ignore[attr-defined]
            out.append(state)
    return out


@pytest.fixture(scope="module")
def engine() -> OthelloEngine:
    return OthelloEngine(GAME)


def searched(engine: OthelloEngine, state: State, depth: int, cuts: np.ndarray, t: float):
    """(value, best move, nodes) of a fixed-depth search with the table and margin."""
    engine.cuts, engine.probcut = cuts, t
    engine.reset()
    value, move = engine.search_depth(state, depth)
    return value, move, int(engine.stats[search.NODES])


def test_the_tables_rows_follow_their_tries() -> None:
    table = mpc.cut_table(8)
    assert not table.flags.writeable
    first = min(t.first for t in mpc.FITTED)
    for empties in (10, 30, 55):
        for depth in range(search.CUT_DEPTHS):
            rows = [r for r in table[empties, depth] if r[search.CUT_SHALLOW] >= 0]
            if depth < first:
                assert rows == []
                continue
            assert rows, (empties, depth)
            shallow = [int(r[search.CUT_SHALLOW]) for r in rows]
            assert shallow == sorted(shallow) and all(0 <= s < depth for s in shallow)
            usable = [t for t in sorted(mpc.FITTED, key=lambda t: -t.gap) if depth >= t.first]
            assert len(rows) == min(len(usable), search.TRIES)
            for r, t in zip(rows, usable, strict=False):
                assert r[search.CUT_SLOPE] == round(t.slope * search.SLOPE_ONE) > 0
                assert r[search.CUT_SIGMA] == t.spread(empties, depth) >= mpc.MIN_SIGMA
    # Smaller boards keep the classic rule; an unknown table name is refused.
    assert [int(x) for x in mpc.cut_table(6)[20, 10, 0]] == [6, 1065, 0, 1600]
    with pytest.raises(KeyError):
        mpc.cut_table(8, "bogus")


def test_a_spread_stops_at_the_deepest_depth_fitted_and_never_falls_below_the_floor() -> None:
    t = mpc.Try(
        gap=4, first=6, slope=1.0, offset=0, sigma=1000, per_empty=0.9, per_depth=0.8, last=12
    )
    assert t.spread(30, 8) == 1000 and t.spread(29, 9) == round(1000 / 0.9 * 0.8)
    assert t.spread(20, 12) == round(1000 * 0.9**-10 * 0.8**4)
    assert t.spread(20, 20) == t.spread(20, 12)  # not carried past its data
    assert t.spread(50, 12) == mpc.MIN_SIGMA  # 1000 * 0.9**20 * 0.8**4: under the floor


def test_the_search_cuts_only_where_the_table_says(engine: OthelloEngine) -> None:
    """A table without rows searches exactly as ProbCut off; the classic table cuts; a
    second try is taken when the first one cannot cut (its spread too wide to cut, not
    so wide that its check is skipped)."""
    never = mpc.Try(gap=6, first=6, slope=1.0, offset=0, sigma=200_000)
    classic = mpc.CLASSIC[0]
    tables = {
        "none": search.no_cuts(),
        "never": mpc.table_of((never,)),
        "classic": mpc.table_of((classic,)),
        "never then classic": mpc.table_of((classic, never)),
    }
    for state in midgame_states(6, seed=2):
        off = searched(engine, state, 8, tables["classic"], 0.0)
        found = {name: searched(engine, state, 8, table, 1.5) for name, table in tables.items()}
        assert found["none"] == off
        assert found["never"][:2] == off[:2] and found["never"][2] > off[2]  # checks, no cut
        assert found["classic"][2] < off[2]
        # The wide try first, then the classic one: the classic one's cuts, plus checks.
        assert found["never then classic"][2] < found["never"][2]
    rows = tables["never then classic"][40, 9]
    assert [int(r[search.CUT_SHALLOW]) for r in rows] == [3, 5]  # gap 6 before gap 4


def test_the_fitted_cuts_keep_the_search_close_to_full_width(engine: OthelloEngine) -> None:
    """At depth 9, Multi-ProbCut's values stay within a disc or two of the full-width
    search's, and it searches fewer nodes; a cut of the wrong side (a sign error) or a
    margin of nothing would be far off."""
    fitted = mpc.cut_table(8)
    errors, ratio = [], []
    for state in midgame_states(12, seed=3):
        full = searched(engine, state, 9, fitted, 0.0)
        cut = searched(engine, state, 9, fitted, 1.5)
        errors.append(abs(cut[0] - full[0]))
        ratio.append(cut[2] / full[2])
    assert float(np.mean(ratio)) < 0.8, ratio
    assert float(np.median(errors)) < 400 and max(errors) < 4000, errors  # 400: one disc


def synthetic_rows(count: int, seed: int) -> np.ndarray:
    """Rows whose depth d value is 1.05 * (depth d - 4's) + 100, give or take a spread of
    1000 * 0.98 ** (empties - 30) * 0.9 ** (d - 8): what the fit must find."""
    rng = np.random.default_rng(seed)
    empties = rng.integers(14, 57, count)
    values = np.zeros((count, 12), dtype=np.int64)
    values[:, :4] = rng.normal(0, 3000, (count, 4))
    for d in range(5, 13):
        spread = 1000 * 0.98 ** (empties - 30) * 0.9 ** (d - 8)
        values[:, d - 1] = 1.05 * values[:, d - 5] + 100 + rng.normal(0, 1, count) * spread
    return np.column_stack([empties, values])


def test_the_fit_finds_a_known_line_and_spread() -> None:
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import fit_othello_probcut as fit
    finally:
        sys.path.remove(str(SCRIPT.parent))
    found, cells = fit.fit(synthetic_rows(6000, seed=1), gap=4, first=6)
    assert found.gap == 4 and found.first == 6 and found.last == 12
    assert found.slope == pytest.approx(1.05, abs=0.01)
    assert found.offset == pytest.approx(100, abs=60)
    assert found.sigma == pytest.approx(1000, rel=0.06)
    assert found.per_empty == pytest.approx(0.98, abs=0.004)
    assert found.per_depth == pytest.approx(0.9, abs=0.02)
    assert all(n >= fit.MIN_CELL for _, _, n, _ in cells)
    with pytest.raises(ValueError, match="no depth pairs 20 apart"):
        fit.fit(synthetic_rows(50, seed=2), gap=20, first=6)


def run_script(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=ROOT,
    )


def test_the_script_searches_saves_and_fits(tmp_path: Path) -> None:
    saved = tmp_path / "my rows.npz"
    done = run_script(
        "--positions", "60", "--depth", "6", "--jobs", "1", "--gaps", "2", "--first", "3",
        "--cell", "15", "--save", str(saved),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-800:]
    data = np.load(saved)
    rows, boards = data["rows"], data["positions"]
    assert rows.shape == (60, 7) and boards.shape == (60, 2)
    assert ((rows[:, 0] >= 14) & (rows[:, 0] <= 56)).all()
    assert "Try(gap=2, first=3," in done.stdout and "last=6)" in done.stdout
    # The rows are the engine's fixed-depth searches, ProbCut off.
    engine = OthelloEngine(GAME)
    engine.probcut = 0
    for (me, opp), row in list(zip(boards.tolist(), rows.tolist(), strict=True))[:3]:
        assert row[0] == 64 - (me | opp).bit_count()
        for depth in (1, 4, 6):
            engine.reset()
            assert engine.search_bits(me, opp, depth) == row[depth]
    again = run_script("--data", str(saved), "--gaps", "2", "--first", "3", "--cell", "15")
    assert again.returncode == 0 and again.stdout == done.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--positions", "0"], "--positions and --jobs must be at least 1"),
        (["--gaps", "0"], "--gaps and --cell must be at least 1"),
        (["--cell", "0"], "--gaps and --cell must be at least 1"),
        (["--data", "missing.npz"], "missing.npz"),
        (["--data", "{other}"], "no 'rows' array"),
        (["--data", "{bad}"], "not a file of searched positions"),
    ],
)
def test_the_script_refuses_bad_arguments_in_one_line(
    tmp_path: Path, args: list[str], message: str
) -> None:
    other, bad = tmp_path / "other.npz", tmp_path / "bad.npz"
    np.savez(other, values=np.zeros(3))
    bad.write_bytes(b"PK\x03\x04 truncated")
    args = [a.format(other=other, bad=bad) for a in args]
    done = run_script(*args)
    last = done.stderr.strip().splitlines()[-1]
    assert done.returncode == 2 and message in last, done.stderr[-500:]
    assert "Traceback" not in done.stderr


def test_the_variant_measures_either_table() -> None:
    script = ROOT / "scripts" / "othello_variant.py"
    agent = arena.load_agent(f"py:{script}:Variant:mpc=classic,threads=1")
    built = agent.engine(GAME)  # type: ignore[attr-defined]
    assert built.cuts is mpc.cut_table(8, "classic")
    assert arena.load_agent(f"py:{script}:Variant:threads=1").engine(GAME).cuts is mpc.cut_table(8)
    with pytest.raises(arena.SpecError, match=r"mpc=bogus is not one of fitted\|classic"):
        arena.load_agent(f"py:{script}:Variant:mpc=bogus")
