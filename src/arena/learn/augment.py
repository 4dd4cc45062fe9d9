"""The board's symmetries applied to training records: more data from each game.

A square board with cell actions (Tic-tac-toe, Gomoku on a square board, Othello, Go)
has eight symmetries (rotations and reflections), applied alike to the input planes and
to the policy over the cells (the pass, the last action, stays where it is); Connect
Four has one, the mirror, which reverses the columns of the planes and of the policy.
Every rule of these games is the same under them (Go's komi and ko too), so a
transformed record is as true as the original. Other shapes get none.

>>> import arena
>>> syms = symmetries(arena.load_game("tictactoe"))
>>> len(syms), len(symmetries(arena.load_game("connect4")))
(8, 2)

Tests: tests/learn/test_train.py
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from arena.core.game import Game
from arena.learn.selfplay import Records
from arena.search.az.planes import encoding

Transform = Callable[[np.ndarray], np.ndarray]
"""A function of arrays whose last two axes are the board's rows and columns."""


def dihedral(k: int) -> Transform:
    """The ``k``-th of the eight symmetries of a square (``k`` quarter turns, then a
    reflection when ``k >= 4``)."""

    def apply(x: np.ndarray) -> np.ndarray:
        y = np.rot90(x, k % 4, axes=(-2, -1))
        return y[..., ::-1] if k >= 4 else y

    return apply


def mirror(x: np.ndarray) -> np.ndarray:
    """Columns reversed (Connect Four's one symmetry)."""
    return x[..., ::-1]


def symmetries(game: Game) -> tuple[Transform, ...]:
    """The board transforms that keep ``game``'s rules (the identity first)."""
    enc = encoding(game)
    if game.name == "connect4":
        return (dihedral(0), mirror)
    if game.name in ("tictactoe", "gomoku", "othello", "go") and enc.rows == enc.cols:
        return tuple(dihedral(k) for k in range(8))
    return (dihedral(0),)


def transform(records: Records, game: Game, which: np.ndarray) -> Records:
    """Each record ``i`` under symmetry ``which[i]`` of :func:`symmetries`."""
    syms = symmetries(game)
    enc = encoding(game)
    planes = records.planes.copy()
    policy = records.policy.copy()
    cells = enc.rows * enc.cols
    for k in range(1, len(syms)):
        rows = np.flatnonzero(which == k)
        if not len(rows):
            continue
        planes[rows] = syms[k](records.planes[rows])
        if game.name == "connect4":
            policy[rows] = records.policy[rows][:, ::-1]
        else:
            board = records.policy[rows][:, :cells].reshape(-1, enc.rows, enc.cols)
            policy[rows, :cells] = syms[k](board).reshape(len(rows), cells)
    return Records(planes, policy, records.value)
