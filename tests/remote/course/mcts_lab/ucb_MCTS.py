"""An MCTS.py that plays the column UCB_CONST names (to see ucb= set it)."""

import game1  # noqa: F401

UCB_CONST = 0.5


class Node:
    def __init__(self, state, parent_node):
        self.state = state


def MCTS(root, rollouts):
    moves = root.state.getMoves()
    wanted = int(UCB_CONST)
    return wanted if wanted in moves else moves[0]
