"""Connect Four in the MCTS lab's style, written for arena's tests: State with getMoves,
nextState, isTerminal, value and turn (1 moves first, then -1), new_game()."""

HEIGHT = 6
WIDTH = 5
CONNECT = 4


class State:
    def __init__(self, state=None, move=None):
        if state is None:
            self.columns = [[] for _ in range(WIDTH)]
            self.turn = 1
            self.winner = 0
        else:
            self.columns = [list(column) for column in state.columns]
            self.columns[move].append(state.turn)
            self.turn = -state.turn
            self.winner = state.winner or self._line_through(move)

    def getMoves(self):
        return [c for c in range(WIDTH) if len(self.columns[c]) < HEIGHT]

    def nextState(self, move):
        return State(self, move)

    def _cell(self, col, row):
        if 0 <= col < WIDTH and 0 <= row < len(self.columns[col]):
            return self.columns[col][row]
        return 0

    def _line_through(self, col):
        """The player of the stone just dropped in col if it completes a line, else 0."""
        row = len(self.columns[col]) - 1
        player = self.columns[col][row]
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                i = 1
                while self._cell(col + sign * i * dc, row + sign * i * dr) == player:
                    run, i = run + 1, i + 1
            if run >= CONNECT:
                return player
        return 0

    def isTerminal(self):
        return self.winner != 0 or not self.getMoves()

    def value(self):
        return self.winner


def new_game():
    return State()
