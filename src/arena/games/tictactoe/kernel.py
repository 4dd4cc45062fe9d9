"""Tic-tac-toe's (m,n,k) compiled kernel: the k-in-a-row kernel, placing anywhere.

Moves are cell indices, as in ``rules.py``; the functions are those of
:mod:`arena.games.kinarow.kernel`.

>>> import arena
>>> game = arena.load_game("tictactoe")
>>> kernel(game).perft(game.initial_state(), 2)
72

Tests: tests/games/test_kinarow_kernel.py
"""

from __future__ import annotations

from arena.core.kernel import Kernel
from arena.games.kinarow import kernel as kinarow
from arena.games.tictactoe.rules import TicTacToe


def kernel(game: TicTacToe) -> Kernel:
    return kinarow.kernel(game, gravity=False)
