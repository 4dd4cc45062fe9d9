"""The web board in a real browser: Playwright for Python driving Debian's Chromium.

For every game: play a whole game from the form (New game, an agent in the second seat,
clicks until the result); start a game against MCTS, click a legal move, see the live
overlay while the agent searches, see its reply, take back. Then finish a
Tic-tac-toe game, refuse an illegal click, load a record and open the results
page of a small database. The screenshots in docs/web/ come from here
(``ARENA_SCREENSHOTS=1 pytest tests/web/test_browser.py`` refreshes them).

Chromium comes from ``scripts/install-browser`` (``make test`` runs it); without
it these tests skip, except under ``CI=1``, where they fail.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from arena.compete.store import ResultsDB
from arena.compete.tournament import Settings, run
from arena.formats.record import GameRecord
from arena.games import load_game
from arena.search.az.network import random_network
from arena.web.app import LOCAL_HOSTS, Guard, create_app

pytestmark = pytest.mark.xdist_group("browser")  # one server and one browser for the module

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking"]  # fmt: skip
DOCS = (
    Path(__file__).resolve().parents[2] / "docs" / "web"
    if os.environ.get("ARENA_SCREENSHOTS")
    else Path(tempfile.mkdtemp(prefix="arena-shots-"))
)
"""Where the screenshots go: docs/web/ with ARENA_SCREENSHOTS=1 (to refresh the README's
pictures), else a temporary folder, so a test run leaves the work tree as it was."""
AGENT = "mcts:seed=1"
"""The opponent: a time budget (``time`` in the URL) so its search can be watched live."""


def _missing(what: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{what}; CI must run the browser tests")
    pytest.skip(what)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db_path = tmp_path_factory.mktemp("web") / "small.db"
    db = ResultsDB(db_path)
    agents = ("random", "greedy", "mcts:rollouts=100")
    run(Settings(game="connect4", agents=agents, control="rollouts=100", rounds=2), db=db)
    db.close()
    # As `arena web` serves it: only this machine's names, only its own pages' WebSockets.
    yield from serve(create_app(db=str(db_path), guard=Guard(hosts=LOCAL_HOSTS)))


def serve(app: Any) -> Iterator[str]:
    """Serve ``app`` with uvicorn on a free port of 127.0.0.1 while the generator lives."""
    uvicorn = pytest.importorskip("uvicorn")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline:
            pytest.fail("the web server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("playwright is not installed (pip install playwright)")
    if not Path(CHROMIUM).exists():
        _missing(f"{CHROMIUM} is missing (scripts/install-browser installs it)")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    page = browser.new_page(viewport={"width": 1180, "height": 760})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    page.close()
    assert errors == [], f"JavaScript errors: {errors}"


def ply(page: Any) -> int:
    return int(page.get_attribute("body", "data-ply"))


def wait_ply(page: Any, n: int) -> None:
    page.wait_for_function(f"document.body.dataset.ply === '{n}'", timeout=20_000)


def open_board(page: Any, server: str, query: str) -> None:
    page.goto(f"{server}/?{query}")
    page.wait_for_selector("#board .clicks")


GAMES = [
    # (name, URL query, the person's first move: a cell, or None for Colosseum's two clicks)
    ("tictactoe", f"game=tictactoe&second={AGENT}", "b2"),
    ("connect4", f"game=connect4&second={AGENT}", "4"),
    ("othello", f"game=othello&second={AGENT}", "d3"),
    ("gomoku", "game=gomoku&moves=H8 H9 J8 G9&second=ids", "K8"),
    ("go", f"game=go:size=9&moves=E5 C4 G4 D7&second={AGENT}", "C6"),
    ("colosseum", f"game=colosseum:size=7&seed=3&second={AGENT}", None),
]


@pytest.mark.parametrize(("name", "query", "move"), GAMES, ids=[g[0] for g in GAMES])
def test_play_a_move_watch_the_agent_and_take_back(
    server: str, page: Any, name: str, query: str, move: str | None
) -> None:
    open_board(page, server, f"{query}&time=3")
    start = ply(page)
    if move is None:  # Colosseum: a reachable cell, then a side for the wall
        page.locator("#board .reach").first.wait_for()
        cell = page.evaluate(
            "() => { const r = document.querySelector('#board .reach');"
            " return [r.x.baseVal.value, r.y.baseVal.value]; }"
        )
        box = page.locator("#board").bounding_box()
        view = page.evaluate("() => document.querySelector('#board').viewBox.baseVal.width")
        scale = box["width"] / view
        page.mouse.click(box["x"] + (cell[0] + 20) * scale, box["y"] + (cell[1] + 20) * scale)
        if page.locator("#board .side-pick").count():
            page.locator("#board .side-pick").first.click()
    else:
        page.click(f'#board .clicks [data-move="{move}"]')
    wait_ply(page, start + 1)
    # The agent thinks: its statistics are drawn on the board while it searches (one
    # look at all three, or a loaded machine can end the search between two looks).
    page.wait_for_function(
        "() => document.body.dataset.thinking === 'move'"
        " && document.querySelector('#board .stat') !== null"
        " && document.getElementById('search-head').textContent.includes('live')",
        timeout=10_000,
    )
    page.wait_for_timeout(1000)  # a fuller picture for the screenshot, still mid-search
    # Connect Four's picture shows the whole page, settings included; the others the board.
    shot = page if name == "connect4" else page.locator("main")
    shot.screenshot(path=str(DOCS / f"{name}.png"))
    wait_ply(page, start + 2)
    assert page.locator("#moves span").count() == start + 2
    page.click("#undo")
    wait_ply(page, start)
    assert page.locator("#moves span").count() == start
    # The moves taken back stay one click away.
    page.locator("#lines button").first.click()
    page.wait_for_function(f"document.querySelectorAll('#moves span').length === {start + 2}")


def test_finish_a_tic_tac_toe_game(server: str, page: Any) -> None:
    open_board(page, server, "game=tictactoe")
    for n, cell in enumerate(["a1", "b1", "a2", "b2", "a3"], 1):
        page.click(f'#board .clicks [data-move="{cell}"]')
        wait_ply(page, n)
    page.wait_for_selector("#result:not([hidden])")
    assert "X wins" in page.inner_text("#result")
    assert page.locator("#board .win-mark").count() == 3  # the winning line, a1 a2 a3
    # The game analysis evaluates every position for the graph (0.5 s each).
    page.click("#sweep")
    page.wait_for_function("document.querySelector('#sweep').disabled === true")
    page.wait_for_function("document.querySelector('#sweep').disabled === false", timeout=30_000)
    points = page.get_attribute("#graph .graph-line", "points").split()
    assert len(points) == 6  # the five positions before the end, and the result
    page.locator("#graph").click(position={"x": 10, "y": 40})
    wait_ply(page, 0)
    page.click('#moves span[data-ply="4"]')
    wait_ply(page, 4)
    page.locator("main").screenshot(path=str(DOCS / "review.png"))


def test_an_illegal_click_is_refused(server: str, page: Any) -> None:
    open_board(page, server, "game=tictactoe&moves=b2")
    page.click('#board .clicks [data-move="b2"]')
    page.wait_for_selector("#message:not([hidden])")
    assert "occupied" in page.inner_text("#message")
    assert ply(page) == 1


def test_analysis_draws_statistics_and_stop_keeps_them(server: str, page: Any) -> None:
    open_board(page, server, "game=connect4&moves=44")
    page.click("#analyze")
    page.wait_for_selector("#board .stat")
    page.click("#stop")
    page.wait_for_function("document.body.dataset.thinking === ''")
    assert page.locator("#board .stat").count() > 0
    assert "analyze, done" in page.inner_text("#search-head")
    # The best move marked over its column, as an engine's arrow on Lichess.
    best_mark = page.locator("#board .best-1")
    assert (
        best_mark.get_attribute("data-move")
        == page.locator("#search-table tbody tr td").first.inner_text()
    )
    # The principal variation as numbered ghost stones while the best move is hovered.
    best = page.locator("#search-table tbody tr").first.locator("td").first.inner_text()
    page.hover(f'#board .clicks [data-move="{best}"]')
    page.wait_for_selector("#board .pv .ghost-num")
    assert page.locator("#board .pv .ghost-num").first.text_content() == "1"
    page.locator("main").screenshot(path=str(DOCS / "connect4-pv.png"))
    page.mouse.move(0, 0)
    page.wait_for_selector("#board .pv", state="detached")


def test_othello_analysis_shows_discs(server: str, page: Any) -> None:
    """Issue 26: the table's value column and the board's labels name the unit, a line says
    what the values are, and an analysis gives each move an exact value."""
    open_board(page, server, "game=othello&moves=f5 d6 c3 d3 c4")
    page.select_option("#analysis-agent", "ids")
    page.click("#hint")
    page.wait_for_function("document.querySelector('#search-head').innerText.includes('done')")
    assert page.inner_text("#search-table thead").strip().split("\t")[1] == "value (discs)"
    assert "disc difference the evaluation predicts for the player to move (White)" in (
        page.inner_text("#search-units")
    )
    bounds = page.locator("#search-table tbody tr td:nth-child(3)").all_inner_texts()
    assert bounds and set(bounds) == {"="}
    assert "discs" in page.locator("#board .stat").first.text_content()


def test_watch_two_agents_pause_and_step(server: str, page: Any) -> None:
    fast = "mcts:rollouts=200,seed=1"
    open_board(page, server, f"game=connect4&first={fast}&second={fast}&time=1")
    page.wait_for_function("Number(document.body.dataset.ply) >= 2")
    page.click("#pause")
    page.wait_for_function("document.querySelector('#pause').textContent === 'Resume'")
    page.wait_for_function("document.body.dataset.thinking === ''")
    paused = ply(page)
    page.wait_for_timeout(1200)  # twice the delay between moves: nothing is played
    assert ply(page) == paused
    page.click("#step")
    wait_ply(page, paused + 1)
    page.click("#pause")  # Resume: they play on
    page.wait_for_function(f"Number(document.body.dataset.ply) >= {paused + 3}")


def test_load_a_record(server: str, page: Any, tmp_path: Path) -> None:
    record = GameRecord(game="othello:size=6", players=("a", "b"), moves=["c2", "b2", "a2"])
    path = tmp_path / "game.json"
    path.write_text(record.to_json())
    open_board(page, server, "game=tictactoe")
    page.set_input_files("#open-file", str(path))
    wait_ply(page, 3)
    assert page.get_attribute("#board", "data-game") == "othello"
    assert page.locator("#moves span").all_inner_texts() == ["c2", "b2", "a2"]


def test_the_results_page_opens_a_game_on_the_board(server: str, page: Any) -> None:
    page.goto(f"{server}/results")
    page.wait_for_selector("#standings tbody tr")
    text = page.inner_text("#standings")
    assert "random" in text and "greedy" in text
    assert page.locator("#games tbody tr").count() == 12
    page.screenshot(path=str(DOCS / "results.png"), full_page=True)
    page.locator("#games .open-game").first.click()
    page.wait_for_selector("#board .clicks")
    page.wait_for_function("Number(document.body.dataset.ply) >= 7")
    assert page.get_attribute("#board", "data-game") == "connect4"


# --- the settings form: New game starts the game the form describes -----------------------

FORMS = [
    # (game, a parameter and a typical value, the canonical spec the server starts)
    ("tictactoe", ("m", "4"), "tictactoe:m=4"),
    ("connect4", ("rows", "5"), "connect4:rows=5"),
    ("othello", ("size", "6"), "othello:size=6"),
    ("gomoku", ("overline", "nowin"), "gomoku:overline=nowin"),
    ("go", ("size", "7"), "go:size=7"),
    ("colosseum", ("size", "8"), "colosseum:size=8"),
]


def started(page: Any) -> dict[str, str]:
    """The game the server started, as the page's link reproduces it (built from the server's
    state message, never from the form)."""
    query = page.evaluate("() => location.search")
    from urllib.parse import parse_qs

    return {k: v[0] for k, v in parse_qs(query[1:]).items()}


def new_game(page: Any, want: dict[str, str]) -> dict[str, str]:
    # Wait for the link to describe the wanted game, not merely for it to change: while the
    # previous game's agents play, each of their moves changes the link too (a CI run once
    # read the old game's link, one move on, as the new one).
    before = page.evaluate("() => location.search")
    page.click("#new-game")
    wanted = json.dumps(want)
    with contextlib.suppress(Exception):  # on a timeout, the assertions below say what came
        page.wait_for_function(
            f"""() => {{
                const got = new URLSearchParams(location.search);
                return location.search !== {before!r}
                    && Object.entries({wanted}).every(([k, v]) => got.get(k) === v);
            }}""",
            timeout=20_000,
        )
    got = started(page)
    for key, value in want.items():
        assert got.get(key) == value, (key, got)
    return got


@pytest.mark.parametrize(("name", "param", "spec"), FORMS, ids=[f[0] for f in FORMS])
def test_new_game_starts_what_the_form_says(
    server: str, page: Any, name: str, param: tuple[str, str], spec: str
) -> None:
    open_board(page, server, "")
    # The game with its defaults, the agent in the second seat with its defaults, the default
    # time (1 s, which the browser once refused as off the field's step).
    page.select_option("#game-name", name)
    page.select_option("#player1", "greedy")
    new_game(page, {"game": name, "second": "greedy", "time": "1"})
    assert page.get_attribute("#board", "data-game") == name
    # Typical values: a parameter of the game, an agent with an option in each seat, a time.
    key, value = param
    field = page.locator(f'#game-params [data-param="{key}"]')
    if field.evaluate("e => e.tagName") == "SELECT":
        field.select_option(value)
    else:
        field.fill(value)
    page.select_option("#player0", "alphabeta")
    page.locator("#params0").evaluate("e => e.closest('details').open = true")
    page.fill('#params0 [data-param="depth"]', "2")
    page.select_option("#player1", "random")
    page.fill("#time", "0.5")
    new_game(page, {"game": spec, "first": "alphabeta:depth=2", "second": "random", "time": "0.5"})
    # A clock instead of the time per move; a person in the first seat.
    page.select_option("#player0", "person")
    page.fill("#time", "2")
    page.fill("#clock", "60+1")
    got = new_game(page, {"game": spec, "second": "random", "clock": "60+1"})
    assert "first" not in got
    assert page.locator("#players-bar .clock").count() == 2
    assert page.locator("#message").is_hidden()


def test_a_bad_link_still_draws_a_board(server: str, page: Any) -> None:
    page.goto(f"{server}/?game=conect4")
    page.wait_for_selector("#board .clicks")
    assert "conect4" in page.inner_text("#message")
    assert page.get_attribute("#board", "data-game") == "connect4"
    page.goto(f"{server}/?game=tictactoe&moves=b2 b2")
    page.wait_for_selector("#board .clicks")
    assert "occupied" in page.inner_text("#message")
    assert page.get_attribute("#board", "data-game") == "tictactoe"


def test_an_error_goes_when_a_legal_move_is_played(server: str, page: Any) -> None:
    open_board(page, server, "game=tictactoe&moves=b2")
    page.click('#board .clicks [data-move="b2"]')
    page.wait_for_selector("#message:not([hidden])")
    page.click('#board .clicks [data-move="a1"]')
    wait_ply(page, 2)
    page.wait_for_selector("#message", state="hidden", timeout=2_000)


def test_a_game_from_the_results_shows_its_players(server: str, page: Any) -> None:
    page.goto(f"{server}/results")
    page.wait_for_selector("#games tbody tr")
    row = page.locator("#games tbody tr").first
    cells = row.locator("td").all_inner_texts()
    assert cells[0] == "1" and "|" not in " ".join(cells)  # a number, not the internal key
    first, second = cells[2], cells[3]
    row.locator(".open-game").click()
    page.wait_for_selector("#board .clicks")
    bar = page.inner_text("#players-bar")
    assert first in bar and second in bar and "person" not in bar


@pytest.fixture(scope="module")
def programs_server() -> Iterator[str]:
    """A board with programs allowed, so behind a token (as `arena web --allow-programs`)."""
    guard = Guard(hosts=LOCAL_HOSTS, token="the-printed-token")
    yield from serve(create_app(allow_programs=True, guard=guard))


def test_with_programs_the_page_needs_the_printed_token(
    programs_server: str, browser: Any, tmp_path: Path
) -> None:
    source = tmp_path / "mine.py"
    source.write_text(
        "class First:\n    def choose(self, state, limit):\n        return state.legal_moves()[0]\n"
    )
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{programs_server}/?game=tictactoe")
    page.wait_for_function("document.body.dataset.connection === 'closed'")
    assert "token" in page.inner_text("#message")
    # The URL arena web printed: the page is given the token and plays programs.
    page.goto(f"{programs_server}/?token=the-printed-token")
    page.wait_for_selector("#board .clicks")
    page.goto(f"{programs_server}/?game=tictactoe&first=py:{source}:First")
    wait_ply(page, 1)
    assert page.locator("#moves span").all_inner_texts() == ["a1"]
    context.close()


def test_an_az_agent_shows_prior_policy_and_value(
    programs_server: str, page: Any, tmp_path: Path
) -> None:
    """Issue 28: the search table behind az's move lists each move's prior (the network's
    belief before the search), its visits and value, and Gumbel's improved policy."""
    net = tmp_path / "ttt.npz"
    random_network(load_game("tictactoe"), filters=4, blocks=0, seed=1).save(net)
    page.goto(f"{programs_server}/?token=the-printed-token")
    page.wait_for_selector("#board .clicks")
    agent = quote(f"az:net={net},sims=60,root=gumbel,batch=4,seed=1")
    open_board(page, programs_server, f"game=tictactoe&second={agent}")
    page.click('#board .clicks [data-move="b2"]')
    wait_ply(page, 2)
    page.wait_for_function("document.querySelector('#search-head').innerText.includes('az')")
    heads = page.inner_text("#search-table thead").split()
    assert heads[:6] == ["move", "visits", "share", "prior", "policy", "value"]
    first = page.locator("#search-table tbody tr").first.locator("td").all_inner_texts()
    assert first[0] == page.locator("#moves span").all_inner_texts()[1]  # the move played
    assert 0 < float(first[3]) < 1 and 0 < float(first[4]) <= 1
    assert "prior: the policy head's" in page.inner_text("#search-units")


