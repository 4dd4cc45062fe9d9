"""A lab-style MCTS written for arena's tests: Node and MCTS(root, rollouts), UCB_CONST."""

import math
import random

import game1

UCB_CONST = 0.5

print("MCTS.py imported")  # lab code prints: it must not reach the protocol


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

    def ucb(self):
        mover = -self.state.turn  # who moved into this node
        mean = self.value / self.visits if self.visits else 0.0
        won = (mean + 1) / 2 if mover == 1 else (1 - mean) / 2
        return won + UCB_CONST * math.sqrt(math.log(self.parent.visits) / self.visits)


def rollout(root):
    node = root
    while not node.state.isTerminal():
        untried = [m for m in node.state.getMoves() if m not in node.children]
        if untried:
            move = random.choice(untried)
            node.addMove(move)
            node = node.children[move]
            break
        node = max(node.children.values(), key=Node.ucb)
    state = node.state
    while not state.isTerminal():
        state = state.nextState(random.choice(state.getMoves()))
    outcome = state.value()
    while node is not None:
        node.visits += 1
        node.value += outcome
        node = node.parent


def MCTS(root, rollouts):
    for _ in range(rollouts):
        rollout(root)
    sign = root.state.turn
    return max(root.children, key=lambda m: sign * root.children[m].value / root.children[m].visits)


if __name__ == "__main__":
    print(MCTS(Node(game1.new_game(), None), 100))
