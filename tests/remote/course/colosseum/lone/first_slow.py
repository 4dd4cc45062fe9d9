"""A lone student agent written for the course's clock (30 s for the first move, 2 s for
the others), scaled down: it thinks 1.5 s on its first move and 0.05 s after."""

import time

from agents.agent import Agent
from store import register_agent


@register_agent("first_slow_agent")
class FirstSlowAgent(Agent):
    def __init__(self):
        super().__init__()
        self.moves = 0

    def step(self, chess_board, my_pos, adv_pos, max_step):
        time.sleep(1.5 if self.moves == 0 else 0.05)
        self.moves += 1
        r, c = my_pos
        return (r, c), next(d for d in range(4) if not chess_board[r, c, d])
