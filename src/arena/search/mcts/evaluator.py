"""MCTS evaluators: the result of a simulation from a new position (OpenSpiel's ``evaluator``).

An evaluator is chosen once when the agent is built; the search calls it as
``evaluate(state, rng, deadline) -> Returns`` on unfinished positions only.

Tests: ``tests/search/test_mcts.py``.

>>> import random
>>> from arena.games import load_game
>>> from arena.search.clock.deadline import Deadline
>>> game = load_game("tictactoe")
>>> state = game.play_moves(game.parse_moves("a1 b1 a2 b2"))  # X to move wins at a3
>>> HeuristicRollout()(state, random.Random(0), Deadline(None))
(1, -1)
"""

from __future__ import annotations

import random
from typing import Protocol

from arena.core.game import Game, Returns, State
from arena.games import Knowledge, knowledge
from arena.search.clock.deadline import Deadline, SearchTimeout


class Evaluator(Protocol):
    def __call__(self, state: State, rng: random.Random, deadline: Deadline) -> Returns: ...


class RandomRollout:
    """The game's fast uniform random playout."""

    def __call__(self, state: State, rng: random.Random, deadline: Deadline) -> Returns:
        return state.game.playout(state, rng)


class HeuristicRollout:
    """A rollout that takes wins, blocks immediate losses and samples the game's candidates
    (cells near stones, moves that do not wall you in).

    It walks the State API, so one rollout can take long on a big board: it
    checks the clock every move and gives up (SearchTimeout) when time is up.
    """

    def __init__(self) -> None:
        self._game: Game | None = None
        self._know: Knowledge | None = None

    def knowledge(self, game: Game) -> Knowledge:
        if self._know is None or self._game != game:
            self._game, self._know = game, knowledge(game)
        return self._know

    def __call__(self, state: State, rng: random.Random, deadline: Deadline) -> Returns:
        know = self.knowledge(state.game)
        wins_for, candidates = know.immediate_wins, know.candidates
        while not state.is_terminal():
            if deadline.expired():
                raise SearchTimeout
            moves = state.legal_moves()
            pick = None
            if wins_for is not None:
                mover = state.to_move
                legal = set(moves)
                mine = [m for m in wins_for(state, mover) if m in legal]
                if mine:
                    pick = mine[0]
                else:
                    theirs = [m for m in wins_for(state, 1 - mover) if m in legal]
                    if theirs:
                        pick = rng.choice(theirs)
            if pick is None:
                if candidates is not None:
                    moves = candidates(state, moves) or moves
                pick = rng.choice(moves)
            state = state.play(pick)
        return state.returns()
