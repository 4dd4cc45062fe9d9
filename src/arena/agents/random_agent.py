"""``random``: a uniformly random legal move — the baseline every agent must beat."""

from __future__ import annotations

import random

from arena.agents.base import Agent, SearchInfo
from arena.game import State
from arena.limit import Limit
from arena.spec import Param


class RandomAgent(Agent):
    name = "random"
    summary = "a uniformly random legal move"
    params = (Param("seed", int, None, "random seed", default_text="fresh"),)

    def _setup(self, seed: int | None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State, limit: Limit) -> int:
        self.last_search = SearchInfo()
        return self.rng.choice(state.legal_moves())
