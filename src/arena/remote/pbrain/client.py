"""``pbrain:COMMAND LINE``: a Gomocup brain (the Gomoku AI protocol) as an agent.

For any Gomoku brain a Gomocup manager (Piskvork, liskvork) runs, e.g.
``pbrain:./pbrain-rapfi`` or ``pbrain:memory=512:"path with spaces/brain" args``;
``pbrain:turn=0.1:./pbrain-rapfi`` tells the brain it has 0.1 s a move whatever
arena's clock gives it (odds).
At the start of a game the brain gets ``START size`` (an ``ERROR`` answer loses
that game with its words: many brains play only 15x15 or 20x20) and ``INFO rule``
(0 freestyle, 1 exactly five: ``gomoku:overline=nowin``), ``max_memory`` and
``game_type``. Before each of its moves it is told its clock (``INFO
timeout_turn``, ``timeout_match``, ``time_left``; a fixed move time is a turn
limit with no match limit), then asked for a move: ``BEGIN`` on the empty board,
``TURN x,y`` with the opponent's last move when it followed the game, else the
whole position with ``BOARD`` ... ``DONE`` (after ``RESTART``, or a new ``START``
for a brain that does not know it): an opening, a resumed game, the web board.

The brain's ``MESSAGE``, ``DEBUG`` and ``SUGGEST`` lines go to the log; an
``ERROR`` or ``UNKNOWN`` instead of a move, a line that is not ``x,y``, a point
off the board or already taken, silence past the clock (plus the referee's
grace) or the brain's death lose the game, with the process group killed.

>>> from arena.agents import load_agent
>>> load_agent("pbrain:python3 -c pass").label
'pbrain:python3 -c'

Tests: tests/remote/pbrain/test_pbrain_client.py
"""

from __future__ import annotations

import logging
import re
import time
from typing import Any

from arena.core.game import Game, State
from arena.core.limit import Limit
from arena.core.spec import Param
from arena.remote.external import OPTIONS, ExternalAgent
from arena.remote.pbrain.protocol import (
    PbrainError,
    Reply,
    board_lines,
    check_game,
    from_xy,
    parse_reply,
    rule_of,
    to_xy,
)

logger = logging.getLogger(__name__)

_FIELD = re.compile(r'(\w+)\s*=\s*"([^"]*)"')

UNLIMITED_MS = 2147483647
"""``time_left`` with no match clock: the protocol's "no limit"."""
GAME_TYPE_AI = 1
"""``INFO game_type``: the opponent is another program."""
CHATTER = 1000
"""Lines of MESSAGE/DEBUG a brain may write before one answer (more is a flood)."""


