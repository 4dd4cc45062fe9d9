"""The Gomocup brain protocol's text, shared by the server (``arena pbrain``) and the client.

A manager sends one command a line (``START 15``, ``INFO timeout_turn 1000``,
``BEGIN``, ``TURN 7,8``, ``BOARD`` ... ``DONE``, ``END``); a brain answers a
move as ``x,y`` and may say ``MESSAGE``, ``DEBUG``, ``SUGGEST`` lines on the
way, or ``ERROR``/``UNKNOWN`` when it cannot do what it was asked.

Coordinates are ``x,y``, both from 0 at the top-left corner: ``x`` is the
column and ``y`` the row. Arena's Gomoku move is ``row * size + col`` with row
0 at the top, so the move is ``y * size + x`` (``H8``, the centre of 15x15, is
``7,7``; ``A15``, the top-left corner, is ``0,0``).

>>> import arena
>>> game = arena.load_game("gomoku")
>>> to_xy(game, game.parse_move("A15")), to_xy(game, game.parse_move("B1"))
('0,0', '1,14')
>>> game.format_move(from_xy(game, "1,14"))
'B1'
>>> parse_reply("MESSAGE thinking hard")
Reply(kind='MESSAGE', text='thinking hard')
>>> parse_reply(" 7 , 8 ")
Reply(kind='MOVE', text='7,8')

The rule of ``INFO rule`` is a bit set: 1 is exactly five (arena's
``overline=nowin``), 0 freestyle (``overline=win``); 2 (a continuous game)
does not change a single game; renju (4) and caro (8) arena does not play.

>>> rule_of(game), overline_of_rule(1)
(0, 'nowin')

Tests: tests/remote/pbrain/test_pbrain_protocol.py
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import zip_longest

from arena.core.errors import ArenaError
from arena.core.game import Game, State

__all__ = [
    "EXACT_FIVE",
    "PbrainError",
    "Reply",
    "board_lines",
    "check_game",
    "from_xy",
    "overline_of_rule",
    "parse_reply",
    "parse_xy",
    "rule_of",
    "state_of_board",
    "to_xy",
]

EXACT_FIVE = 1
"""The ``INFO rule`` bit of exactly five in a row (an overline does not win)."""
CONTINUOUS = 2
"""The bit of a continuous game (the board goes on after a five): nothing to a single game."""
_UNPLAYED = 4 | 8
"""Renju (4) and caro (8): rules arena's Gomoku does not play."""

_XY = re.compile(r"^\s*(\d{1,3})\s*,\s*(\d{1,3})\s*$")
_XYF = re.compile(r"^\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*$")
_KINDS = ("MESSAGE", "DEBUG", "SUGGEST", "ERROR", "UNKNOWN", "OK")


class PbrainError(ArenaError):
    """A malformed protocol line, or a position the protocol cannot carry."""


@dataclass(frozen=True)
class Reply:
    """One line from a brain: ``kind`` is ``MOVE`` (``text`` the ``x,y``), one of
    ``OK``, ``MESSAGE``, ``DEBUG``, ``SUGGEST``, ``ERROR``, ``UNKNOWN`` (``text`` what
    follows the word), or ``OTHER`` (``text`` the whole line)."""

    kind: str
    text: str


def parse_reply(line: str) -> Reply:
    """What one line from a brain is (words are case-insensitive, as the protocol says).

    >>> parse_reply("ok"), parse_reply("ERROR unsupported size")
    (Reply(kind='OK', text=''), Reply(kind='ERROR', text='unsupported size'))
    >>> parse_reply("I resign")
    Reply(kind='OTHER', text='I resign')
    """
    text = line.strip()
    found = _XY.match(text)
    if found:
        return Reply("MOVE", f"{int(found.group(1))},{int(found.group(2))}")
    word, _, rest = text.partition(" ")
    if word.upper() in _KINDS:
        return Reply(word.upper(), rest.strip())
    return Reply("OTHER", text)


def parse_xy(text: str, size: int) -> tuple[int, int]:
    """The ``(x, y)`` of ``"x,y"`` on a ``size`` board; PbrainError if not one.

    >>> parse_xy("14,0", 15)
    (14, 0)
    >>> parse_xy("15,0", 15)
    Traceback (most recent call last):
    ...
    arena.remote.pbrain.protocol.PbrainError: '15,0' is off the 15x15 board (x and y are 0..14)
    """
    found = _XY.match(text)
    if found is None:
        raise PbrainError(f"{text.strip()[:40]!r} is not a point: expected x,y such as 7,7")
    x, y = int(found.group(1)), int(found.group(2))
    if x >= size or y >= size:
        raise PbrainError(
            f"{text.strip()!r} is off the {size}x{size} board (x and y are 0..{size - 1})"
        )
    return x, y


def from_xy(game: Game, text: str) -> int:
    """Arena's move for the point ``"x,y"`` (x the column, y the row from the top)."""
    size = game.config["size"]
    x, y = parse_xy(text, size)
    return y * size + x


def to_xy(game: Game, move: int) -> str:
    """The ``"x,y"`` of arena's move."""
    y, x = divmod(move, game.config["size"])
    return f"{x},{y}"


