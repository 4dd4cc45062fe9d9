"""A student agent for arena's tests: walks towards the adversary and walls the side
facing it (or any free side). Works in the project and as a lone file."""

from collections import deque

import numpy as np
from store import register_agent

from agents.agent import Agent

MOVES = ((-1, 0), (0, 1), (1, 0), (0, -1))  # up, right, down, left


@register_agent("student_agent")
class StudentAgent(Agent):
    def __init__(self):
        super().__init__()
        self.name = "Chaser"
        self.autoplay = True

    def reachable(self, chess_board, my_pos, adv_pos, max_step):
        seen = {tuple(my_pos): 0}
        queue = deque([tuple(my_pos)])
        while queue:
            r, c = queue.popleft()
            if seen[(r, c)] == max_step:
                continue
            for d, (dr, dc) in enumerate(MOVES):
                nxt = (r + dr, c + dc)
                if chess_board[r, c, d] or nxt == tuple(adv_pos) or nxt in seen:
                    continue
                seen[nxt] = seen[(r, c)] + 1
                queue.append(nxt)
        return list(seen)

    def step(self, chess_board, my_pos, adv_pos, max_step):
        assert isinstance(chess_board, np.ndarray) and chess_board.dtype == bool
        ar, ac = adv_pos
        cells = self.reachable(chess_board, my_pos, adv_pos, max_step)
        cells.sort(key=lambda cell: abs(cell[0] - ar) + abs(cell[1] - ac))
        for r, c in cells:
            free = [d for d in range(4) if not chess_board[r, c, d]]
            if not free:
                continue
            facing = [d for d in free if (r + MOVES[d][0], c + MOVES[d][1]) == (ar, ac)]
            return (r, c), (facing or free)[0]
        return my_pos, 0
