"""Build an Othello opening book for ``ids:book=FILE``.

Usage (the book measured in docs/strength.md, "The Othello opening book": 4,752
positions, 41 minutes on two cores):

    PYTHONPATH=src python scripts/build_othello_book.py --depth 12 --full 5 --plies 9 \
        --window 1 --jobs 2 --out book.npz
    arena match othello "ids:book=book.npz" ids --move-time 0.1 --openings random:plies=4

The book grows from the start position (:func:`arena.search.alphabeta.engines.
othello.book.build`): every position of the first ``--full`` plies is expanded (all
its moves searched), so any opening of that many plies leads into the book; after
them, up to ``--plies``, each move within ``--window`` discs of its position's best is
expanded too (the deviations either side may play). Every position reached is
searched to ``--depth`` plies by the compiled engine (one thread per job, its table
cleared before each search, so a build is repeatable); in an expanded position ``ids``
plays the move whose position searched best. Positions are stored once for all their
symmetric images.

The file is written after every ply (atomically), so a build stopped part-way keeps
the plies it finished; ``--resume`` reuses the searched values of an existing
``--out`` of the same depth and searches only the positions it lacks.
"""

from __future__ import annotations

import argparse
import sys
import time
from multiprocessing import get_context
from pathlib import Path

import arena
from arena.search.alphabeta.engines.othello.book import Book, Position, build, read_book
from arena.search.alphabeta.engines.othello.engine import DISCS_PER_RAW, OthelloEngine
from arena.search.alphabeta.engines.othello.evaluation import UNIT

ENGINE: list[OthelloEngine] = []


def _start() -> None:
    ENGINE.append(OthelloEngine(arena.load_game("othello")))


def _search(job: tuple[Position, int]) -> int:
    (me, opp), depth = job
    engine = ENGINE[0]
    engine.reset()  # the same value whichever job searches it, after whatever else
    return engine.search_bits(me, opp, depth)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="the book file to write (.npz)")
    parser.add_argument("--depth", type=int, default=12, help="plies each position is searched")
    parser.add_argument(
        "--full", type=int, default=5, help="positions of fewer plies are all expanded"
    )
    parser.add_argument(
        "--plies", type=int, default=9, help="positions of fewer plies may be expanded"
    )
    parser.add_argument(
        "--window", type=float, default=1.0, help="discs from the best a deviation may be"
    )
    parser.add_argument("--jobs", type=int, default=2, help="searches at once (processes)")
    parser.add_argument(
        "--resume", action="store_true", help="reuse the values of an existing --out"
    )
    args = parser.parse_args(argv)
    for name, low in (("depth", 1), ("full", 1), ("plies", 1), ("jobs", 1)):
        if getattr(args, name) < low:
            parser.error(f"--{name}: at least {low}, not {getattr(args, name)}")
    if args.full > args.plies:
        parser.error(f"--full ({args.full}) is more than --plies ({args.plies})")
    if args.window < 0:
        parser.error(f"--window: not negative, not {args.window}")
    if not args.out.parent.is_dir():
        parser.error(f"--out: no such folder: {args.out.parent}")
    known: dict[Position, int] = {}
    if args.resume and args.out.exists():
        try:
            old = read_book(args.out)
        except ValueError as exc:
            parser.error(f"--resume: {exc}")
        if old.depth != args.depth:
            parser.error(
                f"--resume: {args.out} was searched to depth {old.depth}, not {args.depth}"
            )
        known = {pos: entry.value for pos, entry in old.entries.items()}
    window = round(args.window / DISCS_PER_RAW * UNIT)
    started = time.perf_counter()
    searched = 0

    with get_context("spawn").Pool(args.jobs, initializer=_start) as pool:

        def evaluate(positions: list[Position]) -> list[int]:
            nonlocal searched
            searched += len(positions)
            return pool.map(_search, [(p, args.depth) for p in positions], chunksize=1)

        def done(ply: int, book: Book) -> None:
            book.save(args.out)
            expanded = sum(entry.expanded for entry in book.entries.values())
            print(
                f"ply {ply}: {len(book)} positions, {expanded} expanded, {searched} searched, "
                f"{time.perf_counter() - started:.0f} s",
                flush=True,
            )

        build(evaluate, args.plies, args.full, window, args.depth, known, done)
    return 0


if __name__ == "__main__":
    sys.exit(main())