def check_game(game: Game) -> None:
    """PbrainError unless ``game`` is one the protocol plays: Gomoku, five in a row."""
    if game.name != "gomoku":
        raise PbrainError(f"Gomocup brains play gomoku, not {game.name}")
    if game.config["k"] != 5:
        raise PbrainError(f"Gomocup brains play five in a row, not gomoku:k={game.config['k']}")


def rule_of(game: Game) -> int:
    """The ``INFO rule`` value of a Gomoku game: 1 for exactly five, 0 for freestyle."""
    return EXACT_FIVE if game.config["overline"] == "nowin" else 0


def overline_of_rule(rule: int) -> str:
    """Arena's ``overline`` option for an ``INFO rule`` value; PbrainError for renju or caro.

    >>> overline_of_rule(0), overline_of_rule(3)
    ('win', 'nowin')
    >>> overline_of_rule(4)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    arena.remote.pbrain.protocol.PbrainError: rule 4 is renju: arena plays freestyle (rule 0) ...
    """
    if rule < 0:
        raise PbrainError(f"rule {rule} is not a rule: expected 0 (freestyle) or 1 (exactly five)")
    if rule & _UNPLAYED:
        name = "renju" if rule & 4 else "caro"
        raise PbrainError(
            f"rule {rule} is {name}: arena plays freestyle (rule 0) and exactly five (rule 1)"
        )
    return "nowin" if rule & EXACT_FIVE else "win"


def board_lines(state: State, moves: Iterable[int] | None = None) -> list[str]:
    """The ``x,y,field`` lines of a ``BOARD`` command for the player to move in ``state``:
    field 1 is the mover's own stone, 2 the opponent's.

    ``moves`` (the game's moves, when known) gives the order; otherwise the stones go
    alternately, the opponent's last, as a manager sends a game it did not follow.

    >>> import arena
    >>> game = arena.load_game("gomoku")
    >>> board_lines(game.play_moves(game.parse_moves("H8 A15 J8")))
    ['7,7,2', '0,0,1', '8,7,2']
    >>> board_lines(game.play_moves(game.parse_moves("H8 A15 J8 A14")))  # black to move
    ['7,7,1', '0,0,2', '8,7,1', '0,1,2']
    """
    game = state.game
    mover = state.to_move
    if moves is not None:
        order = list(moves)
    else:
        cells = range(game.config["size"] ** 2)
        own = [c for c in cells if state.stone(c) == mover]  # type: ignore[attr-defined]
        theirs = [c for c in cells if state.stone(c) == 1 - mover]  # type: ignore[attr-defined]
        # Black moved first and the colours alternate, so the opponent's stone is last.
        # Brains read the colours from this order (Rapfi takes the first stone as
        # black's and searches for whoever is to move after the last).
        black, white = (own, theirs) if mover == 0 else (theirs, own)
        pairs = zip_longest(black, white)  # black's last one has no white after it
        order = [stone for pair in pairs for stone in pair if stone is not None]
    return [
        f"{to_xy(game, move)},{1 if state.stone(move) == mover else 2}"  # type: ignore[attr-defined]
        for move in order
    ]


def state_of_board(game: Game, lines: Iterable[str]) -> tuple[State, list[int]]:
    """The position a ``BOARD`` command describes, with the player to move owning
    field 1, and the moves it was built from; PbrainError if it is not one.

    The stones are played in the order given, each colour's own order kept, the
    two colours alternating from the one with more stones (black, who starts).

    >>> import arena
    >>> game = arena.load_game("gomoku")
    >>> state, moves = state_of_board(game, ["7,7,2", "0,0,1", "8,7,2"])
    >>> state.to_move, game.format_move(moves[-1])
    (1, 'J8')
    >>> state_of_board(game, ["7,7,1", "7,7,2"])
    Traceback (most recent call last):
    ...
    arena.remote.pbrain.protocol.PbrainError: BOARD: 7,7 is given twice
    """
    size = game.config["size"]
    own: list[int] = []
    theirs: list[int] = []
    seen: set[int] = set()
    for line in lines:
        found = _XYF.match(line)
        if found is None:
            raise PbrainError(f"BOARD: {line.strip()[:40]!r} is not x,y,field")
        x, y, field = (int(g) for g in found.groups())
        parse_xy(f"{x},{y}", size)
        if field not in (1, 2):
            raise PbrainError(
                f"BOARD: field {field} at {x},{y}: expected 1 (own stone) or 2 (opponent's)"
            )
        move = y * size + x
        if move in seen:
            raise PbrainError(f"BOARD: {x},{y} is given twice")
        seen.add(move)
        (own if field == 1 else theirs).append(move)
    if len(own) == len(theirs):
        black, white = own, theirs  # the mover is black, to play an even ply
    elif len(theirs) == len(own) + 1:
        black, white = theirs, own
    else:
        raise PbrainError(
            f"BOARD: {len(own)} own stones and {len(theirs)} of the opponent's: the player to "
            "move has as many stones as the other, or one fewer"
        )
    moves = [m for pair in zip(black, white, strict=False) for m in pair]
    if len(black) > len(white):
        moves.append(black[-1])
    state = game.initial_state()
    for move in moves:
        if state.is_terminal():
            break
        state = state.play(move)
    if state.is_terminal():
        raise PbrainError("BOARD: the game is already over in that position")
    return state, moves
