"""``arena solve GAME [MOVES]``: the exact value of a position and of each of its moves.

Tests: tests/cli/test_solve.py
"""

from __future__ import annotations

import argparse
import sys
import time

from arena.cli.common import add_game_argument, add_position_option, position_from
from arena.core.errors import ArenaError
from arena.core.game import Game, State
from arena.formats.position import has_position, parse_position
from arena.games import load_game
from arena.solvers.solution import Solution
from arena.solvers.solve import kind, move_values, solve_state

GAVE_UP = 3
"""Exit status when ``--time`` ran out before the value was known."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "solve",
        help="the exact value of a position with perfect play, and of every move",
        description="Solve the position after MOVES (or --position): its exact value for the "
        "player to move, the value of every legal move, the best moves, nodes, time and "
        "nodes/s. Connect Four and Othello endgames use compiled solvers; other games a "
        "generic alpha-beta, fine for small trees. Scores: k-in-a-row games "
        "(cells+1)//2 + 1 minus the winner's stones at the end (22 minus them on Connect Four "
        "7x6), positive when the player to move wins; Othello the final disc difference with "
        "empty cells to the winner; other games the margin or +1/0/-1.",
        epilog="examples: arena solve connect4 4453 | arena solve tictactoe | "
        "arena solve connect4 --file positions.txt | "
        "arena solve othello --position 'O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--"
        "------ X'",
    )
    add_game_argument(p)
    p.add_argument("moves", nargs="*", metavar="MOVE", help="moves in the game's notation")
    add_position_option(p)
    p.add_argument(
        "--file",
        metavar="FILE",
        default=None,
        help="solve one position per line (MOVES or a position string; the rest of the line is "
        "ignored) and print 'POSITION SCORE' lines, with a summary on stderr",
    )
    p.add_argument(
        "--time",
        type=float,
        default=None,
        metavar="S",
        help="give up after S seconds (per position with --file) and print the bounds found "
        "(exit status 3)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    game = load_game(args.game)
    if args.time is not None and args.time <= 0:
        raise ArenaError(f"--time must be > 0, not {args.time}")
    if args.file is not None:
        if args.moves or args.position:
            raise ArenaError("--file takes no MOVES or --position")
        return solve_file(game, args.file, args.time)
    state = position_from(game, args.moves, None, args.position)
    print(state.render())
    if state.is_terminal():
        print(f"the game is over: {state.result_text()}")
        return 0
    start = time.perf_counter()
    root = solve_state(state, args.time, _progress)
    if not root.exact:
        print(
            f"gave up after {args.time:g} s: the value is between {root.low:+d} and "
            f"{root.high:+d} ({root.nodes:,} nodes)",
            file=sys.stderr,
        )
        return GAVE_UP
    left = None if args.time is None else max(0.0, args.time - (time.perf_counter() - start))
    values = move_values(state, left, _progress)
    seconds = root.seconds + sum(v.seconds for _, v in values)  # not numba's loading
    nodes = root.nodes + sum(v.nodes for _, v in values)
    print(f"value: {root.score:+d}: {describe(state, root.score)} ({kind(game)} solver)")
    print("moves: " + "  ".join(f"{game.format_move(m)} {_bounds(v)}" for m, v in values))
    best = [game.format_move(m) for m, v in values if v.exact and v.score == root.score]
    print("best: " + " ".join(best))
    rate = nodes / seconds if seconds > 0 else 0.0
    print(f"{nodes:,} nodes in {seconds:.3f} s ({rate:,.0f} nodes/s)")
    if not all(v.exact for _, v in values):
        print(f"gave up after {args.time:g} s on some moves (bounds shown)", file=sys.stderr)
        return GAVE_UP
    return 0


def _progress(text: str) -> None:
    # Long solves (Othello from many empties) say how they go, on stderr.
    print(f"solve: {text}", file=sys.stderr, flush=True)


def _bounds(v: Solution) -> str:
    return f"{v.score:+d}" if v.exact else f"[{v.low:+d},{v.high:+d}]"


def describe(state: State, score: int) -> str:
    """What a score means, in words, for the player to move in ``state``."""
    game = state.game
    names = game.player_names
    me, other = names[state.to_move], names[1 - state.to_move]
    if score == 0:
        return "draw"
    winner = me if score > 0 else other
    if game.name in ("tictactoe", "connect4", "gomoku"):
        cells = game.rows * game.cols  # type: ignore[attr-defined]
        stones = (cells + 1) // 2 + 1 - abs(score)
        return f"{winner} wins with its stone number {stones}"
    if state.score() is None:
        return f"{winner} wins"
    return f"{winner} wins by {abs(score)}"


def parse_line(game: Game, line: str) -> State:
    """A ``--file`` line: a position string, or moves (one token; the rest is ignored)."""
    fields = line.split()
    if has_position(game) and len(fields) >= 2 and fields[1].upper() in ("X", "O"):
        return parse_position(game, " ".join(fields[:2]))
    return position_from(game, fields[:1])


def solve_file(game: Game, path: str, seconds: float | None) -> int:
    """Solve every line of ``path``: ``POSITION SCORE`` on stdout, a summary on stderr."""
    with open(path, encoding="utf-8") as f:
        lines = [line.strip() for line in f]
    total_nodes = 0
    total_time = 0.0
    solved = unsolved = 0
    for number, line in enumerate(lines, 1):
        if not line or line.startswith("#"):
            continue
        try:
            state = parse_line(game, line)
        except ArenaError as exc:
            raise ArenaError(f"{path}:{number}: {exc}") from None
        result = solve_state(state, seconds)
        total_nodes += result.nodes
        total_time += result.seconds
        text = line.split()[0] if not has_position(game) else " ".join(line.split()[:2])
        if result.exact:
            solved += 1
            print(f"{text} {result.score}", flush=True)
        else:
            unsolved += 1
            print(f"{text} ?", flush=True)
            print(
                f"{path}:{number}: gave up: between {result.low:+d} and {result.high:+d}",
                file=sys.stderr,
            )
    count = solved + unsolved
    mean = total_time / count if count else 0.0
    rate = total_nodes / total_time if total_time > 0 else 0.0
    print(
        f"{count} positions ({unsolved} unsolved) in {total_time:.3f} s, mean {mean * 1000:.3f} "
        f"ms, {total_nodes:,} nodes, {rate:,.0f} nodes/s",
        file=sys.stderr,
    )
    return GAVE_UP if unsolved else 0
