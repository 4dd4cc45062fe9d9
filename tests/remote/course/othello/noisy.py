"""An Othello program that logs a lot to stderr and plays its first legal move."""

import sys

from othello_shared import possible_moves

print("Chatty")
colour = int(input().split(",")[0])
while True:
    status, dark, light = input().split()
    if status == "FINAL":
        break
    board = eval(input())
    for row in board:
        for _ in range(40):
            print("considering", row, "very carefully" * 20, file=sys.stderr)
    col, row = possible_moves(board, colour)[0]
    print(col, row)
