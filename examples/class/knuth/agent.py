"""A student agent that hangs (written for arena's example class): its search never
returns, so it loses on time every game."""


class Forever:
    def choose(self, state, limit):
        while True:
            pass
