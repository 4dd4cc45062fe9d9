"""A student's own ``py:`` agent, as students write them: a folder (with a space in its
name) holding agent.py, a helpers.py it imports and a data file it reads; loaded from any
working directory, in arena's process or its own; a choose() that never returns; classes
with parameters; the slips students make, each answered at the right place."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import arena
from arena.agents import load_agent
from arena.cli.main import main
from arena.compete.match import play_game
from arena.compete.runner import placed
from arena.compete.timecontrol import TimeControl
from arena.core.errors import SpecError

C4 = arena.load_game("connect4")

AGENT = """\
import sys

import runner  # the student's own runner, which imports this file back by its name
from helpers import first

with open("weights.txt") as data:  # beside the file, as when the student runs it
    WEIGHT = int(data.read())

print("agent loaded, weight", WEIGHT)  # stdout: must not reach any protocol


class MyAgent:
    def __init__(self, depth: int = 1, greedy: bool = False, label="mine"):
        self.depth, self.greedy, self.label = depth, greedy, label

    def choose(self, state, limit):
        print("thinking at depth", self.depth)
        with open("weights.txt") as data:  # read during the game too
            assert int(data.read()) == WEIGHT
        if not isinstance(self, runner.agent_class()):
            raise RuntimeError("agent.py was loaded twice under two names")
        return first(state.legal_moves())


class Stuck:
    def choose(self, state, limit):
        while True:  # ignores its limit: the most common bug
            pass
"""

HELPERS = """\
def first(moves):
    return sorted(moves)[0]
"""

RUNNER = """\
import agent


def agent_class():
    return agent.MyAgent


if __name__ == "__main__":
    print(agent.MyAgent())
