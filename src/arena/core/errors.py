"""The errors arena raises for bad input. The CLI prints any of them as one line.

Tests: tests/core/test_game_api.py, tests/cli/test_cli.py
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

EXCERPT = 40
"""The most characters of a user's value an error message quotes."""


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """``text`` to quote in an error message: whole when short, else its first
    ``limit`` characters and how long it was, so a 5,000-digit value is not echoed.

    >>> excerpt("19")
    '19'
    >>> excerpt("9" * 5000)
    '9999999999999999999999999999999999999999... (5,000 characters)'
    """
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text):,} characters)"


def clipped(message: str, longest: int = 200) -> str:
    """An error message with any word of more than ``longest`` characters (a value no
    message should have echoed whole) cut to :func:`excerpt` length: the net under
    the messages that quote what the user gave.

    >>> clipped("move 3: '" + "z" * 1000 + "' is not a cell")
    "move 3: 'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz... (1,002 characters) is not a cell"
    """
    return printable(re.sub(rf"\S{{{longest + 1},}}", lambda m: excerpt(m.group()), message))


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""Control characters other than tab and newline: C0, DEL and C1."""


def printable(text: str) -> str:
    """``text`` with its control characters (but tab and newline) written as escapes: what
    an agent wrote (its stderr, an exception's message, the name a program gives itself)
    reaches the terminal of whoever runs arena, where ``ESC`` sequences would clear the
    screen, redraw the standings or set the clipboard.

    >>> printable("boom\\x1b[2J\\x1b]52;c;cm0gLXJm\\x07 at agent.py:3\\r")
    'boom\\\\x1b[2J\\\\x1b]52;c;cm0gLXJm\\\\x07 at agent.py:3\\\\x0d'
    """
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


class ArenaError(ValueError):
    """Base class: something the user gave (a spec, a move, a file) is not valid."""


class SpecError(ArenaError):
    """A spec string names something unknown or a value that is not valid."""


class MoveSyntaxError(ArenaError):
    """Text that is not a move in the game's notation."""


class IllegalMove(ArenaError):
    """A move that is not legal in the position it was played in.

    >>> import arena
    >>> s = arena.load_game("tictactoe").initial_state().play(0)
    >>> s.play(0)
    Traceback (most recent call last):
    ...
    arena.core.errors.IllegalMove: illegal move a1: the cell is occupied
    """

    def __init__(self, move: Any, reason: str, text: str | None = None) -> None:
        self.move = move
        self.reason = reason
        super().__init__(f"illegal move {text if text is not None else move}: {reason}")


def read_text(path: str | Path, name: str | None = None) -> str:
    """The UTF-8 text of the file at ``path``, or an :class:`ArenaError` in one line that
    starts with ``name`` (default: the path) and says what is wrong: missing, unreadable,
    or not text (the first byte that is not UTF-8).

    >>> read_text("/no/such/file", "rubric /no/such/file")
    Traceback (most recent call last):
    ...
    arena.core.errors.ArenaError: rubric /no/such/file: No such file or directory
    """
    where = str(path) if name is None else name
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ArenaError(f"{where}: not text (byte {exc.start} is not UTF-8)") from None
    except OSError as exc:
        raise ArenaError(f"{where}: {exc.strerror or exc}") from None


class GameOver(ArenaError):
    """A move was asked of a finished game: every agent refuses it alike (see
    :class:`arena.core.agent.Agent`), rather than failing inside its search.

    >>> import arena
    >>> state = arena.load_game("tictactoe").initial_state()
    >>> for move in (0, 3, 1, 4, 2):
    ...     state = state.play(move)
    >>> arena.load_agent("random").choose(state, arena.Limit())
    Traceback (most recent call last):
    ...
    arena.core.errors.GameOver: random: no move: the game is over (X wins)
    """


class AgentFailure(ArenaError):
    """An agent in another process broke the rules of play: ``reason`` is the referee's
    forfeit reason (``time``, ``crash`` or ``illegal``) and ``detail`` says what happened."""

    def __init__(self, reason: str, detail: str) -> None:
        self.reason = reason
        self.detail = detail
        super().__init__(detail)
