"""The helpers of an Othello assignment (written for arena's example class)."""


def possible_moves(board, colour):
    return [(c, r) for r, row in enumerate(board) for c, cell in enumerate(row) if cell == 0]