"""


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The student's folder, and a working directory elsewhere."""
    where = tmp_path / "my agent"
    where.mkdir()
    (where / "agent.py").write_text(AGENT)
    (where / "helpers.py").write_text(HELPERS)
    (where / "runner.py").write_text(RUNNER)
    (where / "weights.txt").write_text("3\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    for name in ("agent", "runner", "helpers"):  # each test imports the folder afresh
        monkeypatch.delitem(sys.modules, name, raising=False)
    return where


def match_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main(["match", "connect4", *args, "--quiet", "--json"]) == 0
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


@pytest.mark.parametrize("placement", [[], ["--isolate"], ["--in-process"]])
def test_a_students_folder_plays_from_anywhere(
    folder: Path, placement: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    spec = f"py:{folder}/agent.py:MyAgent:depth=2"
    records = tmp_path / f"records{len(placement)}{''.join(placement)}"
    args = [spec, "random", "--games", "2", "--move-time", "1", "--records", str(records)]
    result = match_json(capsys, *args, *placement)
    games = [json.loads(line) for line in (records / "games.jsonl").read_text().splitlines()]
    assert [g["reason"] for g in games] == ["normal", "normal"], games
    assert spec in result["agents"]
    assert Path.cwd().name == "elsewhere"  # arena's own working directory is untouched


def test_the_class_takes_its_parameters_typed(folder: Path) -> None:
    agent = load_agent(f"py:{folder}/agent.py:MyAgent:depth=3,greedy=1,label=Deep Blue")
    assert (agent.depth, agent.greedy, agent.label) == (3, True, "Deep Blue")
    with pytest.raises(SpecError, match=r"depth=x is not an int"):
        load_agent(f"py:{folder}/agent.py:MyAgent:depth=x")
    with pytest.raises(SpecError, match=r"unknown parameter 'width'; valid: depth=1 \(int\)"):
        load_agent(f"py:{folder}/agent.py:MyAgent:width=3")


def pids_running(text: str) -> list[int]:
    """Processes whose command line holds ``text`` (read from /proc: no psutil)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if text in cmdline and state != "Z":
            found.append(int(entry.name))
    return found


@pytest.mark.parametrize(
    "how", [["match", "--games", "2"], ["tournament", "--jobs", "2"], ["play"]]
)
def test_an_endless_loop_loses_on_time_and_leaves_nothing_running(
    folder: Path, how: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    spec = f"py:{folder}/agent.py:Stuck"
    command, *options = how
    args = [command, "connect4", spec, "random", "--move-time", "0.2", *options]
    if command != "play":
        args += ["--records", str(folder.parent / f"records-{command}")]
    started = time.perf_counter()
    assert main(args) == 0
    elapsed = time.perf_counter() - started
    out = capsys.readouterr().out
    if command == "play":
        assert f"loses: time ({spec}: no move within 0.250 s)" in out
        games = 1
    else:
        lines = (folder.parent / f"records-{command}" / "games.jsonl").read_text().splitlines()
        records = [json.loads(line) for line in lines]
        games = len(records)
        assert games == 2
        for record in records:
            assert record["reason"] == "time"
            assert record["detail"] == f"{spec}: no move within 0.250 s"
    # Each game lost within the move time plus the grace (and the process's start): not hung.
    assert elapsed < 30
    assert pids_running(str(folder / "agent.py")) == []


def test_a_numpy_integer_is_a_move(tmp_path: Path) -> None:
    numpy = pytest.importorskip("numpy")
    del numpy
    (tmp_path / "np_agent.py").write_text(
        textwrap.dedent("""
        import numpy as np

        class NumpyMover:
            def choose(self, state, limit):
                return np.int64(sorted(state.legal_moves())[0])
        """)
    )
    spec = f"py:{tmp_path}/np_agent.py:NumpyMover"
    for agent in (spec, load_agent(spec)):
        record = play_game(C4, [agent, "random:seed=2"], TimeControl.moving(1.0))
        assert record.reason == "normal", record.detail
        assert all(isinstance(m, str) for m in record.moves)


def test_a_wrong_choose_signature_is_named_at_the_students_line(tmp_path: Path) -> None:
    (tmp_path / "mine.py").write_text(
        "class Mine:\n    def choose(self, state):\n        return 0\n"
    )
    with pytest.raises(SpecError) as caught:
        load_agent(f"py:{tmp_path}/mine.py:Mine")
    assert "Mine.choose(self, state) at mine.py:2: the referee calls choose(state, limit)" in str(
        caught.value
    )
    assert "compete" not in str(caught.value)


def test_class_names_match_exactly_and_the_near_one_is_suggested(tmp_path: Path) -> None:
    (tmp_path / "MyAlphaBeta.py").write_text(
        "class MyAlphaBeta:\n    def choose(self, state, limit):\n        return 0\n"
    )
    with pytest.raises(SpecError, match=r"no class 'MyAlphabeta' .*did you mean 'MyAlphaBeta'"):
        load_agent(f"py:{tmp_path}/MyAlphaBeta.py:MyAlphabeta")
    assert type(load_agent(f"py:{tmp_path}/MyAlphaBeta.py:MyAlphaBeta")).__name__ == "MyAlphaBeta"


@pytest.mark.parametrize(
    ("spec", "advice"),
    [
        ("MyAlphaBeta.py:MyAlphaBeta", "did you mean py:MyAlphaBeta.py:MyAlphaBeta?"),
        ("MyAlphaBeta.py", "did you mean py:MyAlphaBeta.py:CLASS?"),
        ("sub dir/agent.py:Mine:depth=2", "did you mean py:sub dir/agent.py:Mine:depth=2?"),
    ],
)
def test_a_file_without_py_prefix_is_told_the_prefix(spec: str, advice: str) -> None:
    with pytest.raises(SpecError) as caught:
        load_agent(spec)
    assert advice in str(caught.value)
    assert "malformed parameter" not in str(caught.value)


def test_init_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "needs.py").write_text(
        textwrap.dedent("""
        class Needs:
            def __init__(self, depth):
                self.depth = int(depth)

            def choose(self, state, limit):
                return state.legal_moves()[0]

        class Raises:
            def __init__(self):
                raise ValueError("no weights file")

            def choose(self, state, limit):
                return 0
        """)
    )
    code = main(["match", "connect4", f"py:{tmp_path}/needs.py:Needs", "random", "--games", "1"])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert f"__init__ needs depth: give py:{tmp_path}/needs.py:Needs:depth=VALUE" in err
    assert load_agent(f"py:{tmp_path}/needs.py:Needs:depth=4").depth == 4
    with pytest.raises(SpecError, match=r"building Raises failed: ValueError: no weights file at "):
        load_agent(f"py:{tmp_path}/needs.py:Raises")


MARKS = """\
import os

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), f"ran-in-{os.getpid()}"), "w"):
    pass  # module code: it runs wherever the file is imported


