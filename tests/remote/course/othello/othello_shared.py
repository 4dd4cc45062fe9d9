"""Board helpers for the Othello programs in arena's tests, in the style of the
assignment's shared module: a board is a tuple of row tuples (0 empty, 1 dark,
2 light) and a move is (column, row). Written for these tests."""

STEPS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))


def captured(board, col, row, colour):
    """The discs a disc of ``colour`` on (col, row) would flip."""
    size = len(board)
    flips = []
    for dc, dr in STEPS:
        c, r, run = col + dc, row + dr, []
        while 0 <= c < size and 0 <= r < size and board[r][c] not in (0, colour):
            run.append((c, r))
            c, r = c + dc, r + dr
        if run and 0 <= c < size and 0 <= r < size and board[r][c] == colour:
            flips.extend(run)
    return flips


def possible_moves(board, colour):
    """Every (col, row) where ``colour`` may place a disc, row by row."""
    size = len(board)
    return [
        (c, r)
        for r in range(size)
        for c in range(size)
        if board[r][c] == 0 and captured(board, c, r, colour)
    ]


def play(board, colour, col, row):
    """The board after ``colour`` places a disc on (col, row)."""
    changed = [list(line) for line in board]
    for c, r in [*captured(board, col, row, colour), (col, row)]:
        changed[r][c] = colour
    return tuple(tuple(line) for line in changed)


def counts(board):
    """(dark discs, light discs)."""
    cells = [cell for line in board for cell in line]
    return cells.count(1), cells.count(2)
