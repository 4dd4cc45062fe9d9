"""A lone student agent that keeps state between moves and checks it is one instance
per game: on its first move the board has at most one inner wall (the tests give it
colosseum:walls=0), and on its n-th move exactly two more walls than n-1 moves before."""

from agents.agent import Agent
from store import register_agent


def inner_walls(chess_board):
    size = chess_board.shape[0]
    border = 4 * size
    return (int(chess_board.sum()) - border) // 2


@register_agent("stateful_agent")
class StatefulAgent(Agent):
    def __init__(self):
        super().__init__()
        self.name = "Memory"
        self.calls = 0
        self.first = None

    def step(self, chess_board, my_pos, adv_pos, max_step):
        walls = inner_walls(chess_board)
        if self.calls == 0:
            if walls > 1:
                raise RuntimeError(f"a fresh instance in the middle of a game ({walls} walls)")
            self.first = walls
        elif walls != self.first + 2 * self.calls:
            raise RuntimeError(f"move {self.calls}: {walls} walls, this is another game")
        self.calls += 1
        r, c = my_pos
        return (r, c), next(d for d in range(4) if not chess_board[r, c, d])
