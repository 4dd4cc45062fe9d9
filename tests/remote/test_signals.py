"""Nothing outlives the referee: SIGTERM, SIGHUP and SIGKILL of arena end every agent program.

Each test starts a real ``arena match`` whose agent programs write their pids to
a file and then hang (or fork, or sleep), signals arena, and checks that every
one of those processes is gone soon after. Processes are looked up in /proc,
so a zombie waiting for a reaper counts as gone.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from helpers import find_engine

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux /proc")

PY = shlex.quote(sys.executable)

# A cmd: program: says ready, then hangs on its first turn. FORK adds a forked child.
HANG = """
import os, sys, time
pids = [os.getpid()]
if {fork}:
    child = os.fork()
    if child == 0:
        time.sleep(1000)
        os._exit(0)
    pids.append(child)
for line in sys.stdin:
    if line.startswith("arena"):
        print("ready hang", flush=True)
    elif line.startswith("turn"):
        with open({pidfile!r}, "a") as f:
            f.write(" ".join(map(str, pids)) + "\\n")
        time.sleep(1000)
"""

# A GTP engine that answers set-up commands and hangs on genmove.
GTP_HANG = """
import os, sys, time
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "genmove":
        with open({pidfile!r}, "a") as f:
            f.write(str(os.getpid()) + "\\n")
        time.sleep(1000)
    reply = "2" if words[0] == "protocol_version" else ""
    print("= " + reply + "\\n", flush=True)
"""

# A py: agent class, run by --isolate in its own `arena serve` process.
PY_HANG = """
import os, time

class Hang:
    def choose(self, state, limit):
        with open({pidfile!r}, "a") as f:
            f.write(str(os.getpid()) + "\\n")
        time.sleep(1000)
"""


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def wait_for(condition, seconds: float) -> bool:  # type: ignore[no-untyped-def]
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def pids_in(path: Path) -> list[int]:
    try:
        return [int(word) for word in path.read_text().split()]
    except (OSError, ValueError):
        return []


def start_arena(args: list[str], tmp_path: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "ARENA_LOGS": str(tmp_path / "logs")}
    return subprocess.Popen(
        [sys.executable, "-m", "arena", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def signal_and_check(
    proc: subprocess.Popen[str], pidfile: Path, signum: int, expect_pids: int
) -> tuple[int, str]:
    try:
        assert wait_for(lambda: len(pids_in(pidfile)) >= expect_pids, 60), "agent never started"
        pids = pids_in(pidfile)
        assert all(alive(pid) for pid in pids)
        proc.send_signal(signum)
        code = proc.wait(timeout=30)
        _, err = proc.communicate()
        assert wait_for(lambda: not any(alive(pid) for pid in pids), 5), (
            f"left running after {signal.Signals(signum).name}: "
            f"{[pid for pid in pids if alive(pid)]}"
        )
        return code, err
    finally:
        if proc.poll() is None:
            proc.kill()
        for pid in pids_in(pidfile):
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def hang_spec(tmp_path: Path, pidfile: Path, fork: bool = False) -> str:
    path = tmp_path / "hang.py"
    path.write_text(textwrap.dedent(HANG.format(fork=fork, pidfile=str(pidfile))))
    return f"cmd:{PY} {shlex.quote(str(path))}"


MATCH = ["match", "connect4", "--games", "2", "--time", "300+0"]


@pytest.mark.parametrize(
    ("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129), (signal.SIGKILL, -9)]
)
@pytest.mark.parametrize("fork", [False, True])
def test_a_hanging_program_dies_with_arena(
    tmp_path: Path, signum: int, code: int, fork: bool
) -> None:
    pidfile = tmp_path / "pids"
    proc = start_arena(
        [*MATCH[:2], hang_spec(tmp_path, pidfile, fork), "random", *MATCH[2:]], tmp_path
    )
    returncode, err = signal_and_check(proc, pidfile, signum, 2 if fork else 1)
    assert returncode == code
    if signum != signal.SIGKILL:
        assert f"stopped by {signal.Signals(signum).name}" in err
        assert "Traceback" not in err


def test_a_program_that_never_says_ready_dies_with_arena(tmp_path: Path) -> None:
    # `sleep` never answers the hello: arena is killed while it waits for 'ready'.
    marker = tmp_path / "pids"
    sleeper = tmp_path / "sleeper.sh"
    sleeper.write_text(f"echo $$ > {shlex.quote(str(marker))}\nexec sleep 1000\n")
    proc = start_arena(
        [*MATCH[:2], f"cmd:sh {shlex.quote(str(sleeper))}", "random", *MATCH[2:]], tmp_path
    )
    returncode, _ = signal_and_check(proc, marker, signal.SIGKILL, 1)
    assert returncode == -9


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL])
def test_worker_processes_and_their_programs_die_with_arena(tmp_path: Path, signum: int) -> None:
    pidfile = tmp_path / "pids"
    spec = hang_spec(tmp_path, pidfile)
    proc = start_arena(
        ["match", "connect4", spec, "random", "--games", "4", "--time", "300+0", "--jobs", "2"],
        tmp_path,
    )
    returncode, _ = signal_and_check(proc, pidfile, signum, 2)
    assert returncode == (143 if signum == signal.SIGTERM else -9)


def descends_from(pid: int, ancestor: int) -> bool:
    """Whether process ``pid`` is ``ancestor`` or in its tree (by /proc's parent ids)."""
    while pid > 1:
        if pid == ancestor:
            return True
        try:
            # The parent id is the second field after the name in parentheses.
            pid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            return False
    return False


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL])
def test_isolated_python_agents_die_with_arena(tmp_path: Path, signum: int) -> None:
    pidfile = tmp_path / "pids"
    agent = tmp_path / "hang_agent.py"
    agent.write_text(textwrap.dedent(PY_HANG.format(pidfile=str(pidfile))))
    proc = start_arena(
        [*MATCH[:2], f"py:{agent}:Hang", "random", *MATCH[2:], "--isolate"], tmp_path
    )
    returncode, _ = signal_and_check(proc, pidfile, signum, 1)
    assert returncode == (143 if signum == signal.SIGTERM else -9)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL])
