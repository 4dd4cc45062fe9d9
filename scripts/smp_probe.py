"""Lazy SMP (``ids:threads=N``) measured where a busy machine cannot time it.

Usage (from the checkout):

    .venv/bin/python scripts/smp_probe.py depth othello --budget 400000
    .venv/bin/python scripts/smp_probe.py depth othello --seconds 0.5     # a quiet machine
    .venv/bin/python scripts/smp_probe.py match gomoku --budget 100000 --games 20

``--budget N``: each thread searches at most N nodes a move (the engines' ``budget``),
which stands for equal time on free cores: two threads on two free cores each search
about as many nodes as one thread alone (1.87-2.01x the nodes per second together,
docs/speed.md). So the figures do not depend on the load, and one run on a shared
machine decides. ``--seconds S``: a real clock instead (meaningful only with the cores
free).

- ``depth``: fixed positions of seeded random play (Othello 20-30 discs, Gomoku 10-20
  stones), each searched by a fresh engine with 1 and with 2 threads in turn: the
  depth completed (the deepest any thread completed) and the nodes.
- ``ttd``: time to depth: the same positions searched to ``--depth`` (no budget, no
  clock) with 1 and 2 threads; the main thread's nodes to complete it (with both
  threads running at once, the wall time to depth on free cores) and the wall time.
- ``quality`` (Othello): the moves 1 and 2 threads choose at the budget, where they
  differ valued by a deeper one-thread search (``--ref-depth``): which choice is better
  (``--double``: 2 threads against one thread with twice the budget, as "1t").
- ``match``: ``threads=2`` against ``threads=1``, paired openings (random plies, each
  opening played with both colours), every move at the budget; prints the score.
  ``--openings SPEC``: the openings of ``arena match --openings`` instead (e.g.
  ``random:plies=4,judge=4,balance=0.005``); the last line counts the pairs in which each
  colour won its own game; ``--first-pair K`` starts at opening K (a long match run in
  parts). ``--double``: one thread with twice the budget (or
  ``--seconds``) instead of two threads, the score a perfect two-thread speed-up would
  reach (the ceiling of the target).

``--helper-beam N`` / ``--helper-vcf N`` (Gomoku): the helpers search N moves a node /
N fours at the horizon instead of the main search's settings (``gomoku.HELPER_BEAM``,
``gomoku.HELPER_LEAF_PLIES``), so that a helper's work differs from the main search's.
"""

from __future__ import annotations

import argparse
import random
import time

import arena
from arena.compete.openings import Openings
from arena.core.game import Game, State
from arena.search.alphabeta.engines import driver, engine_for
from arena.search.alphabeta.engines.gomoku import engine as gomoku

PLIES = {"othello": (16, 26), "gomoku": (10, 20), "connect4": (8, 14)}


def positions(game: Game, count: int, seed: int) -> list[State]:
    rng = random.Random(seed)
    low, high = PLIES[game.name]
    out = []
    while len(out) < count:
        state = game.initial_state()
        plies = rng.randint(low, high)
        while not state.is_terminal() and state.ply < plies:
            state = state.play(rng.choice(state.legal_moves()))
        if not state.is_terminal() and len(state.legal_moves()) > 1:
            out.append(state)
    return out


SPLIT = True
"""``--no-split``: the threads share a node's moves only through the table (plain Lazy
SMP), not also by leaving the moves another thread is searching for later (ABDADA)."""


def engine(game: Game, threads: int, budget: int | None) -> object:
    built = engine_for(game, threads)
    assert built is not None, f"{game.spec} has no compiled engine"
    if hasattr(built, "split"):  # Othello
        built.split = SPLIT
    searches = [getattr(built, "search", None)]
    searches += list(getattr(built.smp, "helpers", ())) if built.smp is not None else []
    for each in searches:
        if hasattr(each, "split"):  # Gomoku's searches, the main one and its helpers'
            each.split = SPLIT and threads > 1
    search = getattr(built, "search", built)  # Gomoku, Connect Four: its RootSearch
    search.budget = budget
    for helper in getattr(built.smp, "helpers", ()) if built.smp is not None else ():
        helper.budget = budget  # a RootSearch copy; Othello's helpers read the engine's
    return built


def choose(built: object, state: State, seconds: float | None) -> tuple[int, object]:
    agent = arena.load_agent("ids")
    return built.choose(state, seconds, 64, agent)  # type: ignore[attr-defined]


