"""Quick cache loads (``arena.search.mcts.numba_cache``): a fresh process loads cached kernels
without numba's target refresh, they compute what they computed when compiled, and a
function missing from the cache still compiles inside the block."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

MODULE = """
import numpy as np
from numba import njit

@njit(cache=True)
def walk(n, seed):
    # numba's generator and runtime-allocated arrays: the symbols a cached load must link.
    np.random.seed(seed)
    steps = np.empty(n, np.int64)
    for i in range(n):
        steps[i] = 1 if np.random.random() < 0.5 else -1
    return steps.sum()
"""

RUN = """
import sys
import numba
from arena.search.mcts.numba_cache import quick_loads, SUPPORTED
import cached
with quick_loads():
    total = cached.walk(1000, 7)
    # A registry module only numba's target refresh imports.
    skipped = "numba.np.polynomial.polynomial_core" not in sys.modules

    @numba.njit(cache=False)
    def fresh(x):
        return x * 2.0

    doubled = fresh(1.5)
print(total, skipped or not SUPPORTED, doubled)
"""


def run(code: str, where: Path) -> str:
    paths = [str(where), str(Path(__file__).parents[2] / "src"), os.environ.get("PYTHONPATH", "")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths), "NUMBA_CACHE_DIR": str(where)}
    env.pop("NUMBA_DISABLE_JIT", None)
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout.strip()


def test_a_quick_load_runs_the_cached_code_and_compiling_still_works(tmp_path: Path) -> None:
    (tmp_path / "cached.py").write_text(MODULE)
    compiled = run("import cached; print(cached.walk(1000, 7))", tmp_path)  # fills the cache
    total, skipped, doubled = run(RUN, tmp_path).split()
    assert total == compiled and skipped == "True" and doubled == "3.0"


WARM = """
import sys
import arena
from arena.search.mcts import kernel as mk
a = arena.load_agent("mcts:rollouts=300,seed=1")
game = arena.load_game("connect4")
a.reset(game)  # what a match does before the clock starts
a.choose(game.initial_state(), arena.Limit())
kernel = sys.modules["arena.games.connect4.kernel"]
print(
    a.last_search.engine,
    len(kernel.playout.signatures),
    len(kernel.rollout.signatures),  # rollout=cheap only
    len(mk.compact.signatures),  # reuse=1 only
    "numba.np.polynomial.polynomial_core" in sys.modules,  # numba's refresh: compiling only
)
"""


def test_a_warm_start_loads_only_what_the_search_runs() -> None:
    """``mcts`` with default options loads the random playout, not the cheap rollout nor
    the subtree copy of tree reuse, and never prepares numba for compiling (the kernels
    are in the cache: the tests' other searches put them there)."""
    paths = [str(Path(__file__).parents[2] / "src"), os.environ.get("PYTHONPATH", "")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    env.pop("NUMBA_DISABLE_JIT", None)
    subprocess.run([sys.executable, "-c", WARM], env=env, capture_output=True, timeout=300)
    proc = subprocess.run(
        [sys.executable, "-c", WARM], capture_output=True, text=True, env=env, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.split() == ["fast", "1", "0", "0", "False"]
