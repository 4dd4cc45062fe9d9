"""How long a run of timed games can take, said before it starts.

A tournament of ten Othello games at 10 s a move runs for most of an hour, and nothing
used to say so. :func:`duration` bounds a game by its clock: a time per move times the
moves a game of that kind usually runs, or a Fischer clock's whole time for both sides;
:func:`estimate_line` turns that into the line ``arena match`` and ``arena tournament``
print when a run may take more than a minute. Agents under a clock spend most of it
(``ids`` about 80% of a move's time), so the bound is close to what a run takes.

>>> from arena.compete.timecontrol import TimeControl
>>> from arena.games import load_game
>>> duration(load_game("othello"), TimeControl.parse("move:10"))
600.0
>>> estimate_line(load_game("othello"), TimeControl.parse("move:10"), games=10, jobs=1)
'10 games at up to 10 s a move, about 60 moves a game: up to about 1 h 40 min'

Tests: tests/compete/test_estimate.py
"""

from __future__ import annotations

from arena.compete.timecontrol import TimeControl
from arena.core.game import Game

SAY_FROM = 60.0
"""Runs that may take longer than this many seconds are announced."""


def typical_moves(game: Game) -> int:
    """About how many moves (plies) a game of ``game`` runs between reasonable players: the
    board's cells for the games that fill it, less for those that end early."""
    rows = getattr(game, "rows", None) or getattr(game, "size", None) or 8
    cols = getattr(game, "cols", None) or getattr(game, "size", None) or rows
    cells = rows * cols
    share = {
        "tictactoe": 1.0,
        "connect4": 0.8,
        "othello": 1.0,
        "gomoku": 0.25,
        "go": 1.2,
        "colosseum": 0.5,
    }.get(game.name, 0.5)
    extra = -4 if game.name == "othello" else 0  # the four discs of the start
    return max(1, round(cells * share) + extra)


def duration(game: Game, control: TimeControl, max_plies: int | None = None) -> float | None:
    """The longest a game under ``control`` can take, in seconds, when it runs its
    :func:`typical_moves` (at most ``max_plies``); None when no clock bounds it (a budget of
    rollouts or nodes)."""
    if control.budget is not None:
        return None
    moves = min(typical_moves(game), max_plies or typical_moves(game))
    first = 2 * (control.first or 0.0)  # each player's first move has its own allowance
    if control.per_move is not None:
        later = moves - (2 if control.first else 0)
        return first + max(0, later) * control.per_move
    if control.initial is not None:
        return first + 2 * control.initial + moves * control.increment
    return None


def clock_text(seconds: float) -> str:
    """``1 h 40 min``, ``25 min``, ``40 s``.

    >>> clock_text(6000), clock_text(1500), clock_text(40.2)
    ('1 h 40 min', '25 min', '40 s')
    """
    if seconds < 60:
        return f"{seconds:.0f} s"
    minutes = round(seconds / 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min" if hours else f"{minutes} min"


def estimate_line(
    game: Game, control: TimeControl, games: int, jobs: int, max_plies: int | None = None
) -> str | None:
    """What a run of ``games`` may take, or None when it is short or unbounded."""
    per_game = duration(game, control, max_plies)
    if per_game is None or games <= 0:
        return None
    total = per_game * games / max(1, min(jobs, games))
    if total < SAY_FROM:
        return None
    if control.per_move is not None:
        pace = f"up to {control.per_move:g} s a move"
    else:
        pace = f"a {control.describe()} clock"
    at_once = f" with {jobs} at once" if jobs > 1 else ""
    return (
        f"{games} games at {pace}, about {min(typical_moves(game), max_plies or 10**9)} "
        f"moves a game{at_once}: "
        f"up to about {clock_text(total)}"
    )
