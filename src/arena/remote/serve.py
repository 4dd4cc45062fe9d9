"""Serve a Python agent over the arena's line protocol (:mod:`arena.remote.protocol`).

Two lines make a user's agent class a program the arena can run as
``cmd:python my_agent.py`` (with a hard deadline, memory and CPU limits)::

    from arena.remote.serve import serve
    serve(MyAgent())

``serve`` takes the process's real stdout for the protocol and points file
descriptor 1 (and ``sys.stdout``) at stderr, so a stray ``print`` in the agent
lands in its log instead of corrupting an answer. ``arena serve AGENT`` does the
same for any agent spec; it is what ``--isolate`` runs, and how the referee
plays ``py:`` agents.

When the agent raises (in ``choose``, ``reset`` or ``observe``) or answers
something that is not a move, ``serve`` writes one line to stderr,
``arena serve: forfeit crash: ValueError: oops at mine.py:8 in choose`` (the
exception at the user's own frame, after the whole traceback), and exits with
status 3; the referee's side reads that line as the forfeit's reason and
detail, so a served agent's errors read as they would in arena's process.

Tests: tests/remote/test_line_protocol.py, tests/remote/test_subprocess.py
"""

from __future__ import annotations

import operator
import os
import sys
import traceback
from typing import IO, Any

from arena.core.agent import answer_problem, start_game
from arena.core.crash import crash_text
from arena.core.errors import ArenaError
from arena.core.game import Game, State
from arena.games import load_game
from arena.remote.protocol import ProtocolError, forfeit_line, parse_hello, parse_turn


def serve(agent: Any, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    """Answer the arena's messages on ``stdin``/``stdout`` until ``quit`` or end of input.

    Returns the exit status (0, or 2 after a message that breaks the protocol,
    which is reported on stderr in one line). ``agent`` is an object with
    ``choose(state, limit)`` (``arena serve SPEC`` loads it from a spec).
    """
    out = stdout if stdout is not None else protocol_stdout()
    inp = stdin if stdin is not None else protocol_stdin()
    try:
        _Session(agent, out).run(inp)
    except Forfeit as exc:
        print(forfeit_line(exc.reason, exc.detail), file=sys.stderr, flush=True)
        return 3
    except ArenaError as exc:
        print(f"arena serve: error: {exc}", file=sys.stderr, flush=True)
        return 2
    return 0


class Forfeit(ArenaError):
    """The served agent raised or answered a non-move: it loses, for ``reason``."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.reason, self.detail = reason, detail


def protocol_stdout() -> IO[str]:
    """The protocol's own copy of stdout; fd 1 and sys.stdout then go to stderr, so
    nothing else the process writes (a print, a C library, a child) reaches the peer."""
    sys.stdout.flush()
    protocol = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return protocol


def protocol_stdin(errors: str = "strict") -> IO[str]:
    """The protocol's own copy of stdin; fd 0 and sys.stdin then read nothing, so an
    ``input()`` in the agent ends at once (EOFError) instead of eating the arena's lines."""
    protocol = os.fdopen(os.dup(0), "r", encoding="utf-8", errors=errors)
    empty = os.open(os.devnull, os.O_RDONLY)
    os.dup2(empty, 0)
    os.close(empty)
    sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 (for the process's life)
    return protocol


def controller_streams() -> tuple[IO[str], IO[str]]:
    """``(stdin, stdout)`` of a protocol a program outside arena speaks to it (GTP for a Go
    GUI, Gomocup's for a manager): the protocol's own copies, so the agent's prints and
    ``input()`` never reach or eat the controller's lines, decoding a stray byte as U+FFFD
    so it costs an error reply, not a crash. Call it before loading the agent (a ``py:``
    file may print as it loads)."""
    out = protocol_stdout()
    out.reconfigure(errors="replace")  # type: ignore[attr-defined]
    return protocol_stdin(errors="replace"), out


class _Session:
    def __init__(self, agent: Any, out: IO[str]) -> None:
        self.agent = agent
        self.out = out
        self.game: Game | None = None
        self.initial: State | None = None
        self.context: dict[str, Any] = {}
        self.state: State | None = None
        self.seen: list[str] = []

    def run(self, lines: IO[str]) -> None:
        for raw in lines:
            line = raw.strip()
            if not line:
                continue
            word = line.split()[0]
            if word == "quit":
                return
            if word == "arena":
                self.hello(line)
            elif word == "turn":
                self.turn(line)
            else:
                raise ProtocolError(f"unknown message {line[:60]!r} (expected arena, turn or quit)")

    def send(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def hello(self, line: str) -> None:
        hello = parse_hello(line)
        self.game = load_game(hello.game)
        self.initial = self.game.initial_state(hello.seed)
        self.context = {"player": hello.player, "seed": hello.seed}
        self.restart()
        self.send(f"ready {getattr(self.agent, 'spec', type(self.agent).__name__)}")

    def restart(self) -> None:
        assert self.game is not None
        self.users(start_game, self.agent, self.game, **self.context)
        self.state, self.seen = self.initial, []

    def users(self, call: Any, *args: Any, **kwargs: Any) -> Any:
        """``call(...)`` into the agent's code: what it raises is its forfeit."""
        try:
            return call(*args, **kwargs)
        except Exception as exc:
            traceback.print_exc()  # the whole story in the agent's log
            raise Forfeit("crash", crash_text(exc)) from None

    def turn(self, line: str) -> None:
        if self.game is None:
            raise ProtocolError("turn before the 'arena' hello")
        limit, moves = parse_turn(line)
        if moves[: len(self.seen)] != self.seen:
            self.restart()  # a different line than the one followed (e.g. an undo)
        for text in moves[len(self.seen) :]:
            self.advance(text)
        assert self.state is not None
        move = self.users(self.agent.choose, self.state, limit)
        wrong = answer_problem(self.state, move)
        if wrong:  # the referee's own words, as in arena's process
            raise Forfeit("illegal", wrong)
        self.send(self.game.format_move(operator.index(move)))

    def advance(self, text: str) -> None:
        assert self.game is not None and self.state is not None
        try:
            move = self.game.parse_move(text)
            after = self.state.play(move)
        except ArenaError as exc:
            raise ProtocolError(f"move {len(self.seen) + 1} of the turn: {exc}") from None
        observe = getattr(self.agent, "observe", None)
        if observe is not None:
            self.users(observe, self.state, move)
        self.state = after
        self.seen.append(text)
