"""A lone student agent that puts its wall where one already is (the border, say)."""

from agents.agent import Agent
from store import register_agent


@register_agent("walled_agent")
class WalledAgent(Agent):
    def step(self, chess_board, my_pos, adv_pos, max_step):
        r, c = my_pos
        walled = [d for d in range(4) if chess_board[r, c, d]]
        return (r, c), (walled or [0])[0]
