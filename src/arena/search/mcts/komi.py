"""Situational dynamic komi (``mcts:dynkomi=2``): while the search is comfortably ahead,
it plays for a margin instead of for any win.

A Monte Carlo search that counts only wins and losses sees nearly every move win once it
leads by much, so it gives points away until the lead is small; a misread later in the
game (a group it thought alive) then costs the game. Against GNU Go on 19x19, GNU Go's own
``estimate_score`` put `best` 20 to 55 points ahead between plies 60 and 160 in 10 of 13
games it went on to win by 0.5-3.5 points or to lose (docs/strength.md). Baudiš's
*value-based situational compensation* (*Balancing MCTS by dynamically adjusting the
komi value*, ICGA Journal 34(3), 2011) counts a komi against the player ahead, moved
by the root's win rate.

The rule, after each of the agent's own searches, with ``value`` the win rate of the move
it plays (counted with the komi that search used; :func:`situational`):

* ``value >= RAISE``: give :data:`STEP` point more;
* ``value < LOWER``: give half as much (the lead may be smaller than it looked);
* otherwise keep it;
* never more than :data:`CAP` points per ply the position expects left
  (``State.expected_plies_left``: Go counts its empty points), so the extra is gone by
  the end, where every point counts;
* never below 0: behind, it plays for the rules' komi (taking points for itself would
  make it play for a smaller loss).

The points are given by the player to move (:func:`given`): Black's search counts a
larger komi for White, White's a smaller one. The rules and the score never change.

>>> extra, seen = 0, []
>>> for value in (0.9, 0.85, 0.9, 0.7, 0.3):
...     extra = situational(extra, value, plies_left=200)
...     seen.append(extra)
>>> seen
[1, 2, 3, 3, 1]
>>> situational(30, 0.95, plies_left=40)   # near the end: at most 0.1 a ply left
4
>>> given(7.5, 3, black_to_move=True), given(7.5, 3, black_to_move=False)
(10.5, 4.5)

Tests: tests/search/test_dynkomi.py
"""

from __future__ import annotations

import math

RAISE = 0.8
"""At or above this win rate the search gives one step more."""
LOWER = 0.5
"""Below this win rate it gives half as much."""
STEP = 1
"""Points added at a time (whole points: a komi of x.5 stays x.5, no draws)."""
CAP = 0.1
"""The most it gives, in points per ply the position expects left."""


def situational(extra: int, value: float, plies_left: float | None) -> int:
    """The points to give in the next search, after one that gave ``extra`` and rated the
    move it played ``value`` (a win rate for the player to move)."""
    if value >= RAISE:
        extra += STEP
    elif value < LOWER:
        extra //= 2
    if plies_left is not None:
        extra = min(extra, math.floor(CAP * max(0.0, plies_left)))
    return max(0, extra)


def given(komi: float, extra: int, black_to_move: bool) -> float:
    """The komi a search counts when the player to move gives ``extra`` points: more for
    White when Black is to move, less when White is."""
    return komi + extra if black_to_move else komi - extra
