"""Tic-tac-toe and any m,n,k-game: open lines weighted by their stones.

Features (see :mod:`arena.games.kinarow.lines` for how windows are counted):

* **Open lines.** Every k-window holding stones of one player only could
  still become that player's line. A window with j such stones is worth
  ``4 ** (j - 1)``: each stone brings the line closer, and two stones on a
  line are worth more than two lines with one stone each, as in the
  classic ``3*X2 + X1 - (3*O2 + O1)`` evaluation, generalised to any k.
* **Threats and the side to move.** A winning cell (a window one stone
  short) is decisive when the side to move owns it (it plays there), or when
  the other side owns two of them (only one can be blocked): the value is
  then +-``WIN_NOW`` (990). Only these verdicts depend on whose turn it is;
  there is no tempo bonus otherwise, so the empty board is worth 0.

The raw score goes through :func:`~arena.games.kinarow.lines.squash` into
(-900, 900), leaving the bands above for verdicts. Swapping the colours of
all stones together with the side to move negates the value; with the side
to move fixed it negates too unless one side has a winning cell.

>>> import arena
>>> game = arena.load_game("tictactoe")
>>> round(evaluate(game.play_moves(game.parse_moves("b2"))), 1)  # X took the centre
81.8
>>> state = game.play_moves(game.parse_moves("b2 a1 c1 c3"))  # X to move, a3 wins
>>> immediate_wins(state, 0), immediate_wins(state, 1), evaluate(state)
([6], [], 990.0)

Tests: tests/games/test_kinarow_heuristics.py
"""

from __future__ import annotations

from arena.core.evaluation import SCALE
from arena.games.kinarow.lines import forced, scan, squash, tables, win_cells
from arena.games.kinarow.rules import KInARowState

_BASE = 4  # each further stone in an open line multiplies its worth


def evaluate(state: KInARowState) -> float:
    """How good the position is for X (player 0), in [-SCALE, SCALE]."""
    if state.is_terminal():
        return SCALE * state.returns()[0]
    game = state.game
    mover = state.to_move
    own, opp = state.bits[mover], state.bits[1 - mover]
    t = tables(game)
    mine, theirs = scan(t, own, opp, game.exact), scan(t, opp, own, game.exact)
    value = forced(mine.wins, theirs.wins)
    if not value:
        raw, weight = 0, 1
        for a, b in zip(mine.counts[1:], theirs.counts[1:], strict=True):
            raw += weight * (a - b)
            weight *= _BASE
        # About ten lines one stone short of a win make a clearly won-looking position.
        value = squash(raw, 10 * _BASE ** max(game.k - 2, 0))
    return value if mover == 0 else -value


def immediate_wins(state: KInARowState, player: int) -> list[int]:
    """The cells where ``player`` would complete a line of k now, in cell order."""
    if state.is_terminal():
        return []
    game = state.game
    bits = state.bits
    return game.lines.cells_of_bits(win_cells(game, bits[player], bits[1 - player]))
