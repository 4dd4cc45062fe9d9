"""Time management: how long to think about this move, given the clock.

The referee offers every agent a default share of its clock (``Limit.time``);
an agent that manages its own time ignores it and asks :func:`move_time`,
which decides from the clock itself (``Limit.clock``, ``Limit.increment``,
``Limit.moves_to_go``) and the position:

- a share of the clock over the moves the game may still last, plus most of
  the increment. How long that is, the position says when its game knows
  (``State.expected_plies_left``: Go counts its empty points, so a 19x19 clock
  lasts the hundreds of plies of a game); otherwise a general guess of 40
  plies, stretched when the game runs longer;
- weighted by the phase of the game: 0.6 of the share in the opening, up to
  1.6 times it in the middle game, and a little less after it;
- less with few legal moves (2 or 3: less to decide) and nearly nothing with one;
- never more than 30% of the clock plus the increment, nor more than the clock
  less a reserve for the answer's way back (5%, at least 50 ms).

Agents stop earlier still when they can: ``ids`` when a win or loss is proven
or every line ends the game. Without a clock, ``move_time`` is ``Limit.time``.
The compiled MCTS can call :func:`move_time` the same way (the hook for it).

>>> allocate(1.0, 0.1, ply=0, legal=7)  # opening: a small share plus most of the increment
0.12
>>> allocate(1.0, 0.1, ply=20, legal=7) > allocate(1.0, 0.1, ply=0, legal=7)  # middle game
True
>>> allocate(1.0, 0.1, ply=20, legal=1)  # one legal move: nothing to think about
0.002
>>> allocate(10.0, moves_to_go=5, legal=30)  # byo-yomi: 10 s for 5 moves
1.9
>>> from arena.core.limit import Limit
>>> import arena
>>> state = arena.load_game("connect4").initial_state()
>>> move_time(Limit(time=0.3), state), move_time(Limit(depth=3), state)
(0.3, None)
>>> move_time(Limit(time=0.113, clock=1.0, increment=0.1), state)
0.12
>>> go = arena.load_game("go:size=19").initial_state()
>>> move_time(Limit(time=20.0, clock=600.0), go)  # 361 empty points: 180 moves to come
1.99446

Tests: tests/search/test_timing.py, tests/compete/test_match.py
"""

from __future__ import annotations

import math

from arena.core.game import State
from arena.core.limit import Limit

HORIZON = 40
"""Plies a game is expected to last when nothing better is known. Past it the
game is assumed to last half as long again as it has (at least)."""
MIN_MOVES_LEFT = 8
"""The fewest own moves the clock is shared over, with an increment to live on."""
MIN_MOVES_LEFT_SUDDEN = 20
"""The same without an increment: the clock must last however long the game goes."""
INCREMENT_SHARE = 0.9
"""Of the increment, spend this much (it is added back after the move)."""
SAFE_FRACTION = 0.3
"""Never more than this share of the clock on one move (plus the increment)."""
BYO_SHARE = 0.95
"""In a period of ``moves_to_go`` moves, spend this share of an even split."""
INSTANT = 0.002
"""Seconds for a move that is the only legal one."""
FLOOR = 0.001


def reserve(clock: float) -> float:
    """Seconds of the clock never spent: room for the answer's way back.

    >>> reserve(10.0), reserve(0.5)
    (0.5, 0.05)
    """
    return max(0.05, 0.05 * clock)


def ceiling(clock: float, increment: float | None = 0.0) -> float:
    """The most one move may spend with ``clock`` seconds left: :data:`SAFE_FRACTION` of it
    plus the increment, less the :func:`reserve`.

    >>> ceiling(10.0), ceiling(10.0, 1.0), ceiling(0.01)
    (3.0, 4.0, 0.001)
    """
    increment = increment or 0.0
    return max(FLOOR, min(clock - reserve(clock), SAFE_FRACTION * clock + increment))


def phase_weight(ply: int, horizon: int = HORIZON, expected: float | None = None) -> float:
    """How much of an even share the position deserves, by how far the game is.

    0.6 at the first move, rising to 1.6 halfway through a game of the expected
    length, and falling again towards 1.47 (two thirds through a game that is
    always expected to last half as long again).

    >>> [round(phase_weight(p), 2) for p in (0, 10, 20, 36, 200)]
    [0.6, 1.31, 1.6, 1.47, 1.47]
    >>> round(phase_weight(20, expected=341.0), 2)  # 20 plies into a 19x19 game: its opening
    0.77
    """
    left = plies_left(ply, horizon, expected)
    progress = ply / (ply + left)
    return 0.6 + math.sin(math.pi * progress)


def plies_left(ply: int, horizon: int = HORIZON, expected: float | None = None) -> float:
    """Plies the game may still last: the position's own estimate when it has one
    (``expected``), else a guess, at least half as long again as the game so far."""
    if expected is not None:
        return max(expected, 2 * MIN_MOVES_LEFT)
    return max(horizon - ply, ply / 2, 2 * MIN_MOVES_LEFT)


def choice_weight(legal: int) -> float:
    """Fewer legal moves, less to decide: 2 get 0.6 of the time, 3 get 0.8, more all of it."""
    return min(1.0, 0.4 + 0.2 * (legal - 1))


def allocate(
    clock: float,
    increment: float = 0.0,
    *,
    ply: int = 0,
    legal: int = 2,
    moves_to_go: int | None = None,
    horizon: int = HORIZON,
    expected: float | None = None,
) -> float:
    """Seconds to spend on this move with ``clock`` seconds left (see the module);
    ``expected``: the plies the game is likely to last, when the position knows."""
    most = ceiling(clock, increment)
    if legal <= 1:
        return min(INSTANT, most)
    if moves_to_go is not None:
        share = BYO_SHARE * clock / max(moves_to_go, 1)
    else:
        fewest = MIN_MOVES_LEFT if increment > 0 else MIN_MOVES_LEFT_SUDDEN
        own_moves = max(fewest, plies_left(ply, horizon, expected) / 2)
        share = clock / own_moves * phase_weight(ply, horizon, expected)
    wanted = (share + INCREMENT_SHARE * increment) * choice_weight(legal)
    return round(max(FLOOR, min(wanted, most)), 6)


def move_time(limit: Limit, state: State, horizon: int = HORIZON) -> float | None:
    """Seconds to search ``state`` for: the agent's own allocation on a clock,
    the limit's time otherwise (None when only a depth or work budget bounds it)."""
    if limit.clock is None:
        return limit.time
    return allocate(
        limit.clock,
        limit.increment or 0.0,
        ply=state.ply,
        legal=len(state.legal_moves()),
        moves_to_go=limit.moves_to_go,
        horizon=horizon,
        expected=state.expected_plies_left(),
    )
