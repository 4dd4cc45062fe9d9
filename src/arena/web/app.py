"""The ASGI app: static pages, a small JSON API and one WebSocket per board.

Routes:

``/`` and ``/results``
    The board and the results page (static HTML; the front end is plain
    JavaScript modules in ``static/``, no build step, nothing from a CDN).
``/static/NAME``
    The front end's files, served from a table built at start-up: the name
    in the URL is looked up, never joined to a path.
``/api/games``, ``/api/agents``
    What may be chosen, with parameters (as ``arena games`` / ``arena agents``).
``/api/results``, ``/api/results/GAME_ID``
    With a results database: its tournament, standings and games; one game's record.
    ``/api/results?since=N`` answers ``{"unchanged": true}`` while the database still holds
    N games: the results page polls it to follow a tournament or league as it is played.
``/ws``
    A board (:mod:`arena.web.session`); at most :data:`MAX_BOARDS` per client, and
    running searches limited per client and in all (a
    :class:`~arena.web.searches.Searches`).

Who may use it (:class:`Guard`): a request whose ``Host`` is not one of the server's own names
is refused (a page of another site that re-points its DNS name at 127.0.0.1 must not reach
the board), and so is a WebSocket opened by a page of another origin (any web page the user
visits may try ``ws://127.0.0.1:8000/ws``). With ``--allow-programs`` a board also needs the
secret token printed in the URL at start, as Jupyter does: the page opened with
``?token=...`` gets it as a cookie, scripts may pass ``/ws?token=...``.

Starlette is imported when the app is built (the ``web`` extra), so the rest
of arena works without it.

Tests: tests/web/test_app.py
"""

from __future__ import annotations

import asyncio
import json
import mimetypes
import secrets
from collections import Counter
from dataclasses import dataclass
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from arena.compete.store import open_existing
from arena.core.errors import ArenaError
from arena.stats.standings import standings
from arena.web.catalog import MAX_SECONDS, agents_json, games_json
from arena.web.searches import Searches
from arena.web.session import MAX_UPLOAD, Session

STATIC = Path(__file__).parent / "static"
MAX_BOARDS = 8
"""Open boards (WebSockets) per client address."""
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
"""The names of this machine a browser may use for a server bound to it."""
COOKIE = "arena_token"
"""The cookie that carries the ``--allow-programs`` token from the page to its WebSocket."""


@dataclass(frozen=True)
class Guard:
    """Which requests the board answers.

    ``hosts``: the host names a request's ``Host`` may carry (``None``: any, for a server
    bound to every address); ``token``: the secret a WebSocket must show (``None``: none).

    >>> guard = Guard(hosts=LOCAL_HOSTS)
    >>> guard.host_ok({"host": "127.0.0.1:8000"}), guard.host_ok({"host": "evil.example:8000"})
    (True, False)
    >>> guard.origin_ok({"host": "127.0.0.1:8000", "origin": "http://evil.example"})
    False
    >>> guard.origin_ok({"host": "127.0.0.1:8000", "origin": "http://127.0.0.1:8000"})
    True
    """

    hosts: tuple[str, ...] | None = None
    token: str | None = None

    def host_ok(self, headers: dict[str, str]) -> bool:
        if self.hosts is None:
            return True
        name = host_name(headers.get("host", ""))
        return name in {h.strip("[]").lower() for h in self.hosts}

    def origin_ok(self, headers: dict[str, str]) -> bool:
        """A browser names the page that opens a WebSocket; it must be this server's own.
        Programs that send no ``Origin`` (scripts, tests) are not browsers' pages."""
        origin = headers.get("origin")
        if origin is None:
            return True
        parts = urlsplit(origin)
        return (
            parts.scheme in ("http", "https")
            and parts.netloc.lower() == headers.get("host", "").lower()
        )

    def token_ok(self, headers: dict[str, str], query: str) -> bool:
        if self.token is None:
            return True
        shown = parse_qs(query).get("token", [""])[0] or cookie(headers, COOKIE)
        return secrets.compare_digest(shown.encode(), self.token.encode())


def host_name(host: str) -> str:
    """The name in a ``Host`` header, without its port.

    >>> host_name("127.0.0.1:8000"), host_name("[::1]:80"), host_name("LocalHost")
    ('127.0.0.1', '::1', 'localhost')
    """
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host[1:]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def cookie(headers: dict[str, str], name: str) -> str:
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(headers.get("cookie", ""))
    except Exception:  # a malformed Cookie header is no cookie
        return ""
    morsel = jar.get(name)
    return "" if morsel is None else morsel.value


def _headers(scope: dict[str, Any]) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}


def static_files() -> dict[str, tuple[bytes, str]]:
    """Every front-end file by name, with its media type (read once)."""
    files = {}
    for path in sorted(STATIC.iterdir()):
        if path.is_file():
            kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            if path.suffix == ".js":
                kind = "text/javascript"
            files[path.name] = (path.read_bytes(), kind)
    return files


def results_json(db_path: str, since: int | None = None) -> dict[str, Any]:
    """The tournament in a results database, its standings and its games (each with the
    first line of what ended it and who forfeited), and ``count``, the games stored.
    With ``since`` equal to that count (a page asking again while nothing was added):
    ``{"unchanged": true, "count": N}`` only, without reading the games."""
    db = open_existing(db_path)
    try:
        count = db.count()
        if since is not None and since == count:
            return {"unchanged": True, "count": count}
        settings = db.settings() or {}
        names = list(settings.get("agents", []))
        records = list(db.records())
        rows = db.rows()
    finally:
        db.close()
    table = standings(records, names)
    ended = {r.game_id: r for r in records}
    for row in rows:
        record = ended.get(row["game_id"])
        if record is not None:
            row["detail"] = record.detail.strip().split("\n")[0][:200]
            row["loser"] = record.loser
    return {
        "name": Path(db_path).name,
        "anchor": table.anchor,
        "settings": settings,
        "standings": table.as_json(),
        "games": rows,
        "count": len(rows),
    }


