"""``random``: a uniformly random legal move — the baseline every agent must beat.

Tests: tests/agents/test_agent_api.py
"""

from __future__ import annotations

import random

from arena.core.agent import Agent, SearchInfo
from arena.core.game import State
from arena.core.limit import Limit
from arena.core.spec import Param


class RandomAgent(Agent):
    name = "random"
    summary = "a uniformly random legal move"
    params = (Param("seed", int, None, "random seed", default_text="fresh"),)

    def _setup(self, seed: int | None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State, limit: Limit) -> int:
        self.last_search = SearchInfo()
        return self.rng.choice(state.legal_moves())
