"""A weak student agent (written for arena's example class): a random legal column."""

import random


class Randomly:
    def __init__(self):
        self.rng = random.Random()

    def choose(self, state, limit):
        return self.rng.choice(state.legal_moves())
