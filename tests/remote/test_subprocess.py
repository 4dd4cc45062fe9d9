"""Agents in other processes: the cmd: protocol, its forfeits, limits and clean-up, --isolate."""

from __future__ import annotations

import json
import os
import shlex
import sys
import textwrap
import time
from pathlib import Path

import pytest

from arena.agents import load_agent
from arena.cli.main import main
from arena.compete.match import play_game
from arena.compete.timecontrol import TimeControl
from arena.core.errors import SpecError
from arena.formats.record import STDERR_CHARS, GameRecord
from arena.games import load_game
from arena.remote.command import SERVED_STARTUP, isolated
from arena.search.mcts.warmup import FIRST_USE_SECONDS

PY = shlex.quote(sys.executable)

# A raw protocol agent: no arena import, so it starts fast. BEHAVIOUR is filled in per test.
RAW = """
import os, sys, time, random
moves_seen = 0
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "arena":
        game, player = words[2], int(words[3])
        {on_hello}
        print("ready raw", flush=True)
    elif words[0] == "turn":
        limit, moves = words[1], words[2:]
        {on_turn}
    elif words[0] == "quit":
        break
"""

CONNECT4_FIRST_LEGAL = """
        heights = [0] * 7
        for m in moves:
            heights[int(m) - 1] += 1
        col = next(c for c in range(7) if heights[c] < 6)
        print(col + 1, flush=True)
"""


def script(tmp_path: Path, name: str, on_turn: str, on_hello: str = "pass") -> str:
    body = RAW.replace("{on_hello}", textwrap.dedent(on_hello).strip().replace("\n", "\n        "))
    body = body.replace("{on_turn}", textwrap.dedent(on_turn).strip().replace("\n", "\n        "))
    path = tmp_path / f"{name}.py"
    path.write_text(body)
    return f"cmd:{PY} {shlex.quote(str(path))}"


def serve_script(tmp_path: Path, body: str) -> str:
    path = tmp_path / "served.py"
    path.write_text(textwrap.dedent(body))
    return f"cmd:{PY} {shlex.quote(str(path))}"


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is dead for our purposes (waiting for its parent to reap it).
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


C4 = load_game("connect4")
TTT = load_game("tictactoe")
FAST = TimeControl.parse("move:1")


def test_served_agent_plays_a_whole_game_and_its_prints_go_to_the_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARENA_LOGS", str(tmp_path / "logs"))
    spec = serve_script(
        tmp_path,
        """
        from arena.remote.serve import serve

        class FirstMove:
            def choose(self, state, limit):
                print("thinking about", len(state.legal_moves()), "moves")
                return state.legal_moves()[0]

        serve(FirstMove())
        """,
    )
    record = play_game(C4, [spec, "random:seed=3"], FAST, seed=1)
    assert record.reason == "normal", record.detail
    first_moves = record.moves[0::2]
    assert first_moves[0] == "1"  # the served agent's own choice reached the board
    logs = list((tmp_path / "logs").glob("*.log"))
    assert logs and "thinking about 7 moves" in logs[0].read_text()


def test_served_agent_follows_the_opening_and_both_colours(tmp_path: Path) -> None:
    spec = serve_script(
        tmp_path,
        """
        from arena.agents import load_agent
        from arena.remote.serve import serve
        serve(load_agent("alphabeta:depth=2"))
        """,
    )
    opening = C4.parse_moves("4 4 3")
    for agents in ([spec, "random:seed=1"], ["random:seed=1", spec]):
        record = play_game(C4, agents, FAST, seed=2, opening=opening)
        assert record.reason == "normal", record.detail
        assert record.moves[:3] == ["4", "4", "3"]
        state = C4.play_moves(C4.parse_moves(record.moves))
        assert state.is_terminal() and state.returns() == record.returns


def test_a_raw_protocol_agent_is_told_the_moves_so_far(tmp_path: Path) -> None:
    spec = script(tmp_path, "raw", CONNECT4_FIRST_LEGAL)
    record = play_game(C4, ["random:seed=5", spec], FAST)
    assert record.reason == "normal", record.detail


@pytest.mark.parametrize(
    ("name", "on_turn", "reason", "words"),
    [
        ("garbage", 'print("my move is e4!", flush=True)', "illegal", "expected one move"),
        ("notation", 'print("z9", flush=True)', "illegal", "not a move"),
        ("occupied", 'print("a1", flush=True)', "illegal", "the cell is occupied"),
        ("silent", "time.sleep(60)", "time", "no move within"),
        (
            "flood",
            'sys.stdout.write("x" * 10**7); sys.stdout.flush(); time.sleep(60)',
            "illegal",
            "longer than",
        ),
        ("exits", 'sys.stderr.write("giving up now\\n"); sys.exit(3)', "crash", "giving up now"),
    ],
)
def test_a_misbehaving_program_is_forfeited_and_killed(
    tmp_path: Path, name: str, on_turn: str, reason: str, words: str
) -> None:
    spec = script(tmp_path, name, on_turn)
    agent = load_agent(spec)
    started = time.perf_counter()
    record = play_game(TTT, [agent, "random:seed=1"], TimeControl.parse("move:0.3"))
    assert time.perf_counter() - started < 20  # never the program's 60 s
    assert (record.reason, record.loser) == (reason, 0), record.detail
    assert words in record.detail
    assert agent.process is None  # closed with the game


