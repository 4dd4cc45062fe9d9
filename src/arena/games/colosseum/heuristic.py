"""Colosseum Survival: Voronoi area, mobility, nooks, and an exact one-move win check.

The game ends when one wall parts the players, and the larger region wins.
Until then the best static guess of the final regions is the Voronoi split
of the board (:meth:`~arena.games.colosseum.rules.ColosseumState.territory`), so
that is the backbone; the rest adds what the Voronoi count cannot see.
All terms are in cells, from the point of view of the player to move:

* **Voronoi** (weight 1): cells the mover reaches in strictly fewer steps
  than the opponent, minus the reverse (``territory()``, walls only).
* **Mobility** (weight 0.5): the cells the mover can end a move on (walking
  up to K steps, not through the opponent) minus the opponent's. A player
  who reaches more cells has more walls to choose from and can get to a
  cutting wall first.
* **Nook** (3 cells for one open side, 1 for two): a penalty for the player
  who just moved, when its cell is nearly enclosed. The player to move gets
  none: it walks out before anyone can shut it in.
* **Win now** (a verdict, ``WIN_NOW`` = 990): the mover has a legal move
  whose wall parts the players with the mover's region the larger. This is
  exact, not a pattern: it covers shutting the opponent in its cell (the
  extreme nook) and every other winning cut. The sum of the other terms is
  squashed into (-900, 900) (softness M*M/3 cells), so search always prefers
  a verdict, and a finished game (valued by the search agents) to both.

The win check would be costly done naively (a flood per legal move), so it
works in two stages. A new wall can only cut when both of its end points
touch another wall (the border counts); :func:`may_cut_sides` finds those
sides for the whole board at once from shifted copies of the wall bits (the
corner-touch test of :meth:`~arena.games.colosseum.rules.Board.may_cut`, done bit-parallel), and
only the few legal moves among them get the game's lockstep floods.

Measured in seeded games, colours alternated: one-ply greedy with this
evaluation scores 100% against random on 8x8 and about 60% against greedy
on the plain Voronoi score (0.595 over 200 games on 8x8, 0.60-0.63 on 6x6);
the win check is worth most of that (about 52% without it), mobility a
little. At depth 2 alpha-beta it is no better than the Voronoi score
(48-60% in 20-60 games for every mix tried, including a count of the
opponent's winning cuts and larger nook penalties): two plies of search
already see most of what these terms add. The nook penalty measured neutral
(60% vs 62% with greedy); it is kept small because it is free and marks a
risk the win check cannot see yet (a dead-end corridor). Penalising the
player to move for nooks instead lost outright (41% with greedy), and so did
turn-based Voronoi (each side claiming K steps a turn, mover first: 29%).

``candidates`` (for MCTS rollouts) keeps the moves that win at once if there
are any; otherwise it drops the moves that lose at once (walling your last
open side, or a cut that leaves you the smaller region) and the moves that
leave you one open side with its neighbour within the opponent's walk, so
that the opponent shuts you in next move. With 100 rollouts a move, MCTS
with these rollouts scored 85-92% against random rollouts on 8x8 (20 and 40
games; 82.5% without the last filter) and 75-80% on 6x6.

>>> import arena
>>> game = arena.load_game("colosseum:size=5")
>>> state = game.position([(2, 2), (0, 0)], walls=["0,0,r"])  # B's corner has one exit
>>> evaluate(state)  # A walks to 1,0 and walls it off
990.0
>>> [game.format_move(m) for m in candidates(state, state.legal_moves())]
['1,0,u']

Tests: tests/games/test_colosseum_heuristic.py
"""

from __future__ import annotations

from arena.core.evaluation import SCALE
from arena.games.colosseum.rules import Board, ColosseumState, Masks, after_wall, reach
from arena.games.kinarow.lines import WIN_NOW, squash

_MOBILITY = 0.5
_NOOK = (0.0, 3.0, 1.0, 0.0, 0.0)  # by the open sides of the cell of the player who just moved


def may_cut_sides(board: Board, walls: int) -> int:
    """The side bits (``4 * cell + d``) where a new wall has both end points
    touching another wall: only there can one wall cut the board in two.

    A side's end is a grid corner; the walls meeting there besides the side
    itself are two sides of the cell and one of each of two neighbours, e.g.
    the top-left end of the ``u`` side of a cell is touched by its own ``l``
    side, the ``u`` side of the cell to its left and the ``l`` side of the
    cell above. Each such term is one shift of the per-direction wall bits.
    Off-board neighbours only ever add bits next to a border side, which is
    set anyway, so they change nothing.
    """
    cells, v = board.cells, board.vshift
    up, right, down, left = (walls >> d & cells for d in range(4))
    cut_u = (left | up << 4 | left << v) & (right | up >> 4 | right << v)
    cut_r = (up | right << v | up >> 4) & (down | right >> v | down >> 4)
    cut_d = (left | down << 4 | left >> v) & (right | down >> 4 | right >> v)
    cut_l = (up | left << v | up << 4) & (down | left >> v | down << 4)
    return cut_u | cut_r << 1 | cut_d << 2 | cut_l << 3


