"""Colosseum Survival: draft (experiment version)."""

from __future__ import annotations

from arena.games.colosseum import ColosseumState, _after_wall, _grow, _reach
from arena.heuristics import SCALE

W_VORONOI = 1.0
W_MOBILITY = 0.0
W_ENCLOSED = (0.0, 0.0, 0.0, 0.0, 0.0)  # by free sides 0..4, for the player who just moved
W_ENCLOSED_MOVER = (0.0, 0.0, 0.0, 0.0, 0.0)
TURN_VORONOI = False
SOFT = 20.0
TRAP = True
TIE = 0.0
WIN_CHECK = False
W_THREAT = 0.0
STATIC = 900.0
WIN_NOW = 990.0


def _voronoi_steps(a: int, b: int, masks, vshift: int) -> tuple[int, int, int]:
    counts = [1, 1]
    while True:
        ga = _grow(a, masks, vshift)
        gb = _grow(b, masks, vshift)
        if ga == a and gb == b:
            return counts[0], counts[1], a
        counts[0] += (ga & ~a & ~gb).bit_count() + TIE * (ga & gb & ~a & ~b).bit_count()
        counts[1] += (gb & ~b & ~ga).bit_count()
        a, b = ga, gb


def _voronoi_turns(me: int, them: int, masks, vshift: int, steps: int) -> tuple[int, int, int]:
    """Mover first: each side grows K steps per turn and claims cells nobody holds."""
    mine, theirs = me, them
    a, b = me, them
    while True:
        moved = False
        for _ in range(steps):
            g = _grow(a, masks, vshift)
            if g == a:
                break
            a = g
            moved = True
        mine |= a & ~theirs
        for _ in range(steps):
            g = _grow(b, masks, vshift)
            if g == b:
                break
            b = g
            moved = True
        theirs |= b & ~mine
        if not moved:
            return mine.bit_count(), theirs.bit_count(), a


def evaluate(state: ColosseumState) -> float:
    if state._regions is not None:
        a, b = state._regions
        return SCALE * ((a > b) - (a < b))
    board = state._board()
    walls = state._walls
    masks = board.masks(walls)
    vshift, steps = board.vshift, board.steps
    mover = state._to_move
    cells = state._players
    me_cell, them_cell = cells[mover], cells[1 - mover]
    me, them = 1 << 4 * me_cell, 1 << 4 * them_cell
    if TURN_VORONOI:
        vm, vt, region = _voronoi_turns(me, them, masks, vshift, steps)
    else:
        vm, vt, region = _voronoi_steps(me, them, masks, vshift)
    reach_me = _reach(me, them, masks, vshift, steps)
    free_me = (~walls >> 4 * me_cell & 15).bit_count()
    free_them = (~walls >> 4 * them_cell & 15).bit_count()
    if TRAP and free_them == 1:
        side = (~walls >> 4 * them_cell & 15).bit_length() - 1
        bit = 4 * them_cell + side
        other = bit + board.twin[side]
        if reach_me >> (other & ~3) & 1:
            total = region.bit_count()
            # walling them in: they keep 1 cell, we keep the rest
            if total - 1 > 1:
                return WIN_NOW if mover == 0 else -WIN_NOW
    if WIN_CHECK and _mover_wins(state, board, walls, reach_me, me, them):
        return WIN_NOW if mover == 0 else -WIN_NOW
    raw = W_VORONOI * (vm - vt)
    if W_THREAT:
        reach_them = _reach(them, me, masks, vshift, steps)
        raw -= W_THREAT * _count_wins(board, walls, reach_them, them, me)
    if W_MOBILITY:
        reach_them = _reach(them, me, masks, vshift, steps)
        raw += W_MOBILITY * (reach_me.bit_count() - reach_them.bit_count())
    raw += W_ENCLOSED[free_them] - W_ENCLOSED_MOVER[free_me]
    value = STATIC * raw / (abs(raw) + SOFT)
    return value if mover == 0 else -value


def candidates(state: ColosseumState, moves: tuple[int, ...]) -> tuple[int, ...]:
    return moves


def _mover_wins(state, board, walls, reach, me, them) -> bool:
    ends, twin, vshift = board.ends, board.twin, board.vshift
    legal = reach * 15 & ~walls & _may_cut_sides(board, walls)
    while legal:
        low = legal & -legal
        legal ^= low
        bit = low.bit_length() - 1
        side = bit & 3
        other = bit + twin[side]
        w = walls | low | 1 << other
        if True:
            apart = _after_wall(1 << (bit & ~3), 1 << (other & ~3), them, board.masks(w), vshift)
            if apart is not None and apart[0] > apart[1]:
                return True
    return False


def _may_cut_sides(board, walls: int) -> int:
    cells, v = board.cells, board.vshift
    U = walls & cells
    R = walls >> 1 & cells
    D = walls >> 2 & cells
    L = walls >> 3 & cells
    # corner touches (excluding the side itself)
    cut_u = (L | U << 4 | L << v) & (R | U >> 4 | R << v)
    cut_d = (L | D << 4 | L >> v) & (R | D >> 4 | R >> v)
    cut_l = (U | L << v | U << 4) & (D | L >> v | D << 4)
    cut_r = (U | R << v | U >> 4) & (D | R >> v | D >> 4)
    return (cut_u | cut_r << 1 | cut_d << 2 | cut_l << 3)


def _count_wins(board, walls, reach, me, them) -> int:
    twin, vshift = board.twin, board.vshift
    legal = reach * 15 & ~walls & _may_cut_sides(board, walls)
    n = 0
    while legal:
        low = legal & -legal
        legal ^= low
        bit = low.bit_length() - 1
        side = bit & 3
        other = bit + twin[side]
        w = walls | low | 1 << other
        apart = _after_wall(1 << (bit & ~3), 1 << (other & ~3), them, board.masks(w), vshift)
        if apart is not None and apart[0] > apart[1]:
            n += 1
    return n
