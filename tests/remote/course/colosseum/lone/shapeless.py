"""A lone student agent that returns a direction name instead of its number."""

from agents.agent import Agent
from store import register_agent


@register_agent("shapeless_agent")
class ShapelessAgent(Agent):
    def step(self, chess_board, my_pos, adv_pos, max_step):
        return my_pos, "u"
