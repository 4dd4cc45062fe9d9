"""A second agent in the project: stays put and walls its first free side."""

from store import register_agent

from agents.agent import Agent


@register_agent("wall_hugger")
class WallHugger(Agent):
    def __init__(self):
        super().__init__()
        self.name = "WallHugger"

    def step(self, chess_board, my_pos, adv_pos, max_step):
        r, c = my_pos
        side = next(d for d in range(4) if not chess_board[r, c, d])
        return (r, c), side
