"""An MCTS.py whose search raises."""

import game1  # noqa: F401


class Node:
    def __init__(self, state, parent_node):
        self.state = state


def MCTS(root, rollouts):
    raise ZeroDivisionError("float division by zero")
