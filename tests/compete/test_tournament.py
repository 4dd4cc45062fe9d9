"""Tournaments: colour balance, paired openings, the database, resume after SIGKILL, workers."""

from __future__ import annotations

import json
import os
import resource
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
from arena.formats.record import GameRecord
from arena.games import load_game
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


def foreign_files(tmp_path: Path) -> dict[str, Path]:
    """Files arena did not make: empty, another program's SQLite database, text."""
    empty = tmp_path / "empty.db"
    empty.touch()
    notes = tmp_path / "notes.db"
    with sqlite3.connect(notes) as conn:
        conn.execute("CREATE TABLE notes (text TEXT)")
        conn.execute("INSERT INTO notes VALUES ('mine')")
    conn.close()
    text = tmp_path / "text.db"
    text.write_text("not a database at all")
    return {"empty": empty, "notes": notes, "text": text}


def test_reading_never_writes_to_a_file_arena_did_not_make(tmp_path: Path) -> None:
    for name, path in foreign_files(tmp_path).items():
        before = path.read_bytes()
        out = cli("results", str(path))
        assert out.returncode == 2 and "not a results database" in out.stderr, name
        assert path.read_bytes() == before, f"{name} was changed"
        assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(path.name)) == [
            path.name
        ], "no journal left beside it"


def test_db_refuses_another_programs_database_untouched(tmp_path: Path) -> None:
    files = foreign_files(tmp_path)
    for name in ("notes", "text"):
        before = files[name].read_bytes()
        out = quick_match("tictactoe", "random", "greedy", 2, "--db", str(files[name]), "--quiet")
        assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr
        assert f"{files[name]}: not a results database" in out.stderr
        assert files[name].read_bytes() == before, f"{name} was changed"
    out = quick_match("tictactoe", "random", "greedy", 2, "--db", str(files["notes"]), "--quiet")
    assert "(it holds notes); it is left as it is: give --db a new file" in out.stderr
    # An empty file holds nothing to damage: it becomes a results database, as a new path does.
    out = quick_match("tictactoe", "random", "greedy", 2, "--db", str(files["empty"]), "--quiet")
    assert out.returncode == 0, out.stderr
    assert len(ResultsDB(files["empty"], readonly=True).rows()) == 2


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


@pytest.mark.parametrize("colours", ["alternate", "fixed"])
def test_sprt_stops_when_decided(colours: str) -> None:
    """With colours alternating the test counts pairs of games (an opening with both
    colours: the pentanomial model), with colours fixed single games."""
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
        "--openings",
        "random:plies=1,balance=1",
        *(["--colours", "fixed"] if colours == "fixed" else []),
    )
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.splitlines()[-1])
    sprt = result["sprt"]
    assert sprt["decision"] == "H1" and result["games"] < 200
    assert sprt["llr"] >= sprt["upper"]
    if colours == "fixed":
        assert sprt["model"] == "trinomial" and sprt["games"] == result["games"]
        assert f"over {result['games']} games: LLR" in out.stderr
    else:
        assert sprt["model"] == "pentanomial" and 2 * sum(sprt["pairs"]) == result["games"]
        assert f"over {sum(sprt['pairs'])} pairs of games: LLR" in out.stderr


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


def test_a_game_played_beside_others_searches_with_one_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """--jobs N: each worker's searches default to one thread (the games share the cores)."""
    from arena.compete.runner import play_beside_others
    from arena.compete.tournament import jobs_for
    from arena.search.threads import THREADS_ENV

    monkeypatch.delenv(THREADS_ENV, raising=False)
    settings = Settings(game="tictactoe", agents=("random", "random"), rounds=1, seed=1)
    job = next(jobs_for(settings, plan(["random", "random"], 1)))
    assert GameRecord.from_json(play_beside_others(job)).moves
    assert os.environ[THREADS_ENV] == "1"
    monkeypatch.setenv(THREADS_ENV, "3")  # the user's own setting stays
    play_beside_others(job)
    assert os.environ[THREADS_ENV] == "3"


