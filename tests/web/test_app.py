"""The web app through Starlette's TestClient: pages, the API, and every WebSocket message
and error (the connection stays up after each error)."""

from __future__ import annotations

import json
import logging
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # starlette 1.x would rather have httpx2; httpx works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from arena.compete.store import ResultsDB
from arena.compete.tournament import Settings, run
from arena.formats.record import GameRecord
from arena.web.app import MAX_BOARDS, create_app
from arena.web.session import MAX_UPLOAD, Session

FAST = "mcts:rollouts=200,seed=1"


class Board:
    """A WebSocket to the app with helpers that wait for the answers that matter."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.seen: list[dict[str, Any]] = []

    def send(self, **msg: Any) -> None:
        self.ws.send_text(json.dumps(msg))

    def next(self) -> dict[str, Any]:
        msg = self.ws.receive_json()
        self.seen.append(msg)
        return msg  # type: ignore[no-any-return]

    def until(self, test: Any, limit: int = 400) -> dict[str, Any]:
        for _ in range(limit):
            msg = self.next()
            if test(msg):
                return msg
        raise AssertionError(f"no such message in {limit}: last {self.seen[-3:]}")

    def state(self, **want: Any) -> dict[str, Any]:
        """The next state message whose fields equal ``want`` and where nothing is thinking."""

        def ok(m: dict[str, Any]) -> bool:
            return m["type"] == "state" and all(m.get(k) == v for k, v in want.items())

        return self.until(ok)

    def error(self, **msg: Any) -> str:
        self.send(**msg)
        reply = self.until(lambda m: m["type"] == "error")
        return reply["message"]  # type: ignore[no-any-return]

    def alive(self) -> None:
        self.send(type="ping")
        self.until(lambda m: m["type"] == "pong")


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as c:
        yield c


@pytest.fixture
def board(client: TestClient) -> Iterator[Board]:
    with client.websocket_connect("/ws") as ws:
        yield Board(ws)


def new(
    board: Board, game: str, players: tuple[str, str] = ("person", "person"), **kw: Any
) -> dict:
    board.send(type="new", game=game, players=list(players), **kw)
    return board.state(thinking=None)


# --- pages and API ---------------------------------------------------------------------------


def test_pages_and_static_files_are_served_from_a_table(client: TestClient) -> None:
    assert "arena web board" in client.get("/").text
    assert client.get("/results").status_code == 200
    js = client.get("/static/app.js")
    assert js.status_code == 200 and js.headers["content-type"].startswith("text/javascript")
    for name in ("board.js", "forms.js", "graph.js", "results.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    # Names are looked up, never joined to a path.
    assert client.get("/static/..%2Fapp.py").status_code == 404
    assert client.get("/static/__init__.py").status_code == 404


def test_the_api_lists_every_game_and_agent_with_parameters(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert set(games) == {"tictactoe", "connect4", "othello", "gomoku", "go", "colosseum"}
    go_params = [p["name"] for p in games["go"]["params"]]
    assert go_params == ["size", "komi", "ko", "maxlen", "handicap"]
    meta = client.get("/api/agents").json()
    names = [a["name"] for a in meta["agents"]]
    assert "mcts" in names and "ids" in names and "human" not in names
    assert meta["allowPrograms"] is False and meta["maxSeconds"] == 60
    mcts = next(a for a in meta["agents"] if a["name"] == "mcts")
    assert {"rollouts", "c", "solver"} <= {p["name"] for p in mcts["params"]}


def test_results_need_a_database(client: TestClient) -> None:
    assert client.get("/api/results").status_code == 404
    assert client.get("/api/results/x").status_code == 404


def test_results_of_a_small_database(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    settings = Settings(game="tictactoe", agents=("random", "greedy"), control="rollouts=1")
    db = ResultsDB(path)
    run(settings, db=db)
    db.close()
    with TestClient(create_app(db=str(path))) as c:
        data = c.get("/api/results").json()
        assert data["name"] == "t.db" and len(data["games"]) == 2 and data["anchor"] == "greedy"
        assert data["standings"]["elo_method"].startswith("Elo: 0 = greedy; Bradley-Terry")
        lines = data["standings"]["agents"]
        assert set(lines) == {"random", "greedy"}
        assert sum(line["wins"] + line["draws"] + line["losses"] for line in lines.values()) == 4
        first = data["games"][0]["game_id"]
        record = c.get(f"/api/results/{first}").json()
        assert record["game"] == "tictactoe" and record["moves"]
        assert c.get("/api/results/nope").status_code == 404
        # A page that polls gets "unchanged" while nothing was added, the games once added.
        assert c.get("/api/results?since=2").json() == {"unchanged": True, "count": 2}
        db = ResultsDB(path)
        run(Settings(game="tictactoe", agents=("random", "greedy"), control="rollouts=1",
                     rounds=2), db=db)  # fmt: skip
        db.close()
        grown = c.get("/api/results?since=2").json()
        assert grown["count"] == len(grown["games"]) == 4 and "unchanged" not in grown
        assert all("detail" in g and "loser" in g for g in grown["games"])


def test_a_record_nested_100000_deep_in_the_database_is_a_one_line_error(
    tmp_path: Path,
) -> None:
    path = tmp_path / "t.db"
    settings = Settings(game="tictactoe", agents=("random", "greedy"), control="rollouts=1")
    db = ResultsDB(path)
    run(settings, db=db)
    db.conn.execute("UPDATE games SET record = ?", ('{"game": ' + "[" * 100_000,))
    db.conn.commit()
    first = db.rows()[0]["game_id"]
    db.close()
    with TestClient(create_app(db=str(path))) as c:
        for url in ("/api/results", f"/api/results/{first}"):
            answer = c.get(url)
            assert answer.status_code == 500
            error = answer.json()["error"]
            assert (
                error.endswith("not a JSON game record (nested too deeply)") and "\n" not in error
            )


# --- playing ------------------------------------------------------------------------------


def test_a_person_plays_and_the_agent_answers_with_live_statistics(board: Board) -> None:
    first = new(board, "tictactoe", ("person", FAST), time=5)
    assert first["ply"] == 0 and first["status"] == "X to move"
    assert first["view"]["kind"] == "grid" and len(first["view"]["cells"]) == 9
    board.send(type="play", move="b2")
    final = board.until(lambda m: m["type"] == "search" and m["final"])
    assert final["ply"] == 1 and final["purpose"] == "move" and final["agent"] == FAST
    assert final["info"]["nodes"] == 200 and final["info"]["root"][0]["pv"]
    after = board.state(ply=2, thinking=None)
    assert after["moves"][0] == "b2" and after["evals"][1] is not None
    assert final["info"]["root"][0]["move"] == after["moves"][1]


def test_progress_arrives_while_the_agent_thinks(board: Board) -> None:
    new(board, "connect4", ("person", "mcts:time=1.5,seed=2"), time=1.5)
    board.send(type="play", move="4")
    live = board.until(lambda m: m["type"] == "search")
    assert live["final"] is False and live["info"]["root"] and live["info"]["rate"] is not None
    done = board.until(lambda m: m["type"] == "search" and m["final"])
    assert done["info"]["nodes"] >= live["info"]["nodes"]
    board.state(ply=2, thinking=None)


def test_ids_reports_value_and_depth(board: Board) -> None:
    new(board, "connect4", ("person", "ids"), moves="4455", time=0.5)
    board.send(type="play", move="3")  # threatens 2 and 6... ids blocks one
    final = board.until(lambda m: m["type"] == "search" and m["final"])
    row = final["info"]["root"][0]
    assert {"value", "depth", "text"} <= set(row) and final["info"]["depth"] >= 1


def test_two_agents_play_to_the_end_and_pause_stops_them(board: Board) -> None:
    board.send(type="new", game="tictactoe", players=[FAST, "random:seed=3"], time=1)
    board.send(type="speed", delay=0)
    end = board.until(lambda m: m["type"] == "state" and m["result"] is not None)
    assert end["view"]["terminal"] and end["ply"] == len(end["moves"]) >= 5
    new(board, "connect4", (FAST, FAST), paused=True)
    board.send(type="step")
    stepped = board.state(ply=1, thinking=None)
    assert stepped["paused"] is True
    board.alive()
    board.send(type="resume")
    board.until(lambda m: m["type"] == "state" and m["ply"] >= 3)
    board.send(type="pause")
    paused = board.state(paused=True, thinking=None)
    since = len(board.seen)
    time.sleep(0.5)
    board.alive()
    assert not any(m["type"] == "state" and m["ply"] > paused["ply"] for m in board.seen[since:])


def test_goto_undo_and_branch(board: Board) -> None:
    new(board, "tictactoe", moves="a1 b2 c3")
    board.send(type="goto", ply=1)
    assert board.state(ply=1)["moves"] == ["a1", "b2", "c3"]
    board.send(type="play", move="c1")  # a branch: the moves after are replaced
    assert board.state(ply=2)["moves"] == ["a1", "c1"]
    board.send(type="undo")
    undone = board.state(ply=1)
    assert undone["moves"] == ["a1"]
    # Both replaced lines are kept: switch back to the first.
    assert [(line["fork"], line["moves"]) for line in undone["lines"]] == [
        (1, ["b2", "c3"]),
        (1, ["c1"]),
    ]
    board.send(type="line", index=0)
    back = board.state(moves=["a1", "b2", "c3"])
    assert back["ply"] == 2 and [line["moves"] for line in back["lines"]] == [["c1"]]
    # Against an agent a take-back goes to the person's last turn.
    new(board, "tictactoe", ("person", FAST), moves="a1 b2 c3 a3")
    board.send(type="undo")
    assert board.state(ply=2)["moves"] == ["a1", "b2"]


def test_a_finished_game_shows_its_result(board: Board) -> None:
    end = new(board, "tictactoe", moves="a1 b1 a2 b2 a3")
    assert end["result"] == "X wins" and end["view"]["terminal"]
    assert "game is over" in board.error(type="play", move="c3")


def test_analysis_runs_until_stopped_and_the_result_stays(board: Board) -> None:
    new(board, "connect4")
    board.send(type="analyze", agent="mcts:seed=1", time=30)
    live = board.until(lambda m: m["type"] == "search")
    assert live["purpose"] == "analyze" and live["ply"] == 0
    board.send(type="stop")
    final = board.until(lambda m: m["type"] == "search" and m["final"])
    assert final["purpose"] == "analyze"
    state = board.state(thinking=None, analyzing=False)
    assert state["evals"][0] is not None  # the graph keeps it


def test_analysis_follows_the_position(board: Board) -> None:
    new(board, "tictactoe")
    board.send(type="analyze", agent="mcts:seed=1", time=30)
    board.until(lambda m: m["type"] == "search" and m["ply"] == 0)
    board.send(type="play", move="b2")
    board.until(lambda m: m["type"] == "search" and m["ply"] == 1)
    board.send(type="stop")
    board.state(thinking=None, analyzing=False)


def test_the_game_analysis_fills_the_graph(board: Board) -> None:
    new(board, "tictactoe", moves="b2 a1 c3")
    board.send(type="sweep", agent="mcts:rollouts=100,seed=1", time=5)
    done = board.state(sweep=0, thinking=None)
    assert all(p is not None for p in done["evals"]) and len(done["evals"]) == 4
    swept = [m["ply"] for m in board.seen if m["type"] == "search" and m["final"]]
    assert swept == [0, 1, 2, 3] and done["ply"] == 3  # the position shown stays


def test_stop_and_a_branch_end_the_game_analysis(board: Board) -> None:
    new(board, "connect4", moves="4444")
    board.send(type="sweep", agent="mcts:seed=1", time=30)
    board.until(lambda m: m["type"] == "search")
    board.send(type="stop")
    assert board.state(thinking=None)["sweep"] == 0
    board.send(type="sweep", agent="mcts:seed=1", time=30)
    board.until(lambda m: m["type"] == "search")
    board.send(type="goto", ply=1)
    assert board.state(ply=1)["sweep"] > 0  # looking around does not stop it
    board.send(type="play", move="1")
    assert board.state(ply=2, thinking=None)["sweep"] == 0


def test_stop_interrupts_ids_in_the_middle_of_a_depth(board: Board) -> None:
    new(board, "gomoku:size=11")
    board.send(type="analyze", agent="ids:maxdepth=30", time=60)
    board.until(lambda m: m["type"] == "search" and m["info"]["depth"] >= 2)
    board.send(type="stop")
    final = board.until(lambda m: m["type"] == "search" and m["final"])
    # Agent.stop() ends the depth under way (tests/agents/test_agent_api.py shows it exactly).
    assert final["purpose"] == "analyze" and final["info"]["depth"] >= 2


def test_othello_analysis_names_its_units_with_exact_values(board: Board) -> None:
    """Issue 26: the analysis' values say what they are (predicted discs for the player to
    move), and each move has its own value (multi-PV), not a bound from pruning."""
    new(board, "othello", moves="f5 d6 c3 d3 c4")
    board.send(type="hint", agent="ids", time=1)
    final = board.until(lambda m: m["type"] == "search" and m["final"])
    info = final["info"]
    assert "disc difference" in info["units"] and "player to move" in info["units"]
    rows = info["root"]
    assert len(rows) > 3 and all(row["unit"] == "discs" for row in rows)
    assert all(row["text"].endswith(" discs") and row["bound"] == "=" for row in rows)


def test_hint_names_a_legal_move(board: Board) -> None:
    state = new(board, "connect4", moves="444")
    board.send(type="hint", agent="mcts:rollouts=300,seed=1", time=2)
    hint = board.until(lambda m: m["type"] == "hint")
    assert hint["move"] in state["view"]["cells"] and hint["ply"] == 3


def test_changing_players_mid_game_starts_the_agent(board: Board) -> None:
    new(board, "tictactoe", moves="b2")
    board.send(type="players", players=["person", FAST], time=2)
    assert board.state(ply=2, thinking=None)["players"] == ["person", FAST]


def test_a_person_whose_clock_runs_out_loses_on_time(board: Board) -> None:
    start = new(board, "connect4", ("person", FAST), clock="0.4+0")
    assert start["clocks"] == [0.4, 0.4] and start["clockRunning"] == 0
    lost = board.until(lambda m: m["type"] == "state" and m["result"] is not None)
    assert lost["result"] == "Yellow wins on time (Red's clock ran out)"
    assert lost["clocks"][0] == 0 and lost["clockRunning"] is None
    assert "on time" in board.error(type="play", move="4")
    board.send(type="export", format="json")
    record = GameRecord.from_json(board.until(lambda m: m["type"] == "export")["text"])
    assert (record.reason, record.loser, record.returns) == ("time", 0, (-1, 1))


def test_agents_on_a_clock_spend_it_and_get_the_increment(board: Board) -> None:
    board.send(type="new", game="tictactoe", players=["mcts:seed=1", "ids"], clock="2+0.5")
    board.send(type="speed", delay=0)
    end = board.until(lambda m: m["type"] == "state" and m["result"] is not None)
    assert end["result"] in ("draw", "X wins", "O wins") and end["clockRunning"] is None
    first, second = end["clocks"]
    assert 0 < first <= 2 + 0.5 * 5 and 0 < second <= 2 + 0.5 * 4
    # The first player's clock moved: time spent, increments credited (how much depends on
    # how the agent budgets its time, so only the change is certain).
    assert any(m["type"] == "state" and m["clocks"][0] != 2 for m in board.seen)


def test_a_first_move_allowance_is_off_the_clock(board: Board) -> None:
    # The Colosseum course's kind of clock, scaled down: 0.4 s on the clock, 1.5 s for the
    # first move (as arena match --time 0.4+0,first:1.5 gives it).
    start = new(board, "tictactoe", ("person", "person"), clock="0.4+0,first:1.5")
    assert start["clockSpec"] == "0.4+0,first:1.5" and start["clocks"] == [1.5, 1.5]
    time.sleep(0.8)  # past the clock, within the allowance
    board.send(type="play", move="b2")
    after = board.state(ply=1)
    assert after["result"] is None and after["clocks"][0] == 0.4  # the first move was free
    lost = board.until(lambda m: m["type"] == "state" and m["result"] is not None)
    assert lost["result"] == "X wins on time (O's clock ran out)"  # O's 1.5 s allowance ended


def test_a_time_per_move_clock_falls_after_the_move_time(board: Board) -> None:
    start = new(board, "connect4", ("person", "person"), clock="move:0.3")
    assert start["clocks"] == [0.3, 0.3]
    lost = board.until(lambda m: m["type"] == "state" and m["result"] is not None)
    assert lost["result"] == "Yellow wins on time (Red's clock ran out)"


def test_a_first_use_draws_the_board_at_once_and_says_it_compiles(
    board: Board, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As on a machine that never compiled Connect Four's search (about 14 s there).
    monkeypatch.setattr("arena.web.session.first_use", lambda game: 14.0)
    board.send(type="new", game="connect4", players=["person", FAST])
    status = board.until(lambda m: m["type"] in ("status", "state"))
    assert status["type"] == "status" and status["seconds"] == 14.0
    assert "first use" in status["message"] and "connect4" in status["message"]
    assert board.state(ply=0)["players"] == ["person", FAST]  # the board, before any agent
    board.send(type="play", move="4")
    assert board.state(ply=2, thinking=None)["moves"][0] == "4"  # the agent started, played
    # A bad agent is refused before anything is announced.
    assert "mcts" in board.error(type="new", game="connect4", players=["person", "mcts:c=-1"])


def test_the_clock_stops_while_looking_back(board: Board) -> None:
    new(board, "tictactoe", ("person", "person"), moves="b2", clock="30+0")
    board.send(type="goto", ply=0)
    back = board.state(ply=0)
    assert back["clockRunning"] is None
    board.send(type="goto", ply=1)
    assert board.state(ply=1)["clockRunning"] == 1


# --- files and links ---------------------------------------------------------------------------


def test_export_and_load_round_trip(board: Board) -> None:
    new(board, "go:size=5", moves="c3 d3 pass")
    board.send(type="export", format="json")
    exported = board.until(lambda m: m["type"] == "export")
    record = GameRecord.from_json(exported["text"])
    assert record.game == "go:size=5" and record.moves == ["C3", "D3", "pass"]
    board.send(type="export", format="sgf")
    sgf = board.until(lambda m: m["type"] == "export")["text"]
    assert sgf.startswith("(;") and "SZ[5]" in sgf
    new(board, "tictactoe")
    board.send(type="load", text=sgf)
    loaded = board.state(game="go:size=5")
    assert loaded["moves"] == ["C3", "D3", "pass"] and loaded["players"] == ["person", "person"]
    board.send(type="load", text=exported["text"])
    assert board.state(game="go:size=5")["ply"] == 3


def test_load_a_colosseum_record_with_its_seed(board: Board) -> None:
    record = GameRecord(
        game="colosseum:size=6", players=("a", "b"), moves=[], seed=11, returns=(0, 0)
    )
    board.send(type="load", text=record.to_json())
    loaded = board.state(game="colosseum:size=6")
    assert loaded["seed"] == 11 and loaded["view"]["walls"]


def test_sgf_of_a_game_without_sgf_is_an_error(board: Board) -> None:
    new(board, "tictactoe", moves="b2")
    assert "sgf" in board.error(type="export", format="sgf").lower()
    board.alive()


# --- errors: a reply each, and the connection stays up ------------------------------------


BAD_MESSAGES: list[tuple[Any, str]] = [
    ("not json", "not JSON"),
    ([1, 2], "JSON object"),
    ({"kind": "new"}, '"type"'),
    ({"type": "dance"}, "unknown message type"),
    ({"type": "new", "game": "chess"}, "unknown game 'chess'"),
    ({"type": "new", "game": "connect4:rows=2"}, "out of range"),
    ({"type": "new", "game": 7}, "game spec"),
    ({"type": "new", "game": "tictactoe", "moves": "b2 b2"}, "move 2: illegal move b2"),
    ({"type": "new", "game": "tictactoe", "moves": "z9"}, "not a cell"),
    ({"type": "new", "game": "tictactoe", "moves": 5}, "'moves'"),
    ({"type": "new", "game": "tictactoe", "seed": -1}, "'seed'"),
    ({"type": "new", "game": "tictactoe", "players": ["person"]}, "two"),
    ({"type": "new", "game": "tictactoe", "players": ["person", "mcts:c=-1"]}, "c=-1"),
    ({"type": "new", "game": "tictactoe", "players": ["person", "stockfish"]}, "unknown agent"),
    ({"type": "new", "game": "tictactoe", "players": ["person", "human"]}, "'human'"),
    ({"type": "new", "game": "tictactoe", "players": ["py:x.py:X", "person"]}, "allow-programs"),
    ({"type": "new", "game": "tictactoe", "players": ["person", "cmd:ls"]}, "allow-programs"),
    ({"type": "new", "game": "tictactoe", "players": ["person", "GTP:gnugo"]}, "allow-programs"),
    ({"type": "new", "game": "othello", "players": ["othello-ai:x", "person"]}, "allow-programs"),
    ({"type": "new", "game": "go", "players": ["person", "cs410-agent:x.py"]}, "allow-programs"),
    (
        {"type": "new", "game": "connect4", "players": ["mcts-lab:MCTS.py", "person"]},
        "allow-programs",
    ),
    ({"type": "new", "game": "tictactoe", "time": 61}, "0.01..60"),
    ({"type": "new", "game": "tictactoe", "time": "1"}, "0.01..60"),
    ({"type": "new", "game": "tictactoe", "time": True}, "0.01..60"),
    ({"type": "new", "game": "tictactoe", "clock": "abc"}, "INITIAL+INCREMENT"),
    ({"type": "new", "game": "tictactoe", "clock": "rollouts=5"}, "INITIAL+INCREMENT"),
    ({"type": "new", "game": "tictactoe", "clock": "60+1,first:9000"}, "at most 7200"),
    ({"type": "new", "game": "tictactoe", "clock": 60}, "INITIAL+INCREMENT"),
    ({"type": "new", "game": "tictactoe", "clock": "9000+1"}, "at most 7200"),
    ({"type": "play", "move": "b2"}, "no game yet"),
    ({"type": "load", "text": ""}, "'text'"),
    ({"type": "load", "text": "hello"}, "not a JSON game record or an SGF"),
    ({"type": "load", "text": "{broken"}, "not a game record"),
    ({"type": "load", "text": '{"game": "chess", "players": ["a", "b"]}'}, "unknown game"),
    ({"type": "load", "text": "(;GM[1]SZ[9];B[zz])"}, "SGF"),
    ({"type": "load", "text": "(" + "x" * (MAX_UPLOAD + 1)}, "too"),
    # Hostile input (issue 31): nesting past Python's recursion, a collection of 12,000 games.
    ('{"type": "load", "x": ' + "[" * 100_000, "not JSON: nested too deeply"),
    ({"type": "load", "text": '{"game": ' + "[" * 100_000}, "not a JSON game record (nested too"),
    ({"type": "load", "text": "(;GM[1]SZ[9];B[ee])" * 12_000}, "holds more than one game"),
]


@pytest.mark.parametrize(("message", "error"), BAD_MESSAGES)
def test_a_bad_message_gets_an_error_and_the_connection_stays(
    board: Board, message: Any, error: str
) -> None:
    board.ws.send_text(message if isinstance(message, str) else json.dumps(message))
    reply = board.until(lambda m: m["type"] == "error")
    assert error in reply["message"]
    board.alive()


BAD_IN_GAME: list[tuple[dict[str, Any], str]] = [
    ({"type": "play"}, "'move'"),
    ({"type": "play", "move": "b2" * 20}, "'move'"),
    ({"type": "play", "move": "z7"}, "not a cell"),
    ({"type": "play", "move": "a1"}, "occupied"),
    ({"type": "goto", "ply": 9}, "no position 9"),
    ({"type": "goto", "ply": "1"}, "'ply'"),
    ({"type": "line", "index": 0}, "no line 0"),
    ({"type": "line"}, "'index'"),
    ({"type": "players", "players": "mcts"}, "two"),
    ({"type": "players", "players": ["person", "cmd:rm -rf /"]}, "allow-programs"),
    ({"type": "speed", "delay": 11}, "'delay'"),
    ({"type": "step"}, "a person moves here"),
    ({"type": "analyze", "agent": "nope"}, "unknown agent"),
    ({"type": "analyze", "agent": "mcts", "time": 0}, "'time'"),
    ({"type": "analyze", "agent": "mcts", "time": 600}, "'time'"),
    ({"type": "hint", "agent": "py:evil.py:E"}, "allow-programs"),
    ({"type": "hint", "time": 61}, "'time'"),
    ({"type": "sweep", "agent": "cmd:sh"}, "allow-programs"),
    ({"type": "sweep", "time": -1}, "'time'"),
    ({"type": "export", "format": "pdf"}, "'json' or 'sgf'"),
]


@pytest.mark.parametrize(("message", "error"), BAD_IN_GAME)
def test_bad_messages_in_a_game(board: Board, message: dict[str, Any], error: str) -> None:
    new(board, "tictactoe", moves="a1")
    assert error in board.error(**message)
    board.alive()


def test_undo_at_the_start_and_hint_after_the_end(board: Board) -> None:
    new(board, "tictactoe")
    assert "nothing to take back" in board.error(type="undo")
    new(board, "tictactoe", moves="a1 b1 a2 b2 a3")
    assert "game is over" in board.error(type="hint")


def test_one_search_per_board(board: Board) -> None:
    new(board, "connect4", ("person", "mcts:time=2,seed=1"), time=2)
    board.send(type="play", move="4")
    board.until(lambda m: m["type"] == "state" and m["thinking"] == "move")
    assert "one search per board" in board.error(type="analyze", agent="mcts")
    assert "one search per board" in board.error(type="hint")
    assert "'s move" in board.error(type="play", move="3")
    board.send(type="stop")  # the agent plays now
    assert board.state(ply=2, thinking=None)["moves"][0] == "4"


def test_a_bug_in_a_handler_is_an_error_reply_too(monkeypatch: pytest.MonkeyPatch) -> None:
    async def broken(self: Session, msg: dict) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(Session, "on_ping", broken)
    with TestClient(create_app()) as c, c.websocket_connect("/ws") as ws:
        board = Board(ws)
        board.send(type="ping")
        assert "internal error" in board.until(lambda m: m["type"] == "error")["message"]
        board.send(type="new", game="tictactoe")
        assert board.state()["status"] == "X to move"


def test_a_client_repeating_a_message_that_finds_a_bug_cannot_flood_the_log(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    class Boom(Exception):
        pass

    async def broken(self: Session, msg: dict) -> None:
        raise Boom("x" * 10_000)

    monkeypatch.setattr(Session, "on_ping", broken)
    with (
        caplog.at_level(logging.DEBUG, logger="arena.web"),
        TestClient(create_app()) as c,
        c.websocket_connect("/ws") as ws,
    ):
        board = Board(ws)
        for _ in range(20):
            board.send(type="ping")
            reply = board.until(lambda m: m["type"] == "error")["message"]
            assert reply.startswith("internal error: Boom: xxx") and len(reply) < 300
    tracebacks = [r for r in caplog.records if r.exc_info]
    assert len(tracebacks) == 1  # the first; the other 19 are a debug line each


def test_binary_frames_are_refused(board: Board) -> None:
    board.ws.send_bytes(b"\x00\x01")
    assert board.until(lambda m: m["type"] == "error")["message"].startswith("not JSON")
    board.alive()


def test_programs_run_only_when_allowed(tmp_path: Path) -> None:
    source = tmp_path / "mine.py"
    source.write_text(
        "class First:\n    def choose(self, state, limit):\n        return state.legal_moves()[0]\n"
    )
    with TestClient(create_app(allow_programs=True)) as c, c.websocket_connect("/ws") as ws:
        board = Board(ws)
        board.send(type="new", game="tictactoe", players=[f"py:{source}:First", "person"])
        assert board.state(ply=1, thinking=None)["moves"] == ["a1"]


def test_course_agents_play_on_the_board_when_programs_are_allowed() -> None:
    lab = Path(__file__).parents[1] / "remote" / "course" / "mcts_lab" / "MCTS.py"
    with TestClient(create_app(allow_programs=True)) as c, c.websocket_connect("/ws") as ws:
        board = Board(ws)
        agent = f"mcts-lab:rollouts=20:{lab}"
        board.send(type="new", game="connect4:rows=6,cols=5", players=[agent, "person"])
        assert len(board.state(ply=1, thinking=None)["moves"]) == 1


def test_boards_per_client_are_capped(client: TestClient) -> None:
    with ExitStack() as stack:
        first = stack.enter_context(client.websocket_connect("/ws"))
        for _ in range(MAX_BOARDS - 1):
            stack.enter_context(client.websocket_connect("/ws"))
        with client.websocket_connect("/ws") as extra:
            assert "boards per client" in extra.receive_json()["message"]
        Board(first).alive()
    with client.websocket_connect("/ws") as again:  # closed boards free their places
        Board(again).alive()


def test_a_closed_board_stops_its_search(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        board = Board(ws)
        new(board, "connect4")
        board.send(type="analyze", agent="mcts:seed=1", time=60)
        board.until(lambda m: m["type"] == "search")
    # The search's thread is asked to stop through the agent's listener.
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if not any(t.name == "arena-web-analyze" for t in threading.enumerate()):
            break
        time.sleep(0.05)
    assert not any(t.name == "arena-web-analyze" for t in threading.enumerate())


def test_the_record_of_a_branch_holds_the_line_shown(board: Board) -> None:
    new(board, "connect4", moves="4453")
    board.send(type="export", format="json")
    assert GameRecord.from_json(board.until(lambda m: m["type"] == "export")["text"]).moves == [
        "4",
        "4",
        "5",
        "3",
    ]


def test_a_go_handicap_game_starts_with_the_stones_and_white_to_move(board: Board) -> None:
    start = new(board, "go:size=9,handicap=2,komi=0.5")
    stones = [s for s in start["view"]["stones"] if s[-1] == 0]
    assert len(stones) == 2 and start["view"]["toMove"] == 1
    assert "White" in start["status"]
    board.send(type="play", move="E5")
    after = board.state(ply=1, thinking=None)
    assert after["moves"] == ["E5"] and after["view"]["toMove"] == 0
