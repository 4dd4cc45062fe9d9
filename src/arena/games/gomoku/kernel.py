"""Gomoku's (size, k, overline) compiled kernel: the k-in-a-row kernel, placing anywhere.

Moves are cell indices, as in ``rules.py``; the functions are those of
:mod:`arena.games.kinarow.kernel`.

>>> import arena
>>> game = arena.load_game("gomoku")
>>> kernel(game).perft(game.initial_state(), 2)
50400

Tests: tests/games/test_kinarow_kernel.py
"""

from __future__ import annotations

from arena.core.kernel import Kernel
from arena.games.gomoku.rules import Gomoku
from arena.games.kinarow import kernel as kinarow


def kernel(game: Gomoku) -> Kernel:
    return kinarow.kernel(game, gravity=False, near=True)