def test_records_dir_and_replay(tmp_path: Path) -> None:
    out = quick_match("go:size=5", "random", "greedy", 2, "--records", str(tmp_path), "--quiet")
    assert out.returncode == 0, out.stderr
    lines = (tmp_path / "games.jsonl").read_text().splitlines()
    assert len(lines) == 2 and (tmp_path / "games.sgf").read_text().count("(;") == 2
    # Replaying game 2 ends on the position its recorded moves lead to, with its result.
    record = GameRecord.from_json(lines[1])
    assert record.players == ("greedy", "random")  # colours swapped in the second game
    game = load_game(record.game)
    final = game.play_moves(game.parse_moves(record.moves))
    shown = cli("replay", str(tmp_path / "games.jsonl"), "--game", "2")
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines()[1:3] == ["Black: greedy", "White: random"]
    assert final.render() in shown.stdout
    assert shown.stdout.splitlines()[-1] == f"ply {len(record.moves)}: {final.result_text()}"
    # The SGF file holds the same two games: players and lengths.
    listed = cli("replay", str(tmp_path / "games.sgf")).stdout.splitlines()[1:]
    for row, text in zip(listed, lines, strict=True):
        r = GameRecord.from_json(text)
        assert row.split()[2:4] == list(r.players) and row.split()[-1] == str(len(r.moves))


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
        (
            ["match", "connect4", "random", "greedy", "--show-search", "--jobs", "2"],
            "--show-search prints each move as it is played, so games run one at a time",
        ),
        (
            ["tournament", "connect4", "random", "greedy", "--show-search", "--ray", "auto"],
            "--show-search prints each move",
        ),
    ],
)
def test_bad_input_is_one_line(args: list[str], message: str) -> None:
    out = cli(*args)
    assert out.returncode == 2, out.stdout
    assert message in out.stderr and out.stderr.count("\n") == 1


def test_an_openings_file_that_is_not_text_is_one_line(tmp_path: Path) -> None:
    openings = tmp_path / "openings.txt"
    openings.write_bytes(b"4 4\n\xff\xfe 3\n")  # a traceback before
    out = cli("match", "connect4", "random", "greedy", "--openings", str(openings))
    assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr
    assert f"{openings}: not text (byte 4 is not UTF-8)" in out.stderr


