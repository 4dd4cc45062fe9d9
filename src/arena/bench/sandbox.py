"""What ``--sandbox`` costs: time to the first move of an agent program, with and without.

Each case starts a fresh program as a game does (:meth:`ExternalAgent.reset`: the
program is launched and greeted) and asks for the first move of Connect Four; the
clock runs from the launch to the answer. A ``cmd:`` program speaking the protocol
without importing arena shows bubblewrap's own cost; a ``py:`` class (served by
arena's Python, arena imported) shows it for the usual student agent. Medians of
``repeat`` launches, alternating plain and sandboxed so that load is shared.

Tests: tests/remote/test_sandbox.py
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from arena.agents import load_agent
from arena.compete.runner import placed
from arena.core.limit import Limit
from arena.games import load_game
from arena.remote.sandbox import Sandbox, require

RAW = """import sys
for line in sys.stdin:
    words = line.split()
    if words and words[0] == "arena":
        print("ready raw", flush=True)
    elif words and words[0] == "turn":
        print(4, flush=True)
    elif words and words[0] == "quit":
        break
"""

CLASS = """class First:
    def choose(self, state, limit):
        return state.legal_moves()[0]
"""


def first_move_seconds(spec: str, sandbox: Sandbox | None) -> float:
    """Seconds from launching ``spec``'s program to its first Connect Four move."""
    game = load_game("connect4")
    agent = placed(spec, sandbox=sandbox)
    if isinstance(agent, str):  # a plain cmd: spec, loaded as the referee would
        agent = load_agent(agent)
    start = time.perf_counter()
    agent.reset(game, 0, None)
    agent.choose(game.initial_state(), Limit(time=10.0))
    seconds = time.perf_counter() - start
    agent.close()
    return seconds


def run(repeat: int = 10, report=print) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    """Median time to first move per case, plain and sandboxed, and the difference (ms)."""
    require()
    with tempfile.TemporaryDirectory(prefix="arena-bench-sandbox-") as tmp:
        folder = Path(tmp) / "student"
        folder.mkdir()
        (folder / "raw.py").write_text(RAW)
        (folder / "first.py").write_text(CLASS)
        cases = {
            "cmd: (no arena import)": f"cmd:{sys.executable} {folder / 'raw.py'}",
            "py: (served by arena)": f"py:{folder / 'first.py'}:First",
        }
        result: dict[str, Any] = {"repeat": repeat, "cases": {}}
        for name, spec in cases.items():
            first_move_seconds(spec, Sandbox())  # warm the file cache and the probe
            plain, boxed = [], []
            for _ in range(repeat):
                plain.append(first_move_seconds(spec, None))
                boxed.append(first_move_seconds(spec, Sandbox()))
            row = {
                "plain_ms": statistics.median(plain) * 1000,
                "sandbox_ms": statistics.median(boxed) * 1000,
            }
            row["added_ms"] = row["sandbox_ms"] - row["plain_ms"]
            result["cases"][name] = row
            report(
                f"{name:24} first move {row['plain_ms']:6.1f} ms plain, "
                f"{row['sandbox_ms']:6.1f} ms sandboxed: +{row['added_ms']:.1f} ms "
                f"(median of {repeat})"
            )
    return result
