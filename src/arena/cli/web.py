"""``arena web``: play and watch every game in the browser.

Tests: tests/web/test_cli_web.py, tests/web/test_app.py, tests/web/test_browser.py
"""

from __future__ import annotations

import argparse
import secrets
import sys
import threading
import webbrowser

from arena.compete.store import open_existing
from arena.core.errors import ArenaError
from arena.core.install import extra_command
from arena.web.app import LOCAL_HOSTS, Guard, create_app

LOCAL = LOCAL_HOSTS
EVERYWHERE = ("0.0.0.0", "::", "")
"""Bind addresses that answer on every interface: the Host check cannot know the names used."""


def guard_for(host: str, allow_programs: bool) -> Guard:
    """Who may use a board served on ``host``: requests naming this machine (or the address it
    is bound to), and with programs allowed, only pages holding a fresh secret token."""
    hosts = None if host in EVERYWHERE else tuple(dict.fromkeys((*LOCAL, host)))
    return Guard(hosts=hosts, token=secrets.token_urlsafe(18) if allow_programs else None)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "web",
        help="a web board: play any game against agents, watch them search, review games",
        description="Serve the web board on http://HOST:PORT/: play any game against any "
        "built-in agent (or watch two agents), see the search's statistics live on the board, "
        "analyse positions, step through games and load or save them. Needs the web extra "
        "(from a checkout: pip install -e '.[web]').",
        epilog="example: arena web --db arena.db --open",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    p.add_argument("--db", metavar="FILE", help="a results database for the results page")
    p.add_argument("--open", action="store_true", help="open the board in a browser")
    p.add_argument(
        "--allow-programs",
        action="store_true",
        help="allow py:, cmd: and gtp: agents (they run code on this machine: only for "
        "a browser you trust)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn
    except ImportError:
        raise ArenaError(f"arena web needs the web extra: {extra_command('web')}") from None
    if args.db is not None:
        open_existing(args.db).close()  # a clear error now rather than on the results page
    if not 0 < args.port < 65536:
        raise ArenaError(f"--port must be in 1..65535, not {args.port}")
    if args.host not in LOCAL:
        print(
            f"arena: warning: serving on {args.host}: anyone who can reach this address "
            "can use the board" + (" and run programs here" if args.allow_programs else ""),
            file=sys.stderr,
        )
    guard = guard_for(args.host, args.allow_programs)
    app = create_app(db=args.db, allow_programs=args.allow_programs, guard=guard)
    host = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{host}:{args.port}/" + ("" if guard.token is None else f"?token={guard.token}")
    print(f"arena web: {url} (Ctrl-C stops)", file=sys.stderr)
    if args.open:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", ws_max_size=1 << 20)
    return 0
