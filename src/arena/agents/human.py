"""``human``: a person at the terminal, in the game's notation.

The prompt shows the board and the legal moves and asks again on bad
input. ``help`` lists the commands, ``moves`` the legal moves, ``undo``
takes back your last move and the reply (where the match allows it), and
``quit`` resigns the game.

Tests: tests/agents/test_agent_api.py
"""

from __future__ import annotations

import sys
from typing import TextIO

from arena.core.agent import Agent, Resign, SearchInfo, Undo
from arena.core.errors import ArenaError
from arena.core.game import State
from arena.core.limit import Limit
from arena.core.spec import Param

HELP = (
    "type a move in the game's notation, or: moves (list legal moves), board (show it again), "
    "undo (take back your last move), quit (resign), help"
)


class HumanAgent(Agent):
    name = "human"
    summary = "you, at the terminal: type moves in the game's notation"
    params = (Param("board", bool, True, "show the board before each move"),)

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None, **params: object):
        super().__init__(**params)
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout

    def _say(self, text: str) -> None:
        print(text, file=self.stdout, flush=True)

    def choose(self, state: State, limit: Limit) -> int:
        game = state.game
        legal = state.legal_moves()
        if self.config["board"]:
            self._say(state.render())
        self._say(
            f"{game.player_names[state.to_move]} to move; legal: "
            + " ".join(game.format_move(m) for m in legal)
        )
        while True:
            self.stdout.write("your move> ")
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:  # end of input: nobody is there to move
                raise Resign("end of input")
            text = line.strip().lower()
            if not text:
                continue
            if text in ("quit", "resign", "exit"):
                raise Resign("resigned")
            if text in ("help", "?"):
                self._say(HELP)
                continue
            if text == "moves":
                self._say(" ".join(game.format_move(m) for m in legal))
                continue
            if text == "board":
                self._say(state.render())
                continue
            if text == "undo":
                raise Undo
            try:
                move = game.parse_move(text)
            except ArenaError as exc:
                self._say(f"not a move: {exc} (type help)")
                continue
            if move not in legal:
                self._say(
                    f"{game.format_move(move)} is not legal here; legal: "
                    + " ".join(game.format_move(m) for m in legal)
                )
                continue
            self.last_search = SearchInfo()
            return move
