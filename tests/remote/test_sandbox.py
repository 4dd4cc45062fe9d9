"""--sandbox: hostile agents of our own try to escape bubblewrap and fail, or forfeit with
the reason; the games end, the database is intact, nothing is left running."""

from __future__ import annotations

import json
import os
import shlex
import socket
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from arena.cli.main import main
from arena.compete.match import play_game
from arena.compete.runner import placed
from arena.compete.timecontrol import TimeControl
from arena.formats.record import GameRecord
from arena.games import load_game
from arena.remote import sandbox as sandbox_module
from arena.remote.process import AgentProcess
from arena.remote.sandbox import Sandbox, SandboxUnavailable, require
from helpers import running

try:
    require()
    WHY_NOT = ""
except SandboxUnavailable as exc:  # e.g. a machine without user namespaces
    WHY_NOT = str(exc)

# bubblewrap itself is installed by scripts/install-engines: under CI its absence fails;
# a kernel that forbids user namespaces is the machine's choice, and skips.
needs_sandbox = pytest.mark.skipif(
    bool(WHY_NOT) and not (os.environ.get("CI") and "not found" in WHY_NOT),
    reason=WHY_NOT or "sandbox works",
)

# Small limits keep the attacks cheap: 16 processes, an 8 MB /tmp, 4 MB files.
SMALL = Sandbox(processes=16, tmp_mb=8, file_mb=4)

# A py: agent that attacks once, at its first move. An attack the sandbox stops prints
# 'blocked: ...' to its log and the agent plays on; one that succeeds raises, so that the
# game's record says 'escaped'. Every attack is bounded by itself, should the sandbox fail.
HOSTILE = """
import os, socket, sys, time

class Hostile:
    def __init__(self, attack: str = "", target: str = "", port: int = 0):
        self.attack, self.target, self.port, self.done = attack, target, port, False

    def choose(self, state, limit):
        if not self.done:
            self.done = True
            try:
                getattr(self, self.attack)()
            except OSError as exc:
                print(f"blocked: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
            except MemoryError:
                print("blocked: MemoryError", file=sys.stderr, flush=True)
            else:
                raise RuntimeError(f"escaped: {self.attack} worked")
        return state.legal_moves()[0]

    def read(self):
        with open(self.target, "rb") as file:
            file.read(10)

    def listing(self):
        os.listdir(self.target)

    def write(self):
        with open(self.target, "w") as file:
            file.write("pwned")

    def modify(self):
        with open(self.target, "r+b") as file:
            file.write(b"pwned")

    def connect(self):
        socket.create_connection(("127.0.0.1", self.port), timeout=2).close()

    def fork(self):
        for count in range(200):  # far above the test's limit of 16
            if os.fork() == 0:
                time.sleep(60)
                os._exit(0)
        # reached only if fork never failed

    def allocate(self):
        block = bytearray(10 << 30)  # 10 GB
        block[-1] = 1

    def fill_tmp(self):
        tmp = os.environ["TMPDIR"]
        chunk = b"x" * (1 << 20)
        for index in range(64):  # 64 MB at most: far above the test's 8 MB /tmp
            with open(os.path.join(tmp, f"fill{index}"), "wb") as file:
                file.write(chunk * 2)

    def flood(self):
        chunk = "y" * 65536 + "\\n"
        for _ in range(1024):  # 64 MB at most: far above the test's 4 MB file limit
            sys.stderr.write(chunk)
"""


