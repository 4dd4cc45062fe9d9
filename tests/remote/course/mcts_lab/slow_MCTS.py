"""An MCTS.py that thinks far too long."""

import time

import game1  # noqa: F401


class Node:
    def __init__(self, state, parent_node):
        self.state = state


def MCTS(root, rollouts):
    time.sleep(60)
    return root.state.getMoves()[0]
