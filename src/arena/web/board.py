"""One board of the web app: a game, the line of moves played and the position shown.

The line is a list of moves; ``ply`` is the position on screen. Going back
keeps the moves after it (forward replays them); playing a move anywhere but
at the end starts a branch: the moves after it are replaced. ``evals`` keeps
one evaluation per position (the first player's winning chance from the last
search made there), for the graph.

>>> import arena
>>> board = Board(arena.load_game("tictactoe"))
>>> for text in ("b2", "a1", "c3"):
...     board.play_text(text)
>>> board.goto(1); board.play_text("c1"); board.texts()
['b2', 'c1']
>>> board.play_text("c1")
Traceback (most recent call last):
...
arena.core.errors.IllegalMove: illegal move c1: the cell is occupied

Tests: tests/web/test_board.py
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from arena.core.agent import SearchInfo
from arena.core.errors import ArenaError
from arena.core.evaluation import SCALE
from arena.core.game import Game, State
from arena.formats.record import GameRecord
from arena.search.values import PROVEN

MAX_PLIES = 5000
"""The longest line a board keeps (Go 19x19 games stay well below)."""


@dataclass
class Board:
    game: Game
    seed: int | None = None
    moves: list[int] = field(default_factory=list)
    ply: int = 0
    states: list[State] = field(default_factory=list)
    evals: list[float | None] = field(default_factory=list)

    def __post_init__(self) -> None:
        moves, self.moves = self.moves, []
        self.states = [self.game.initial_state(self.seed)]
        self.evals = [None]
        for move in moves:
            self.play(move)

    @property
    def state(self) -> State:
        return self.states[self.ply]

    @property
    def at_end(self) -> bool:
        return self.ply == len(self.moves)

    def play(self, move: int) -> None:
        """Play ``move`` at the position shown (a branch when it is not the end)."""
        if self.ply >= MAX_PLIES:
            raise ArenaError(f"the line is at its longest ({MAX_PLIES} plies)")
        after = self.state.play(move)
        self.truncate()
        self.moves.append(move)
        self.states.append(after)
        self.evals.append(None)
        self.ply += 1

    def play_text(self, text: str) -> None:
        move = self.game.parse_move(str(text))
        if move not in self.state.legal_moves() and self.state.is_terminal():
            raise ArenaError("the game is over")
        self.play(move)

    def goto(self, ply: int) -> None:
        if not 0 <= ply <= len(self.moves):
            raise ArenaError(f"no position {ply}: the line has {len(self.moves)} moves")
        self.ply = ply

    def truncate(self) -> None:
        """Forget the moves after the position shown."""
        del self.moves[self.ply :], self.states[self.ply + 1 :], self.evals[self.ply + 1 :]

    def last_move(self) -> int | None:
        return self.moves[self.ply - 1] if self.ply else None

    def texts(self) -> list[str]:
        return [self.game.format_move(m) for m in self.moves]

    def note(self, ply: int, info: SearchInfo, to_move: int) -> float | None:
        """Remember the search made at ``ply`` as its evaluation; return it."""
        if not 0 <= ply < len(self.evals):
            return None
        chance = first_player_chance(info, to_move)
        if chance is not None:
            self.evals[ply] = chance
        return chance

    def record(self, players: tuple[str, str]) -> GameRecord:
        """The line (all of it, not only up to the position shown) as a game record."""
        end = self.states[-1]
        return GameRecord(
            game=self.game.spec,
            players=players,
            moves=self.texts(),
            seconds=[0.0] * len(self.moves),
            returns=end.returns(),
            reason="normal",
            seed=self.seed,
            score=end.score() if end.is_terminal() else None,
        )


def first_player_chance(info: SearchInfo, to_move: int) -> float | None:
    """The first player's winning chance in 0..1 from a search's root value.

    MCTS values are win rates of the player to move; alpha-beta values are
    evaluations (squashed into 0..1) or proven results.

    >>> first_player_chance(SearchInfo(value=0.75, root=[{"visits": 1}]), 1)
    0.25
    >>> first_player_chance(SearchInfo(value=PROVEN + 3, root=[{"value": 1}]), 0)
    1.0
    >>> round(first_player_chance(SearchInfo(value=0.0, root=[{"value": 0}]), 0), 2)
    0.5
    """
    value = info.value
    if value is None or not math.isfinite(value):
        return None
    if info.root and "visits" in info.root[0]:
        mine = min(1.0, max(0.0, value))
    elif abs(value) >= PROVEN:
        mine = 1.0 if value > 0 else 0.0
    else:
        mine = 1 / (1 + math.exp(-4 * value / SCALE))
    return round(mine if to_move == 0 else 1 - mine, 4)
