"""A submission with a syntax error (written for arena's example class)."""


class Broken:
    def choose(self, state, limit)
        return state.legal_moves()[0]