def test_a_crash_keeps_the_last_lines_of_stderr_in_the_record(tmp_path: Path) -> None:
    spec = serve_script(
        tmp_path,
        """
        import sys

        class Broken:
            def choose(self, state, limit):
                print("thinking", file=sys.stderr)
                raise RuntimeError("my heuristic divided by zero")

        print("arena 1", flush=True)  # not the protocol: the arena passes over it
        Broken().choose(None, None)
        """,
    )
    record = play_game(C4, [spec, "random:seed=1"], FAST)
    assert (record.reason, record.loser) == ("crash", 0)
    assert "RuntimeError: my heuristic divided by zero" in record.detail
    assert "exit status 1" in record.detail


def test_a_served_agent_that_raises_is_named_at_its_own_line(tmp_path: Path) -> None:
    spec = serve_script(
        tmp_path,
        """
        from arena.remote.serve import serve

        class Broken:
            def choose(self, state, limit):
                raise RuntimeError("my heuristic divided by zero")

        serve(Broken())
        """,
    )
    record = play_game(C4, [spec, "random:seed=1"], FAST)
    assert (record.reason, record.loser) == ("crash", 0)
    assert record.detail.startswith("RuntimeError: my heuristic divided by zero at ")
    assert record.detail.endswith("served.py:6 in choose")
    # The traceback its process printed reaches the record, for the report to show.
    assert "Traceback" in record.stderr and "my heuristic divided by zero" in record.stderr
    assert GameRecord.from_json(record.to_json()).stderr == record.stderr


def test_the_stderr_kept_in_the_record_is_bounded(tmp_path: Path) -> None:
    spec = script(
        tmp_path,
        "chatty",
        'sys.stderr.write("progress line\\n" * 100000 + "the end\\n"); sys.exit(1)',
    )
    record = play_game(C4, [spec, "random:seed=1"], FAST)
    assert (record.reason, record.loser) == ("crash", 0)
    assert record.stderr.endswith("the end") and len(record.stderr) <= STDERR_CHARS
    assert record.stderr.splitlines()[0] == "progress line"  # whole lines only


def test_a_program_that_never_says_ready_loses_before_the_game(tmp_path: Path) -> None:
    spec = script(tmp_path, "mute", "pass", on_hello="time.sleep(60)")
    agent = load_agent(spec.replace("cmd:", "cmd:startup=0.5:", 1))
    record = play_game(C4, ["random:seed=1", agent], FAST)
    assert (record.reason, record.loser) == ("time", 1)
    assert "'ready'" in record.detail and record.moves == []
    # The forfeit names the option that gives a slow starter more time.
    assert "startup=0.5 s" in record.detail and "cmd:startup=SECONDS:COMMAND" in record.detail


def test_the_default_startup_wait_is_proportionate() -> None:
    # 30 s per game made a mute program cost minutes; 10 s still fits a slow interpreter.
    assert load_agent("cmd:true").config["startup"] == 10.0