def depth(args: argparse.Namespace) -> None:
    game = arena.load_game(args.game)
    print(f"{'pos':>3} {'t':>2} {'depth':>5} {'nodes':>9} {'seconds':>7}")
    totals: dict[int, list[int]] = {1: [], 2: []}
    for i, state in enumerate(positions(game, args.positions, args.seed)):
        for threads in (1, 2):
            built = engine(game, threads, args.budget)
            start = time.perf_counter()
            _, info = choose(built, state, args.seconds)
            took = time.perf_counter() - start
            totals[threads].append(info.depth)  # type: ignore[attr-defined]
            print(f"{i:>3} {threads:>2} {info.depth:>5} {info.nodes:>9} {took:>7.2f}")  # type: ignore[attr-defined]
    for threads, depths in totals.items():
        print(f"threads={threads}: mean depth {sum(depths) / len(depths):.2f} {depths}")


def main_nodes(built: object) -> int:
    """The main thread's nodes of the last move."""
    search = getattr(built, "search", None)
    return int(search.nodes if search is not None else built.spent)  # type: ignore[attr-defined]


def time_to_depth(args: argparse.Namespace) -> None:
    game = arena.load_game(args.game)
    print(
        f"{'pos':>3} {'depth':>5} {'main nodes 1t':>13} {'2t':>9} {'ratio':>6} "
        f"{'wall 1t':>7} {'2t':>6}"
    )
    ratios = []
    for i, state in enumerate(positions(game, args.positions, args.seed)):
        row = []
        for threads in (1, 2):
            built = engine(game, threads, None)
            start = time.perf_counter()
            built.choose(state, None, args.depth, arena.load_agent("ids"))  # type: ignore[attr-defined]
            row.append((main_nodes(built), time.perf_counter() - start))
        ratio = row[0][0] / max(row[1][0], 1)
        ratios.append(ratio)
        print(
            f"{i:>3} {args.depth:>5} {row[0][0]:>13} {row[1][0]:>9} {ratio:>6.2f} "
            f"{row[0][1]:>7.2f} {row[1][1]:>6.2f}"
        )
    product = 1.0
    for r in ratios:
        product *= r
    print(f"geometric mean of main-thread nodes 1t/2t: {product ** (1 / len(ratios)):.2f}")


def quality(args: argparse.Namespace) -> None:
    """The moves 1 and 2 threads choose at the budget, valued by a deeper one-thread
    search (Othello: ``--ref-depth`` plies from the position after the move)."""
    game = arena.load_game(args.game)
    reference = engine_for(game, 1)
    diffs, differ = [], 0
    for i, state in enumerate(positions(game, args.positions, args.seed)):
        chosen = {}
        for threads in (1, 2):
            if args.double and threads == 1:  # two threads against one with twice the budget
                built = engine(game, 1, 2 * args.budget if args.budget else None)
                seconds = 2 * args.seconds if args.seconds else None
                chosen[threads], _ = choose(built, state, seconds)
                continue
            built = engine(game, threads, args.budget)
            chosen[threads], _ = choose(built, state, args.seconds)
        if chosen[1] == chosen[2]:
            diffs.append(0.0)
            continue
        differ += 1
        value = {}
        for threads, move in chosen.items():
            after = state.play(move)
            reference.reset()  # type: ignore[attr-defined]
            v, _ = reference.search_depth(after, args.ref_depth)  # type: ignore[attr-defined]
            value[threads] = -v if after.to_move != state.to_move else v
        diffs.append(value[2] - value[1])
        print(
            f"{i:>3} 1t {game.format_move(chosen[1])} {value[1]:>7} "
            f"2t {game.format_move(chosen[2])} {value[2]:>7}"
        )
    mean = sum(diffs) / len(diffs)
    better = sum(d > 0 for d in diffs)
    worse = sum(d < 0 for d in diffs)
    print(
        f"{len(diffs)} positions, {differ} with different moves: 2 threads better in "
        f"{better}, worse in {worse}; mean value difference {mean:+.1f} (internal units)"
    )


