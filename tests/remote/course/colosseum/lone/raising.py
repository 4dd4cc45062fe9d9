"""A lone student agent whose step raises on its second move."""

from agents.agent import Agent
from store import register_agent


@register_agent("raising_agent")
class RaisingAgent(Agent):
    def __init__(self):
        super().__init__()
        self.name = "Raiser"
        self.moves = 0

    def step(self, chess_board, my_pos, adv_pos, max_step):
        self.moves += 1
        if self.moves == 2:
            raise ValueError("no idea what to do")
        r, c = my_pos
        return (r, c), next(d for d in range(4) if not chess_board[r, c, d])