@pytest.mark.parametrize("command", ["match", "tournament"])
def test_show_search_prints_each_move_and_its_search(command: str) -> None:
    out = cli(
        command, "tictactoe", "greedy:seed=1", "mcts:rollouts=30,seed=2", "--budget",
        "rollouts=30", "--show-search", *(["--games", "2"] if command == "match" else []),
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    # The standings' title gives the budget in its own notation, not a Python repr.
    assert "tictactoe, budget rollouts=30: 2 of 2 games" in out.stdout
    games = ("\n" + out.stdout).split("\ngame ")[1:]
    assert len(games) == 2
    assert games[0].startswith("1: greedy:seed=1 (X) vs mcts:rollouts=30,seed=2 (O)")
    for text in games:
        plies = int(text.split(" plies)")[0].rsplit(", ", 1)[1])  # from the result line
        moves = [line for line in text.splitlines() if line.endswith(" ms")]
        assert len(moves) == plies
        # After every move, the search of the agent that made it.
        summaries = [line for line in text.splitlines() if " in 0." in line and "/s)" in line]
        assert len(summaries) == plies
        for move, summary in zip(moves, summaries, strict=True):
            kind = "simulations in" if "mcts" in move else "nodes in"
            assert kind in summary


def test_no_ray_cluster_is_explained_in_arenas_options(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    ray = pytest.importorskip("ray")

    def no_cluster(**_: object) -> None:  # what ray.init says with no cluster to join
        raise ConnectionError(
            "Could not find any running Ray instance. Please specify the one to connect to "
            "by setting `--address` flag or `RAY_ADDRESS` environment variable."
        )

    monkeypatch.setattr(ray, "init", no_cluster)
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    with pytest.raises(ArenaError) as info:
        run(ROUND_ROBIN, ray="auto")
    assert str(info.value) == (
        "no Ray cluster at auto: use --ray local to start one on this machine, "
        "or RAY_ADDRESS / --ray ray://HOST:PORT to join a running one"
    )


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


# --- hostile sizes and databases (issue 31) ------------------------------------------


def test_plan_is_made_as_it_is_read_and_answers_membership_from_the_id() -> None:
    agents = ["a", "b|x", "c"]
    for rounds, gauntlet, per_pair in ((2, False, None), (1, True, 5)):
        planned = plan(agents, rounds, gauntlet, per_pair)
        games = list(planned)
        assert len(games) == planned.size == len(planned)
        assert [planned[i] for i in range(len(games))] == games and planned[-1] == games[-1]
        assert all(g.game_id in planned for g in games)
        assert len({g.game_id for g in games}) == len(games)
    planned = plan(agents, rounds=2)
    for foreign in ("a|c|round=2|first=a", "a|c|round=01|first=a", "a|c|round=0|first=x", "", 7):
        assert foreign not in planned
    huge = plan(["a", "b"], rounds=1, games_per_pair=10**30)
    assert (
        huge.size == 10**30 and huge[10**29].game_id == "a|b|round=" + "5" + "0" * 28 + "|first=a"
    )


PEAK = """import atexit, sys
from arena.cli.main import main
def peak():  # VmHWM: this program's own peak (ru_maxrss would count the parent's at fork)
    line = next(l for l in open("/proc/self/status") if l.startswith("VmHWM"))
    open(sys.argv[1], "w").write(line.split()[1])
atexit.register(peak)
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.parametrize(
    "args",
    [
        ["match", "connect4", "random", "greedy", "--games", "1000000000000"],
        ["tournament", "connect4", "random", "greedy", "ids", "--rounds", "1000000000000"],
    ],
)
def test_a_plan_too_large_to_play_is_refused_at_once_in_bounded_memory(
    tmp_path: Path, args: list[str]
) -> None:
    def limit_memory() -> None:  # before the fix the plan filled memory: end it fast
        resource.setrlimit(resource.RLIMIT_AS, (600 * 2**20, 600 * 2**20))

    start = time.monotonic()
    peak = tmp_path / "peak"
    code = PEAK.replace("main(sys.argv[2:])", "main(sys.argv[2:] + ['--quiet'])")
    proc = subprocess.run(
        [sys.executable, "-c", code, str(peak), *args],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=limit_memory,
    )
    assert proc.returncode == 2, proc.stderr[-300:]
    assert proc.stderr.count("\n") == 1 and "games; one run plays at most 1,000,000" in proc.stderr
    assert f"{args[-2]} {args[-1]} plans" in proc.stderr
    assert time.monotonic() - start < 60
    assert int(peak.read_text()) < 300 * 1024  # KB


def test_a_second_writer_is_refused_in_one_line_while_readers_read(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    assert (
        quick_match("tictactoe", "random", "greedy", 2, "--db", str(path), "--quiet").returncode
        == 0
    )
    writer = ResultsDB(path)  # another run writing to it
    try:
        second = quick_match("tictactoe", "random", "greedy", 4, "--db", str(path), "--quiet")
        assert second.returncode == 2 and second.stderr.count("\n") == 1, second.stderr
        assert "is being written by another arena run" in second.stderr
        assert cli("results", str(path)).returncode == 0
    finally:
        writer.close()
    again = quick_match("tictactoe", "random", "greedy", 4, "--db", str(path), "--quiet")
    assert again.returncode == 0 and "(2 played now)" in again.stdout


def standings_rows(text: str) -> list[str]:
    """The agents' lines of a standings table (the title differs between commands)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("agent "))
    return lines[start:]


def test_two_runs_on_one_database_at_once_print_what_is_stored(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    args = [
        *("tournament", "tictactoe", "random", "greedy", "alphabeta:depth=2", "--rounds", "4"),
        *("--budget", "depth=1", "--db", db, "--quiet"),
    ]
    command = [sys.executable, "-m", "arena.cli.main", *args]
    procs = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)]
    procs.append(
        subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    )
    outs = [(p.wait(timeout=300), *p.communicate()) for p in procs]
    stored = cli("results", db)
    assert stored.returncode == 0
    rows = ResultsDB(db, readonly=True).rows()
    assert len(rows) == 24 and len({r["game_id"] for r in rows}) == 24
    assert any(code == 0 for code, _, _ in outs)
    for code, out, err in outs:
        if code == 0:
            assert standings_rows(out) == standings_rows(stored.stdout)
        else:  # started while the other was writing
            assert code == 2 and "is being written by another arena run" in err, err


def test_a_game_stored_by_another_writer_counts_as_stored(tmp_path: Path) -> None:
    """A game another program stored first is refused on insert: the standings show the
    stored game, not the one this run played."""

    class Raced(ResultsDB):
        def add(self, record: GameRecord, first: str, second: str, round_: int) -> bool:
            theirs = GameRecord(
                game=record.game,
                players=record.players,
                returns=(-1, 1),
                reason="time",
                loser=0,
                game_id=record.game_id,
            )
            super().add(theirs, first, second, round_)
            return super().add(record, first, second, round_)

    db = Raced(tmp_path / "t.db")
    outcome = run(Settings(game="tictactoe", agents=("greedy", "random"), control="depth=1"), db)
    db.close()
    assert outcome.played == 0 and len(outcome.records) == 2
    assert all(r.reason == "time" and r.winner == 1 for r in outcome.records)


def changed_copy(tmp_path: Path, source: Path, sql: str, value: object) -> Path:
    copy = tmp_path / f"copy{len(list(tmp_path.iterdir()))}.db"
    copy.write_bytes(source.read_bytes())
    with sqlite3.connect(copy) as conn:
        conn.execute(sql, (value,))
    conn.close()
    return copy


@pytest.fixture(scope="module")
def small_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("db") / "small.db"
    out = quick_match("tictactoe", "random", "greedy", 2, "--db", str(path), "--quiet")
    assert out.returncode == 0, out.stderr
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # every row in the file itself
    conn.close()
    return path


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("not json", "its settings are 'not json', not a JSON object"),
        ("[1, 2]", "its settings are '[1, 2]', not a JSON object"),
        ('{"game": 5, "agents": 3}', "its settings name no game spec and agents"),
        (b"\x00\xff", "not a JSON object"),
        ('"' + "x" * 5000 + '"', "... (5,004 characters), not a JSON object"),
    ],
)
def test_foreign_settings_are_one_line(
    tmp_path: Path, small_db: Path, value: object, message: str
) -> None:
    path = changed_copy(tmp_path, small_db, "UPDATE tournament SET settings = ?", value)
    for out in (
        cli("results", str(path)),
        quick_match("tictactoe", "random", "greedy", 4, "--db", str(path), "--quiet"),
    ):
        assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr
        assert f"{path}: not a results database (" in out.stderr and message in out.stderr
        assert len(out.stderr) < 300


