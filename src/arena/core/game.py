"""The game API every game, agent and tool in arena is written against.

A :class:`Game` is a rule set with its parameters; a :class:`State` is one
immutable, hashable position of it. Moves are plain ints in a deterministic
order; each game turns them to and from its standard notation.

>>> import arena
>>> game = arena.load_game("connect4:rows=6,cols=7,k=4")
>>> state = game.initial_state()
>>> state.to_move, state.legal_moves()
(0, (0, 1, 2, 3, 4, 5, 6))
>>> state = state.play(game.parse_move("4"))
>>> state.to_move, state.ply, game.format_move(3)
(1, 1, '4')
>>> state.is_terminal(), state.returns()
(False, (0, 0))
>>> arena.load_game("connect4:rows=2")
Traceback (most recent call last):
...
arena.core.errors.SpecError: connect4: rows=2 is out of range (4..20)

Tests: tests/core/test_game_api.py
"""

from __future__ import annotations

import random
import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from arena.core.errors import ArenaError, IllegalMove, MoveSyntaxError, SpecError
from arena.core.spec import Param, bind_params, format_spec

PACKED = re.compile(r"(?i)pass|[a-z]+[0-9]+")
"""One move in a packed line of letter-and-number moves (``f5d6c3``, ``D4passE5``)."""

__all__ = [
    "Game",
    "IllegalMove",
    "MoveSyntaxError",
    "Returns",
    "SpecError",
    "State",
    "position",
    "returns_of_margin",
    "winner_of",
]

Returns = tuple[int, int]


def returns_of_margin(margin: float | None) -> Returns:
    """The returns of a game decided by a count: the first player wins with a
    positive margin, loses with a negative one; zero (or no count) is a draw.

    >>> returns_of_margin(3.5), returns_of_margin(-2), returns_of_margin(0)
    ((1, -1), (-1, 1), (0, 0))
    """
    if margin is None or margin == 0:
        return (0, 0)
    return (1, -1) if margin > 0 else (-1, 1)


def winner_of(returns: Returns) -> int | None:
    """0 or 1 for the player the returns make the winner, None for a draw (or no result).

    >>> winner_of((1, -1)), winner_of((-1, 1)), winner_of((0, 0))
    (0, 1, None)
    """
    return 0 if returns[0] > 0 else 1 if returns[0] < 0 else None


class Game(ABC):
    """A rule set with bound parameters. Subclasses declare ``name``, ``params``
    and ``summary`` and implement :meth:`initial_state` and the notation."""

    name: ClassVar[str]
    summary: ClassVar[str]
    params: ClassVar[tuple[Param, ...]] = ()
    player_names: ClassVar[tuple[str, str]] = ("first player", "second player")
    marks: ClassVar[tuple[str, str]] = ("X", "O")
    """How :meth:`State.render` draws each player's stones or pieces (for legends)."""
    notation: ClassVar[str] = "the game's own move notation"
    """How a move is written, for people (``help`` at the terminal shows it with an example)."""

    def __init__(self, **params: Any) -> None:
        values = bind_params(self.name, self.params, params)
        self.config: dict[str, Any] = values
        self.spec: str = format_spec(self.name, values, self.params)
        self._setup(**values)

    def _setup(self, **values: Any) -> None:
        """Derive tables from the bound parameters; raise SpecError on bad combinations."""

    @abstractmethod
    def initial_state(self, seed: int | None = None) -> State:
        """The start position (``seed`` matters only for games with random set-ups)."""

    @abstractmethod
    def format_move(self, move: int) -> str:
        """The move in the game's standard notation."""

    @abstractmethod
    def parse_move(self, text: str) -> int:
        """Parse one move (case-insensitive); raise :class:`MoveSyntaxError` otherwise."""

    def parse_moves(self, text: str | Iterable[str]) -> list[int]:
        """Parse a line of moves: separated by spaces or commas, or packed where the notation
        allows (``f5d6c3``: a letter then a number, each); a list's items are read the same
        way, so ``["f5 d6", "c3"]`` (a shell's arguments) is three moves too. Every command
        and the web board read a line of moves here.

        >>> import arena
        >>> game = arena.load_game("othello")
        >>> game.parse_moves("f5d6c3") == game.parse_moves(["f5 d6", "c3"])
        True
        """
        items = [text] if isinstance(text, str) else list(text)
        return [
            self.parse_move(token)
            for item in items
            for word in item.replace(",", " ").split()
            for token in self.unpack(word)
        ]

    def unpack(self, word: str) -> list[str]:
        """The moves packed in one word without spaces (``f5d6c3``: three), or the word itself
        when it is one move or no packing reads it (its error then names it whole)."""
        try:
            self.parse_move(word)
            return [word]
        except ArenaError:
            pieces = PACKED.findall(word)
            return pieces if pieces and "".join(pieces) == word else [word]

    def play_moves(self, moves: Sequence[int], state: State | None = None) -> State:
        """Play ``moves`` from ``state`` (default: the initial state)."""
        state = self.initial_state() if state is None else state
        for move in moves:
            state = state.play(move)
        return state

    def playout(self, state: State, rng: random.Random, moves: list[int] | None = None) -> Returns:
        """Finish the game with uniformly random legal moves; return the returns.

        Games override this with a faster private simulation that must equal
        this loop in law: each move uniform over the legal moves. Tests replay
        the moves it appends to ``moves`` through :meth:`State.play`.
        """
        while not state.is_terminal():
            move = rng.choice(state.legal_moves())
            if moves is not None:
                moves.append(move)
            state = state.play(move)
        return state.returns()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and other.spec == self.spec

    def __hash__(self) -> int:
        return hash(self.spec)

    def __repr__(self) -> str:
        return f"load_game({self.spec!r})"


