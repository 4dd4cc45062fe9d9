"""Two agent classes in one file (written for arena's example class); arena.toml names the
one that plays."""

import random


class Blocker:
    """Win now, else block the opponent's win, else a random column."""

    def __init__(self):
        self.rng = random.Random(1)

    def choose(self, state, limit):
        me = state.to_move
        moves = state.legal_moves()
        for who in (me, 1 - me):
            for move in moves:
                if who == me:
                    after = state.play(move)
                    if after.is_terminal() and after.winner() == me:
                        return move
        # The opponent's immediate wins, found by letting them move here.
        for move in moves:
            for reply in state.play(move).legal_moves():
                after = state.play(move).play(reply)
                if after.is_terminal() and after.winner() == 1 - me and reply == move:
                    return move
        return self.rng.choice(moves)


class Experimental:
    def choose(self, state, limit):
        return state.legal_moves()[0]
