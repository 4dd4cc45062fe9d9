"""Connect Four on any board: open windows, threats with the parity rule, centre control.

Features, for each player (see :mod:`arena.games.kinarow.lines` for windows):

* **Open windows.** A k-window holding j stones of one player and none of
  the other is worth ``4 ** (j - 1)`` for j up to k-2 (1 and 4 in standard
  Connect Four): the lines that can still be made, nearer ones more.
* **Threats.** An empty cell that would complete a line (a k-window with
  k-1 stones, playable or not) is worth 24, counted once per cell however
  many windows it completes: Connect Four is won by threats that wait
  until the column fills up to them.
* **Parity rule.** On boards with an even number of rows the player who
  moves when an even number of cells are empty (the first player, in play
  from the start) tends to get the odd rows (1st, 3rd, ... from the bottom)
  and the other player the even rows, because filling the board alternates
  moves. A threat on its owner's parity is worth 12 more. The rule is stated
  by role, not colour, so that swapping colours and the side to move
  negates the value exactly. Odd row counts get no parity term.
* **Centre control.** A stone is worth 2 per horizontal k-window through its
  column (1, 2, 3, 4, 3, 2, 1 on seven columns): central stones take part
  in more lines and block more of the opponent's.
* **Verdicts.** With only playable cells counting: the side to move wins if
  it has a playable threat; it loses if the other side has two, or one with
  another threat of the same side right above it (blocking the first gives
  the second away). Those positions score +-``WIN_NOW`` (990).

Only the verdicts and the parity role depend on whose turn it is: there is
no tempo bonus, so the empty board is worth 0. The raw score is squashed
into (-900, 900) with a softness of 100, about four threats.

>>> import arena
>>> game = arena.load_game("connect4")
>>> evaluate(game.initial_state())
0.0
>>> evaluate(game.play_moves(game.parse_moves("4"))) > 0  # Red took the centre column
True
>>> state = game.play_moves(game.parse_moves("44556"))  # Red: 4 5 6 on the bottom row
>>> immediate_wins(state, 0)  # columns 3 and 7, 0-based
[2, 6]
>>> evaluate(state)  # Yellow to move cannot block both
990.0

Tests: tests/games/test_kinarow_heuristics.py
"""

from __future__ import annotations

from typing import NamedTuple

from arena.core.evaluation import SCALE
from arena.games.connect4.rules import ConnectFour, ConnectFourState
from arena.games.kinarow.lines import WIN_NOW, forced, scan, squash, tables, win_cells

_BASE = 4  # each further stone in an open window multiplies its worth
_THREAT = 24.0
_PARITY = 12.0
_CENTRE = 2.0
_SOFT = 100.0


class _Board(NamedTuple):
    """Masks of one Connect Four geometry."""

    stride: int
    full: int
    bottom: int  # the bottom row: always playable when empty
    odd_rows: int  # rows 1, 3, 5, ... counted from 1 at the bottom
    even_rows: int
    parity: bool  # whether the parity rule applies (an even number of rows)
    centre: tuple[tuple[int, int], ...]  # (weight, mask of the columns with that weight)
    weights: tuple[int, ...]  # open-window worth by stone count 0..k


_BOARDS: dict[str, _Board] = {}


def _board(game: ConnectFour) -> _Board:
    found = _BOARDS.get(game.spec)
    if found is None:
        lines, rows, cols, k = game.lines, game.rows, game.cols, game.k
        row_mask = [lines.bits_of_cells(lines.cell(r, c) for c in range(cols)) for r in range(rows)]
        by_weight: dict[int, int] = {}
        for c in range(cols):
            # Horizontal windows through column c: starts from max(0, c-k+1) to min(c, cols-k).
            weight = min(c, cols - k) - max(0, c - k + 1) + 1
            by_weight[weight] = by_weight.get(weight, 0) | game.column_mask[c]
        weights = tuple(_BASE ** (j - 1) if 1 <= j <= k - 2 else 0 for j in range(k + 1))
        found = _BOARDS[game.spec] = _Board(
            lines.stride,
            lines.full,
            row_mask[0],
            sum(row_mask[0::2]),
            sum(row_mask[1::2]),
            rows % 2 == 0,
            tuple(sorted(by_weight.items())),
            weights,
        )
    return found


def _playable(board: _Board, occupied: int) -> int:
    """The lowest empty cell of every column that is not full."""
    return ((occupied << board.stride) | board.bottom) & board.full & ~occupied


def _parity_edge(board: _Board, occupied: int, mine: int, theirs: int) -> int:
    """Threats on their owner's parity: the mover's count minus the other's."""
    # The "odd" player is the one to move when an even number of cells are empty.
    mover_odd = (board.full & ~occupied).bit_count() % 2 == 0
    my_rows, their_rows = board.odd_rows, board.even_rows
    if not mover_odd:
        my_rows, their_rows = their_rows, my_rows
    return (mine & my_rows).bit_count() - (theirs & their_rows).bit_count()


def evaluate(state: ConnectFourState) -> float:
    """How good the position is for Red (player 0), in [-SCALE, SCALE]."""
    if state.is_terminal():
        return SCALE * state.returns()[0]
    game = state.game
    board = _board(game)
    mover = state.to_move
    own, opp = state.bits[mover], state.bits[1 - mover]
    occupied = own | opp
    playable = _playable(board, occupied)
    t = tables(game)
    mine, theirs = scan(t, own, opp), scan(t, opp, own)
    value = forced(mine.wins & playable, theirs.wins & playable)
    their_now = theirs.wins & playable
    if not value and their_now and (their_now << board.stride) & theirs.wins:
        value = -WIN_NOW  # a forced block right under another of their threats
    if not value:
        raw = _THREAT * (mine.wins.bit_count() - theirs.wins.bit_count())
        for w, a, b in zip(board.weights, mine.counts, theirs.counts, strict=True):
            raw += w * (a - b)
        for weight, mask in board.centre:
            raw += _CENTRE * weight * ((own & mask).bit_count() - (opp & mask).bit_count())
        if board.parity:
            raw += _PARITY * _parity_edge(board, occupied, mine.wins, theirs.wins)
        value = squash(raw, _SOFT)
    return value if mover == 0 else -value


def immediate_wins(state: ConnectFourState, player: int) -> list[int]:
    """The columns where a stone of ``player`` would complete a line now, ascending."""
    if state.is_terminal():
        return []
    game = state.game
    board = _board(game)
    bits = state.bits
    cells = win_cells(game, bits[player], bits[1 - player]) & _playable(board, bits[0] | bits[1])
    cols = game.cols
    return sorted(cell % cols for cell in game.lines.cells_of_bits(cells))
