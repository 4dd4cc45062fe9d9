"""An Othello assignment program for arena's tests: plays its first legal move.

Like the starter code it prints without flushing and reads with input()."""

import sys

from othello_shared import possible_moves


def run_ai():
    print("First Legal")
    header = input()
    colour = int(header.split(",")[0])
    print(f"playing with header {header}", file=sys.stderr)
    while True:
        status, dark, light = input().strip().split()
        if status == "FINAL":
            with open("final.txt", "w") as out:  # in its own folder: the working directory
                out.write(f"{header} | {dark} {light}\n")
            return
        board = eval(input())
        col, row = possible_moves(board, colour)[0]
        print(f"{col} {row}")


if __name__ == "__main__":
    run_ai()
