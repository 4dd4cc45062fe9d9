"""perft: the number of move sequences of a given length from a position.

A game that ends before ``depth`` plies contributes nothing; passes count as
moves where the rules have them. Comparing these counts with published
figures checks a move generator end to end.

>>> import arena
>>> [perft(arena.load_game("tictactoe").initial_state(), d) for d in range(1, 5)]
[9, 72, 504, 3024]

Tests: tests/games/test_kinarow.py, tests/games/test_othello.py, tests/games/test_go.py
"""

from __future__ import annotations

from arena.core.game import State


def perft(state: State, depth: int) -> int:
    if depth < 0:
        raise ValueError("perft depth must be >= 0")
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(perft(state.play(move), depth - 1) for move in moves)
