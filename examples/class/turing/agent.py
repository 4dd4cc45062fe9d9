"""Turing's copy of a good agent (the tests add a 200 MB file beside it) (written for arena's example class): win now, else block,
else the move nearest the centre that does not hand the opponent a win."""


class Lookahead:
    def choose(self, state, limit):
        me = state.to_move
        moves = state.legal_moves()
        for move in moves:
            after = state.play(move)
            if after.is_terminal() and after.winner() == me:
                return move
        safe = []
        for move in moves:
            after = state.play(move)
            if not any(
                after.play(reply).is_terminal() and after.play(reply).winner() == 1 - me
                for reply in after.legal_moves()
            ):
                safe.append(move)
        centre = (max(moves) + min(moves)) / 2
        return min(safe or moves, key=lambda m: (abs(m - centre), m))