def test_children_a_program_forks_are_killed_with_it(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    spec = script(
        tmp_path,
        "forks",
        CONNECT4_FIRST_LEGAL,
        on_hello=f"""
        import subprocess
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
        open({str(pids)!r}, "w").write(str(child.pid))
        """,
    )
    record = play_game(C4, [spec, "random:seed=2"], FAST)
    assert record.reason == "normal", record.detail
    child = int(pids.read_text())
    deadline = time.monotonic() + 5
    while pid_alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not pid_alive(child)


def test_memory_limit(tmp_path: Path) -> None:
    hog = script(tmp_path, "hog", "block = bytearray(800 * 2**20)\nprint(1, flush=True)")
    record = play_game(C4, [hog.replace("cmd:", "cmd:memory=300:", 1), "random:seed=1"], FAST)
    assert (record.reason, record.loser) == ("crash", 0)
    assert "MemoryError" in record.detail
    # The same program within a larger limit plays on.
    record = play_game(C4, [hog.replace("cmd:", "cmd:memory=2000:", 1), "random:seed=1"], FAST)
    assert record.reason != "crash", record.detail


def test_cpu_limit(tmp_path: Path) -> None:
    spin = script(tmp_path, "spin", "while True: pass")
    record = play_game(
        C4, [spin.replace("cmd:", "cmd:cpu=1:", 1), "random:seed=1"], TimeControl.parse("move:20")
    )
    assert (record.reason, record.loser) == ("crash", 0)
    assert "SIGXCPU" in record.detail and "CPU limit" in record.detail


def test_a_tournament_with_broken_programs_carries_on(tmp_path: Path) -> None:
    hang = script(tmp_path, "hang", "time.sleep(60)")
    crash = script(tmp_path, "crash", "sys.exit(1)")
    flood = script(tmp_path, "flood", 'while True: print("1 2 3", flush=True)')
    code = main(
        ["tournament", "connect4", "random", hang, crash, flood, "--move-time", "0.2",
         "--rounds", "1", "--records", str(tmp_path / "out"), "--quiet"]
    )  # fmt: skip
    assert code == 0
    games = read_records(tmp_path / "out")
    assert len(games) == 12  # 4 agents, both colours
    random_points = sum(
        (1 + g["returns"][g["players"].index("random")]) / 2
        for g in games
        if "random" in g["players"]
    )
    assert random_points == 6
    reasons = {g["reason"] for g in games}
    assert {"time", "crash", "illegal"} <= reasons


def read_records(folder: Path) -> list[dict]:  # type: ignore[type-arg]
    lines = (folder / "games.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


def test_isolate_puts_a_hard_deadline_on_python_agents(tmp_path: Path) -> None:
    slow = tmp_path / "slow.py"
    slow.write_text(
        textwrap.dedent(
            """
            import time

            class Sleeper:
                def choose(self, state, limit):
                    time.sleep(30)
                    return state.legal_moves()[0]
            """
        )
    )
    started = time.perf_counter()
    record = play_game(
        C4, [isolated(f"py:{slow}:Sleeper"), "random:seed=1"], TimeControl.parse("move:0.3")
    )
    assert time.perf_counter() - started < 15  # killed at 0.35 s, not after 30 s
    assert (record.reason, record.loser) == ("time", 0)


def test_isolated_builtin_agents_play_the_same_games(tmp_path: Path) -> None:
    args = ["match", "tictactoe", "alphabeta:depth=9", "random", "--games", "2",
            "--budget", "depth=9", "--seed", "4", "--quiet"]  # fmt: skip
    assert main([*args, "--records", str(tmp_path / "plain")]) == 0
    assert main([*args, "--records", str(tmp_path / "isolated"), "--isolate"]) == 0
    plain, alone = read_records(tmp_path / "plain"), read_records(tmp_path / "isolated")
    assert [g["moves"] for g in alone] == [g["moves"] for g in plain]
    assert [g["players"] for g in alone] == [g["players"] for g in plain]


def test_an_isolated_builtin_agent_has_the_time_of_a_first_compilation_to_start() -> None:
    # A built-in agent loads its compiled code before its 'ready', which on first use
    # compiles for 14-30 s on 2 cores: with the cmd: default of 10 s, `arena match connect4
    # mcts random --isolate` on a cold numba cache lost every game on time before its first
    # move ("no 'ready' within 10.000 s"), and so did `--isolate random` on a busy machine.
    assert load_agent(isolated("mcts")).config["startup"] >= 2 * max(FIRST_USE_SECONDS.values())
    assert load_agent(isolated("random")).config["startup"] == SERVED_STARTUP


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("cmd:", "empty command"),
        ("cmd:no-such-program-anywhere --x", "not found"),
        ("cmd:speed=3:python x.py", "unknown parameter 'speed'"),
        ("cmd:memory=-1:python x.py", "memory"),
        ("cmd:python 'unclosed", "quotation"),
    ],
)
def test_bad_command_specs(spec: str, words: str) -> None:
    with pytest.raises(SpecError, match=words):
        load_agent(spec)


def test_bad_command_spec_on_the_command_line_is_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["match", "connect4", "cmd:no-such-program-anywhere", "random"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not found" in err[0]


def test_analyze_tells_a_program_the_moves(capsys: pytest.CaptureFixture[str]) -> None:
    spec = f"cmd:{PY} -m arena serve alphabeta:depth=4"
    # The first player threatens 1-2-3-4 on the bottom row: the program must block.
    assert main(["analyze", "connect4", "1 7 2 7 3", spec]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == "chosen: 4"


def test_a_program_that_exits_early_leaving_a_child_on_its_pipe(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    spec = script(
        tmp_path,
        "orphan",
        f"""
        import subprocess
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
        open({str(pids)!r}, "w").write(str(child.pid))
        sys.exit(0)
        """,
    )
    started = time.perf_counter()
    record = play_game(TTT, [spec, "random:seed=1"], TimeControl.parse("move:30"))
    assert time.perf_counter() - started < 10  # seen at once, not after the 30 s move time
    assert (record.reason, record.loser) == ("crash", 0), record.detail
    assert "exit status 0" in record.detail
    child = int(pids.read_text())
    deadline = time.monotonic() + 5
    while pid_alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not pid_alive(child)
