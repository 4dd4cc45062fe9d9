"""An Othello assignment program for arena's tests: depth-limited minimax or alpha-beta
on the disc difference, honouring the manager's limit, minimax, caching and ordering."""

import sys

from othello_shared import counts, play, possible_moves

WIN = 10_000


def utility(board, colour):
    dark, light = counts(board)
    return dark - light if colour == 1 else light - dark


class Searcher:
    def __init__(self, colour, limit, minimax, caching, ordering):
        self.colour, self.limit = colour, limit
        self.minimax, self.caching, self.ordering = minimax, caching, ordering
        self.cache = {}
        self.nodes = 0

    def value(self, board, mover, depth, alpha, beta):
        """The value of ``board`` for our colour with ``mover`` to move."""
        self.nodes += 1
        key = (board, mover, depth)
        if self.caching and key in self.cache:
            return self.cache[key]
        moves = possible_moves(board, mover)
        if not moves or depth == 0:
            return utility(board, self.colour)
        children = [play(board, mover, c, r) for c, r in moves]
        maximising = mover == self.colour
        if self.ordering and not self.minimax:
            children.sort(key=lambda b: utility(b, self.colour), reverse=maximising)
        best = -WIN if maximising else WIN
        for child in children:
            v = self.value(child, 3 - mover, depth - 1, alpha, beta)
            if maximising:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if not self.minimax and alpha >= beta:
                break
        if self.caching:
            self.cache[key] = best
        return best

    def choose(self, board):
        depth = self.limit if self.limit >= 0 else 64
        best, best_value = None, -WIN - 1
        for col, row in possible_moves(board, self.colour):
            v = self.value(
                play(board, self.colour, col, row), 3 - self.colour, depth - 1, -WIN, WIN
            )
            if v > best_value:
                best, best_value = (col, row), v
        return best


def run_ai():
    print("Alpha Beta Student")
    colour, limit, minimax, caching, ordering = map(int, input().split(","))
    searcher = Searcher(colour, limit, minimax, caching, ordering)
    while True:
        status, _dark, _light = input().strip().split()
        if status == "FINAL":
            return
        board = eval(input())
        searcher.cache.clear()
        col, row = searcher.choose(board)
        print(f"nodes {searcher.nodes}", file=sys.stderr)
        print(f"{col} {row}")


if __name__ == "__main__":
    run_ai()
