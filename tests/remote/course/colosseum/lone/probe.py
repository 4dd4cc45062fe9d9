"""A lone student agent that checks every argument step gets is the simulator's."""

import numpy as np
from agents.agent import Agent
from store import register_agent


@register_agent("probe_agent")
class ProbeAgent(Agent):
    def __init__(self):
        super().__init__()
        self.name = "Probe"

    def step(self, chess_board, my_pos, adv_pos, max_step):
        assert isinstance(chess_board, np.ndarray) and chess_board.dtype == np.bool_
        size = chess_board.shape[0]
        assert chess_board.shape == (size, size, 4)
        assert chess_board[0, :, 0].all() and chess_board[:, size - 1, 1].all()
        assert chess_board[size - 1, :, 2].all() and chess_board[:, 0, 3].all()
        assert (chess_board[:, :-1, 1] == chess_board[:, 1:, 3]).all(), "right/left differ"
        assert (chess_board[:-1, :, 2] == chess_board[1:, :, 0]).all(), "down/up differ"
        for pos in (my_pos, adv_pos):
            assert isinstance(pos, tuple) and len(pos) == 2
            assert all(isinstance(x, int) and 0 <= x < size for x in pos)
        assert my_pos != adv_pos
        assert max_step == (size + 1) // 2
        r, c = my_pos
        return (r, c), next(d for d in range(4) if not chess_board[r, c, d])
