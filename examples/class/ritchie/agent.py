"""An Othello assignment program (written for arena's example class): handed in to the
wrong assignment, so a Connect Four league refuses it."""

from othello_shared import possible_moves


def run_ai():
    print("Wrong Course")
    colour = int(input().split(",")[0])
    while True:
        status, _, _ = input().strip().split()
        if status == "FINAL":
            return
        board = eval(input())
        col, row = possible_moves(board, colour)[0]
        print(f"{col} {row}")


if __name__ == "__main__":
    run_ai()
