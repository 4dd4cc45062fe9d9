"""Gomoku: k-windows weighted steeply by stones, open shapes, and four/three verdicts.

Features, for each player (k = 5 in the examples; see
:mod:`arena.games.kinarow.lines` for how windows are counted):

* **Windows.** A k-window holding j stones of one player and none of the
  other is worth ``8 ** (j - 1)`` for j up to k-2 (1, 8, 64 for one, two,
  three stones). Broken shapes count like solid ones (``XX.X.`` is a window
  with three), and a shape with room on both sides lies in more windows
  than one against the edge or an enemy stone, so the counts already lean
  towards open shapes. Windows with k-1 stones are counted as fours below.
* **Fours.** An empty cell that would complete a line of exactly k (where
  ``overline=nowin``) or at least k is a winning cell, worth 600 when the
  opponent owns it (the side to move must block it at once).
* **Open threes.** A (k+1)-window with both end cells empty and k-2 stones
  plus one empty cell between them (``.XXX..``, ``.XX.X.``) becomes a
  straight four ``.XXXX.`` in one move, which cannot be blocked: worth 300
  each. A closed three (``OXXX..``) has no such window and gets only its
  k-windows.
* **Verdicts**, from the side to move: it wins at once with a winning cell;
  it loses (two plies) if the opponent has two winning cells; and if the
  opponent has none while the mover has an open three, the mover makes a
  straight four and wins (``WIN_SOON``, 950: the argument is exact for
  freestyle, nearly so for ``overline=nowin``).

Only the verdicts depend on whose turn it is; there is no tempo bonus. The
raw score is squashed into (-900, 900) with a softness of 1000.
:func:`candidates` keeps the empty cells within two steps (king moves) of a
stone, where almost every good move and threat lies.

>>> import arena
>>> game = arena.load_game("gomoku:size=9")
>>> state = game.play_moves(game.parse_moves("E5 A1 F5 A9 G5"))  # Black: open three
>>> evaluate(state) > 0, immediate_wins(state, 0)
(True, [])
>>> state = state.play(game.parse_move("D5")).play(game.parse_move("H5"))
>>> [game.format_move(m) for m in immediate_wins(state, 0)]  # closed four E5-H5
['J5']
>>> every = tuple(range(81))
>>> len(candidates(game.initial_state(), every)), len(candidates(state, every))
(81, 47)

Tests: tests/games/test_kinarow_heuristics.py
"""

from __future__ import annotations

from typing import NamedTuple

from arena.core.evaluation import SCALE
from arena.games.gomoku.rules import Gomoku
from arena.games.kinarow.lines import WIN_SOON, forced, scan, squash, tables, win_cells
from arena.games.kinarow.rules import KInARowState

_BASE = 8  # steep: one more stone in a window is worth eight windows
_FOUR = 600.0
_OPEN = 300.0
_SOFT = 1000.0


class _Board(NamedTuple):
    stride: int
    full: int
    cell_bit: list[int]
    weights: tuple[int, ...]  # window worth by stone count 0..k


_BOARDS: dict[str, _Board] = {}


def _board(game: Gomoku) -> _Board:
    found = _BOARDS.get(game.spec)
    if found is None:
        k = game.k
        weights = tuple(_BASE ** (j - 1) if 1 <= j <= k - 2 else 0 for j in range(k + 1))
        found = _BOARDS[game.spec] = _Board(
            game.lines.stride, game.lines.full, game.lines.cell_bit, weights
        )
    return found


def evaluate(state: KInARowState) -> float:
    """How good the position is for Black (player 0), in [-SCALE, SCALE]."""
    if state.is_terminal():
        return SCALE * state.returns()[0]
    game = state.game
    mover = state.to_move
    own, opp = state.bits[mover], state.bits[1 - mover]
    t = tables(game)
    mine = scan(t, own, opp, game.exact, shapes=True)
    theirs = scan(t, opp, own, game.exact, shapes=True)
    value = forced(mine.wins, theirs.wins)
    if not value and not theirs.wins and mine.open_threes:
        value = WIN_SOON
    if not value:
        # The mover has no winning cell here, and at most one of theirs to block.
        raw = _OPEN * (mine.open_threes - theirs.open_threes) - _FOUR * theirs.wins.bit_count()
        for w, a, b in zip(_board(game).weights, mine.counts, theirs.counts, strict=True):
            raw += w * (a - b)
        value = squash(raw, _SOFT)
    return value if mover == 0 else -value


def immediate_wins(state: KInARowState, player: int) -> list[int]:
    """The cells where ``player`` would complete a winning line now, in cell order.

    Where ``overline=nowin`` a cell that would make six or more in a row does
    not count (unless it makes exactly k in another direction).
    """
    if state.is_terminal():
        return []
    game = state.game
    bits = state.bits
    return game.lines.cells_of_bits(win_cells(game, bits[player], bits[1 - player]))


def _grow(bits: int, board: _Board) -> int:
    """``bits`` and every cell one king step from them."""
    # Steps of one column never wrap: the padding column absorbs them and `full` drops it.
    bits = (bits | (bits << 1) | (bits >> 1)) & board.full
    return (bits | (bits << board.stride) | (bits >> board.stride)) & board.full


def candidates(state: KInARowState, moves: tuple[int, ...]) -> tuple[int, ...]:
    """The moves on empty cells within distance 2 (Chebyshev) of a stone, in ``moves`` order.

    All of ``moves`` when the board is empty or no move is that close.
    """
    board = _board(state.game)
    stones = state.bits[0] | state.bits[1]
    if not stones:
        return moves
    near = _grow(_grow(stones, board), board) & ~stones
    cell_bit = board.cell_bit
    kept = tuple(m for m in moves if near & cell_bit[m])
    return kept or moves
