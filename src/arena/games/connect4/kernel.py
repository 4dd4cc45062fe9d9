"""Connect Four's compiled kernel: the k-in-a-row kernel with gravity.

Every size the game accepts (rows and cols 4..20, any k) runs on the shared
mailbox of :mod:`arena.games.kinarow.kernel`; moves are columns, as in
``rules.py``.

>>> import arena
>>> game = arena.load_game("connect4")
>>> k = kernel(game)
>>> k.perft(game.initial_state(), 4)
2401

Tests: tests/games/test_kinarow_kernel.py
"""

from __future__ import annotations

from arena.core.kernel import Kernel
from arena.games.connect4.rules import ConnectFour
from arena.games.kinarow import kernel as kinarow


def kernel(game: ConnectFour) -> Kernel:
    return kinarow.kernel(game, gravity=True)
