"""An older-assignment Othello program: the manager sends its colour alone."""

from othello_shared import possible_moves

print("Old Header")
colour = int(input())
while True:
    status, dark, light = input().split()
    if status == "FINAL":
        break
    board = eval(input())
    moves = possible_moves(board, colour)
    print("{} {}".format(*moves[-1]))
