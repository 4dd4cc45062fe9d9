"""GTP version 2 framing, shared by the server (``arena gtp``) and the client agent.

A command is one line, ``[id] command_name [arguments]``; a reply is
``=[id] text`` (success) or ``?[id] text`` (failure), possibly over several
lines, ended by one empty line. Vertices are Go coordinates (letters without
I, row 1 at the bottom) or ``pass``; for other games arena uses the game's own
notation (see :func:`to_vertex`).

>>> parse_command("12 play black D4  # a comment")
Command(id=12, name='play', args=('black', 'D4'))
>>> parse_command("   # only a comment") is None
True
>>> format_reply(12, True, "D4")
'=12 D4\\n\\n'
>>> format_reply(None, False, "unknown command")
'? unknown command\\n\\n'
>>> read_reply(iter(["=3 C3\\n", "\\n"]))
(True, 'C3')

Tests: tests/remote/gtp/test_protocol.py
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from arena.core.errors import ArenaError, MoveSyntaxError
from arena.core.game import Game
from arena.core.spec import is_digits

__all__ = [
    "Command",
    "GTPError",
    "clean_line",
    "colour_name",
    "format_reply",
    "from_vertex",
    "parse_colour",
    "parse_command",
    "read_reply",
    "to_vertex",
]

# Spec 3.1: every control character except HT and LF goes (CR included).
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_STATUS = re.compile(r"([=?])(\d*)(?: (.*)|)$", re.DOTALL)


class GTPError(ArenaError):
    """A malformed GTP line, or a failure reply from an engine.

    ``id`` is the command id the error belongs to, when one was read.
    """

    def __init__(self, message: str, id: int | None = None) -> None:
        super().__init__(message)
        self.id = id


@dataclass(frozen=True)
class Command:
    """One parsed command line; ``name`` is lower-cased."""

    id: int | None
    name: str
    args: tuple[str, ...]


def clean_line(raw: str) -> str:
    """Preprocess one line as GTP spec section 3.1 says; ``''`` means "ignore it".

    >>> clean_line("1\\tplay b\\x07 c3 # mine\\r\\n")
    '1 play b c3'
    >>> clean_line("# just talk")
    ''
    """
    text = _CONTROL.sub("", raw).replace("\n", "")
    text = text.split("#", 1)[0]
    return text.replace("\t", " ").strip()


def parse_command(raw: str) -> Command | None:
    """The command on one line, None for a line to ignore; GTPError if malformed.

    >>> parse_command("7")
    Traceback (most recent call last):
    ...
    arena.remote.gtp.protocol.GTPError: command id 7 without a command
    """
    tokens = clean_line(raw).split()
    if not tokens:
        return None
    id: int | None = None
    if is_digits(tokens[0]):
        id = int(tokens[0])
        tokens = tokens[1:]
        if not tokens:
            raise GTPError(f"command id {id} without a command", id)
    return Command(id, tokens[0].lower(), tuple(tokens[1:]))


def format_reply(id: int | None, ok: bool, text: str = "") -> str:
    """A reply ready to write: ``=id text`` or ``?id text``, then an empty line.

    Trailing spaces are dropped and so are empty lines inside ``text`` (one would
    end the reply early); a multi-line text starts right after the status.

    >>> format_reply(None, True, "line one\\n\\nline two  ")
    '= line one\\nline two\\n\\n'
    """
    lines = [line.rstrip() for line in _CONTROL.sub("", text).split("\n")]
    head = ("=" if ok else "?") + ("" if id is None else str(id))
    if lines[0]:
        head += " " + lines[0]
    return "\n".join([head, *(line for line in lines[1:] if line)]) + "\n\n"


def read_reply(source: Iterator[str] | Callable[[], str]) -> tuple[bool, str]:
    """Read one reply: ``(ok, text)`` without the status and id; GTPError on garbage.

    ``source`` is an iterator of lines or a ``readline`` callable (which returns
    ``''`` at end of file). Empty lines before the status are skipped; end of
    file right after a reply's lines ends the reply (an engine quitting).

    >>> read_reply(iter(["= \\n", "  A B\\n", "1 . .\\n", "\\n"]))
    (True, '  A B\\n1 . .')
    >>> read_reply(iter(["?5 illegal move\\n", "\\n"]))
    (False, 'illegal move')
    >>> read_reply(iter(["hello"]))
    Traceback (most recent call last):
    ...
    arena.remote.gtp.protocol.GTPError: not a GTP reply: 'hello'
    """
    readline = source if callable(source) else lambda: next(source, "")
    first = ""
    while not first:
        raw = readline()
        if raw == "":
            raise GTPError("the engine closed the connection without a reply")
        first = _CONTROL.sub("", raw).replace("\t", " ").rstrip("\n").rstrip()
    match = _STATUS.match(first)
    if match is None:
        raise GTPError(f"not a GTP reply: {first[:80]!r}")
    lines = [match.group(3) or ""]
    while True:
        raw = readline()
        line = _CONTROL.sub("", raw).replace("\t", " ").rstrip("\n").rstrip()
        if not line:
            break
        lines.append(line)
    return match.group(1) == "=", "\n".join(lines).strip("\n")


def parse_colour(text: str) -> int:
    """0 for black (who moves first), 1 for white; GTPError otherwise.

    >>> parse_colour("B"), parse_colour("White")
    (0, 1)
    """
    colour = text.lower()
    if colour in ("b", "black"):
        return 0
    if colour in ("w", "white"):
        return 1
    raise GTPError(f"invalid color {text!r}: expected black or white")


def colour_name(player: int) -> str:
    """``'black'`` for player 0, ``'white'`` for player 1."""
    return "black" if player == 0 else "white"


def to_vertex(game: Game, move: int) -> str:
    """The GTP vertex of ``move``.

    Go's notation already is GTP; Othello's is upper-cased (``D3``, rows from
    the top, as GRhino speaks); any other game keeps its own notation.

    >>> from arena.games import load_game
    >>> to_vertex(load_game("othello"), 19), to_vertex(load_game("go:size=9"), 81)
    ('D3', 'pass')
    """
    text = game.format_move(move)
    if game.name == "othello" and text != "pass":
        return text.upper()
    return text


def from_vertex(game: Game, text: str) -> int:
    """The move a GTP vertex names (case-insensitive); GTPError if it names none.

    >>> from arena.games import load_game
    >>> from_vertex(load_game("othello"), "D3"), from_vertex(load_game("go:size=9"), "PASS")
    (19, 81)
    >>> from_vertex(load_game("go:size=9"), "Z1")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    arena.remote.gtp.protocol.GTPError: invalid vertex 'Z1': 'Z1' is not a cell A1..J9 ...
    """
    try:
        return game.parse_move(text)
    except MoveSyntaxError as err:
        raise GTPError(f"invalid vertex {text!r}: {err}") from None