def match(args: argparse.Namespace) -> None:
    game = arena.load_game(args.game)
    rng = random.Random(args.seed)
    score = 0.0
    played = 0
    book = Openings.parse(args.openings, game) if args.openings else None
    splits = 0
    for pair in range(args.first_pair, args.first_pair + args.games // 2):
        opening = game.initial_state()
        while book is None:
            opening = game.initial_state()
            for _ in range(args.plies):
                opening = opening.play(rng.choice(opening.legal_moves()))
            if not opening.is_terminal():
                break
        if book is not None:
            opening = game.play_moves(book.get(pair))
        firsts = 0
        for two_first in (True, False):
            engines = {1: engine(game, 1, args.budget), 2: engine(game, 2, args.budget)}
            if args.smp_share is not None:  # Othello's rule of no new depth past this share
                engines[2].next_share = args.smp_share  # type: ignore[attr-defined]
            if args.double:  # the bound: one thread with twice the nodes (a perfect speed-up)
                engines[2] = engine(game, 1, 2 * args.budget if args.budget else None)
            two = opening.to_move if two_first else 1 - opening.to_move
            state = opening
            while not state.is_terminal():
                threads = 2 if state.to_move == two else 1
                seconds = args.seconds
                if seconds is not None and args.double and threads == 2:
                    seconds *= 2  # ... or twice the time
                move, _ = choose(engines[threads], state, seconds)
                state = state.play(move)
            result = state.returns()[two]
            points = 1.0 if result > 0 else 0.5 if result == 0 else 0.0
            score += points
            played += 1
            firsts += state.returns()[opening.to_move] > 0
            print(f"pair {pair} threads=2 {'first' if two_first else 'second'}: {points}")
        splits += firsts in (0, 2)  # each colour won its own game: the opening decided
    print(f"threads=2 scored {score}/{played} = {100 * score / max(played, 1):.1f}%")
    print(f"pairs where each colour won its own game: {splits} of {args.games // 2}")


SCHEDULES = {
    "same": None,  # the driver's own: the main search's depth, or past its own last
    "ahead": lambda index, last, main: max(last + 1, main + 1),
    "even": lambda index, last, main: last + 1 + (last + 1) % 2,  # skip odd depths
    "ahead2": lambda index, last, main: max(last + 1, main + 2),
}
"""Helpers' depth schedules to compare (``--schedule``): the driver's ``helper_depth``."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("depth", "ttd", "quality", "match"))
    parser.add_argument("game")
    parser.add_argument("--budget", type=int, default=None, help="nodes per thread a move")
    parser.add_argument("--seconds", type=float, default=None, help="a move's time instead")
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--plies", type=int, default=4, help="random plies of an opening")
    parser.add_argument(
        "--openings",
        default=None,
        help="match: openings as arena match takes them (random:plies=4,judge=4,...) "
        "instead of --plies random plies",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--first-pair",
        type=int,
        default=0,
        help="match with --openings: start at this opening (resume a match in parts)",
    )
    parser.add_argument("--depth", type=int, default=10, help="ttd: the depth to complete")
    parser.add_argument("--ref-depth", type=int, default=12, help="quality: reference depth")
    parser.add_argument("--schedule", choices=SCHEDULES, default="same")
    parser.add_argument(
        "--smp-share",
        type=float,
        default=None,
        help="match, Othello: the two-thread engine starts no depth past this share of its "
        "time or budget (the engine's NEXT_SHARE, 0.6, otherwise)",
    )
    parser.add_argument(
        "--double",
        action="store_true",
        help="match, quality: one thread with twice the budget in place of two threads (the "
        "most a perfect speed-up could give)",
    )
    parser.add_argument(
        "--helper-beam",
        type=int,
        default=None,
        help="Gomoku: moves a node of a helper thread searches (gomoku.HELPER_BEAM)",
    )
    parser.add_argument(
        "--helper-vcf",
        type=int,
        default=None,
        help="Gomoku: fours of a helper's VCF at the horizon (gomoku.HELPER_LEAF_PLIES)",
    )
    parser.add_argument(
        "--no-split",
        action="store_true",
        help="plain Lazy SMP: threads do not leave the moves another is searching for later",
    )
    args = parser.parse_args()
    global SPLIT
    SPLIT = not args.no_split
    if args.helper_beam is not None:
        gomoku.HELPER_BEAM = args.helper_beam
    if args.helper_vcf is not None:
        gomoku.HELPER_LEAF_PLIES = args.helper_vcf
    if SCHEDULES[args.schedule] is not None:
        driver.helper_depth = SCHEDULES[args.schedule]
    if args.what == "ttd":
        time_to_depth(args)
        return
    if args.budget is None and args.seconds is None:
        parser.error("give --budget N or --seconds S")
    {"depth": depth, "quality": quality, "match": match}[args.what](args)


if __name__ == "__main__":
    main()
