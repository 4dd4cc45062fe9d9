"""``human``: a person at the terminal, in the game's notation.

The prompt shows the board and the legal moves and asks again on bad
input. ``help`` lists the commands, ``moves`` the legal moves, ``undo``
takes back your last move and the reply (where the match allows it), and
``quit`` resigns the game.

Tests: tests/agents/test_agent_api.py
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TextIO

from arena.core.agent import Agent, Resign, SearchInfo, Undo
from arena.core.errors import ArenaError
from arena.core.game import Game, State
from arena.core.limit import Limit
from arena.core.spec import Param

HELP = (
    "type a move in the game's notation, or: moves (list legal moves), board (show it again), "
    "undo (take back your last move), save FILE (write the game so far), quit (resign), help"
)


class HumanAgent(Agent):
    name = "human"
    summary = "you, at the terminal: type moves in the game's notation"
    params = (Param("board", bool, True, "show the board before each move"),)

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None, **params: object):
        super().__init__(**params)
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self._my_plies: list[int] = []
        """The plies at which this person moved, to know whether ``undo`` can take one back."""
        self.legend: str | None = None
        """Shown under the board: which mark is whose (``X Red (you)  O Yellow (mcts)``)."""
        self.saver: Callable[[str], str] | None = None
        """Writes the game so far to a file (set by ``arena play``); returns what to say."""

    def _say(self, text: str) -> None:
        print(text, file=self.stdout, flush=True)

    def reset(self, game: Game | None = None) -> None:
        self._my_plies = []

    def choose(self, state: State, limit: Limit) -> int:
        game = state.game
        legal = state.legal_moves()
        plies = self._my_plies
        while plies and plies[-1] >= state.ply:  # the match took those moves back
            plies.pop()
        if self.config["board"]:
            self._show(state)
        self._say(f"{game.player_names[state.to_move]} to move; {self._legal_text(state, legal)}")
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
                example = game.format_move(legal[len(legal) // 2]) if legal else "-"
                self._say(f"{HELP}\nmoves: {game.notation}; for example {example}")
                continue
            if text == "moves":
                self._say(" ".join(game.format_move(m) for m in legal))
                continue
            if text == "board":
                self._show(state)
                continue
            if text == "save" or text.startswith("save "):
                path = line.strip()[len("save") :].strip()
                if self.saver is None:
                    self._say("save works in 'arena play' games")
                elif not path:
                    self._say("save FILE: name the file (FILE.sgf for SGF)")
                else:
                    self._say(self.saver(path))
                continue
            if text == "undo":
                if not plies:
                    self._say("nothing to undo: you have not moved yet in this game")
                    continue
                raise Undo
            try:
                move = game.parse_move(text)
            except ArenaError as exc:
                self._say(f"not a move: {exc} (type help)")
                continue
            if move not in legal:
                self._say(
                    f"{game.format_move(move)} is not legal here: {_why_illegal(state, move)}"
                )
                continue
            self.last_search = SearchInfo()
            plies.append(state.ply)
            return move

    def _show(self, state: State) -> None:
        self._say(state.render())
        if self.legend:
            self._say(self.legend)

    @staticmethod
    def _legal_text(state: State, legal: tuple[int, ...]) -> str:
        # 82 moves of Go 9x9 or 225 of Gomoku at every prompt drown the board.
        if len(legal) <= LIST_AT_MOST:
            return "legal: " + " ".join(state.game.format_move(m) for m in legal)
        return f"{len(legal)} legal moves (type moves to list them)"


LIST_AT_MOST = 20
"""Legal moves listed at the prompt; more are counted, and ``moves`` lists them."""


def _why_illegal(state: State, move: int) -> str:
    """The rules' own reason ("the column is full", "suicide", "ko")."""
    try:
        state.play(move)
    except ArenaError as exc:
        return str(exc)
    return "not among the legal moves"
