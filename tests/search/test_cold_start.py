"""Every agent keeps its limit from the first call of the Python API: a fresh process, no
``reset(game)``, a 0.05 s move. What the move cannot wait for (compiled code, tables, a
solver) is built beside it (:mod:`arena.search.clock.background`) or when the agent is made.

The numba cache is warm here (CI runs ``arena warmup`` first); the tolerance is generous
(0.5 s for a 0.05 s move: a loaded machine's pauses), since what it catches took seconds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from arena.agents.registry import agent_names

# The move's own seconds: its wall time less its thread's waits for a CPU (Linux's
# schedstat, as tests/helpers.Stopwatch), so a loaded machine's pauses do not count; seconds
# of loading or compiling on the move's thread (or of waiting for a lock) still do.
SCRIPT = """
import json, sys, time
import arena
from arena.core.limit import Limit
def waited():
    try:
        with open("/proc/thread-self/schedstat") as stats:
            return int(stats.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0
game = arena.load_game(sys.argv[2])
state = game.initial_state()
agent = arena.load_agent(sys.argv[1])
start, before = time.perf_counter(), waited()
move = agent.choose(state, Limit(time=0.05))
seconds = time.perf_counter() - start - (waited() - before)
print(json.dumps({"seconds": seconds, "legal": move in state.legal_moves()}))
"""

# human asks a person; az plays the network shipped for the game.
AGENTS = [name for name in agent_names() if name != "human"]
CASES = [(agent, "connect4") for agent in AGENTS] + [
    ("mcts", "tictactoe"),
    ("ids", "othello"),
    ("best", "othello"),
    ("best", "go:size=9"),
    ("az", "othello:size=6"),
]


def test_every_registered_agent_is_called_cold() -> None:
    assert {agent for agent, _ in CASES} == set(AGENTS)


@pytest.mark.parametrize(("agent", "game"), CASES)
def test_a_cold_first_move_keeps_its_limit(agent: str, game: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, agent, game],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    assert answer["legal"]
    assert answer["seconds"] < 0.5, f"{agent} on {game}: {answer['seconds']:.2f} s cold"


ENDS_WHILE_BUILDING = """
import pathlib, sys, time
from arena.search.clock.background import Background
def build():
    time.sleep(0.5)
    pathlib.Path(sys.argv[1]).write_text("built")
    return "engine"
assert Background().get("engine", build) is None
"""


def test_a_program_that_ends_while_an_engine_is_built_waits_for_it(tmp_path) -> None:
    """A daemon build thread was cut off inside compiled code at the interpreter's end: the
    process died of SIGSEGV after its last line (CI, ``az`` on Othello 6x6 cold)."""
    marker = tmp_path / "built"
    done = subprocess.run(
        [sys.executable, "-c", ENDS_WHILE_BUILDING, str(marker)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    assert done.returncode == 0, done.stderr
    assert marker.read_text() == "built"