class PbrainAgent(ExternalAgent):
    prefix = "pbrain"
    name = "pbrain"
    summary = "a Gomocup brain speaking the Gomoku AI protocol (pbrain:./pbrain-rapfi)"
    goodbye = "END"
    params = (
        Param(
            "turn",
            float,
            0.0,
            "seconds the brain is told a move may take, when less than arena's clock "
            "(odds: 0.1 under --move-time 1); 0: arena's time",
            low=0.0,
        ),
        Param(
            "max_memory",
            int,
            350,
            "MB the brain is told it may use (INFO max_memory; Gomocup's 350 by default, "
            "at most 3/4 of the memory limit, which counts all its address space)",
            low=1,
            high=1 << 20,
        ),
        *OPTIONS,
    )

    def started(self, game: Game, player: int | None, seed: Any) -> None:
        try:
            check_game(game)
        except PbrainError as exc:
            raise self._failure("crash", str(exc)) from None
        self.program_name: str | None = None
        """The brain's name and version from its ABOUT answer (the record's name for it)."""
        self.held: list[int] | None = []
        """The moves on the brain's board, in order (None: a position not from ours)."""
        self.match_ms = 0
        deadline = time.perf_counter() + self.config["startup"]
        with self.starting():
            self.start_board(game, deadline)
        assert self.process is not None
        self.info("rule", rule_of(game))
        told = self.config["max_memory"]
        if self.config["memory"]:
            told = min(told, self.config["memory"] * 3 // 4)
        self.info("max_memory", max(1, told) << 20)
        self.info("game_type", GAME_TYPE_AI)
        # ABOUT last: its answer comes once the brain has taken in the INFO lines before
        # it, so what they cost (Rapfi sizes its tables for max_memory: ~0.5 s) is spent
        # here, off the clock, and never in its first move. Any answer will do.
        with self.starting():
            about = self.ask("ABOUT", deadline, "answer to 'ABOUT'")
        self.program_name = about_name(about.text) if about.kind == "OTHER" else None

    def start_board(self, game: Game, deadline: float) -> None:
        command = f"START {game.config['size']}"
        reply = self.ask(command, deadline, f"OK to {command!r}")
        if reply.kind == "ERROR":
            raise self._failure("crash", f"the brain refused {command!r}: {reply.text or 'ERROR'}")
        if reply.kind != "OK":
            raise self._failure("illegal", f"answered {command!r} with {_shown(reply)}, not OK")
        self.held = []

    def info(self, key: str, value: int) -> None:
        assert self.process is not None
        self.process.send(f"INFO {key} {value}")

    def ask(self, command: str | list[str], deadline: float, what: str) -> Reply:
        """Send the command's lines and read the brain's first line that is not chatter."""
        assert self.process is not None
        for line in [command] if isinstance(command, str) else command:
            self.process.send(line)
        for _ in range(CHATTER):
            left = deadline - time.perf_counter()
            reply = parse_reply(self.process.read_line(max(left, 0.0), what))
            if reply.kind in ("MESSAGE", "DEBUG", "SUGGEST"):
                logger.debug("%s: %s %s", self.label, reply.kind, reply.text)
                continue
            if reply.kind == "OTHER" and not reply.text:
                continue  # the manager ignores empty lines
            return reply
        raise self._failure("illegal", f"wrote {CHATTER} messages and no {what}")

    def choose(self, state: State, limit: Limit) -> int:
        game = state.game
        self.running(game)
        deadline = time.perf_counter() + self.move_timeout(limit)
        self.tell_clock(limit)
        followed = self.moves if self.line == state else None
        held = self.held
        if followed is not None and held is not None and followed[:-1] == held and followed:
            command: list[str] = [f"TURN {to_xy(game, followed[-1])}"]
        elif state.ply == 0 and held == []:
            command = ["BEGIN"]
        else:
            if held != []:  # the brain has a game going: a new one first
                self.restart(game, deadline)
            if state.ply == 0:
                command = ["BEGIN"]
            else:
                command = ["BOARD", *board_lines(state, followed), "DONE"]
        self.held = None  # until the brain answers with a move
        reply = self.ask(command, deadline, f"move after {command[0]}")
        move = self.read_move(state, reply, command[0])
        self.held = None if followed is None else [*followed, move]
        return move

    def restart(self, game: Game, deadline: float) -> None:
        """An empty board for a brain that has a game: ``RESTART``, or ``START`` again for a
        brain that does not know it (the protocol's later addition)."""
        reply = self.ask("RESTART", deadline, "OK to 'RESTART'")
        if reply.kind != "OK":
            self.start_board(game, deadline)
        self.held = []

    def read_move(self, state: State, reply: Reply, command: str) -> int:
        game = state.game
        if reply.kind in ("ERROR", "UNKNOWN"):
            raise self._failure(
                "crash", f"answered {command} with {reply.kind} {reply.text}".rstrip()
            )
        if reply.kind != "MOVE":
            raise self._failure("illegal", f"answered {command} with {_shown(reply)}, not x,y")
        try:
            move = from_xy(game, reply.text)
        except PbrainError as exc:
            raise self._failure("illegal", f"played {exc}") from None
        if state.stone(move) is not None:  # type: ignore[attr-defined]
            raise self._failure(
                "illegal", f"played {reply.text} ({game.format_move(move)}), an occupied point"
            )
        return move

    def tell_clock(self, limit: Limit) -> None:
        """The move's time as the protocol has it, in milliseconds: a clock is the match's
        time left (and the most a turn may take), a fixed time a turn limit alone.
        ``timeout_turn`` and ``timeout_match`` come first: some brains (Rapfi) reset
        their idea of the time left when either is set."""
        if limit.clock is not None:
            left = max(1, int(limit.clock * 1000))
            self.match_ms = max(self.match_ms, left)
            turn, match = left, self.match_ms
        elif limit.time is not None:
            turn, match, left = max(1, int(limit.time * 1000)), 0, UNLIMITED_MS
        else:
            return  # a budget of work: the brain's own default time
        if self.config["turn"]:
            turn = min(turn, max(1, int(self.config["turn"] * 1000)))
        self.info("timeout_turn", turn)
        self.info("timeout_match", match)
        self.info("time_left", left)


def about_name(text: str) -> str | None:
    """The name and version in a brain's answer to ``ABOUT`` (None if it gives none).

    >>> about_name('name="Rapfi", version="0.43", author="Rapfi developers"')
    'Rapfi 0.43'
    >>> about_name("UNKNOWN") is None
    True
    """
    fields = dict(_FIELD.findall(text))
    name = fields.get("name", "").strip()
    version = fields.get("version", "").strip().split(" ")[0]
    return f"{name} {version}".strip()[:80] or None


def _shown(reply: Reply) -> str:
    text = reply.text if reply.kind == "OTHER" else f"{reply.kind} {reply.text}".strip()
    return repr(text[:60]) if text else "an empty line"