def test_gtp_engines_die_with_arena(tmp_path: Path, signum: int) -> None:
    pidfile = tmp_path / "pids"
    engine = tmp_path / "engine.py"
    engine.write_text(textwrap.dedent(GTP_HANG.format(pidfile=str(pidfile))))
    proc = start_arena(
        ["match", "go:size=5", f"gtp:{PY} {shlex.quote(str(engine))}", "random", *MATCH[2:]],
        tmp_path,
    )
    returncode, _ = signal_and_check(proc, pidfile, signum, 1)
    assert returncode == (143 if signum == signal.SIGTERM else -9)


def test_gnugo_dies_with_arena(tmp_path: Path) -> None:
    gnugo = find_engine("gnugo")
    proc = start_arena(
        ["match", "go:size=9", f"gtp:{gnugo} --mode gtp", "random", *MATCH[2:]],
        tmp_path,
    )
    try:
        # GNU Go writes no pid file: find it in arena's process tree (another GNU Go on
        # the machine, a GUI's or a match's, is not arena's to end).
        def engine_pids(ours: bool = False) -> list[int]:
            found = []
            for entry in Path("/proc").iterdir():
                if entry.name.isdigit():
                    try:
                        cmdline = (entry / "cmdline").read_bytes().split(b"\0")
                    except OSError:
                        continue
                    pid = int(entry.name)
                    ok = cmdline and cmdline[0] == gnugo.encode() and alive(pid)
                    if ok and (not ours or descends_from(pid, proc.pid)):
                        found.append(pid)
            return found

        assert wait_for(lambda: bool(engine_pids(ours=True)), 30)
        before = engine_pids(ours=True)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        assert wait_for(lambda: not any(pid in engine_pids() for pid in before), 5)
    finally:
        if proc.poll() is None:
            proc.kill()
