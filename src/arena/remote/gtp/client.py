"""``gtp:COMMAND LINE``: another program that speaks the Go Text Protocol, as an agent.

For Go (``gtp:gnugo --mode gtp --level 10``) and Othello 8x8 (GRhino's
``gtp:gtp-rhino``). At the start of a game the engine gets ``boardsize``,
``clear_board`` and, for Go, ``komi`` and the handicap stones of
``go:handicap=N`` (``set_free_handicap``). Before each of its moves it is told the
moves it has not seen with ``play``, its clock with ``time_left`` (and once
``time_settings``), then asked ``genmove``. ``resign`` is a resignation; an
error reply, an unreadable vertex or the engine's death lose the game.

Othello engines differ on passes: GRhino passes implicitly and refuses
``play black pass``. So a pass the mover is forced to make is answered here
without asking the engine, and a refused ``play ... pass`` is not an error.

>>> from arena.agents import load_agent
>>> agent = load_agent("gtp:gnugo --mode gtp --level 1")
>>> agent.label
'gtp:gnugo --mode'

Tests: tests/remote/gtp/test_client.py
"""

from __future__ import annotations

import time
from typing import Any

from arena.core.agent import Resign
from arena.core.game import Game, State
from arena.core.limit import Limit
from arena.remote.external import ExternalAgent
from arena.remote.gtp.protocol import GTPError, colour_name, from_vertex, read_reply, to_vertex

GAMES = ("go", "othello")
"""Games with a GTP dialect engines speak."""


class GTPAgent(ExternalAgent):
    prefix = "gtp"
    name = "gtp"
    summary = "an engine speaking the Go Text Protocol (gtp:gnugo --mode gtp)"

    def started(self, game: Game, player: int | None, seed: Any) -> None:
        if game.name not in GAMES:
            raise self._failure("crash", f"GTP engines play {' and '.join(GAMES)}, not {game.name}")
        self.told: list[int] = []
        """The moves the engine's board has, from the initial position."""
        self.timed = False
        deadline = time.perf_counter() + self.config["startup"]
        with self.starting():
            self.ask("protocol_version", deadline, required=False)
            self.new_board(game, deadline)

    def new_board(self, game: Game, deadline: float) -> None:
        if "size" in game.config:
            self.ask(f"boardsize {game.config['size']}", deadline)
        self.ask("clear_board", deadline)
        if "komi" in game.config:
            self.ask(f"komi {game.config['komi']:g}", deadline)
        stones = tuple(getattr(game, "handicap_stones", ()))  # Go's handicap
        if stones:
            # The exact stones arena placed (set_free_handicap), so the engine's board
            # is ours whatever its own fixed layout would be.
            vertices = " ".join(to_vertex(game, p) for p in stones)
            self.ask(f"set_free_handicap {vertices}", deadline)
        self.told = []

    def ask(self, command: str, deadline: float, required: bool = True) -> tuple[bool, str]:
        """Send one command and read its reply before ``deadline``; an error reply to a
        required command loses the game."""
        assert self.process is not None
        process = self.process
        process.send(command)

        def readline() -> str:
            left = deadline - time.perf_counter()
            return process.read_line(max(left, 0.0), f"reply to {command!r}") + "\n"

        try:
            ok, text = read_reply(readline)
        except GTPError as exc:
            raise self._failure("illegal", f"{exc} (after {command!r})") from None
        if required and not ok:
            raise self._failure("crash", f"the engine refused {command!r}: {text}")
        return ok, text

    def choose(self, state: State, limit: Limit) -> int:
        game = state.game
        self.running(game)
        self.followed(state)
        deadline = time.perf_counter() + self.move_timeout(limit)
        legal = state.legal_moves()
        if game.name == "othello" and len(legal) == 1 and game.format_move(legal[0]) == "pass":
            return legal[0]  # forced: nothing to ask
        self.catch_up(game, deadline)
        colour = colour_name(state.to_move)
        self.tell_clock(colour, limit, deadline)
        _, answer = self.ask(f"genmove {colour}", deadline)
        if answer.strip().lower() == "resign":
            raise Resign(f"{self.label} resigned")
        try:
            move = from_vertex(game, answer.strip())
        except GTPError as exc:
            raise self._failure("illegal", str(exc)) from None
        self.told.append(move)  # the engine has played it on its board
        return move

    def catch_up(self, game: Game, deadline: float) -> None:
        """Tell the engine the moves it has not seen (from a clean board if it went astray)."""
        if self.told != self.moves[: len(self.told)]:
            self.new_board(game, deadline)
        replay = game.play_moves(self.told)
        for move in self.moves[len(self.told) :]:
            vertex = to_vertex(game, move)
            ok, text = self.ask(f"play {colour_name(replay.to_move)} {vertex}", deadline, False)
            if not ok and not (vertex == "pass" and game.name == "othello"):
                raise self._failure("crash", f"the engine refused 'play ... {vertex}': {text}")
            self.told.append(move)
            replay = replay.play(move)

    def tell_clock(self, colour: str, limit: Limit, deadline: float) -> None:
        """GTP has main time and byo-yomi: a clock is main time, a fixed move time a
        one-stone byo-yomi period. Engines that do not keep time may refuse both."""
        if limit.clock is not None:
            main, period, stones = limit.clock, 0.0, 0
        elif limit.time is not None:
            main, period, stones = 0.0, limit.time, 1
        else:
            return
        # GTP times are whole seconds and a 0 can mean "no limit": never send less than 1.
        main_s, period_s = (max(1, int(x)) if x else 0 for x in (main, period))
        if not self.timed:
            self.timed = True
            self.ask(f"time_settings {main_s} {period_s} {stones}", deadline, False)
        self.ask(f"time_left {colour} {max(main_s, period_s)} {stones}", deadline, False)
