"""A lone student agent that jumps to the farthest corner of the board."""

from agents.agent import Agent
from store import register_agent


@register_agent("far_agent")
class FarAgent(Agent):
    def step(self, chess_board, my_pos, adv_pos, max_step):
        size = chess_board.shape[0]
        r, c = my_pos
        corner = (0 if r >= size / 2 else size - 1, 0 if c >= size / 2 else size - 1)
        return corner, 0
