"""A student's agent that imports pygame for a display it never opens (written for arena's
example class): the centre-most legal column."""

import pygame  # noqa: F401  (the banner must not reach the protocol)


class CentreFirst:
    def choose(self, state, limit):
        moves = state.legal_moves()
        centre = (max(moves) + min(moves)) / 2
        return min(moves, key=lambda m: (abs(m - centre), m))
