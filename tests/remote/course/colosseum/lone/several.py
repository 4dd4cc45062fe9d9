"""A lone file with two agents: the spec must say which (class=NAME)."""

from agents.agent import Agent
from store import register_agent


@register_agent("up_agent")
class UpAgent(Agent):
    def step(self, chess_board, my_pos, adv_pos, max_step):
        r, c = my_pos
        return (r, c), next(d for d in range(4) if not chess_board[r, c, d])


@register_agent("down_agent")
class DownAgent(Agent):
    def step(self, chess_board, my_pos, adv_pos, max_step):
        r, c = my_pos
        return (r, c), next(d for d in (2, 3, 0, 1) if not chess_board[r, c, d])