class Mine:
    def __init__(self, depth: int = 1):
        pass

    def choose(self, state, limit):
        return sorted(state.legal_moves())[0]
"""


@pytest.mark.parametrize(
    ("placement", "here"), [([], False), (["--isolate"], False), (["--in-process"], True)]
)
def test_a_students_module_code_runs_in_arenas_process_only_when_asked(
    tmp_path: Path, placement: list[str], here: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    # Checking the agent before the games must not import it here: with --sandbox that
    # ran the student's module code outside the sandbox.
    (tmp_path / "mine.py").write_text(MARKS)
    spec = f"py:{tmp_path}/mine.py:Mine"
    assert main(["match", "connect4", spec, "random", "--games", "1", "--quiet", *placement]) == 0
    ran = {int(f.name.removeprefix("ran-in-")) for f in tmp_path.glob("ran-in-*")}
    assert (os.getpid() in ran) == here and ran, ran
    # A bad parameter or class is still refused before any game, in one line.
    for bad, told in [
        (f"{spec}:width=2", "unknown parameter 'width'"),
        (spec[:-4] + "Min", "no class 'Min'"),
    ]:
        assert main(["match", "connect4", bad, "random", "--games", "1", *placement]) == 2
        err = capsys.readouterr().err
        assert told in err and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert not pids_running(f"{tmp_path}/mine.py")


def test_a_path_that_is_not_utf8_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A folder named in another encoding (Latin-1 'café'): the spec travels as text (the
    # served agent's 'ready' line, the seeds, the database), and failed there with a
    # traceback, or a crash of every game.
    folder = tmp_path / os.fsdecode(b"caf\xe9")
    folder.mkdir()
    (folder / "mine.py").write_text(MARKS)
    for spec in (f"py:{folder}/mine.py:Mine", f"cmd:python {folder}/mine.py"):
        with pytest.raises(SpecError, match="not UTF-8 text"):
            load_agent(spec)
        for placement in ([], ["--in-process"]):
            assert main(["match", "connect4", spec, "random", "--games", "1", *placement]) == 2
            err = capsys.readouterr().err
            assert "not UTF-8 text" in err and "Traceback" not in err, err
            assert len(err.strip().splitlines()) == 1, err
    assert not list(folder.glob("ran-in-*"))


def test_an_error_a_students_file_raises_is_shown_as_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Its message went to the terminal as it was: ESC sequences cleared the screen there,
    # or set the clipboard.
    (tmp_path / "loud.py").write_text('raise RuntimeError("\\x1b[2J\\x1b]52;c;cm0gLXJm\\x07 x")\n')
    for placement in ([], ["--in-process"]):
        spec = f"py:{tmp_path}/loud.py:Loud"
        assert main(["match", "connect4", spec, "random", "--games", "1", *placement]) == 2
        err = capsys.readouterr().err
        assert "RuntimeError: \\x1b[2J\\x1b]52;c;" in err and "\x1b" not in err, err


def test_a_subclass_of_arena_agent_needs_no_name(tmp_path: Path) -> None:
    (tmp_path / "sub.py").write_text(
        textwrap.dedent("""
        import arena

        class Sub(arena.Agent):
            def choose(self, state, limit):
                return state.legal_moves()[0]

        class Deep(arena.Agent):
            def __init__(self, depth: int = 2):
                self.depth = depth

            def choose(self, state, limit):
                return state.legal_moves()[0]
        """)
    )
    sub = load_agent(f"py:{tmp_path}/sub.py:Sub")
    assert sub.choose(C4.initial_state(), arena.Limit()) == 0
    assert load_agent(f"py:{tmp_path}/sub.py:Deep:depth=5").depth == 5
    record = play_game(C4, [sub, "random:seed=1"], TimeControl.moving(1.0))
    assert record.reason == "normal"


def test_cmd_python_is_arenas_python(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "my_agent.py").write_text(
        textwrap.dedent("""
        from arena.remote.serve import serve

        class MyAgent:
            def choose(self, state, limit):
                return state.legal_moves()[0]

        serve(MyAgent())
        """)
    )
    # The virtual environment is not active: its bin is not on PATH.
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    monkeypatch.chdir(tmp_path)
    agent = load_agent("cmd:python my_agent.py")
    assert agent.argv[0] == sys.executable
    record = play_game(C4, [agent, "random:seed=1"], TimeControl.moving(2.0))
    assert record.reason == "normal", record.detail


def test_what_a_file_prints_as_it_loads_stays_off_the_protocol(tmp_path: Path) -> None:
    (tmp_path / "banner.py").write_text(
        textwrap.dedent("""
        print("pygame 2.5.2 (SDL 2.28.3, Python 3.11.7)")
        print("Hello from the pygame community. https://www.pygame.org/contribute.html")

        class Mine:
            def choose(self, state, limit):
                return state.legal_moves()[0]
        """)
    )
    proc = subprocess.run(
        [sys.executable, "-m", "arena", "serve", f"py:{tmp_path}/banner.py:Mine"],
        input="arena 1 connect4 0 -\nturn time=1\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    assert proc.stdout.splitlines() == [f"ready py:{tmp_path}/banner.py:Mine", "1"]
    assert "pygame community" in proc.stderr
    gtp = subprocess.run(
        [sys.executable, "-m", "arena", "gtp", "othello", f"py:{tmp_path}/banner.py:Mine"],
        input="protocol_version\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    assert gtp.stdout == "= 2\n\n=\n\n" and "pygame community" in gtp.stderr


def test_analyze_advises_what_arena_exports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "plain.py").write_text(
        "class Plain:\n    def choose(self, state, limit):\n        return state.legal_moves()[0]\n"
    )
    assert main(["analyze", "connect4", "", f"py:{tmp_path}/plain.py:Plain"]) == 0
    out = capsys.readouterr().out
    advised = out.split("set self.last_search to an ", 1)[1].split(")", 1)[0]
    module, _, name = advised.rpartition(".")
    assert module == "arena" and getattr(arena, name) is arena.core.agent.SearchInfo


def test_a_helper_named_as_a_standard_module_stays_the_students(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # colorsys: a standard module arena never imports, so the student's file is found first.
    monkeypatch.delitem(sys.modules, "colorsys", raising=False)
    (tmp_path / "colorsys.py").write_text("def first(moves):\n    return min(moves)\n")
    (tmp_path / "mine.py").write_text(
        "from colorsys import first\n\n"
        "class Mine:\n    def choose(self, state, limit):\n"
        "        return first(state.legal_moves())\n"
    )
    agent = load_agent(f"py:{tmp_path}/mine.py:Mine")
    assert agent.choose(C4.initial_state(), arena.Limit()) == 0
    import colorsys  # arena's later imports get the standard module, not the student's

    assert hasattr(colorsys, "rgb_to_hsv") and str(tmp_path) not in sys.path


def test_input_in_its_own_process_ends_at_once_and_leaves_the_protocol_alone(
    tmp_path: Path,
) -> None:
    (tmp_path / "asks.py").write_text(
        "class Asks:\n    def choose(self, state, limit):\n        return int(input('move? '))\n"
    )
    record = play_game(C4, [placed(f"py:{tmp_path}/asks.py:Asks"), "random"], TimeControl())
    assert (record.reason, record.loser) == ("crash", 0)
    assert record.detail == "EOFError: EOF when reading a line at asks.py:3 in choose"


def test_an_object_with_a_wrong_choose_is_named_at_its_def_in_a_game() -> None:
    class Mine:
        def choose(self, state):
            return state.legal_moves()[0]

    record = play_game(C4, [Mine(), "random"], TimeControl())
    assert (record.reason, record.loser) == ("crash", 0)
    assert record.detail.startswith("Mine.choose(self, state) at test_pyclass.py:")
    assert "the referee calls choose(state, limit)" in record.detail
