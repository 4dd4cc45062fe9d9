"""One board of the web app: a game, the line of moves played and the position shown.

The line is a list of moves; ``ply`` is the position on screen. Going back
keeps the moves after it (forward replays them); playing another move anywhere
but at the end starts a branch: the old line is kept in ``lines`` (as is the
tail a take-back removes), and :meth:`Board.switch` goes back to it. ``evals`` keeps
one evaluation per position (the first player's winning chance from the last
search made there), for the graph.

>>> import arena
>>> board = Board(arena.load_game("tictactoe"))
>>> for text in ("b2", "a1", "c3"):
...     board.play_text(text)
>>> board.goto(1); board.play_text("c1"); board.texts()
['b2', 'c1']
>>> board.switch(0); board.texts(), board.ply
(['b2', 'a1', 'c3'], 2)
>>> board.play_text("a1")
Traceback (most recent call last):
...
arena.core.errors.IllegalMove: illegal move a1: the cell is occupied

Boards are also built from what the browser sends: a line of moves
(:func:`new_board`), or a JSON record or an SGF file (:func:`load_board`).

Tests: tests/web/test_board.py
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from arena.core.agent import SearchInfo
from arena.core.errors import ArenaError
from arena.core.evaluation import SCALE
from arena.core.game import Game, State
from arena.core.words import plural
from arena.formats.record import GameRecord
from arena.formats.sgf import from_sgf
from arena.games import load_game
from arena.search.values import PROVEN
from arena.web.messages import BadMessage

MAX_PLIES = 5000
"""The longest line a board keeps (Go 19x19 games stay well below)."""
MAX_LINES = 20
"""Other lines kept (the oldest go first)."""


@dataclass
class Board:
    game: Game
    seed: int | None = None
    moves: list[int] = field(default_factory=list)
    ply: int = 0
    states: list[State] = field(default_factory=list)
    evals: list[float | None] = field(default_factory=list)
    lines: list[tuple[list[int], list[float | None]]] = field(default_factory=list)
    """Other lines (moves, evaluations) that a branch or a take-back replaced."""

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
        if not self.at_end and self.moves[self.ply] == move:
            self.ply += 1  # the line's own move: forward
            return
        after = self.state.play(move)
        if not self.at_end:
            self.keep()
        self.truncate()
        self.moves.append(move)
        self.states.append(after)
        self.evals.append(outcome(after))
        self.ply += 1

    def play_text(self, text: str) -> None:
        move = self.game.parse_move(str(text))
        if move not in self.state.legal_moves() and self.state.is_terminal():
            raise ArenaError("the game is over")
        self.play(move)

    def goto(self, ply: int) -> None:
        if not 0 <= ply <= len(self.moves):
            raise ArenaError(f"no position {ply}: the line has {plural(len(self.moves), 'move')}")
        self.ply = ply

    def truncate(self) -> None:
        """Forget the moves after the position shown."""
        del self.moves[self.ply :], self.states[self.ply + 1 :], self.evals[self.ply + 1 :]

    def keep(self, besides: list[int] | None = None) -> None:
        """Remember the whole line among the other lines (before it is cut), unless
        it is the start of one of them (or of ``besides``)."""
        n = len(self.moves)
        others = [moves for moves, _ in self.lines] + ([besides] if besides is not None else [])
        if n and not any(moves[:n] == self.moves for moves in others):
            self.lines.append((list(self.moves), list(self.evals)))
            del self.lines[:-MAX_LINES]

    def switch(self, index: int) -> None:
        """Make other line ``index`` the line (this one is kept); show where they part."""
        if not 0 <= index < len(self.lines):
            raise ArenaError(f"no line {index}: there are {len(self.lines)} other lines")
        moves, evals = self.lines.pop(index)
        self.keep(besides=moves)
        fork = self.fork(moves)
        del self.states[fork + 1 :]
        for move in moves[fork:]:
            self.states.append(self.states[-1].play(move))  # legal: it was played before
        self.moves, self.evals = list(moves), list(evals)
        self.ply = min(fork + 1, len(moves))

    def fork(self, moves: list[int]) -> int:
        """How many first moves ``moves`` shares with the line."""
        n = 0
        for a, b in zip(self.moves, moves):
            if a != b:
                break
            n += 1
        return n

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

    def record(self, players: tuple[str, str], lost_on_time: int | None = None) -> GameRecord:
        """The line (all of it, not only up to the position shown) as a game record;
        ``lost_on_time`` is the side whose clock ran out, if one did."""
        end = self.states[-1]
        returns = end.returns()
        if lost_on_time is not None:
            returns = (-1, 1) if lost_on_time == 0 else (1, -1)
        return GameRecord(
            game=self.game.spec,
            players=players,
            moves=self.texts(),
            seconds=[0.0] * len(self.moves),
            returns=returns,
            reason="normal" if lost_on_time is None else "time",
            loser=lost_on_time,
            seed=self.seed,
            score=end.score() if end.is_terminal() else None,
        )


def outcome(state: State) -> float | None:
    """The first player's result once the game is over (1, 0.5 or 0), else None."""
    return (state.returns()[0] + 1) / 2 if state.is_terminal() else None


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


def read_game_file(text: str) -> tuple[str, list[str], int | None]:
    """The game spec, moves and seed of a JSON record or an SGF file."""
    stripped = text.lstrip()
    if stripped.startswith("{"):
        try:
            record = GameRecord.from_json(
                stripped.splitlines()[0] if "\n" in stripped else stripped
            )
        except (ValueError, TypeError) as exc:
            raise BadMessage(f"not a game record: {exc}") from None
        if not isinstance(record.game, str) or not isinstance(record.moves, list):
            raise BadMessage("not a game record: 'game' and 'moves' are missing")
        seed = record.seed if isinstance(record.seed, int) else None
        return record.game, [str(m) for m in record.moves], seed
    if stripped.startswith("("):
        spec, moves = from_sgf(stripped)
        return spec, moves, None
    raise BadMessage("not a JSON game record or an SGF file")


def load_board(text: str) -> Board:
    """The board of a JSON record or an SGF file holding one game (at its last move)."""
    spec, moves, seed = read_game_file(text)
    return new_board(load_game(spec), seed, moves)


def new_board(game: Any, seed: int | None, moves: Any) -> Board:
    """A board of ``game`` after ``moves`` (a string or a list of them, as the browser sends)."""
    board = Board(game, seed)
    _replay(board, _moves(game, moves))
    return board


def _replay(board: Board, moves: list[int]) -> None:
    for number, move in enumerate(moves, 1):
        try:
            board.play(move)
        except ArenaError as exc:
            raise ArenaError(f"move {number}: {exc}") from None


def _moves(game: Any, moves: Any) -> list[int]:
    if isinstance(moves, list) and all(isinstance(m, str) for m in moves):
        if len(moves) > MAX_PLIES:
            raise BadMessage(f"too many moves (at most {MAX_PLIES})")
        return game.parse_moves(moves)  # type: ignore[no-any-return]
    if isinstance(moves, str):
        if len(moves) > 20 * MAX_PLIES:
            raise BadMessage(f"too many moves (at most {MAX_PLIES})")
        return game.parse_moves(moves)  # type: ignore[no-any-return]
    raise BadMessage("'moves' is a string of moves or a list of them")
