"""``arena grade`` as a student or an autograder runs it: reports, exit codes, JSON files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from arena.cli.main import main
from arena.remote.sandbox import SandboxUnavailable, require

try:
    require()
    NO_SANDBOX = ""
except SandboxUnavailable as exc:  # a kernel without user namespaces: the machine's choice
    NO_SANDBOX = str(exc)

VISIBILITIES = {"hidden", "after_due_date", "after_published", "visible"}
STATUSES = {"passed", "failed"}
FORMATS = {"text", "html", "simple_format", "md", "ansi"}


def check_gradescope(data: object) -> None:
    """Gradescope's results.json, as its specification documents it
    (https://gradescope-autograders.readthedocs.io/en/latest/specs/): a JSON object with a
    numeric ``score`` (required when the tests carry none), optional ``execution_time``
    (seconds), ``output``, ``visibility``, ``stdout_visibility``, ``extra_data`` and ``tests``:
    each a JSON object with optional numeric ``score`` and ``max_score``, ``status``
    ("passed" or "failed"), ``name``, ``number``, ``output``, ``output_format``, ``tags``,
    ``visibility`` and ``extra_data``. Unknown keys are refused here, so a typo fails."""
    top = {
        "score",
        "execution_time",
        "output",
        "output_format",
        "visibility",
        "stdout_visibility",
        "extra_data",
        "tests",
        "leaderboard",
    }
    per_test = {
        "score",
        "max_score",
        "status",
        "name",
        "name_format",
        "number",
        "output",
        "output_format",
        "tags",
        "visibility",
        "extra_data",
    }
    number = (int, float)
    assert isinstance(data, dict), "results.json must be an object"
    assert set(data) <= top, set(data) - top
    assert isinstance(data["score"], number) and not isinstance(data["score"], bool)
    if "execution_time" in data:
        assert isinstance(data["execution_time"], int) and data["execution_time"] >= 0
    if "output" in data:
        assert isinstance(data["output"], str)
    if "visibility" in data:
        assert data["visibility"] in VISIBILITIES
    tests = data.get("tests", [])
    assert isinstance(tests, list)
    for test in tests:
        assert isinstance(test, dict) and set(test) <= per_test, set(test) - per_test
        for key in ("score", "max_score"):
            if key in test:
                assert isinstance(test[key], number) and not isinstance(test[key], bool)
        assert 0 <= test["score"] <= test["max_score"]
        assert test.get("status", "passed") in STATUSES
        assert test.get("output_format", "text") in FORMATS
        assert test.get("visibility", "visible") in VISIBILITIES
        for key in ("name", "number", "output"):
            assert isinstance(test.get(key, ""), str)
    assert data["score"] == pytest.approx(sum(t["score"] for t in tests))


def grade(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["grade", *args, "--quiet"])
    out, err = capsys.readouterr()
    return code, out, err


def test_an_agent_that_meets_the_rubric_exits_0_with_gradescope_and_json(capsys, tmp_path):
    results, plain = tmp_path / "results.json", tmp_path / "report.json"
    code, out, err = grade(
        capsys,
        "tictactoe",
        "alphabeta",
        "--time",
        "move:1",
        "--vs",
        "random:0.8",
        "--never-late",
        "--gradescope",
        str(results),
        "--json",
        str(plain),
    )
    assert code == 0, out + err
    assert "score >= 0.8 vs random  met" in out
    assert "every criterion met" in out and "NOT" not in out
    data = json.loads(results.read_text())
    check_gradescope(data)
    assert [t["status"] for t in data["tests"]] == ["passed", "passed"]
    assert data["score"] == 2
    report = json.loads(plain.read_text())
    (criterion,) = report["criteria"]
    assert report["passed"] and criterion["outcome"] == "met"
    assert criterion["decided_after"] % 2 == 0  # decided on complete pairs only
    low, high = criterion["interval"]
    assert low <= criterion["score"] <= high
    assert report["never_late"]["moves"] > 0 and report["never_late"]["late"] == []


def test_an_agent_that_fails_the_rubric_exits_1_not_met(capsys, tmp_path):
    results = tmp_path / "results.json"
    code, out, _ = grade(
        capsys,
        "tictactoe",
        "random",
        "--time",
        "move:1",
        "--vs",
        "alphabeta:0.6",
        "--gradescope",
        str(results),
    )
    assert code == 1
    assert "score >= 0.6 vs alphabeta  not met" in out
    data = json.loads(results.read_text())
    check_gradescope(data)
    assert data["score"] == 0 and data["tests"][0]["status"] == "failed"
    assert "NOT MET" in data["tests"][0]["output"]


def test_the_cap_leaves_a_criterion_undecided_and_the_exit_1(capsys):
    # alphabeta scores about 0.53 against greedy here: at 0.5 +- 0.05 four games decide nothing.
    code, out, _ = grade(
        capsys,
        "tictactoe",
        "alphabeta",
        "--time",
        "move:1",
        "--vs",
        "greedy:0.5",
        "--max-games",
        "4",
    )
    assert code == 1
    assert "undecided" in out and "no decision within 4 games" in out


LATE_ONCE = """\
import os, time

MARK = {mark!r}


class LateOnce:
    '''Plays the first legal move; its very first move of the whole run takes too long.'''

    def choose(self, state, limit):
        if not os.path.exists(MARK):
            open(MARK, "w").close()
            time.sleep(limit.time + 0.15)
        return state.legal_moves()[0]
"""


def test_an_agent_late_once_fails_never_late(capsys, tmp_path):
    agent = tmp_path / "late agent.py"  # a folder or file name with a space, as students have
    agent.write_text(LATE_ONCE.format(mark=str(tmp_path / "mark")))
    results = tmp_path / "results.json"
    # The grace (1 s) saves the game from a forfeit: the move is late all the same.
    code, out, _ = grade(
        capsys,
        "tictactoe",
        f"py:{agent}:LateOnce",
        "--time",
        "move:0.3",
        "--grace",
        "1000",
        "--never-late",
        "--vs",
        "random:0.2",
        "--max-games",
        "8",
        "--gradescope",
        str(results),
        "--records",
        str(tmp_path / "games"),
    )
    assert code == 1, out
    assert "never late: NOT MET" in out
    # The games are kept: the late move is in its record, for `arena replay`.
    lines = (tmp_path / "games" / "games.jsonl").read_text().splitlines()
    assert len(lines) == 8
    assert sum(s > 0.3 for line in lines for s in json.loads(line)["seconds"]) >= 1
    assert "1 over their limit, 0 games lost on time" in out
    data = json.loads(results.read_text())
    check_gradescope(data)
    late = data["tests"][-1]
    assert late["name"] == "never late" and late["status"] == "failed" and late["score"] == 0


RUBRIC = """\
game = "tictactoe"
time = "move:1"
max_games = 60
never_late = 2
visibility = "after_published"

[[criteria]]
vs = "random"
score = 0.8
points = 3
"""


def test_a_rubric_file_grades_with_its_points(capsys, tmp_path):
    rubric = tmp_path / "grade.toml"
    rubric.write_text(RUBRIC)
    results = tmp_path / "results.json"
    code, out, _ = grade(capsys, "--rubric", str(rubric), "alphabeta", "--gradescope", str(results))
    assert code == 0, out
    data = json.loads(results.read_text())
    check_gradescope(data)
    assert data["score"] == 5 and [t["max_score"] for t in data["tests"]] == [3, 2]
    assert data["visibility"] == "after_published"
    assert "total: 5 of 5 points" in out


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("game = 'tictactoe'\nnever_late = true\nclock = '1+0'\n", "unknown key 'clock'"),
        ("never_late = true\n", "missing key 'game'"),
        ("game = 'tictactoe'\n", "nothing to grade"),
        (
            "game = 'tictactoe'\n[[criteria]]\nvs = 'random'\nscore = 1.5\n",
            "criteria #1: 'score' must be a number strictly between 0 and 1",
        ),
        ("game = 'tictactoe'\n[[criteria]]\nscore = 0.5\n", "criteria #1: 'vs' must name"),
        (
            "game = 'tictactoe'\n[[criteria]]\nvs = 'random'\nscore = 0.5\nweight = 2\n",
            "criteria #1: unknown key 'weight'",
        ),
        ("game = 'tictactoe'\nnever_late = 'yes'\n", "'never_late' must be true"),
        ("game = 'tictactoe'\nnever_late = true\nmax_games = '10'\n", "'max_games'"),
        ("game = 'tictactoe'\nnever_late = true\ntime = '15'\n", "time control '15'"),
        ("game = 'nosuchgame'\nnever_late = true\n", "nosuchgame"),
        ("game = 'tictactoe'\nnever_late = true\nvisibility = 'public'\n", "visibility"),
        ("game = [\n", "not valid TOML"),
        ("game = 'caf\xe9'\n", "not text (byte 11 is not UTF-8)"),  # Latin-1: a traceback before
    ],
)
def test_rubric_file_errors_are_one_line(capsys, tmp_path, text, message):
    rubric = tmp_path / "grade.toml"
    rubric.write_bytes(text.encode("latin-1"))
    code, _, err = grade(capsys, "--rubric", str(rubric), "random")
    assert code == 2
    assert message in err and str(rubric) in err
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["tictactoe", "random", "--vs", "greedy"], "expected SPEC:SCORE"),
        (["tictactoe", "random", "--vs", "greedy:2"], "expected SPEC:SCORE"),
        (["tictactoe", "random"], "nothing to grade"),
        (["tictactoe", "nosuchagent", "--vs", "greedy:0.5"], "unknown agent 'nosuchagent'"),
        (["tictactoe", "py:/no/such/agent.py:A", "--vs", "greedy:0.5"], "agent.py"),
        (["tictactoe", "random", "--vs", "nosuch:0.5"], "unknown agent 'nosuch'"),
        (["tictactoe"], "expected GAME AGENT"),
        (["--rubric", "/no/such/grade.toml", "random"], "/no/such/grade.toml"),
        (["tictactoe", "random", "--vs", "greedy:0.5", "--max-games", "1"], "max games"),
        (["tictactoe", "random", "--vs", "greedy:0.5", "--jobs", "0"], "--jobs"),
        (
            ["tictactoe", "random", "--vs", "greedy:0.5", "--gradescope", "/no/dir/r.json"],
            "no such folder",
        ),
    ],
)
def test_usage_errors_exit_2_in_one_line(capsys, args, message):
    code, _, err = grade(capsys, *args)
    assert code == 2
    assert message in err and err.count("\n") == 1


def test_the_command_line_runs_as_a_program(tmp_path):
    """The exit status as a shell or autograder sees it, with --jobs 2."""
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "arena",
            "grade",
            "tictactoe",
            "alphabeta",
            "--time",
            "rollouts=1",
            "--vs",
            "random:0.8",
            "--jobs",
            "2",
            "--never-late",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    assert proc.returncode == 0, proc.stderr
    assert "never late: MET. No clock" in proc.stdout
    assert "game 1 " in proc.stderr  # a line per game unless --quiet
    assert not list(Path(tmp_path).iterdir())  # nothing written unless asked


def test_never_late_alone_plays_a_pair_against_itself(capsys):
    code, out, _ = grade(capsys, "tictactoe", "alphabeta", "--time", "move:1", "--never-late")
    assert code == 0, out
    assert "never late: MET" in out and out.rstrip().endswith(", 2 games)")
    # Both seats are the agent: every move of both games is timed.
    assert "moves timed" in out


def test_an_odd_cap_stops_at_the_last_whole_pair(capsys):
    code, out, _ = grade(
        capsys, "tictactoe", "random", "--time", "depth=1", "--vs", "random:0.5", "--max-games", "5"
    )
    assert code == 1
    assert "no decision within 4 games" in out


ONLY_SANDBOXED = """\
import os


class Careful:
    '''Plays only inside arena's sandbox; anywhere else it crashes (a forfeit).'''

    def choose(self, state, limit):
        if os.environ.get("ARENA_SANDBOXED") != "1":
            raise RuntimeError("not sandboxed")
        return state.legal_moves()[0]
"""


@pytest.mark.skipif(
    bool(NO_SANDBOX) and not (os.environ.get("CI") and "not found" in NO_SANDBOX),
    reason=NO_SANDBOX or "sandbox works",
)
def test_sandbox_runs_the_graded_agent_sandboxed(capsys, tmp_path):
    agent = tmp_path / "student" / "agent.py"
    agent.parent.mkdir()
    agent.write_text(ONLY_SANDBOXED)
    args = ("tictactoe", f"py:{agent}:Careful", "--time", "move:2", "--vs", "random:0.05")
    code, out, _ = grade(capsys, *args, "--max-games", "2")
    assert code == 1 and "2 by crash forfeited" in out  # not sandboxed: every game crashes
    code, out, _ = grade(capsys, *args, "--max-games", "2", "--sandbox")
    assert "by crash" not in out, out
    code, _, err = grade(capsys, *args, "--sandbox", "--in-process")
    assert code == 2 and "--in-process" in err


def test_a_typo_in_the_last_criterion_fails_before_any_game(capsys):
    code = main(["grade", "tictactoe", "random", "--vs", "random:0.5", "--vs", "nosuch:0.5"])
    _, err = capsys.readouterr()
    assert code == 2 and "unknown agent 'nosuch'" in err
    assert "game 1" not in err  # no game of the first criterion was played


def test_a_submission_folder_is_graded_as_the_league_finds_it(capsys, tmp_path):
    folder = tmp_path / "ada lovelace"  # a student's folder, space and all
    folder.mkdir()
    (folder / "bot.py").write_text(
        "class Bot:\n    def choose(self, state, limit):\n        return state.legal_moves()[0]\n"
    )
    code, out, err = grade(
        capsys, "tictactoe", str(folder), "--time", "move:1", "--vs", "random:0.95"
    )
    assert f"{folder}: py:{folder / 'bot.py'}:Bot" in err
    assert code == 1 and "score >= 0.95 vs random  not met" in out


def test_a_folder_the_league_would_refuse_fails_in_one_line(capsys, tmp_path):
    folder = tmp_path / "bob"
    folder.mkdir()
    (folder / "bot.py").write_text("class Bot(:\n")
    code, out, err = grade(capsys, "tictactoe", str(folder), "--vs", "random:0.5")
    assert code == 2 and out == ""
    assert err.strip().count("\n") == 0 and "syntax error" in err and "bob" in err