class State(ABC):
    """One immutable position.

    Subclasses keep their fields in private ``__slots__`` and never change them
    after construction; the public fields are read-only properties, so
    ``state.to_move = 1`` or ``state.anything = 1`` raises AttributeError.
    """

    __slots__ = ("_game", "_hash", "_ply", "_to_move")

    _game: Game
    _to_move: int
    _ply: int

    @property
    def game(self) -> Game:
        return self._game

    @property
    def to_move(self) -> int:
        """0 when the first player moves, 1 for the second."""
        return self._to_move

    @property
    def ply(self) -> int:
        """Moves played since the initial state (passes included)."""
        return self._ply

    @abstractmethod
    def legal_moves(self) -> tuple[int, ...]:
        """The legal moves in a deterministic order (empty when terminal)."""

    @abstractmethod
    def play(self, move: int) -> State:
        """The state after ``move``; raises :class:`IllegalMove` with the reason."""

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def returns(self) -> Returns:
        """``(r0, r1)`` in {+1, 0, -1}, zero-sum; ``(0, 0)`` while the game goes on."""

    def score(self) -> float | None:
        """The margin for the first player by the game's count (discs, area, zone),
        or None for games that only have win, draw and loss."""
        return None

    def expected_plies_left(self) -> float | None:
        """How many more plies the game is likely to last, for an agent sharing out its
        clock (:mod:`arena.search.clock.time_management`), or None when the game knows no
        better than a general guess (40 plies). Go counts its empty points: a 19x19 game
        lasts hundreds of plies, and a clock shared over 40 is spent by the middle game."""
        return None

    @abstractmethod
    def _ident(self) -> tuple[Any, ...]:
        """Everything that decides the future of the game, for equality."""

    @abstractmethod
    def _compute_key(self) -> int: ...

    def key(self) -> int:
        """A 64-bit hash of the position for transposition tables (cached)."""
        try:
            return self._hash
        except AttributeError:
            value = self._hash = self._compute_key()
            return value

    @abstractmethod
    def render(self) -> str:
        """The board as text with coordinates."""

    def winner(self) -> int | None:
        """0 or 1 when that player has won, None otherwise."""
        return winner_of(self.returns())

    def score_detail(self) -> str:
        """How the final count is made up, for people (Go: ``B 12, W 12 + 7.5 komi``);
        empty where the margin says it all."""
        return ""

    def result_text(self, names: Sequence[str] | None = None) -> str:
        """A sentence on how the game stands: whose move, or who won and by what.

        ``names`` replaces the game's player names (e.g. ``Yellow (mcts)``).
        """
        names = tuple(names) if names is not None else self._game.player_names
        if not self.is_terminal():
            return f"{names[self._to_move]} to move"
        margin = self.score()
        won = self.winner()
        detail = self.score_detail()
        count = f": {detail}" if detail else ""
        if won is None:
            return "draw" if margin is None else f"draw ({margin_text(margin)}{count})"
        by = "" if margin is None else f" by {margin_text(abs(margin))}"
        return f"{names[won]} wins{by}{count}"

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is type(self)
            and other._game == self._game  # type: ignore[attr-defined]
            and other._ident() == self._ident()  # type: ignore[attr-defined]
        )

    def __hash__(self) -> int:
        return self.key()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self._game.spec} ply={self._ply} {self.result_text()}>"


def position(game: Game, moves: Sequence[str], seed: int | None = None) -> State:
    """The state after ``moves`` (notation tokens) from the initial state of ``seed``;
    an error names the move that failed by its number in the sequence.

    >>> import arena
    >>> position(arena.load_game("tictactoe"), ["b2", "a1"]).ply
    2
    >>> position(arena.load_game("tictactoe"), ["b2", "b2"])
    Traceback (most recent call last):
    ...
    arena.core.errors.ArenaError: move 2: illegal move b2: the cell is occupied
    """
    state = game.initial_state(seed)
    for number, move in enumerate(game.parse_moves(list(moves)), 1):
        try:
            state = state.play(move)
        except ArenaError as exc:
            raise ArenaError(f"move {number}: {exc}") from None
    return state


def margin_text(margin: float) -> str:
    """A margin as people write it: ``7`` rather than ``7.0``, ``7.5`` as it is."""
    return str(int(margin)) if float(margin).is_integer() else str(margin)
