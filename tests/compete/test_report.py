"""Reports: the standings, a page per player with its games and advice, the gradebook CSV.

The database comes from a small tournament of fast agents on a tiny clock, with an agent
that crashes (an import that fails, after a print to stderr) and one that is late on its
third move.
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from arena.compete.pages import write
from arena.compete.report import GRADEBOOK, from_records, gradebook, load
from arena.compete.store import ResultsDB
from arena.compete.tournament import Settings, run
from arena.core.errors import ArenaError
from arena.formats.record import GameRecord

CRASHY = """\
import sys

class Crashy:
    def choose(self, state, limit):
        print("loading my opening book", file=sys.stderr)
        import my_missing_helper_module
"""

LATE = """\
import time

class Late:
    def __init__(self):
        self.moves = 0

    def choose(self, state, limit):
        self.moves += 1
        if self.moves == 3:
            time.sleep(2)  # far past its 0.3 s: killed at the deadline
        return state.legal_moves()[0]
"""


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    folder = tmp_path_factory.mktemp("report")
    (folder / "crashy.py").write_text(CRASHY)
    (folder / "late.py").write_text(LATE)
    crashy, late = f"py:{folder / 'crashy.py'}:Crashy", f"py:{folder / 'late.py'}:Late"
    db = ResultsDB(folder / "class.db")
    settings = Settings(
        game="tictactoe", agents=("random", "greedy", crashy, late), control="move:0.3", seed=1
    )
    run(settings, db=db)
    db.close()
    return folder / "class.db", crashy, late


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "arena", *args], capture_output=True, text=True, timeout=120
    )


def test_the_pages_show_forfeits_the_stderr_and_what_to_fix(
    league: tuple[Path, str, str], tmp_path: Path
) -> None:
    db, _, late = league
    report = load(str(db))
    index = write(report, tmp_path / "out")
    assert index == tmp_path / "out" / "index.md"
    pages = {p.name: p.read_text() for p in (tmp_path / "out" / "players").iterdir()}
    assert len(pages) == 4
    crash_page = next(text for name, text in pages.items() if "Crashy" in name)
    # Every game of the crashing agent is a crash, counted by kind.
    assert "| time | illegal move | crash |\n|---|---|---|\n| 0 | 0 | 6 |" in crash_page
    # The end of its stderr: what it printed and the traceback, in the record and the page.
    assert "loading my opening book" in crash_page
    assert "ModuleNotFoundError: No module named 'my_missing_helper_module'" in crash_page
    assert "6 of 6 games lost by a crash, first in game" in crash_page
    assert "crashy.py:6 in choose" in crash_page
    late_page = next(text for name, text in pages.items() if "Late" in name)
    late_line = report.player(late)
    lost = late_line.forfeits["time"]
    assert lost >= 2 and lost == sum(
        1 for g in late_line.games if g.forfeited and g.record.reason == "time"
    )
    assert f"{lost} of 6 games lost on time: in game" in late_page
    # Its own process was stopped at the deadline (the clock plus the grace).
    assert "move 3 got no answer in time (stopped after 0.3" in late_page
    # Each game: opponent (a link to its page), colour, result, how it ended, its record.
    assert "| [random](random.md) |" in late_page and "lost on time" in late_page
    assert "[json](../games/" in late_page
    # The moves with the seconds each took, and the answer that lost.
    assert "you: lost on time" in late_page
    game = next(g for g in late_line.games if g.forfeited)
    assert (tmp_path / "out" / "games" / f"{game.number}.json").is_file()
    assert (
        GameRecord.from_json((tmp_path / "out" / "games" / f"{game.number}.json").read_text())
        == game.record
    )
    # A player with nothing to fix is told so.
    assert "No forfeits: all 6 games were played to the end" in pages["greedy.md"]


def test_the_gradebook_has_a_row_per_player_with_elo_intervals(
    league: tuple[Path, str, str],
) -> None:
    db, crashy, late = league
    report = load(str(db))
    rows = list(csv.DictReader(io.StringIO(gradebook(report))))
    assert list(rows[0]) == list(GRADEBOOK)
    by = {row["player"]: row for row in rows}
    assert by[crashy]["forfeits_crash"] == "6" and by[crashy]["losses"] == "6"
    assert by[crashy]["rank"] == "4" and by[crashy]["score"] == "0.0"
    assert int(by[late]["forfeits_time"]) >= 2 and by[late]["forfeits_crash"] == "0"
    assert sorted(int(r["rank"]) for r in rows) == [1, 2, 3, 4]
    for row in rows:
        assert int(row["wins"]) + int(row["draws"]) + int(row["losses"]) == int(row["games"]) == 6
        assert float(row["elo_low"]) < float(row["elo"]) < float(row["elo_high"])
    # The ranks follow the Elo, best first.
    elos = [float(r["elo"]) for r in sorted(rows, key=lambda r: int(r["rank"]))]
    assert elos == sorted(elos, reverse=True)


def test_the_index_shows_the_standings_with_their_intervals(
    league: tuple[Path, str, str], tmp_path: Path
) -> None:
    db = league[0]
    report = load(str(db))
    text = write(report, tmp_path / "out").read_text()
    for p in report.players:
        line = p.line
        shown = f"{line.elo:+.0f} \\[{line.elo_low:+.0f}, {line.elo_high:+.0f}\\]"
        assert shown in text, shown
    assert "95% profile-likelihood intervals" in text and "crash 6" in text
    # The head-to-head matrix: greedy won both games against the crashing agent.
    assert "## Head to head" in text
    greedy, crashy = report.player("greedy"), report.player(league[1])
    row = next(line for line in text.splitlines() if line.startswith(f"| {greedy.rank}. greedy |"))
    assert row.split("|")[1 + crashy.rank].strip() == "2/2"


def test_the_command_writes_html_pages_and_the_csv(
    league: tuple[Path, str, str], tmp_path: Path
) -> None:
    db, _, _ = league
    out = cli("report", str(db), "--out", str(tmp_path / "html"), "--format", "html",
              "--csv", str(tmp_path / "grades.csv"))  # fmt: skip
    assert out.returncode == 0, out.stderr
    index = (tmp_path / "html" / "index.html").read_text()
    assert index.startswith("<!doctype html>") and "Elo [95%]" in index
    assert (tmp_path / "grades.csv").read_text().startswith("rank,player,")
    assert not (tmp_path / "html" / "gradebook.csv").exists()
    # Without --out, the gradebook is printed.
    printed = cli("report", str(db))
    assert printed.returncode == 0 and printed.stdout == (tmp_path / "grades.csv").read_text()


def test_bad_input_is_one_line(league: tuple[Path, str, str], tmp_path: Path) -> None:
    db, _, _ = league
    missing = cli("report", str(tmp_path / "none.db"), "--out", str(tmp_path / "o"))
    assert missing.returncode == 2 and "no such results database" in missing.stderr
    assert len(missing.stderr.strip().splitlines()) == 1
    foreign = tmp_path / "foreign.db"
    sqlite3.connect(foreign).execute("CREATE TABLE grades (x)").connection.commit()
    refused = cli("report", str(foreign))
    assert refused.returncode == 2 and "not a results database" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    (tmp_path / "file").write_text("")
    into_file = cli("report", str(db), "--out", str(tmp_path / "file"))
    assert into_file.returncode == 2 and "give --out a folder" in into_file.stderr
    assert "Traceback" not in missing.stderr + refused.stderr + into_file.stderr


def test_names_and_output_from_students_are_escaped(tmp_path: Path) -> None:
    # A league's names are folder names, and stderr is what a student's program printed.
    evil, other = "<script>alert(1)</script>", "a | b"
    record = GameRecord(
        "tictactoe", (evil, other), moves=["b2"], seconds=[0.1], returns=(-1, 1),
        reason="crash", loser=0, detail="boom", stderr="<img src=x onerror=alert(1)>\n```",
    )  # fmt: skip
    # As a league stores them: a spec for each name, reference agents, refused folders.
    settings = {"game": "tictactoe", "agents": [evil, other], "control": "move:1",
                "specs": ["py:x.py:X", "greedy"],
                "league": {"references": [other],
                           "refused": {"<b>carl</b>": "no agent: <i>"}}}  # fmt: skip
    report = from_records([record, record], [evil, other], settings)
    write(report, tmp_path / "html", "html")
    write(report, tmp_path / "md", "md")
    for page in [*(tmp_path / "html").rglob("*.html"), *(tmp_path / "md").rglob("*.md")]:
        # Markdown shows a fenced block as it is, never as HTML: what is outside counts.
        text = re.sub(r"(`{3,})text\n.*?\n\1\n", "", page.read_text(), flags=re.S)
        assert "<script>" not in text and "<img" not in text and "<b>" not in text, page
    md = (tmp_path / "md" / "players" / "_script_alert_1___script_.md").read_text()
    assert "````text\n<img src=x" in md  # in a longer fence than the one it printed
    assert "Agent: py:x.py:X." in md
    index = (tmp_path / "md" / "index.md").read_text()
    assert "a \\| b](players/a___b.md) (reference)" in index
    rows = list(csv.DictReader(io.StringIO(gradebook(report))))
    assert [(r["rank"], r["player"], r["reference"], r["spec"], r["refused"]) for r in rows] == [
        ("1", other, "yes", "greedy", ""),
        ("2", evil, "", "py:x.py:X", ""),
        ("", "<b>carl</b>", "", "", "no agent: <i>"),
    ]
    # A submission that did not play is listed with its reason, never left out.
    assert "## Did not play" in index and "no agent: &lt;i&gt;" in index
    carl = (tmp_path / "html" / "players" / "_b_carl__b_.html").read_text()
    assert "Did not play: no agent: &lt;i&gt;" in carl and "<i>" not in carl


def test_a_report_of_an_empty_database_says_so(tmp_path: Path) -> None:
    db = ResultsDB(tmp_path / "new.db")
    db.bind({"game": "tictactoe", "agents": ["random", "greedy"], "control": "move:1"})
    db.close()
    report = load(str(tmp_path / "new.db"))
    assert [p.advice for p in report.players] == [["No games were played yet."]] * 2
    assert json.loads(json.dumps(report.standings.as_json()))["games"] == 0
    with pytest.raises(ArenaError, match="give --out a folder"):
        write(report, tmp_path / "new.db")


def test_advice_names_moves_close_to_the_limit_and_opponents_never_beaten() -> None:
    # "slow" moves first; its moves take 0.9 s of a 1 s move, and "strong" beats it twice.
    games = [
        GameRecord(
            "tictactoe",
            ("slow", "strong"),
            moves=["a1", "b2", "a2", "a3", "c1", "b1", "b3", "c3", "c2"],
            seconds=[0.9, 0.1, 0.95, 0.1, 0.2, 0.1, 0.3, 0.1, 0.2],
            returns=(-1, 1),
            game_id=f"g{i}",
        )
        for i in range(2)
    ]
    settings = {"game": "tictactoe", "agents": ["slow", "strong"], "control": "move:1"}
    report = from_records(games, ["slow", "strong"], settings)
    slow = report.player("slow")
    assert slow.advice[0].startswith(
        "Close to the time limit: 4 moves used over 80% of the 1 s a move may take (the "
        "longest 0.95 s, in game 1)"
    )
    assert slow.advice[1].startswith("Lost every game played to the end against strong (2 games)")
    # Its own moves and their times, from its side of the board.
    game = slow.games[0]
    assert [(m.ply, m.move, m.seconds) for m in game.moves if m.mine][:2] == [
        (1, "a1", 0.9),
        (3, "a2", 0.95),
    ]
    assert (game.colour, game.result, game.how) == ("first", "loss", "by the rules")
    # A late answer that came (an agent in arena's process): its time against the limit.
    late = GameRecord("tictactoe", ("slow", "strong"), moves=["a1", "b2"], seconds=[0.5, 0.1],
                      returns=(-1, 1), reason="time", loser=0, last_seconds=1.3,
                      detail="1.300 s for a 1 s move", game_id="g3")  # fmt: skip
    overran = from_records([*games, late], ["slow", "strong"], settings).player("slow")
    assert overran.advice[0].startswith(
        "1 of 3 games lost on time: in game 3 your agent's move 2 took 1.30 s of the 1 s a "
        "move may take (1.300 s for a 1 s move). Answer earlier"
    )
    assert report.player("strong").advice == [
        "No forfeits: all 2 games were played to the end, 2 won, 0 drawn, 0 lost."
    ]


def test_the_report_of_a_league_names_students_by_their_folders(tmp_path: Path) -> None:
    # Three submissions of the example class: one raises on its third move, one never
    # answers, one has a syntax error; random is the reference agent.
    examples = Path(__file__).resolve().parents[2] / "examples" / "class"
    folder = tmp_path / "class"
    for name in ("hopper", "knuth", "minsky"):
        shutil.copytree(examples / name, folder / name)
    db = tmp_path / "league.db"
    done = cli("league", str(folder), "--game", "connect4:rows=6,cols=5", "--time", "0.3+0.05",
               "--reference", "random", "--no-sandbox", "--db", str(db), "--quiet")  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = cli("report", str(db), "--out", str(tmp_path / "report"))
    assert out.returncode == 0, out.stderr
    pages = tmp_path / "report" / "players"
    hopper = (pages / "hopper.md").read_text()
    assert "# hopper: rank" in hopper and "3 players, 1 did not play. Agent: py:" in hopper
    assert "lost by a crash" in hopper and "IndexError" in hopper
    assert 'hopper/agent.py", line 12, in choose' in hopper  # its traceback, from its stderr
    knuth = (pages / "knuth.md").read_text()
    assert "4 of 4 games lost on time" in knuth and "got no answer in time" in knuth
    minsky = (pages / "minsky.md").read_text()
    assert "# minsky: did not play" in minsky and "syntax error line 5" in minsky
    rows = {r["player"]: r for r in csv.DictReader((tmp_path / "report" / "gradebook.csv").open())}
    assert set(rows) == {"hopper", "knuth", "random", "minsky"}
    assert rows["random"]["reference"] == "yes" and rows["minsky"]["rank"] == ""
    assert rows["knuth"]["forfeits_time"] == "4" and rows["knuth"]["games"] == "4"