@pytest.mark.parametrize(
    ("column", "value", "message"),
    [
        ("record", "zzz", "not a JSON game record (Expecting value)"),
        ("record", b"\x00", "not a JSON game record (bytes)"),
        ("record", "[" * 100_000, "not a JSON game record (nested too deeply)"),
        (
            "record",
            '{"game": "tictactoe", "players": "ab"}',
            "not a game record: 'players' must be two agents",
        ),
        ("result", "x", "result holds 'x', not a number"),
        ("plies", "many", "plies holds 'many', not a number"),
        ("reason", b"\x01", "reason holds b'\\x01', not text"),
    ],
)
def test_foreign_rows_are_one_line_naming_the_game(
    tmp_path: Path, small_db: Path, column: str, value: object, message: str
) -> None:
    path = changed_copy(tmp_path, small_db, f"UPDATE games SET {column} = ? WHERE rowid = 1", value)
    # The standings come from the records, the listing of games from the columns.
    if column == "record":
        reads = [
            cli("results", str(path)),
            quick_match("tictactoe", "random", "greedy", 4, "--db", str(path)),
        ]
        assert cli("results", str(path), "--format", "json").returncode == 0
    else:
        reads = [cli("results", str(path), "--format", fmt) for fmt in ("json", "csv")]
        assert cli("results", str(path)).returncode == 0
    for out in reads:
        assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr
        assert f"{path}, game random|greedy|round=0|first=random: {message}" in out.stderr


def test_a_record_with_fewer_times_than_moves_reads(tmp_path: Path, small_db: Path) -> None:
    record = '{"game": "tictactoe", "players": ["random", "greedy"], "moves": ["b2", "a1"]}'
    path = changed_copy(tmp_path, small_db, "UPDATE games SET record = ? WHERE rowid = 1", record)
    out = cli("results", str(path))
    assert out.returncode == 0 and "greedy" in out.stdout, out.stderr


def test_a_database_another_program_keeps_locked_is_one_line(
    tmp_path: Path, small_db: Path
) -> None:
    path = changed_copy(tmp_path, small_db, "UPDATE tournament SET created = ?", "then")
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        start = time.monotonic()
        out = quick_match("tictactoe", "random", "greedy", 4, "--db", str(path), "--quiet")
        waited = time.monotonic() - start
        assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr
        assert f"{path} is locked by another program (waited 10 s)" in out.stderr
        # 10 s of waiting, then one line; the rest is a subprocess starting on a loaded machine.
        assert 10 <= waited < 60
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert len(ResultsDB(path, readonly=True).rows()) == 2  # nothing was played meanwhile


@pytest.mark.parametrize("command", ["match", "results"])
def test_a_database_in_a_missing_folder_names_the_folder(command: str) -> None:
    where = "/nonexistent-arena-folder/x.db"
    if command == "match":
        out = quick_match("tictactoe", "random", "greedy", 2, "--db", where)
    else:
        out = cli("results", where)
    assert out.returncode == 2 and out.stderr.count("\n") == 1
    assert f"{where}: no such folder /nonexistent-arena-folder" in out.stderr


def test_fixed_colours_give_a_handicap_match_black_to_the_first_agent(tmp_path: Path) -> None:
    db = str(tmp_path / "h.db")
    records = tmp_path / "rec"
    args = ["go:size=9,handicap=2,komi=0.5", "random", "greedy", "--db", db, "--quiet"]
    done = quick_match(*args[:3], 4, *args[3:], "--colours", "fixed", "--records", str(records))
    assert done.returncode == 0, done.stderr
    games = [json.loads(line) for line in (records / "games.jsonl").read_text().splitlines()]
    assert len(games) == 4
    assert all(g["players"] == ["random", "greedy"] for g in games)  # random is Black each time
    assert len({g["seed"] for g in games}) == 4  # each game from its own start
    assert all(g["game_id"].endswith("|first=random") for g in games)
    # The database knows the colours: an alternating run of it is refused, untouched.
    other = quick_match(*args[:3], 4, *args[3:])
    assert other.returncode != 0 and "colours" in other.stderr
    assert len(ResultsDB(db).rows()) == 4
