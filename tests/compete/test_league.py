"""The class league: each submission's verdict and reason, zips, nothing of a student's run
at discovery, a league end to end, nearest-rated rounds resumed, and a SIGKILL mid-league."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from arena.compete import league as leagues
from arena.compete.store import ResultsDB
from arena.compete.submissions import classify, discover, unpack
from arena.compete.tournament import Settings

CLASS = Path(__file__).resolve().parents[2] / "examples" / "class"
GAME = "connect4:rows=6,cols=5"


@pytest.fixture
def klass(tmp_path: Path) -> Path:
    """A copy of the example class, with the 200 MB file (sparse) made now, not committed."""
    folder = tmp_path / "class"
    shutil.copytree(CLASS, folder)
    with open(folder / "turing" / "weights.bin", "wb") as f:
        f.truncate(200 * 1024 * 1024)
    return folder


EXPECTED = {
    "ada lovelace": "py:",
    "alan": "mcts-lab:",
    "barbara liskov": "mcts-lab:",
    "claude": "py:",
    "dijkstra": "py:",
    "grace": "py:",
    "hopper": "py:",
    "knuth": "py:",
    "lamport": "py:",
    "wirth (late)": "py:",
    "minsky": "agent.py: syntax error line 5",
    "noether": "empty folder",
    "pascal": "MCTS.py: no function MCTS(root, rollouts)",
    "ritchie": "an Othello assignment program (agent.py), which plays othello, not connect4",
    "shannon": "a Colosseum Survival agent (agents/student_agent.py), which plays colosseum",
    "turing": "weights.bin is 200 MB (the limit is 50 MB a file)",
}


def test_every_folder_gets_a_verdict_and_a_reason(klass: Path) -> None:
    found = {s.name: s for s in discover(klass, "connect4")}
    assert set(found) == set(EXPECTED)
    for name, expected in EXPECTED.items():
        s = found[name]
        if expected.endswith(":"):
            assert s.ok and s.spec is not None and s.spec.startswith(expected), s
            assert str(klass / name) in s.spec  # absolute: plays from any directory
        else:
            assert not s.ok and expected in s.reason, s
    assert found["dijkstra"].spec.endswith("bots/main.py:Blocker")  # arena.toml chose it
    assert found["dijkstra"].how == "arena.toml"


def test_discovery_runs_no_student_code(tmp_path: Path, capfd: pytest.CaptureFixture) -> None:
    sneaky = tmp_path / "class" / "sneaky"
    sneaky.mkdir(parents=True)
    (sneaky / "agent.py").write_text(
        "open('ran.txt', 'w').write('ran')\nprint('hello')\n"
        "class A:\n    def choose(self, state, limit):\n        return 0\n"
    )
    shutil.copytree(CLASS / "claude", tmp_path / "class" / "claude")  # its pygame prints
    found = discover(tmp_path / "class", "connect4")
    assert all(s.ok for s in found)
    assert not (sneaky / "ran.txt").exists()
    assert capfd.readouterr().out == ""


def test_the_same_folder_in_another_games_league(klass: Path) -> None:
    assert classify(klass / "ritchie", "othello").spec == f"othello-ai:{klass / 'ritchie/agent.py'}"
    alan = classify(klass / "alan", "go")
    assert not alan.ok and "plays connect4, not go" in alan.reason


TWO_CLASSES = "class A:\n def choose(self, s, l): pass\nclass B:\n def choose(self, s, l): pass\n"


@pytest.mark.parametrize(
    ("files", "reason"),
    [
        ({"a.py": TWO_CLASSES}, "several agent classes (a.py:A, a.py:B): name one in arena.toml"),
        ({"notes.txt": "my agent is in my head"}, "no Python file (found notes.txt)"),
        ({"helper.py": "def f():\n    return 1\n"}, "no agent found"),
        ({"arena.toml": "spec = \n"}, "arena.toml: "),
        ({"arena.toml": "[agent]\nname = 'x'\n"}, "arena.toml names no spec"),
        ({"arena.toml": 'spec = "py:gone.py:A"\n'}, "no such file gone.py"),
        ({"arena.toml": 'spec = "nosuchagent"\n'}, "nosuchagent"),
    ],
)
def test_reasons_for_folders_that_do_not_play(
    tmp_path: Path, files: dict[str, str], reason: str
) -> None:
    folder = tmp_path / "student"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text)
    s = classify(folder, "connect4")
    assert not s.ok and reason in s.reason, s.reason


def test_a_spec_names_only_files_of_its_own_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A student writes arena.toml: a file outside their folder that it names would be
    # shown in the sandbox (a cmd: line's first file is the program's folder), so their
    # code read the teacher's files or another student's, and printed them in its stderr.
    secret = tmp_path / "teacher" / "key.txt"
    secret.parent.mkdir()
    secret.write_text("the answers")
    bob = tmp_path / "class" / "bob"
    bob.mkdir(parents=True)
    (bob / "bot.py").write_text(
        "class Bot:\n    def choose(self, state, limit):\n        return 0\n"
    )
    alice = tmp_path / "class" / "alice"
    alice.mkdir()
    (alice / "bot.py").write_text("print('ready')\n")
    (alice / "link.py").symlink_to(bob / "bot.py")
    monkeypatch.chdir(tmp_path)  # relative words are read from arena's working directory
    leaks = [
        (f"cmd:python -c 'print(open(\"key.txt\").read())' {secret}", str(secret)),
        ("cmd:python -c 'print(1)' teacher/key.txt", "teacher/key.txt"),
        ("py:../bob/bot.py:Bot", "bob/bot.py"),
        ("py:link.py:Bot", "link.py"),
        ("gtp:memory=64:python ../bob/bot.py", "bob/bot.py"),
    ]
    for spec, named in leaks:
        (alice / "arena-spec.txt").write_text(spec + "\n")
        s = classify(alice, "connect4")
        assert not s.ok and "outside the folder" in s.reason and named in s.reason, s
    # Its own files are made absolute, in a command line too: it plays from anywhere.
    (alice / "arena-spec.txt").write_text("cmd:python bot.py --fast\n")
    assert classify(alice, "connect4").spec == f"cmd:python {alice / 'bot.py'} --fast"


def test_a_name_that_is_not_utf8_is_refused_and_the_others_play(tmp_path: Path) -> None:
    # A folder or file named in another encoding (Latin-1 'josé'): the league stopped with
    # a traceback (the name goes into seeds and the database as text).
    klass = small_class(tmp_path, "grace")
    shutil.copytree(CLASS / "grace", klass / os.fsdecode(b"jos\xe9"))
    file_named = klass / "file named"
    file_named.mkdir()
    shutil.copy(CLASS / "grace" / "random_agent.py", file_named / os.fsdecode(b"m\xe9.py"))
    found = {s.name: s for s in discover(klass, "connect4")}
    assert set(found) == {"grace", "jos\ufffd", "file named"}
    assert found["grace"].ok
    for name in ("jos\ufffd", "file named"):
        assert not found[name].ok and "not UTF-8 text" in found[name].reason, found[name]
    done = cli(str(klass), "--game", GAME, "--move-time", "0.05", "--reference", "random",
               "--db", str(tmp_path / "l.db"), "--quiet", "--no-sandbox")  # fmt: skip
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "jos\ufffd: its name 'jos\\udce9' is not UTF-8 text" in done.stdout


def test_zips_are_unpacked_one_folder_per_student_and_a_bad_one_is_listed(
    tmp_path: Path,
) -> None:
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    with zipfile.ZipFile(downloads / "ada.zip", "w") as z:  # a zip holding its folder
        z.write(CLASS / "ada lovelace" / "agent.py", "ada/agent.py")
    with zipfile.ZipFile(downloads / "bob.zip", "w") as z:  # files at the top
        z.write(CLASS / "grace" / "random_agent.py", "random_agent.py")
    with zipfile.ZipFile(downloads / "eve.zip", "w") as z:
        z.writestr("../escape.py", "x = 1\n")
    (downloads / "broken.zip").write_bytes(b"not a zip")
    shutil.copytree(CLASS / "claude", downloads / "claude")  # a folder beside the zips
    problems = unpack(downloads, tmp_path / "unpacked")
    assert any(p.startswith("eve.zip: cannot unpack (a member leaves") for p in problems)
    assert any(p.startswith("broken.zip: cannot unpack") for p in problems)
    assert not (tmp_path / "escape.py").exists()
    found = {s.name: s for s in discover(tmp_path / "unpacked", "connect4")}
    assert set(found) == {"ada", "bob", "broken", "claude", "eve"}
    assert found["ada"].ok and found["bob"].ok and found["claude"].ok
    assert not found["eve"].ok and not found["broken"].ok
    assert unpack(downloads, tmp_path / "unpacked") == []  # once: kept as unpacked


def cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "arena.cli.main", "league", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def small_class(tmp_path: Path, *names: str) -> Path:
    folder = tmp_path / "small"
    for name in names:
        shutil.copytree(CLASS / name, folder / name)
    return folder


def test_a_small_league_end_to_end(tmp_path: Path) -> None:
    folder = small_class(tmp_path, "ada lovelace", "hopper", "knuth", "minsky")
    db = tmp_path / "league.db"
    done = cli(
        str(folder), "--game", GAME, "--time", "0.3+0.05", "--reference", "random",
        "--db", str(db), "--json", "--quiet",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["schedule"] == "round-robin"
    assert result["planned"] == result["played"] == 12  # 4 players, 2 games a pairing
    agents = result["agents"]
    assert set(agents) == {"ada lovelace", "hopper", "knuth", "random"}
    assert agents["knuth"]["forfeits"] == {"time": 6}
    assert agents["hopper"]["forfeits"].get("crash", 0) >= 4
    assert agents["ada lovelace"]["score"] > agents["random"]["score"]
    assert all(len(a["elo_95"]) == 2 for a in agents.values())
    refused = {s["name"]: s["reason"] for s in result["submissions"] if s["spec"] is None}
    assert refused == {"minsky": "agent.py: syntax error line 5: expected ':'"}
    assert "minsky: agent.py: syntax error" in done.stderr  # the tables went to stderr
    stored = ResultsDB(db, readonly=True).settings()
    assert stored is not None
    assert stored["agents"] == ["ada lovelace", "hopper", "knuth", "random"]
    assert stored["specs"][0] == f"py:{folder / 'ada lovelace' / 'agent.py'}:Lookahead"
    assert stored["league"]["refused"] == refused
    assert stored["league"]["references"] == ["random"]
    again = cli(str(folder), "--game", GAME, "--time", "0.3+0.05", "--reference", "random",
                "--db", str(db), "--json", "--quiet")  # fmt: skip
    assert json.loads(again.stdout.splitlines()[-1])["played"] == 0


def test_bad_command_lines_are_one_line_errors(tmp_path: Path) -> None:
    gone = cli(str(tmp_path / "nowhere"), "--game", GAME)
    assert gone.returncode != 0 and "no such folder" in gone.stderr
    assert "Traceback" not in gone.stderr
    alone = cli(str(small_class(tmp_path, "grace")), "--game", GAME, "--db",
                str(tmp_path / "x.db"))  # fmt: skip
    assert alone.returncode != 0 and "at least two players" in alone.stderr
    listed = cli(str(CLASS), "--game", GAME, "--list")
    assert listed.returncode == 0 and "REFUSED  empty folder" in listed.stdout


def test_nearest_rated_rounds_resume_with_the_same_pairings(tmp_path: Path) -> None:
    names = ("random", "greedy", "alphabeta:depth=1", "alphabeta:depth=2", "mcts:rollouts=20")
    settings = Settings(game="connect4", agents=names, control="depth=1", seed=3)
    db_path = tmp_path / "n.db"
    two = leagues.League(settings, "nearest", rounds=2)
    db = ResultsDB(db_path)
    first = leagues.run(two, db)
    db.close()
    assert first.planned == first.played == 16  # 2 rounds, 2 pairs (one bye), 4 games each
    db = ResultsDB(db_path)
    more = leagues.run(leagues.League(settings, "nearest", rounds=3), db)
    db.close()
    assert more.played == 8 and more.planned == 24
    assert {r.game_id for r in first.records} <= {r.game_id for r in more.records}
    byes = [set(names) - {p for r in more.records if f"round={k}|" in r.game_id for p in r.players}
            for k in (0, 2, 4)]  # fmt: skip
    assert all(len(b) == 1 for b in byes)


@pytest.mark.slow
def test_sigkill_in_the_middle_of_a_league_loses_nothing_and_plays_nothing_twice(
    tmp_path: Path,
) -> None:
    folder = small_class(tmp_path, "ada lovelace", "grace", "claude")
    db = tmp_path / "kill.db"
    args = [
        sys.executable, "-m", "arena.cli.main", "league", str(folder), "--game", GAME,
        "--time", "0.3+0.05", "--reference", "random,greedy", "--schedule", "nearest",
        "--rounds", "3", "--db", str(db), "--quiet", "--json",
    ]  # fmt: skip
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 120
        while time.time() < deadline:
            time.sleep(0.05)
            try:
                with sqlite3.connect(db) as conn:
                    if conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] >= 10:
                        break  # into the second round
            except sqlite3.Error:
                pass
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        before = dict(conn.execute("SELECT game_id, finished FROM games"))
    assert 10 <= len(before) < 24
    finish = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert finish.returncode == 0, finish.stderr
    result = json.loads(finish.stdout.splitlines()[-1])
    assert result["planned"] == 24 and result["played"] == 24 - len(before)
    rows = ResultsDB(db, readonly=True).rows()
    assert len(rows) == len({r["game_id"] for r in rows}) == 24
    after = {r["game_id"]: r["finished"] for r in rows}
    assert all(after[g] == when for g, when in before.items())  # kept, not replayed
    leftover = [pid for pid in os.listdir("/proc") if pid.isdigit() and _mentions(pid, str(folder))]
    assert leftover == []


def _mentions(pid: str, text: str) -> bool:
    try:
        return text.encode() in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def test_a_sandboxed_league_hides_the_other_submissions(tmp_path: Path) -> None:
    folder = small_class(tmp_path, "lamport", "grace")
    logs = tmp_path / "logs"
    done = subprocess.run(
        [sys.executable, "-m", "arena.cli.main", "league", str(folder), "--game", GAME,
         "--time", "1+0.1", "--db", str(tmp_path / "l.db"), "--quiet"],
        capture_output=True, text=True, timeout=300, env={**os.environ, "ARENA_LOGS": str(logs)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "sandboxed" in done.stdout
    seen = "".join(p.read_text(errors="replace") for p in logs.rglob("*") if p.is_file())
    assert "read lamport/agent.py" in seen  # it looked, and saw only its own folder
    assert "read grace" not in seen


@pytest.mark.slow
def test_a_sandboxed_league_on_ray_plays_every_game_once(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    folder = small_class(tmp_path, "ada lovelace", "hopper", "claude")
    db = tmp_path / "ray.db"
    # A clock a loaded machine cannot run out (the test is of Ray and crashes, not time:
    # at 0.3+0.05 s, hopper lost its games on time before its third move raised).
    done = cli(
        str(folder), "--game", GAME, "--time", "3+0.5", "--reference", "random",
        "--ray", "local", "--db", str(db), "--json", "--quiet",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["planned"] == result["played"] == 12
    assert result["agents"]["hopper"]["forfeits"].get("crash", 0) >= 4  # its crash, on Ray
    rows = ResultsDB(db, readonly=True).rows()
    assert len(rows) == len({row["game_id"] for row in rows}) == 12
