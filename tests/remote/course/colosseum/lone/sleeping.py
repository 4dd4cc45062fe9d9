"""A lone student agent that thinks for a minute."""

import time

from agents.agent import Agent
from store import register_agent


@register_agent("sleeping_agent")
class SleepingAgent(Agent):
    def step(self, chess_board, my_pos, adv_pos, max_step):
        time.sleep(60)
        return my_pos, 0
