"""A small Gomocup brain of our own for the tests: it plays the empty point nearest the
centre, or the points a script names, and misbehaves on request.

    python brain.py [--log FILE] [--script X,Y;X,Y...] [--sizes 15,20] [--mode MODE]

MODE: ``play`` (default), ``hang`` (reads the move request and never answers), ``crash``
(exits at the move request), ``garbage`` (answers ``hello``), ``occupied`` (answers the
point of the first stone), ``offboard`` (``99,99``), ``chatty`` (MESSAGE/DEBUG/SUGGEST
lines before every answer), ``norestart`` (UNKNOWN to RESTART), ``error`` (ERROR instead
of a move). ``--log`` appends every command received to FILE.
"""

from __future__ import annotations

import argparse
import sys


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--log")
    p.add_argument("--script", default="")
    p.add_argument("--sizes", default="15,20")
    p.add_argument("--mode", default="play")
    args = p.parse_args()
    script = [tuple(int(v) for v in xy.split(",")) for xy in args.script.split(";") if xy]
    sizes = {int(s) for s in args.sizes.split(",")}
    size = 0
    stones: dict[tuple[int, int], int] = {}
    in_board = False

    def say(line: str) -> None:
        sys.stdout.write(line + "\r\n")
        sys.stdout.flush()

    def move() -> None:
        if args.mode == "hang":
            sys.stdin.readline()
            return
        if args.mode == "crash":
            sys.exit(7)
        if args.mode == "chatty":
            say("MESSAGE thinking")
            say("DEBUG depth 1")
            say("SUGGEST 0,0")
            say("")
        if args.mode == "garbage":
            say("hello")
            return
        if args.mode == "error":
            say("ERROR cannot move")
            return
        if args.mode == "offboard":
            say("99,99")
            return
        if args.mode == "occupied" and stones:
            x, y = next(iter(stones))
            say(f"{x},{y}")
            return
        while script:
            point = script.pop(0)
            if point not in stones:
                break
        else:
            c = (size - 1) / 2
            empty = [(x, y) for y in range(size) for x in range(size) if (x, y) not in stones]
            point = min(empty, key=lambda p: ((p[0] - c) ** 2 + (p[1] - c) ** 2, p[1], p[0]))
        stones[point] = 1
        say(f"{point[0]},{point[1]}")

    for raw in sys.stdin:
        line = raw.strip()
        if args.log:
            with open(args.log, "a") as log:
                log.write(line + "\n")
        word, _, rest = line.partition(" ")
        word = word.upper()
        if in_board:
            if word == "DONE":
                in_board = False
                move()
            else:
                x, y, field = (int(v) for v in line.split(","))
                stones[(x, y)] = field
        elif word == "START":
            size = int(rest)
            if size in sizes:
                stones.clear()
                say("OK")
            else:
                say(f"ERROR unsupported size {size}")
        elif word == "RESTART":
            if args.mode == "norestart":
                say("UNKNOWN RESTART")
            else:
                stones.clear()
                say("OK")
        elif word == "BEGIN":
            move()
        elif word == "TURN":
            x, y = (int(v) for v in rest.split(","))
            stones[(x, y)] = 2
            move()
        elif word == "BOARD":
            stones.clear()
            in_board = True
        elif word == "INFO":
            pass
        elif word == "ABOUT":
            say('name="testbrain", version="1"')
        elif word == "END":
            return 0
        else:
            say(f"UNKNOWN {word}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
