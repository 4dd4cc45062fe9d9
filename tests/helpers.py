"""Shared test helpers: walking games along random move sequences."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from arena.game import Game, State

# Small but rule-complete variants used where every game is exercised.
GAME_SPECS = (
    "tictactoe",
    "tictactoe:m=4,n=3,k=3",
    "connect4",
    "connect4:rows=5,cols=6,k=3",
    "othello",
    "othello:size=6,rule=nomove-ends",
    "gomoku:size=9",
    "gomoku:size=7,k=4,overline=nowin",
    "go:size=5",
    "go:size=7,ko=simple",
    "colosseum:size=6",
    "colosseum",
)


def walk(game: Game, choices: Sequence[int], seed: int | None = None) -> Iterator[State]:
    """States along the line that picks ``choices[i] % len(legal)`` at ply i."""
    state = game.initial_state(seed)
    yield state
    for choice in choices:
        if state.is_terminal():
            return
        moves = state.legal_moves()
        state = state.play(moves[choice % len(moves)])
        yield state


def random_states(game: Game, count: int, seed: int = 0) -> list[State]:
    """``count`` states from random games (every ply of each game, all distinct lines)."""
    rng = random.Random(seed)
    out: list[State] = []
    while len(out) < count:
        state = game.initial_state(rng.randrange(1 << 30))
        out.append(state)
        while not state.is_terminal() and len(out) < count:
            state = state.play(rng.choice(state.legal_moves()))
            out.append(state)
    return out
