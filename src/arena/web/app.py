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
``/ws``
    A board (:mod:`arena.web.session`); at most :data:`MAX_BOARDS` per client.

Starlette is imported when the app is built (the ``web`` extra), so the rest
of arena works without it.

Tests: tests/web/test_app.py
"""

from __future__ import annotations

import asyncio
import json
import mimetypes
from collections import Counter
from pathlib import Path
from typing import Any

from arena.compete.store import open_existing
from arena.core.errors import ArenaError
from arena.stats.standings import standings
from arena.web.catalog import MAX_SECONDS, agents_json, games_json
from arena.web.session import MAX_UPLOAD, Session

STATIC = Path(__file__).parent / "static"
MAX_BOARDS = 8
"""Open boards (WebSockets) per client address."""


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


def results_json(db_path: str) -> dict[str, Any]:
    """The tournament in a results database, its standings and its games."""
    db = open_existing(db_path)
    try:
        settings = db.settings() or {}
        names = list(settings.get("agents", []))
        records = list(db.records())
        rows = db.rows()
    finally:
        db.close()
    anchor = next((n for n in names if n.split(":")[0] == "random"), None)
    table = standings(records, names, anchor=anchor)
    return {
        "name": Path(db_path).name,
        "anchor": anchor,
        "settings": settings,
        "standings": table.as_json(),
        "games": rows,
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


def create_app(db: str | None = None, allow_programs: bool = False) -> Any:
    """The Starlette app; ``db`` is a results database for the results page."""
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    files = static_files()
    clients: Counter[str] = Counter()

    def page(name: str) -> Any:
        async def endpoint(request: Any) -> Response:
            body, kind = files[name]
            return Response(body, media_type=kind, headers={"Cache-Control": "no-cache"})

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
        try:
            return JSONResponse(results_json(db))
        except ArenaError as exc:
            return JSONResponse({"error": str(exc)}, 500)

    async def result_game(request: Any) -> JSONResponse:
        if db is None:
            return JSONResponse({"error": "no results database: start with --db FILE"}, 404)
        record = game_record(db, request.path_params["game_id"])
        if record is None:
            return JSONResponse({"error": "no such game"}, 404)
        return JSONResponse(record)

    async def board(ws: WebSocket) -> None:
        client = ws.client.host if ws.client else "?"
        await ws.accept()
        if clients[client] >= MAX_BOARDS:
            await ws.send_json(
                {"type": "error", "message": f"at most {MAX_BOARDS} boards per client"}
            )
            await ws.close(code=1008)
            return
        clients[client] += 1
        session = Session(allow_programs=allow_programs)

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
    return Starlette(routes=routes)