def game_record(db_path: str, game_id: str) -> dict[str, Any] | None:
    db = open_existing(db_path)
    try:
        for record in db.records():
            if record.game_id == game_id:
                return json.loads(record.to_json())  # type: ignore[no-any-return]
    finally:
        db.close()
    return None


def create_app(
    db: str | None = None,
    allow_programs: bool = False,
    guard: Guard | None = None,
    searches: Searches | None = None,
) -> Any:
    """The Starlette app; ``db`` is a results database for the results page, ``guard`` who may
    use it (default: any host and no token; ``arena web`` always passes one), ``searches``
    the count and limits of running searches (default: :class:`Searches`' own)."""
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    files = static_files()
    clients: Counter[str] = Counter()
    guard = guard or Guard()
    searches = Searches() if searches is None else searches

    def page(name: str) -> Any:
        async def endpoint(request: Any) -> Response:
            body, kind = files[name]
            response = Response(body, media_type=kind, headers={"Cache-Control": "no-cache"})
            given = request.query_params.get("token")
            if guard.token is not None and given is not None:
                if guard.token_ok({}, f"token={given}"):
                    # The page's WebSocket shows it; never sent by another site's page.
                    response.set_cookie(COOKIE, given, httponly=True, samesite="strict")
                else:
                    response = Response(
                        "wrong token: open the URL that arena web printed",
                        status_code=403,
                        media_type="text/plain",
                    )
            return response

        return endpoint

    async def static(request: Any) -> Response:
        found = files.get(request.path_params["name"])
        if found is None:
            return Response("not found", status_code=404, media_type="text/plain")
        return Response(found[0], media_type=found[1], headers={"Cache-Control": "no-cache"})

    async def games(request: Any) -> JSONResponse:
        return JSONResponse({"games": games_json()})

    async def agents(request: Any) -> JSONResponse:
        return JSONResponse(
            {
                "agents": agents_json(),
                "allowPrograms": allow_programs,
                "maxSeconds": MAX_SECONDS,
                "maxUpload": MAX_UPLOAD,
                "results": db is not None,
            }
        )

    async def results(request: Any) -> JSONResponse:
        if db is None:
            return JSONResponse({"error": "no results database: start with --db FILE"}, 404)
        since = request.query_params.get("since")
        try:
            # Off the event loop: a large league's standings take a moment, and the boards'
            # WebSockets keep running meanwhile.
            body = await run_in_threadpool(
                results_json, db, int(since) if since and since.isdigit() else None
            )
        except ArenaError as exc:
            return JSONResponse({"error": str(exc)}, 500)
        return JSONResponse(body)

    async def result_game(request: Any) -> JSONResponse:
        if db is None:
            return JSONResponse({"error": "no results database: start with --db FILE"}, 404)
        try:
            record = game_record(db, request.path_params["game_id"])
        except ArenaError as exc:  # a foreign database's record: not JSON, nested too deep
            return JSONResponse({"error": str(exc)[:300]}, 500)
        if record is None:
            return JSONResponse({"error": "no such game"}, 404)
        return JSONResponse(record)

    async def board(ws: WebSocket) -> None:
        client = ws.client.host if ws.client else "?"
        headers = _headers(ws.scope)
        if not guard.origin_ok(headers):
            await ws.close(code=1008)  # before accept: the handshake fails with 403
            return
        await ws.accept()
        if not guard.token_ok(headers, ws.scope.get("query_string", b"").decode("latin-1")):
            await ws.send_json(
                {
                    "type": "error",
                    "fatal": True,
                    "message": "this board runs programs: open it with the URL (and its "
                    "token) that arena web printed when it started",
                }
            )
            await ws.close(code=1008)
            return
        if clients[client] >= MAX_BOARDS:
            await ws.send_json(
                {"type": "error", "message": f"at most {MAX_BOARDS} boards per client"}
            )
            await ws.close(code=1008)
            return
        clients[client] += 1
        session = Session(allow_programs=allow_programs, client=client, searches=searches)

        async def writer() -> None:
            while True:
                await ws.send_json(await session.outbox.get())

        sending = asyncio.ensure_future(writer())
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                # A binary frame is answered like any bad message: an error, and go on.
                await session.handle("binary" if text is None else text)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            session.close()
            sending.cancel()
            clients[client] -= 1

    routes = [
        Route("/", page("index.html")),
        Route("/results", page("results.html")),
        Route("/static/{name}", static),
        Route("/api/games", games),
        Route("/api/agents", agents),
        Route("/api/results", results),
        Route("/api/results/{game_id}", result_game),
        WebSocketRoute("/ws", board),
    ]
    app = Starlette(routes=routes)

    async def guarded(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket") and not guard.host_ok(_headers(scope)):
            if scope["type"] == "websocket":
                await receive()  # websocket.connect, answered by a refusal (HTTP 403)
                await send({"type": "websocket.close", "code": 1008})
                return
            response = Response(
                "unknown host: use the address arena web printed",
                status_code=421,
                media_type="text/plain",
            )
            await response(scope, receive, send)
            return
        await app(scope, receive, send)

    return guarded
