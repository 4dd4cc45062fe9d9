"""A position's input planes written in compiled code, from a game kernel's position.

The same planes as :func:`arena.search.az.planes.encode` (the mover's stones, the
opponent's, the side to move, the board's extent), read from the kernel's ``owners``
(who holds each cell, :mod:`arena.core.kernel`) and ``to_move``, and written
channels-last, ``(rows, cols, channels)``, as the compiled forward pass
(:mod:`arena.search.az.kernel`) takes them. The compiled PUCT
(:mod:`arena.search.az.puct_kernel`) encodes its leaves with it; the tests hold it equal
to the readable encoding on many positions of every game.

Tests: tests/search/test_az_compiled.py
"""

from __future__ import annotations

from numba import njit


@njit(cache=True, nogil=True)
def write_planes(owners, to_move, p, s, cells, out):  # type: ignore[no-untyped-def]
    """Write the planes of position ``s`` into ``out`` ``(rows, cols, 4)`` (float32);
    ``cells`` is scratch room for one entry per cell. Returns the player to move."""
    mover = to_move(p, s)
    n = owners(p, s, cells)
    cols = out.shape[1]
    side = 1.0 if mover == 1 else 0.0
    for cell in range(n):
        r, c = cell // cols, cell % cols
        who = cells[cell]
        out[r, c, 0] = 1.0 if who == mover else 0.0
        out[r, c, 1] = 1.0 if who == 1 - mover else 0.0
        out[r, c, 2] = side
        out[r, c, 3] = 1.0
    return mover