def test_the_board_offers_az_playing_the_shipped_connect_four_network(
    server: str, page: Any
) -> None:
    """Issue 28: with a network in the package, a student picks az on the plain board (no
    --allow-programs: no file is named) and sees what the network believed."""
    open_board(page, server, "game=tictactoe")
    page.select_option("#game-name", "connect4")
    page.select_option("#player0", "person")
    page.select_option("#player1", "az")
    assert page.locator('#params1 [data-param="net"]').count() == 0
    assert page.locator('#params1 [data-param="sims"]').count() == 1
    page.fill("#time", "0.2")
    new_game(page, {"second": "az", "time": "0.2"})
    page.click('#board .clicks [data-move="4"]')
    wait_ply(page, 2)
    page.wait_for_function("document.querySelector('#search-head').innerText.includes('az')")
    heads = page.inner_text("#search-table thead").split()
    assert heads[:5] == ["move", "visits", "share", "prior", "value"]
    first = page.locator("#search-table tbody tr").first.locator("td").all_inner_texts()
    assert first[0] == page.locator("#moves span").all_inner_texts()[1]
    assert page.locator("#message").is_hidden()


def test_connect_four_ghosts_stack_in_their_column(server: str, page: Any) -> None:
    open_board(page, server, "game=connect4&moves=44")
    page.click("#analyze")
    page.wait_for_selector("#board .stat")
    page.click("#stop")
    page.wait_for_function("document.body.dataset.thinking === ''")
    # A principal variation that plays column 4 three times, then 5: four distinct cells.
    cells = page.evaluate(
        """async () => {
            const { drawPv } = await import('/static/board.js');
            const svg = document.getElementById('board');
            drawPv(svg, window.arenaView, ['4', '4', '4', '5']);
            return [...svg.querySelectorAll('.pv circle')].map(
                (c) => [c.cx.baseVal.value, c.cy.baseVal.value]);
        }"""
    )
    assert len(cells) == 4 and len({tuple(c) for c in cells}) == 4
    xs = [c[0] for c in cells]
    assert xs[0] == xs[1] == xs[2] != xs[3]
    ys = [c[1] for c in cells[:3]]
    assert ys[0] > ys[1] > ys[2]  # each above the last
    # While the variation shows, the statistics step aside.
    assert page.locator("#board .stat").first.is_hidden()


