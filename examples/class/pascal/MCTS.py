"""A lab submission missing its MCTS function (written for arena's example class): Node is
written, MCTS(root, rollouts) is not yet."""

import game1


class Node:
    def __init__(self, state, parent_node):
        self.state = state
        self.parent = parent_node
        self.children = {}


def mcts_todo(root, rollouts):
    return game1.State().getMoves()[0]
