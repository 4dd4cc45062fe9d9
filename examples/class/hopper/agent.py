"""A student agent that crashes (written for arena's example class): its third move
raises, as an off-by-one does."""


class Buggy:
    def __init__(self):
        self.history = []

    def choose(self, state, limit):
        self.history.append(state.ply)
        if len(self.history) == 3:
            return state.legal_moves()[len(self.history) * 10]  # IndexError
        return state.legal_moves()[0]
