"""Who may use the web board: the Host check (DNS rebinding), the WebSocket's Origin (another
site's page), and the ``--allow-programs`` token. The attack of issue 26: a page of
``http://evil.example`` opened ``ws://127.0.0.1:8000/ws`` and started ``cmd:sh -c 'touch FILE'``."""

from __future__ import annotations

import json
import shlex
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

from arena.cli.main import main
from arena.web.app import COOKIE, LOCAL_HOSTS, Guard, create_app

TOKEN = "s3cret-token"
ORIGIN = "http://127.0.0.1:8000"
WS = "ws://127.0.0.1:8000"
"""The test client's WebSockets name their host in the URL (else it is ``testserver``)."""


def touch_spec(target: Path) -> str:
    """The attacker's agent: a program that leaves a file behind when it starts."""
    code = f"open({str(target)!r}, 'w').close()"
    return f"cmd:{shlex.quote(sys.executable)} -c {shlex.quote(code)}"


def start_program(ws: Any, target: Path) -> dict[str, Any]:
    ws.send_text(
        json.dumps({"type": "new", "game": "tictactoe", "players": [touch_spec(target), "person"]})
    )
    return ws.receive_json()  # type: ignore[no-any-return]


@pytest.fixture
def guarded() -> TestClient:
    app = create_app(allow_programs=True, guard=Guard(hosts=LOCAL_HOSTS, token=TOKEN))
    return TestClient(app, base_url="http://127.0.0.1:8000")


def test_another_sites_page_cannot_open_a_board(guarded: TestClient, tmp_path: Path) -> None:
    target = tmp_path / "FILE"
    evil = {"origin": "http://evil.example"}
    with (
        pytest.raises(WebSocketDisconnect),
        guarded.websocket_connect(f"{WS}/ws?token={TOKEN}", headers=evil) as ws,
    ):
        start_program(ws, target)
    assert not target.exists()


def test_a_rebound_host_name_is_refused(guarded: TestClient) -> None:
    assert guarded.get("/", headers={"host": "evil.example:8000"}).status_code == 421
    assert guarded.get("/api/agents", headers={"host": "evil.example"}).status_code == 421
    with (
        pytest.raises(WebSocketDisconnect),
        guarded.websocket_connect(
            f"{WS}/ws?token={TOKEN}", headers={"host": "evil.example:8000"}
        ) as ws,
    ):
        ws.receive_json()
    assert guarded.get("/").status_code == 200  # the server's own names work
    assert guarded.get("/", headers={"host": "localhost:8000"}).status_code == 200


def test_programs_need_the_token(guarded: TestClient, tmp_path: Path) -> None:
    target = tmp_path / "FILE"
    own = {"origin": ORIGIN}
    with guarded.websocket_connect(f"{WS}/ws", headers=own) as ws:
        refusal = ws.receive_json()
        assert refusal["type"] == "error" and refusal["fatal"]
        assert "token" in refusal["message"]
        with pytest.raises(WebSocketDisconnect):
            start_program(ws, target)
    assert not target.exists()
    with guarded.websocket_connect(f"{WS}/ws?token=wrong", headers=own) as ws:
        assert ws.receive_json()["fatal"]
    assert guarded.get("/?token=wrong").status_code == 403


def test_the_page_opened_with_the_token_plays(guarded: TestClient, tmp_path: Path) -> None:
    target = tmp_path / "FILE"
    page = guarded.get(f"/?token={TOKEN}")
    assert page.status_code == 200 and page.cookies.get(COOKIE) == TOKEN
    assert "samesite=strict" in page.headers["set-cookie"].lower()
    # The page's WebSocket carries the cookie the page was given (as the browser does: the
    # browser test plays through a page opened this way).
    given = {"origin": ORIGIN, "cookie": f"{COOKIE}={page.cookies[COOKIE]}"}
    with guarded.websocket_connect(f"{WS}/ws", headers=given) as ws:
        reply = start_program(ws, target)
    # The program ran (and, being no agent, was refused for saying nothing).
    assert not reply.get("fatal") and "cmd:" in reply["message"]
    assert target.exists()


def test_arena_web_prints_a_token_only_with_programs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    uvicorn = pytest.importorskip("uvicorn")
    calls: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append(app))
    assert main(["web"]) == 0
    assert "?token=" not in capsys.readouterr().err
    assert main(["web", "--allow-programs"]) == 0
    first = capsys.readouterr().err
    assert main(["web", "--allow-programs"]) == 0
    second = capsys.readouterr().err
    url = first.split()[2]
    assert url.startswith("http://127.0.0.1:8000/?token=") and len(url) > 45
    assert url != second.split()[2]  # a fresh secret each start
    # The served app refuses a board without it.
    with (
        TestClient(calls[1], base_url="http://127.0.0.1:8000") as c,
        c.websocket_connect(f"{WS}/ws") as ws,
    ):
        assert ws.receive_json()["fatal"]
