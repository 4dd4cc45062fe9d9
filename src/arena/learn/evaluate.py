"""Evaluation matches of a training run: a new network against the last accepted one and
against arena's ``mcts``, each an Elo estimate.

Both sides get the same number of simulations a move (``rollouts=N``, no clock, so a
busy machine does not change the result). The ``az`` agent plays its most visited move
without noise, which makes it deterministic: each pair of games starts from a different
random opening (a few random plies, :class:`~arena.compete.openings.Openings`), played
once with each colour.

Tests: tests/learn/test_train.py
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from arena.compete.match import play_game
from arena.compete.openings import Openings
from arena.compete.timecontrol import TimeControl
from arena.core.agent import Agent
from arena.core.game import Game
from arena.stats.ratings import elo_from_score


@dataclass(frozen=True)
class Result:
    """A match's wins, draws and losses for the player evaluated."""

    opponent: str
    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + self.draws / 2) / max(self.games, 1)

    @property
    def elo(self) -> float:
        """The Elo difference of the score, a perfect score counted as one half-game short
        of it (so 20-0 is +677, not infinity)."""
        n = max(self.games, 1)
        return elo_from_score(min(max(self.score, 0.5 / n), 1 - 0.5 / n))

    def as_dict(self) -> dict[str, object]:
        return {
            "opponent": self.opponent, "wins": self.wins, "draws": self.draws,
            "losses": self.losses, "elo": round(self.elo, 1),
        }  # fmt: skip

    def __str__(self) -> str:
        return f"{self.wins}-{self.draws}-{self.losses} ({self.elo:+.0f} Elo)"


def opening_plies(game: Game) -> int:
    """Random plies before the evaluation games (Othello's first moves are all alike)."""
    return 1 if game.name == "tictactoe" else 4 if game.name == "othello" else 2


def match(
    game: Game,
    player: Callable[[], Agent],
    opponent: Callable[[int], Agent],
    games: int,
    sims: int,
    seed: int,
    on_game: Callable[[int], None] | None = None,
) -> Result:
    """``games`` games (rounded up to pairs) of a fresh agent from ``player()`` against
    one from ``opponent(seed)`` (its seed differs from game to game), at ``sims``
    simulations a move, each opening played with both colours; ``on_game(done)`` after
    each game. The opponent's name is its spec without the seed."""
    control = TimeControl.parse(f"rollouts={sims}")
    book = Openings.random(game, plies=opening_plies(game), seed=seed, balance=1.0)
    wins = draws = losses = 0
    name = ""
    for pair in range(math.ceil(games / 2)):
        for side in (0, 1):
            other = opponent(seed * 1000 + 2 * pair + side)
            name = other.spec
            agents = [player(), other] if side == 0 else [other, player()]
            names = ["net", "opponent"] if side == 0 else ["opponent", "net"]
            record = play_game(
                game, agents, control, seed=seed, opening=book.get(pair), names=names
            )
            if record.winner is None:
                draws += 1
            elif record.winner == side:
                wins += 1
            else:
                losses += 1
            if on_game is not None:
                on_game(wins + draws + losses)
    return Result(re.sub(r",?seed=\d+", "", name), wins, draws, losses)
