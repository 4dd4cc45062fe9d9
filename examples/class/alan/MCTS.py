"""A Connect Four MCTS lab submission (written for arena's example class): Node and
MCTS(root, rollouts) over game1.State, plain UCT with random rollouts."""

import math
import random

import game1

UCB_CONST = 0.5


class Node:
    def __init__(self, state, parent_node):
        self.state = state
        self.parent = parent_node
        self.children = {}
        self.visits = 0
        self.value = 0.0

    def addMove(self, move):
        if move not in self.children:
            self.children[move] = Node(self.state.nextState(move), self)

    def ucb(self, for_player):
        mean = self.value / self.visits if self.visits else 0.0
        won = (mean * for_player + 1) / 2
        return won + UCB_CONST * math.sqrt(math.log(self.parent.visits + 1) / (self.visits + 1e-9))


def rollout(state):
    while not state.isTerminal():
        state = state.nextState(random.choice(state.getMoves()))
    return state.value()


def MCTS(root, rollouts):
    for _ in range(rollouts):
        node = root
        while not node.state.isTerminal():
            moves = node.state.getMoves()
            untried = [m for m in moves if m not in node.children]
            if untried:
                move = random.choice(untried)
                node.addMove(move)
                node = node.children[move]
                break
            node = max(node.children.values(), key=lambda c: c.ucb(node.state.turn))
        result = rollout(node.state)
        while node is not None:
            node.visits += 1
            node.value += result
            node = node.parent
    return max(root.children, key=lambda m: root.children[m].visits)


if __name__ == "__main__":
    state = game1.State()
    print(MCTS(Node(state, None), 100))
