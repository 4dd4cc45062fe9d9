"""The arena's line protocol for agents in other processes (``cmd:COMMAND``).

One message per line, UTF-8, on the program's stdin and stdout; stderr is the
program's log. The whole exchange for one game::

    arena -> agent   arena 1 connect4:rows=6,cols=7,k=4 0 -
    agent -> arena   ready my-agent
    arena -> agent   turn time=0.95,clock=14.2,increment=1
    agent -> arena   4
    arena -> agent   turn time=1.02,clock=14.5,increment=1 4 4
    agent -> arena   3
    ...
    arena -> agent   quit

``arena VERSION GAME PLAYER SEED``
    A new game: the protocol version (1), the game spec, the agent's side
    (0 moves first, 1 second) and the seed of the initial position (``-``
    when none; only games with random set-ups use it). The agent answers
    ``ready`` (any words after it are its name) before its start-up time runs out.
``turn LIMIT MOVE...``
    The agent is to move. ``LIMIT`` is how much it may search, as
    ``key=value`` pairs joined by commas (``-`` for no bound): ``time`` seconds
    for this move, ``clock`` seconds left on its clock (the hard bound) with
    ``increment`` (seconds added after the move) and ``moves_to_go`` (moves
    the clock must last) when they apply, or a
    budget (``rollouts``, ``depth``, ``nodes``). Then every move of the game so
    far from the initial position, in the game's notation. The agent answers
    one line: its move in the game's notation.
``quit``
    The game is over; the program should exit (it is killed soon after).

A program that loses by its own doing may say why as its last line on stderr
before it exits: ``arena serve: forfeit crash: DETAIL`` (or ``forfeit illegal:``);
the record then gives that reason and detail (``serve`` does this for Python agents).

:func:`arena.remote.serve.serve` runs this loop for any Python agent.

>>> format_turn(Limit(time=0.5), ["4", "4"])
'turn time=0.5 4 4'
>>> parse_turn("turn time=0.5,clock=3 d3 c5")
(Limit(time=0.5, clock=3.0), ['d3', 'c5'])
>>> parse_hello("arena 1 othello:size=8,rule=standard 1 -")
Hello(game='othello:size=8,rule=standard', player=1, seed=None)
>>> parse_turn("turn time=fast")
Traceback (most recent call last):
...
arena.remote.protocol.ProtocolError: bad limit 'time=fast': time must be a number

Tests: tests/remote/test_line_protocol.py
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from arena.core.errors import ArenaError, MoveSyntaxError, SpecError
from arena.core.game import Game
from arena.core.limit import Limit
from arena.core.spec import split_pairs

VERSION = 1

_FLOAT_KEYS = ("time", "clock", "increment")
_INT_KEYS = ("depth", "rollouts", "nodes", "moves_to_go")


class ProtocolError(ArenaError):
    """A line that does not follow the protocol."""


@dataclass(frozen=True)
class Hello:
    game: str
    player: int
    seed: int | None


def format_hello(game: str, player: int, seed: int | None) -> str:
    return f"arena {VERSION} {game} {player} {'-' if seed is None else seed}"


def parse_hello(line: str) -> Hello:
    words = line.split()
    if len(words) != 5 or words[0] != "arena":
        raise ProtocolError(f"expected 'arena VERSION GAME PLAYER SEED', got {_show(line)}")
    _, version, game, player, seed = words
    if version != str(VERSION):
        raise ProtocolError(f"protocol version {_show(version)} is not supported (only {VERSION})")
    if player not in ("0", "1"):
        raise ProtocolError(f"player must be 0 or 1, got {_show(player)}")
    if seed != "-" and not _is_int(seed):
        raise ProtocolError(f"seed must be an integer or -, got {_show(seed)}")
    return Hello(game, int(player), None if seed == "-" else int(seed))


def format_limit(limit: Limit) -> str:
    pairs = [
        f"{f.name}={_number(getattr(limit, f.name))}"
        for f in fields(limit)
        if getattr(limit, f.name) is not None
    ]
    return ",".join(pairs) or "-"


def parse_limit(text: str) -> Limit:
    if text == "-":
        return Limit()
    try:
        raw = split_pairs(text, keys=(*_FLOAT_KEYS, *_INT_KEYS))
    except SpecError as exc:
        raise ProtocolError(f"bad limit {_show(text)}: {exc}") from None
    values: dict[str, float | int] = {}
    for key, value in raw.items():
        try:
            values[key] = float(value) if key in _FLOAT_KEYS else int(value)
        except ValueError:
            kind = "a number" if key in _FLOAT_KEYS else "an integer"
            raise ProtocolError(f"bad limit {_show(text)}: {key} must be {kind}") from None
    try:
        return Limit(**values)  # type: ignore[arg-type]
    except SpecError as exc:
        raise ProtocolError(f"bad limit {_show(text)}: {exc}") from None


def format_turn(limit: Limit, moves: list[str]) -> str:
    return " ".join(["turn", format_limit(limit), *moves])


def parse_turn(line: str) -> tuple[Limit, list[str]]:
    words = line.split()
    if len(words) < 2 or words[0] != "turn":
        raise ProtocolError(f"expected 'turn LIMIT MOVE...', got {_show(line)}")
    return parse_limit(words[1]), words[2:]


def parse_answer(game: Game, line: str) -> int:
    """The move in an agent's answer line (legality is the referee's business)."""
    words = line.split()
    if len(words) != 1:
        what = "an empty line" if not words else f"{len(words)} words"
        raise ProtocolError(f"expected one move, got {what}: {_show(line)}")
    try:
        return game.parse_move(words[0])
    except MoveSyntaxError as exc:
        raise ProtocolError(f"answer {_show(line)} is not a move: {exc}") from None


FORFEIT = "arena serve: forfeit "
"""How a served agent's last stderr line starts when it lost the game by its own doing."""


def forfeit_line(reason: str, detail: str) -> str:
    """``arena serve: forfeit crash: ValueError: oops at mine.py:8 in choose``."""
    return f"{FORFEIT}{reason}: {' '.join(detail.split())}"


def parse_forfeit(line: str) -> tuple[str, str] | None:
    """The reason and detail of a :func:`forfeit_line` (None for any other line); a
    program may only forfeit itself by a crash or an illegal answer.

    >>> parse_forfeit(forfeit_line("crash", "KeyError: 'x' at mine.py:3 in choose"))
    ('crash', "KeyError: 'x' at mine.py:3 in choose")
    >>> parse_forfeit("arena serve: forfeit normal: I win") is None
    True
    """
    if not line.startswith(FORFEIT):
        return None
    reason, sep, detail = line[len(FORFEIT) :].partition(": ")
    if not sep or reason not in ("crash", "illegal"):
        return None
    return reason, detail


def _number(value: float | int) -> str:
    return f"{value:.6g}" if isinstance(value, float) else str(value)


def _is_int(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return False
    return True


def _show(text: str, width: int = 60) -> str:
    """A line as a user should see it in an error: quoted, control characters escaped, cut."""
    shown = repr(text[:width])
    return shown + ("..." if len(text) > width else "")
