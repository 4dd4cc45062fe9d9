"""``arena bench web``: how long the web board takes to draw a first board.

A client opens a WebSocket to the app (in this process, through Starlette's test
client: no network in the figure), asks for a new game and waits for its first
``state`` message: what a person waits between clicking New game (or opening a link)
and seeing the board. The first board of each game in a fresh process is reported
apart (it loads the game's rules); the figure is the median and the 90th percentile of
``repeat`` boards after it. While it runs, a second client's ``ping`` answers are timed
too: how long one board's work keeps every other client waiting.

Tests: tests/cli/test_bench_kinds.py
"""

from __future__ import annotations

import json
import statistics
import time
import warnings
from collections.abc import Callable
from typing import Any

from arena.core.errors import ArenaError
from arena.web.app import create_app

PLAYERS = ["person", "mcts"]
"""The page's default seats: a person against MCTS (whose set-up the first board waits for)."""
GAMES = ("connect4", "othello", "go:size=19", "gomoku", "colosseum:size=8", "tictactoe")


def run_bench(
    report: Callable[[str], None], games: tuple[str, ...] = GAMES, repeat: int = 30
) -> dict[str, Any]:
    with warnings.catch_warnings():  # starlette 1.x would rather have httpx2; httpx works
        warnings.simplefilter("ignore")
        try:
            from starlette.testclient import TestClient
        except ImportError:
            raise ArenaError("arena bench web needs the web extra (starlette, httpx)") from None

    rows: dict[str, Any] = {}
    with TestClient(create_app()) as client, client.websocket_connect("/ws") as ws:
        pings: list[float] = []

        def first_board(spec: str) -> float:
            start = time.perf_counter()
            ws.send_text(json.dumps({"type": "new", "game": spec, "seed": 1, "players": PLAYERS}))
            while True:
                msg = ws.receive_json()
                if msg["type"] == "state":
                    return time.perf_counter() - start
                if msg["type"] == "error":
                    raise RuntimeError(f"{spec}: {msg['message']}")

        with client.websocket_connect("/ws") as other:
            for spec in games:
                cold = first_board(spec)
                warm = []
                for _ in range(repeat):
                    warm.append(first_board(spec))
                    start = time.perf_counter()
                    other.send_text(json.dumps({"type": "ping"}))
                    while other.receive_json()["type"] != "pong":
                        pass
                    pings.append(time.perf_counter() - start)
                warm.sort()
                row = {
                    "first_ms": round(1000 * cold, 2),
                    "median_ms": round(1000 * statistics.median(warm), 2),
                    "p90_ms": round(1000 * warm[int(0.9 * (len(warm) - 1))], 2),
                }
                rows[spec] = row
                report(
                    f"{spec:<18} first board {row['first_ms']:8.2f} ms (first in this process), "
                    f"then median {row['median_ms']:.2f} ms, p90 {row['p90_ms']:.2f} ms"
                )
    result = {
        "repeat": repeat,
        "games": rows,
        "ping_max_ms": round(1000 * max(pings), 2) if pings else None,
    }
    if pings:
        report(f"another client's ping meanwhile: at most {result['ping_max_ms']:.2f} ms")
    return result
