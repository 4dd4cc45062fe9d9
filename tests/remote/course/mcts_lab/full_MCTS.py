"""An MCTS.py that always answers column 0, full after six of its stones."""

import game1  # noqa: F401


class Node:
    def __init__(self, state, parent_node):
        self.state = state


def MCTS(root, rollouts):
    return 0
