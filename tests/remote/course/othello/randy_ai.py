"""A random Othello program (the assignment ships one to play against)."""

import random

from othello_shared import possible_moves

print("Randy")
colour = int(input().split(",")[0])
while True:
    status, dark, light = input().split()
    if status == "FINAL":
        break
    board = eval(input())
    col, row = random.choice(possible_moves(board, colour))
    print(col, row)
