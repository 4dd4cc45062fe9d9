"""Tournaments: colour balance, paired openings, the database, resume after SIGKILL, workers."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from subprocess import CompletedProcess

import pytest

from arena.compete.schedule import plan
from arena.compete.store import ResultsDB
from arena.compete.tournament import Settings, run
from arena.core.errors import ArenaError
from arena.stats.standings import standings


def cli(*args: str, timeout: float = 600) -> CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "arena.cli.main", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def quick_match(game: str, a: str, b: str, games: int, *options: str) -> CompletedProcess[str]:
    """``arena match`` of fixed-budget games (depth 1: fast, and no clock to vary)."""
    return cli("match", game, a, b, "--games", str(games), "--budget", "depth=1", *options)


def test_every_position_is_played_with_both_colours() -> None:
    games = plan(["a", "b", "c"], rounds=3)
    assert len(games) == 3 * 3 * 2 and len({g.game_id for g in games}) == len(games)
    firsts = Counter(g.first for g in games)
    assert firsts == {"a": 6, "b": 6, "c": 6}
    by_position: dict[tuple[frozenset[str], int], list[str]] = {}
    for g in games:
        by_position.setdefault((frozenset((g.first, g.second)), g.position), []).append(g.first)
    assert all(len(v) == 2 and len(set(v)) == 2 for v in by_position.values())
    gauntlet = plan(["a", "b", "c", "d"], rounds=1, gauntlet=True)
    assert {frozenset((g.first, g.second)) for g in gauntlet} == {
        frozenset("ab"),
        frozenset("ac"),
        frozenset("ad"),
    }


def test_paired_games_share_the_opening_and_board() -> None:
    settings = Settings(
        game="colosseum",
        agents=("random", "greedy"),
        control="rollouts=1",
        games_per_pair=4,
        openings="random:plies=2",
        seed=5,
    )
    records = run(settings).records
    assert [r.players for r in records] == [("random", "greedy"), ("greedy", "random")] * 2
    assert records[0].seed == records[1].seed != records[2].seed == records[3].seed
    assert records[0].moves[:2] == records[1].moves[:2]
    assert records[0].moves[:2] != records[2].moves[:2]


def test_two_deterministic_agents_do_not_replay_one_game() -> None:
    settings = Settings(
        game="othello:size=6",
        agents=("alphabeta:depth=2", "greedy:seed=1"),
        control="rollouts=1",
        games_per_pair=6,
        openings="random:plies=3",
    )
    records = run(settings).records
    assert len({tuple(r.moves) for r in records}) == 6


def test_a_database_from_another_tournament_is_refused(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    first = quick_match("tictactoe", "random", "greedy", 2, "--db", db, "--quiet")
    assert first.returncode == 0, first.stderr
    other = quick_match("tictactoe", "random", "ids", 2, "--db", db)
    assert other.returncode == 2 and other.stderr.count("\n") == 1
    assert "holds another tournament" in other.stderr and "use another --db" in other.stderr
    junk = tmp_path / "junk.db"
    junk.write_text("not a database at all" * 100)
    bad = cli("results", str(junk))
    assert bad.returncode == 2 and "not a results database" in bad.stderr


def test_settings_are_stored_as_canonical_text_and_old_texts_still_resume(
    tmp_path: Path,
) -> None:
    settings = Settings(
        game="connect4:rows=6",
        agents=("random", "greedy"),
        control="DEPTH=1",
        games_per_pair=2,
        openings="random:plies=4",
    )
    assert {k: settings.identity()[k] for k in ("game", "control", "openings")} == {
        "game": "connect4",
        "control": "depth=1",
        "openings": "random",
    }
    # A database written before the settings were typed holds the texts as typed.
    old = ResultsDB(tmp_path / "old.db")
    typed = {"game": "connect4:rows=6", "control": "depth=01", "openings": "random:plies=4"}
    old.bind({**settings.identity(), **typed})
    assert run(settings, old).played == 2
    assert run(Settings(**{**vars(settings), "games_per_pair": 4}), old).played == 2
    with pytest.raises(ArenaError, match=r"holds another tournament .*seed"):
        run(Settings(**{**vars(settings), "seed": 1}), old)
    old.close()


def test_running_again_resumes_and_more_games_extend(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    args = [
        "match",
        "tictactoe",
        "random",
        "greedy",
        "--budget",
        "depth=1",
        "--db",
        db,
        "--quiet",
        "--json",
    ]
    assert cli(*args, "--games", "4").returncode == 0
    again = cli(*args, "--games", "4")
    assert "(0 played now)" in again.stderr
    assert json.loads(again.stdout.splitlines()[-1])["games"] == 4
    more = cli(*args, "--games", "6")
    assert "(2 played now)" in more.stderr
    rows = ResultsDB(db).rows()
    assert len(rows) == 6 and len({r["game_id"] for r in rows}) == 6


def test_sigkill_mid_run_loses_nothing_finished_and_resume_completes(tmp_path: Path) -> None:
    db = tmp_path / "kill.db"
    args = [
        sys.executable,
        "-m",
        "arena.cli.main",
        "tournament",
        "connect4",
        "random",
        "greedy",
        "mcts:rollouts=30",
        "--rounds",
        "3",
        "--budget",
        "depth=1",
        "--db",
        str(db),
        "--quiet",
    ]
    planned = {g.game_id for g in plan(["random", "greedy", "mcts:rollouts=30"], rounds=3)}
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 120
        while time.time() < deadline:
            time.sleep(0.05)
            if db.exists():
                try:
                    with sqlite3.connect(db) as conn:
                        if conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] >= 4:
                            break
                except sqlite3.Error:
                    pass
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        partial = [row[0] for row in conn.execute("SELECT game_id FROM games")]
    assert 4 <= len(partial) < len(planned)
    assert len(set(partial)) == len(partial) and set(partial) <= planned
    finish = subprocess.run(args, capture_output=True, text=True, timeout=600)
    assert finish.returncode == 0, finish.stderr
    rows = ResultsDB(db).rows()
    assert sorted(r["game_id"] for r in rows) == sorted(planned)


def test_results_reads_the_database_back(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    assert (
        cli(
            "tournament",
            "tictactoe",
            "random",
            "greedy",
            "alphabeta:depth=2",
            "--budget",
            "depth=1",
            "--db",
            db,
            "--quiet",
        ).returncode
        == 0
    )
    table = cli("results", db)
    assert table.returncode == 0 and "head to head" in table.stdout
    rows = json.loads(cli("results", db, "--format", "json").stdout)["games"]
    assert len(rows) == 6 and {"game_id", "first", "second", "result", "reason"} <= set(rows[0])
    csv_text = cli("results", db, "--format", "csv").stdout
    assert csv_text.splitlines()[0].startswith("game_id,") and len(csv_text.splitlines()) == 7
    missing = cli("results", str(tmp_path / "nope.db"))
    assert missing.returncode == 2 and "no such results database" in missing.stderr


def test_match_json_names_a_repeated_spec_with_a_suffix() -> None:
    out = quick_match("tictactoe", "random", "random", 4, "--json", "--quiet")
    result = json.loads(out.stdout.splitlines()[-1])
    assert result["games"] == 4 and set(result["agents"]) == {"random", "random#2"}
    for line in result["agents"].values():
        assert {"wins", "draws", "losses", "forfeits"} <= set(line)
        assert line["wins"] + line["draws"] + line["losses"] == 4


def test_match_reports_forfeits_and_elo(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("class Bad:\n    def choose(self, state, limit):\n        return -5\n")
    out = quick_match("connect4", f"py:{bad}:Bad", "random", 4, "--json", "--quiet")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.splitlines()[-1])
    mine = result["agents"][f"py:{bad}:Bad"]
    assert mine["losses"] == 4 and mine["forfeits"] == {"illegal": 4}
    assert "Elo (95%)" in out.stderr and "illegal:4" in out.stderr


def test_sprt_stops_when_decided() -> None:
    out = cli(
        "match",
        "tictactoe",
        "alphabeta:depth=9",
        "random",
        "--games",
        "200",
        "--budget",
        "depth=9",
        "--sprt",
        "elo0=0,elo1=200",
        "--json",
        "--quiet",
        "--openings",
        "random:plies=1,balance=1",
    )
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.splitlines()[-1])
    assert result["sprt"]["decision"] == "H1" and result["games"] < 200
    assert result["sprt"]["llr"] >= result["sprt"]["upper"]


ROUND_ROBIN = Settings(
    game="connect4",
    agents=("mcts:rollouts=20", "greedy", "random"),
    control="rollouts=20",
    rounds=1,
    seed=3,
)
"""Six fixed-budget games: the same results however they are run."""


def test_jobs_give_the_same_results_as_one_process() -> None:
    settings = ROUND_ROBIN
    serial = {r.game_id: (r.moves, r.returns) for r in run(settings).records}
    pooled = {r.game_id: (r.moves, r.returns) for r in run(settings, jobs=2).records}
    assert serial == pooled


def test_records_dir_and_replay(tmp_path: Path) -> None:
    out = quick_match("go:size=5", "random", "greedy", 2, "--records", str(tmp_path), "--quiet")
    assert out.returncode == 0, out.stderr
    lines = (tmp_path / "games.jsonl").read_text().splitlines()
    assert len(lines) == 2 and (tmp_path / "games.sgf").read_text().count("(;") == 2
    shown = cli("replay", str(tmp_path / "games.jsonl"), "--game", "2")
    assert shown.returncode == 0 and "ply" in shown.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["match", "connect4", "random", "nobody"], "unknown agent 'nobody'"),
        (["match", "connect4", "random", "greedy", "--time", "fast"], "time control 'fast'"),
        (["match", "connect4", "random", "greedy", "--games", "0"], "--games must be >= 1"),
        (["match", "connect4", "random", "greedy", "--jobs", "0"], "--jobs must be >= 1"),
        (
            ["tournament", "connect4", "random", "greedy", "ids", "--sprt", "elo0=0,elo1=5"],
            "--sprt compares two agents",
        ),
        (["match", "connect4", "random", "greedy", "--sprt", "elo1=0,elo0=5"], "elo0"),
        (["tournament", "connect4", "random"], "at least two agents"),
        (["match", "connect4", "random", "greedy", "--openings", "nofile.txt"], "no such file"),
        (["match", "chess", "random", "greedy"], "unknown game 'chess'"),
    ],
)
def test_bad_input_is_one_line(args: list[str], message: str) -> None:
    out = cli(*args)
    assert out.returncode == 2, out.stdout
    assert message in out.stderr and out.stderr.count("\n") == 1


@pytest.mark.slow
def test_a_local_ray_run_gives_the_pool_s_results() -> None:
    pytest.importorskip("ray")
    settings = ROUND_ROBIN
    pooled = run(settings, jobs=2).records
    on_ray = run(settings, ray="local").records
    assert {r.game_id: (r.moves, r.returns) for r in on_ray} == {
        r.game_id: (r.moves, r.returns) for r in pooled
    }
    names = list(settings.agents)

    def table(records: list) -> dict:  # results and ratings; per-move times differ run to run
        return {
            n: (a["wins"], a["draws"], a["losses"], a.get("elo"), a.get("elo_95"))
            for n, a in standings(records, names).as_json()["agents"].items()
        }

    assert table(on_ray) == table(pooled)


@pytest.mark.slow
def test_the_cli_runs_on_ray(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    db = str(tmp_path / "r.db")
    out = quick_match(
        "tictactoe", "random", "greedy", 4, "--ray", "local", "--db", db, "--json", "--quiet"
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.splitlines()[-1])["games"] == 4
    assert len(ResultsDB(db).rows()) == 4
