"""A student agent that prints without end (written for arena's example class): a debug
loop left in, so it never answers and loses on time."""


class Chatty:
    def choose(self, state, limit):
        n = 0
        while True:
            n += 1
            print(f"debug: still thinking ({n})")