def _cut_margin(board: Board, masks: Masks, move: int, them: int) -> int | None:
    """None when ``move`` leaves the players joined, else the sign of (mover's
    region - opponent's) after it. ``them`` is the opponent's cell bit."""
    side = move & 3
    other = move + board.twin[side]
    here, there = 1 << (move & ~3), 1 << (other & ~3)
    after = list(masks)  # the open sides once this wall stands
    after[side] ^= here
    after[side ^ 2] ^= there
    apart = after_wall(here, there, them, after, board.vshift)
    if apart is None:
        return None
    return (apart[0] > apart[1]) - (apart[0] < apart[1])


def _wins_now(board: Board, walls: int, masks: Masks, reached: int, them: int) -> bool:
    """Whether the mover, reaching the cells ``reached``, has a move that wins at once."""
    risky = reached * 15 & ~walls & may_cut_sides(board, walls)
    while risky:
        low = risky & -risky
        risky ^= low
        if _cut_margin(board, masks, low.bit_length() - 1, them) == 1:
            return True
    return False


def evaluate(state: ColosseumState) -> float:
    """How good the position is for A (player 0), in [-SCALE, SCALE]."""
    if state.is_terminal():  # search agents value finished games themselves
        return SCALE * state.returns()[0]
    board = state.board()
    walls, vshift, steps = state.walls, board.vshift, board.steps
    masks = board.masks(walls)
    mover = state.to_move
    cells = state.player_cells
    mine, theirs = cells[mover], cells[1 - mover]
    me, them = 1 << 4 * mine, 1 << 4 * theirs
    my_reach = reach(me, them, masks, vshift, steps)
    if _wins_now(board, walls, masks, my_reach, them):
        value = WIN_NOW
    else:
        a, b = state.territory()
        their_reach = reach(them, me, masks, vshift, steps)
        raw = (
            (a - b if mover == 0 else b - a)
            + _MOBILITY * (my_reach.bit_count() - their_reach.bit_count())
            + _NOOK[(~walls >> 4 * theirs & 15).bit_count()]
        )
        value = squash(raw, board.size * board.size / 3)
    return value if mover == 0 else -value


def candidates(state: ColosseumState, moves: tuple[int, ...]) -> tuple[int, ...]:
    """The moves worth sampling in a rollout, in the order of ``moves``: the
    winning ones if any, else those that neither lose at once nor let the
    opponent shut the mover in its cell next move; all ``moves`` if none is left."""
    if state.is_terminal() or not moves:
        return moves
    board = state.board()
    walls, vshift, twin = state.walls, board.vshift, board.twin
    them = 1 << 4 * state.player_cells[1 - state.to_move]
    masks = board.masks(walls)
    risky = may_cut_sides(board, walls)
    their_reach = -1  # computed on first need: most moves never ask
    wins: list[int] = []
    keep: list[int] = []
    for move in moves:
        side = move & 3
        open_sides = ~walls >> (move & ~3) & 15
        left = open_sides & ~(1 << side)  # open sides of the destination after the wall
        if not left:
            continue  # walls the mover in a one-cell region: cheapest check first
        if risky >> move & 1:
            margin = _cut_margin(board, masks, move, them)
            if margin is not None:  # the game ends on this move
                if margin > 0:
                    wins.append(move)
                elif margin == 0:
                    keep.append(move)
                continue
        if left & (left - 1) == 0:  # one open side left: can the opponent close it?
            if their_reach == -1:
                # Walls only shrink the walk and the opponent may walk anywhere the
                # mover is not yet, so this bounds every move's exact reach from above.
                their_reach = reach(them, 0, masks, vshift, board.steps)
            d = left.bit_length() - 1
            outside = ((move & ~3) + d + twin[d]) & ~3  # bit 4 * cell of the neighbour
            if their_reach >> outside & 1 and _shut_in(board, masks, move, outside, them):
                continue
        keep.append(move)
    return tuple(wins or keep or moves)


def _shut_in(board: Board, masks: Masks, move: int, outside: int, them: int) -> bool:
    """Whether, after ``move``, the opponent can walk to the cell at bit ``outside``
    (the destination's only open neighbour) and wall the mover in."""
    side = move & 3
    after = list(masks)
    after[side] ^= 1 << (move & ~3)
    after[side ^ 2] ^= 1 << ((move + board.twin[side]) & ~3)
    # The mover's new cell needs no blocking: its one exit is ``outside`` itself.
    return bool(reach(them, 0, after, board.vshift, board.steps) >> outside & 1)