@pytest.fixture
def school(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A class folder: alice (the attacker), bob (a classmate), the results database."""
    (tmp_path / "alice").mkdir()
    (tmp_path / "alice" / "hostile.py").write_text(HOSTILE)
    (tmp_path / "bob").mkdir()
    (tmp_path / "bob" / "agent.py").write_text("SECRET = 'bob'\n")
    with sqlite3.connect(tmp_path / "results.db") as db:
        db.execute("create table t (x)")
    monkeypatch.setenv("ARENA_LOGS", str(tmp_path / "logs"))
    return tmp_path


def attack(school: Path, what: str, target: str = "", port: int = 0) -> tuple[GameRecord, str]:
    """One game of connect4: alice's attack (at her first move) against random; the
    record and alice's stderr log."""
    params = ",".join(
        f"{k}={v}" for k, v in (("attack", what), ("target", target), ("port", port)) if v
    )
    spec = f"py:{school / 'alice' / 'hostile.py'}:Hostile:{params}"
    record = play_game(
        load_game("connect4"),
        [placed(spec, sandbox=SMALL), "random"],
        TimeControl.parse("20+1"),
        seed=1,
    )
    assert_nothing_left(school)
    logs = sorted((school / "logs").glob("*.log"), key=lambda p: p.stat().st_mtime)
    return record, logs[-1].read_text(errors="replace") if logs else ""


def assert_nothing_left(school: Path, seconds: float = 5.0) -> None:
    """No process runs that mentions the class folder (the agent and all it forked: the
    last die with the sandbox's PID namespace, a moment after the program)."""
    deadline = time.monotonic() + seconds
    while running(school) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert running(school) == []


def alice_played_on(record: GameRecord) -> None:
    assert not record.forfeited, record.detail
    assert record.moves, "the game was played"


@needs_sandbox
@pytest.mark.parametrize(
    ("what", "target"),
    [
        ("read", "bob/agent.py"),
        ("listing", "bob"),
        ("read", "results.db"),
        ("modify", "results.db"),
        ("modify", "bob/agent.py"),
        ("write", "/planted.txt"),
        ("write", "/usr/planted.txt"),
        ("write", "/dev/planted.txt"),  # bwrap's /dev is a tmpfs of no size limit
        ("read", "/etc/shadow"),
    ],
)
def test_files_outside_the_agents_reach(school: Path, what: str, target: str) -> None:
    full = target if target.startswith("/") else str(school / target)
    before = (school / "results.db").read_bytes()
    record, log = attack(school, what, full)
    alice_played_on(record)
    assert "blocked:" in log
    assert (school / "results.db").read_bytes() == before
    assert (school / "alice" / "hostile.py").read_text() == HOSTILE
    assert (school / "bob" / "agent.py").read_text() == "SECRET = 'bob'\n"
    assert not (school / "alice" / "planted.txt").exists()


@needs_sandbox
def test_no_connection_reaches_a_port_on_localhost(school: Path) -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        server.setblocking(False)
        record, log = attack(school, "connect", port=server.getsockname()[1])
        with pytest.raises(BlockingIOError):
            server.accept()  # nobody called
    alice_played_on(record)
    assert "blocked:" in log


@needs_sandbox
def test_a_fork_bomb_meets_the_process_limit(school: Path) -> None:
    record, log = attack(school, "fork")
    alice_played_on(record)
    assert "blocked: BlockingIOError" in log  # fork: EAGAIN, at the limit


@needs_sandbox
def test_ten_gigabytes_are_refused(school: Path) -> None:
    record, log = attack(school, "allocate")
    alice_played_on(record)
    assert "blocked: MemoryError" in log


@needs_sandbox
def test_the_private_tmp_fills_up_and_stays_private(school: Path) -> None:
    record, log = attack(school, "fill_tmp")
    alice_played_on(record)
    assert "No space left on device" in log


@needs_sandbox
def test_printing_without_end_is_cut_at_the_file_limit(school: Path) -> None:
    record, _ = attack(school, "flood")
    # Python ignores SIGXFSZ, so a write past the limit fails (EFBIG): here the agent's
    # print raises, and it loses with the reason; its log stays within the limit.
    assert record.reason == "crash" and "stderr log full" in record.detail, record.detail
    assert len(record.detail) < 3000
    logs = list((school / "logs").glob("*.log"))
    assert logs and max(p.stat().st_size for p in logs) <= SMALL.file_mb << 20


@needs_sandbox
def test_a_program_flooding_its_answer_line_forfeits(school: Path) -> None:
    flood = school / "alice" / "flood.py"
    flood.write_text("import sys\nwhile True:\n    sys.stdout.write('z' * 4096)\n")
    agent = placed(f"cmd:python {flood}", sandbox=SMALL)
    record = play_game(load_game("connect4"), [agent, "random"], TimeControl.parse("20+1"))
    assert record.reason == "illegal" and "longer than" in record.detail
    assert_nothing_left(school)


@needs_sandbox
def test_a_command_sees_its_own_folder_and_a_private_tmp(school: Path) -> None:
    """What a cmd: program sees: a private copy of its folder as working directory, HOME
    and TMPDIR on a writable tmpfs, none of the teacher's environment."""
    probe = school / "alice" / "probe.py"
    probe.write_text(
        textwrap.dedent(
            """
            import json, os, sys
            open(os.path.join(os.environ["HOME"], "scratch"), "w").write("ok")
            open("hostile.py", "w").write("changed")  # its own folder: a private copy
            open("new.txt", "w").write("new")
            print(json.dumps({"cwd": os.getcwd(), "env": sorted(os.environ),
                              "root": sorted(os.listdir("/")), "host": os.uname().nodename}))
            """
        )
    )
    process = AgentProcess(
        [sys.executable, str(probe)], label="probe", sandbox=SMALL, memory_mb=2048
    )
    seen = json.loads(process.read_line(30))
    process.close()
    assert seen["cwd"] == str((school / "alice").resolve())
    assert "ARENA_LOGS" not in seen["env"] and seen["host"] == "arena-sandbox"
    assert "home" not in seen["root"] and "tmp" in seen["root"]
    assert (school / "alice" / "hostile.py").read_text() == HOSTILE
    assert not (school / "alice" / "new.txt").exists()


@needs_sandbox
def test_a_sandboxed_tournament_keeps_its_database(
    school: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Through the command line: a tournament with an attacker writing the database ends,
    every game stored, the database unharmed, nothing left running."""
    db = school / "games.db"
    hostile = f"py:{school / 'alice' / 'hostile.py'}:Hostile:attack=modify,target={db}"
    serve = school / "bob" / "serve.py"
    serve.write_text(
        "from arena.remote.serve import serve\n"
        "from arena.agents import load_agent\n"
        "serve(load_agent('random'))\n"
    )
    code = main(
        [
            "tournament",
            "connect4",
            hostile,
            f"cmd:python {shlex.quote(str(serve))}",
            "random",
            "--time",
            "20+1",
            "--sandbox",
            "--db",
            str(db),
            "--json",
        ]
    )
    assert code == 0
    assert_nothing_left(school)
    with sqlite3.connect(db) as conn:
        assert conn.execute("pragma integrity_check").fetchone()[0] == "ok"
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert sum(a["forfeits"].get("crash", 0) for a in out["agents"].values()) == 0
    assert out["games"] == 6


def test_without_bubblewrap_a_sandboxed_run_stops_with_one_line(tmp_path: Path) -> None:
    env = dict(os.environ, ARENA_BWRAP=str(tmp_path / "no-bwrap"))
    done = subprocess.run(
        [sys.executable, "-m", "arena", "match", "connect4", "random", "random", "--sandbox"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "bubblewrap" in lines[0] and "apt-get install" in lines[0]


def test_bubblewrap_without_namespaces_is_an_error_not_an_unsandboxed_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = tmp_path / "bwrap"
    fake.write_text("#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setenv("ARENA_BWRAP", str(fake))
    with pytest.raises(SandboxUnavailable, match=r"cannot create its namespaces.*uid map"):
        placed("cmd:python -c pass", sandbox=Sandbox()).reset(load_game("connect4"), 0)
    assert main(["match", "connect4", "random", "random", "--sandbox", "--in-process"]) == 2
    assert sandbox_module.BWRAP_ENV == "ARENA_BWRAP"


@needs_sandbox
def test_a_folder_too_large_to_copy_is_read_only(school: Path) -> None:
    probe = school / "alice" / "write.py"
    probe.write_text(
        "try:\n    open('x.txt', 'w')\n    print('wrote')\n"
        "except OSError as exc:\n    print(type(exc).__name__, exc.errno)\n"
    )
    no_copy = Sandbox(processes=16, tmp_mb=8, file_mb=4, copy_mb=0)
    process = AgentProcess([sys.executable, str(probe)], label="probe", sandbox=no_copy)
    answer = process.read_line(30)
    process.close()
    assert answer == "OSError 30"  # EROFS: read-only file system
    assert not (school / "alice" / "x.txt").exists()


@needs_sandbox
def test_bench_sandbox_times_both_kinds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "sandbox", "--repeat", "1", "--json"]) == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert len(result["cases"]) == 2
    for row in result["cases"].values():
        assert row["plain_ms"] > 0 and row["sandbox_ms"] > 0


@needs_sandbox
def test_killing_arena_ends_the_sandbox_and_all_it_forked(tmp_path: Path) -> None:
    """SIGKILL of arena mid-move: arena's guardian kills bubblewrap's process group, its
    PID namespace dies with it, the program's forked children too."""
    folder = tmp_path / "hang"
    folder.mkdir()
    (folder / "hang.py").write_text(
        textwrap.dedent(
            """
            import os, sys, time
            if os.fork() == 0:
                os.setsid()  # a child that leaves the process group
                time.sleep(1000)
            for line in sys.stdin:
                if line.startswith("arena"):
                    print("ready hang", flush=True)
                elif line.startswith("turn"):
                    time.sleep(1000)
            """
        )
    )
    match = ["match", "connect4", f"cmd:python {folder}/hang.py", "random", "--games", "1"]
    arena = subprocess.Popen(
        [sys.executable, "-m", "arena", *match, "--time", "100+0", "--sandbox"],
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while len(running(folder)) < 3 and time.monotonic() < deadline:  # bwrap, program, child
        time.sleep(0.05)
    assert len(running(folder)) >= 3
    arena.kill()
    arena.wait()
    assert_nothing_left(folder)


@needs_sandbox
def test_a_program_in_its_own_folder_gets_the_copy(
    school: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``cmd:./engine`` (a program, not a Python script): its folder is the writable copy."""
    engine = school / "alice" / "engine.sh"
    engine.write_text('#!/bin/sh\necho made > made.txt && echo "$(pwd) $(cat made.txt)"\n')
    engine.chmod(0o755)
    monkeypatch.chdir(school / "alice")
    process = AgentProcess(["./engine.sh"], label="engine", sandbox=SMALL)
    answer = process.read_line(30)
    process.close()
    assert answer == f"{(school / 'alice').resolve()} made"
    assert not (school / "alice" / "made.txt").exists()
