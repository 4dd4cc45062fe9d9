"""MoGo's 3x3 patterns as a lookup table over the eight neighbours of a point.

The tactical rollout (``kernel.tactics``) and the prior look at the empty points
around the opponent's last move and favour those whose 3x3 neighbourhood is one
of the shapes of Gelly, Wang, Munos and Teytaud, *Modification of UCT with
patterns in Monte-Carlo Go* (INRIA RR-6062, 2006): hane, cut, and edge shapes.
The shapes are written for the centre point (``.``); ``X`` and ``O`` are the two
colours (either may be the player to move), ``x`` is "not X" (empty, O or off
the board), ``o`` "not O", ``?`` anything, and a space off the board. Every
rotation, reflection and colour swap of a shape matches too.

A neighbourhood is coded as in the kernel: the eight cells from the top left,
row by row, skipping the centre, two bits each (0 empty, 1 Black, 2 White,
3 off the board), so the table has ``4**8`` entries.

>>> table = pattern_table()
>>> code = lambda rows: sum(".XO ".index(c) << 2 * i for i, c in enumerate(rows.replace("|", "")))
>>> int(table[code("XOX|..|...")]), int(table[code("...|..|...")])  # hane; an empty board
(1, 0)
>>> int(table[code("...|..|OXO")])  # the hane turned and in the other colours
1

Tests: tests/games/test_go_knowledge.py
"""

from __future__ import annotations

from functools import cache

import numpy as np

SHAPES: tuple[tuple[str, str, str], ...] = (
    ("XOX", "...", "???"),  # hane enclosing
    ("XO.", "...", "?.?"),  # hane, not cutting
    ("XO?", "X..", "x.?"),  # hane, magari
    (".O.", "X..", "..."),  # diagonal attachment
    ("XO?", "O.o", "?o?"),  # unprotected cut
    ("XO?", "O.X", "???"),  # peeped cut
    ("?X?", "O.O", "ooo"),  # cut 2
    ("OX?", "o.O", "???"),  # cut keima
    ("X.?", "O.?", "   "),  # edge: chase
    ("OX?", "X.O", "   "),  # edge: block the cut
    ("?X?", "x.O", "   "),  # edge: block the connection
    ("?XO", "x.x", "   "),  # edge: sagari
    ("?OX", "X.O", "   "),  # edge: cut
)
"""The shapes (MoGo's, as listed in the paper above), centre row in the middle."""

ALLOWED = {".": ".", "X": "X", "O": "O", " ": " ", "?": ".XO ", "x": ".O ", "o": ".X "}
"""What each shape character matches among empty, X, O and off the board."""


def _variants(shape: tuple[str, str, str]) -> set[tuple[str, ...]]:
    """The shape's rotations, reflections and colour swap, as eight-cell strings."""
    grid = [list(row) for row in shape]
    out = set()
    for swap in (False, True):
        g = [[{"X": "O", "O": "X", "x": "o", "o": "x"}.get(c, c) if swap else c for c in row]
             for row in grid]  # fmt: skip
        for _ in range(4):
            g = [list(row) for row in zip(*g[::-1], strict=True)]  # a quarter turn
            for flipped in (g, [row[::-1] for row in g]):
                cells = [flipped[r][c] for r in range(3) for c in range(3) if (r, c) != (1, 1)]
                out.add(tuple(cells))
    return out


@cache
def pattern_table() -> np.ndarray:
    """1 where the eight-neighbour code of a point matches a shape, else 0 (int64)."""
    codes = np.arange(4**8)
    values = (codes[:, None] >> (2 * np.arange(8))) & 3  # per code, each neighbour's 0..3
    table = np.zeros(4**8, bool)
    for shape in SHAPES:
        for variant in _variants(shape):
            match = np.ones(4**8, bool)
            for i, c in enumerate(variant):
                allowed = np.array([k in ALLOWED[c] for k in ".XO "])
                match &= allowed[values[:, i]]
            table |= match
    return table.astype(np.int64)