def test_a_first_use_shows_the_board_and_what_it_waits_for(
    server: str, page: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The server runs in this process: as on a machine where Connect Four never compiled.
    monkeypatch.setattr("arena.web.session.first_use", lambda game: 14.0)
    open_board(page, server, "game=connect4&second=mcts:rollouts=200,seed=1")
    assert page.get_attribute("body", "data-compiling") == "1"
    assert "first use" in page.inner_text("#status")
    page.wait_for_function("document.getElementById('status').textContent.includes('1 s of')")
    page.click('#board .clicks [data-move="4"]')
    wait_ply(page, 2)  # the agent, once ready, plays; the line goes
    page.wait_for_function("document.body.dataset.compiling === undefined")


# --- whole games through the page: the form, New game, then clicks until the result -------

WHOLE = [
    # (game, the form's game parameters, the seat-two agent, a seed for a random set-up)
    ("tictactoe", {}, "greedy", None),
    ("connect4", {"rows": "5", "cols": "5"}, "random", None),
    ("othello", {"size": "6"}, "greedy", None),
    ("gomoku", {"size": "7", "k": "4"}, "greedy", None),
    ("go", {"size": "5", "maxlen": "16"}, "random", None),
    ("colosseum", {"size": "6"}, "random", "11"),
]

YOUR_TURN = """() => !document.getElementById('result').hidden
    || (document.body.dataset.thinking === '' && !window.arenaView.terminal
        && window.arenaView.toMove === 0
        && document.querySelectorAll('#moves span').length === Number(document.body.dataset.ply))"""
"""The result shows, or the person (first seat) is to move at the end of the line."""


def click_a_legal_move(page: Any, pick: random.Random) -> str:
    """Click one legal move as a person would, read from the board drawn; return its text."""
    view = page.evaluate("() => window.arenaView")
    if view["kind"] == "colosseum":  # a reachable cell, then a side for its wall
        cell = pick.choice(sorted(view["sides"]))
        sides = view["sides"][cell]
        page.click(f'#board .clicks [data-cell="{cell}"]')
        side = sides[0]
        if len(sides) > 1:
            side = pick.choice(sides)
            page.click(f'#board .side-pick[data-side="{side}"]')
        return f"{cell},{side}"
    if not view["cells"]:  # only a pass is legal
        page.click("#pass")
        return view["pass"]
    move = pick.choice(sorted(view["cells"]))
    page.click(f'#board .clicks [data-move="{move}"]')
    return move


@pytest.mark.parametrize(("name", "params", "agent", "seed"), WHOLE, ids=[w[0] for w in WHOLE])
def test_play_a_whole_game_through_the_page(
    server: str, page: Any, name: str, params: dict[str, str], agent: str, seed: str | None
) -> None:
    open_board(page, server, "game=tictactoe")
    page.select_option("#game-name", name)
    for key, value in params.items():
        page.fill(f'#game-params [data-param="{key}"]', value)
    page.select_option("#player0", "person")
    page.select_option("#player1", agent)
    page.fill("#time", "0.2")
    want = {"second": agent, "time": "0.2"}
    if seed is not None:
        page.fill("#seed", seed)
        want["seed"] = seed
    got = new_game(page, want)
    assert got["game"].split(":")[0] == name and "moves" not in got
    pick = random.Random(name)
    mine: dict[int, str] = {}
    while True:
        page.wait_for_function(YOUR_TURN, timeout=20_000)
        if page.locator("#result").is_visible():
            break
        n = ply(page)
        mine[n] = click_a_legal_move(page, pick)
        page.wait_for_function(f"Number(document.body.dataset.ply) > {n}", timeout=10_000)
    n = ply(page)
    text = page.inner_text("#result")
    assert text.startswith("Result: ") and text.endswith(f"after {n} move{'s' * (n != 1)}")
    assert any(word in text for word in ("wins", "draw", "Draw")), text
    moves = page.locator("#moves span").all_inner_texts()
    assert len(moves) == n and len(mine) >= n // 2
    if name != "colosseum":  # Colosseum's list writes a move its own way
        assert all(moves[i].lower() == move.lower() for i, move in mine.items()), (moves, mine)
    assert page.locator("#message").is_hidden()


# --- what the comparison with Lichess's analysis board and KaTrain added ------------------


def test_best_move_marks_the_ring_the_column_and_the_arrow(server: str, page: Any) -> None:
    open_board(page, server, "game=colosseum:size=6&seed=11")

    def marks(kind: str, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        # The board drawn with a search report of our own: what the marks are, where.
        return page.evaluate(
            """async ([kind, rows]) => {
                const { drawBoard } = await import('/static/board.js');
                const view = window.arenaView;
                const svg = document.getElementById('board');
                drawBoard(svg, view, { interactive: false, search: { info: { root: rows } } });
                return [...svg.querySelectorAll('.best-mark')].map((m) => ({
                    move: m.dataset.move, cls: m.getAttribute('class'),
                    arrow: m.querySelector('.best-arrow') !== null,
                    wall: m.querySelector('.best-wall') !== null }));
            }""",
            [kind, rows],
        )

    legal = sorted(page.evaluate("() => Object.keys(window.arenaView.cells)"))
    mover = page.evaluate("() => window.arenaView.stones.find((s) => s[2] === 0).slice(0, 2)")
    away = [m for m in legal if m.split(",")[:2] != [str(v) for v in mover]]
    got = marks("mcts", [{"move": away[0], "visits": 90}, {"move": away[1], "visits": 10}])
    assert [m["move"] for m in got] == away[:2]
    assert all(m["arrow"] and m["wall"] for m in got)  # from the piece, and the wall it builds
    assert "best-1" in got[0]["cls"] and "best-2" in got[1]["cls"]
    # Alpha-beta: the runner-up only where its value is exact, not a bound from pruning.
    open_board(page, server, "game=tictactoe")
    rows = [{"move": "b2", "value": 0, "bound": "="}, {"move": "a1", "value": 0, "bound": "<="}]
    assert [m["move"] for m in marks("ab", rows)] == ["b2"]
    rows[1]["bound"] = "="
    assert [m["move"] for m in marks("ab", rows)] == ["b2", "a1"]


def test_keys_walk_the_game(server: str, page: Any) -> None:
    open_board(page, server, "game=tictactoe&moves=a1 b1 a2")
    for key, want in [("Home", 0), ("ArrowRight", 1), ("End", 3), ("ArrowLeft", 2),
                      ("ArrowUp", 0), ("ArrowDown", 3)]:  # fmt: skip
        page.keyboard.press(key)
        wait_ply(page, want)
    # Typing in the form moves its cursor, not the game.
    page.click("#time")
    page.keyboard.press("Home")
    page.wait_for_timeout(300)
    assert ply(page) == 3


def test_a_phone_sized_screen_stacks_the_board_and_the_panel(browser: Any, server: str) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
    open_board(page, server, "game=othello&moves=f5 d6")
    width = page.evaluate("() => window.innerWidth")
    scroll = page.evaluate("() => document.documentElement.scrollWidth")
    assert scroll <= width  # nothing scrolls sideways
    board = page.locator("#board").bounding_box()
    assert board["x"] >= 0 and board["x"] + board["width"] <= width and board["width"] > 0.8 * width
    assert page.locator("#board").is_visible()
    # The panel below the board, the form wrapped above it (within the width).
    panel = page.locator("aside").bounding_box()
    assert panel["y"] >= board["y"] + board["height"]
    form = page.locator("#setup").bounding_box()
    assert form["x"] + form["width"] <= width
    page.click('#board .clicks [data-move="c5"]')
    wait_ply(page, 3)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(DOCS / "phone.png"))
    page.close()


def test_the_board_while_best_thinks(server: str, page: Any) -> None:
    open_board(page, server, "game=go:size=7&moves=D4 C3&second=best&time=4")
    page.click('#board .clicks [data-move="E3"]')
    wait_ply(page, 3)
    # First use on a machine: the compiled search may take half a minute to be ready.
    page.wait_for_function(
        "() => document.body.dataset.thinking === 'move'"
        " && document.querySelectorAll('#board .stat').length >= 3"
        " && document.querySelector('#board .best-1') !== null",
        timeout=60_000,
    )
    page.wait_for_timeout(1500)
    page.locator("main").screenshot(path=str(DOCS / "best-thinking.png"))
    wait_ply(page, 4)


def test_othello_analysis(server: str, page: Any) -> None:
    open_board(page, server, "game=othello&moves=f5 d6 c3 d3 c4 f4")
    page.select_option("#analysis-agent", "ids")
    page.click("#analyze")
    page.wait_for_selector("#board .stat", timeout=60_000)
    page.wait_for_timeout(2500)
    page.click("#stop")
    page.wait_for_function("document.body.dataset.thinking === ''")
    assert page.locator("#board .best-1").count() == 1
    assert page.locator("#search-table tbody tr").count() >= 2
    page.locator("main").screenshot(path=str(DOCS / "othello-analysis.png"))


def test_a_seed_that_is_not_a_number_is_refused(server: str, page: Any) -> None:
    open_board(page, server, "game=tictactoe")
    assert page.locator("#seed-field").is_hidden()  # only Colosseum starts at random
    page.select_option("#game-name", "colosseum")
    page.fill("#seed", "seven")
    page.click("#new-game")
    page.wait_for_selector("#message:not([hidden])")
    assert "whole number" in page.inner_text("#message")
    assert page.get_attribute("#board", "data-game") == "tictactoe"
    # The same seed, the same board.
    page.fill("#seed", "7")
    new_game(page, {"game": "colosseum", "seed": "7"})
    walls = page.evaluate("() => JSON.stringify(window.arenaView.walls)")
    page.goto(f"{server}/?game=colosseum&seed=7")
    page.wait_for_selector("#board .clicks")
    assert page.evaluate("() => JSON.stringify(window.arenaView.walls)") == walls


# --- the results page follows a tournament as it is played ----------------------------------


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A server over a database that the test adds games to while the page is open."""
    db_path = tmp_path_factory.mktemp("live") / "league.db"
    db = ResultsDB(db_path)
    run(Settings(game="tictactoe", agents=("random", "greedy"), control="rollouts=1"), db=db)
    db.close()
    for url in serve(create_app(db=str(db_path), guard=Guard(hosts=LOCAL_HOSTS))):
        yield url, db_path


def test_the_results_page_shows_games_as_they_are_played(live: tuple[str, Path], page: Any) -> None:
    server, db_path = live
    page.goto(f"{server}/results?poll=0.3")
    page.wait_for_function("document.body.dataset.games === '2'")
    assert "95% interval" in page.inner_text("#standings thead")
    # More games are stored (a second round) while the page is open: it redraws by itself.
    db = ResultsDB(db_path)
    run(Settings(game="tictactoe", agents=("random", "greedy"), control="rollouts=1",
                 rounds=3), db=db)  # fmt: skip
    db.close()
    page.wait_for_function("document.body.dataset.games === '6'", timeout=10_000)
    assert page.locator("#games tbody tr").count() == 6
    assert "6 games stored" in page.inner_text("#updated")
    # A player's name shows only its games; the newest game opens on the board.
    page.locator("#standings a.player", has_text="greedy").click()
    assert page.inner_text("#games-title") == "Games of greedy"
    assert "player=greedy" in page.url
    page.locator("#games .open-game").last.click()
    page.wait_for_selector("#board .clicks")
    assert page.get_attribute("#board", "data-game") == "tictactoe"
    assert page.locator("#moves span").count() >= 5  # the whole recorded game


def test_the_results_page_of_a_league_names_who_did_not_play(
    browser: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    # A league's database as the league stores it: students by folder name, a spec each,
    # and the folders that did not play with the reason.
    path = tmp_path_factory.mktemp("league") / "league.db"
    db = ResultsDB(path)
    db.bind({"game": "tictactoe", "agents": ["ada lovelace", "greedy"], "control": "move:1",
             "specs": ["py:ada lovelace/agent.py:Agent", "greedy"],
             "league": {"references": ["greedy"],
                        "refused": {"bob": "no agent.py found"}}})  # fmt: skip
    record = GameRecord("tictactoe", ("ada lovelace", "greedy"), moves=["b2", "a1", "c3"],
                        seconds=[0.1, 0.0, 0.1], returns=(-1, 1), reason="time", loser=0,
                        detail="1.2 s for a 1 s move", game_id="g1")  # fmt: skip
    db.add(record, "ada lovelace", "greedy", 0)
    db.close()
    for server in serve(create_app(db=str(path), guard=Guard(hosts=LOCAL_HOSTS))):
        page = browser.new_page()
        page.goto(f"{server}/results")
        page.wait_for_function("document.body.dataset.games === '1'")
        assert page.inner_text("#refused") == "Did not play: bob (no agent.py found)."
        standings = page.inner_text("#standings")
        assert "ada lovelace" in standings and "greedy (reference)" in standings
        reason = page.locator("#games tbody tr td").nth(5)
        assert reason.inner_text() == "time (ada lovelace)"
        assert reason.locator("span").get_attribute("title") == "1.2 s for a 1 s move"
        page.close()
