"""Othello opening books for ``ids`` (``ids:book=FILE``): positions near the start searched
deeply once, stored, and played later without a search.

A book is a tree of positions grown from the start (:func:`build`, driven by
``scripts/build_othello_book.py``):

- every position of the first ``full`` plies is **expanded**: all its moves are in the
  book, so any opening of that many plies (``--openings random:plies=4``) leads into it;
- past them, up to ``plies``, a move is expanded when it is within ``window`` of the best
  move of its position: the **deviations** a strong player might choose, for either side;
- every position in the book is valued by a search to ``depth`` plies.

In an expanded position the engine plays, at once, the move whose position has the
best searched value: what a search one ply deeper than ``depth`` would play, read from
the file. Elsewhere it searches. A position and its seven images under the board's
symmetries are one entry (:func:`canonical`), so the book is an eighth of the tree.
Values are in the engine's internal units (:data:`.evaluation.UNIT` a raw unit, four
raw units a disc), from the evaluation the book was built with.

The values are not carried up the book by negamax, as books in the literature do: a
deviation's negamax value is the best of its replies' noisy values, biased against the
moves that were expanded, and mixes depths. Measured here on a book of depth 12, the
negamax move was worse than the engine's own 0.1 s search in 11 of the 12 positions
where they differed (by 1.4 discs on average, judged by searches to depth 14), the
searched values' move about as good (docs/strength.md, "The Othello opening book").

>>> import arena
>>> from arena.solvers.othello.solver import discs
>>> book = build(lambda positions: [0] * len(positions), plies=3, full=3, window=0, depth=0)
>>> rows = book.rows(*discs(arena.load_game("othello").initial_state()))
>>> sorted(arena.load_game("othello").format_move(bit) for bit, _ in rows)  # a bit is a cell
['c4', 'd3', 'e6', 'f5']

Tests: tests/search/test_othello_book.py
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import NamedTuple

import numpy as np

from arena.core.arrays_file import read_arrays
from arena.core.bitboard import iter_bits
from arena.search.alphabeta.engines.othello.evaluation import image
from arena.solvers.othello.board import board_mask, flips, moves

VERSION = 1
"""The format of book files; a file of another version is refused."""
START = (0x0000000810000000, 0x0000001008000000)
"""The start position as ``(mover, opponent)``: black to move on d5/e4, white on d4/e5."""
BOARD = np.uint64(board_mask(8))

Position = tuple[int, int]
"""``(mover's discs, opponent's discs)``, bit ``row * 8 + col`` (the solver's layout)."""


def canonical(pos: Position) -> Position:
    """The one of ``pos``'s eight images (:func:`.evaluation.image`) that the book stores:
    the smallest ``(mover, opponent)``.

    >>> d3, c4, f5, b2 = (1 << 19, 0), (1 << 26, 0), (1 << 37, 0), (1 << 9, 0)
    >>> canonical(d3) == canonical(c4) == canonical(f5) != canonical(b2)
    True
    """
    me, opp = np.uint64(pos[0]), np.uint64(pos[1])
    return min((int(image(me, g)), int(image(opp, g))) for g in range(8))


def placements(pos: Position) -> list[int]:
    """The cells (bits, ascending) the mover may place a disc on."""
    return list(iter_bits(int(moves(np.uint64(pos[0]), np.uint64(pos[1]), BOARD))))


def child(pos: Position, bit: int) -> Position:
    """The position after the mover places on ``bit`` (the opponent to move)."""
    me, opp = np.uint64(pos[0]), np.uint64(pos[1])
    x = np.uint64(1 << bit)
    f = flips(me, opp, x)
    return int(opp ^ f), int(me | f | x)


class Entry(NamedTuple):
    """A book position: its search's value for its mover, and whether all its moves are
    in the book."""

    value: int
    expanded: bool


class Book:
    """Book positions by their :func:`canonical` key; what the engine reads.

    ``depth``: the plies each position was searched; ``plies``, ``full``, ``window``: how it
    was grown (:func:`build`).
    """

    def __init__(
        self, entries: dict[Position, Entry], depth: int, plies: int, full: int, window: int
    ) -> None:
        self.entries = entries
        self.depth, self.plies, self.full, self.window = depth, plies, full, window

    def __len__(self) -> int:
        return len(self.entries)

    def get(self, pos: Position) -> Entry | None:
        return self.entries.get(canonical(pos))

    def rows(self, me: int, opp: int) -> list[tuple[int, int]] | None:
        """The moves of an expanded position as ``(bit, value for the mover)``, best first
        (ties in cell order); None when the position is not expanded in the book."""
        entry = self.get((me, opp))
        if entry is None or not entry.expanded:
            return None
        out = []
        for bit in placements((me, opp)):
            found = self.get(child((me, opp), bit))
            if found is None:  # a file whose expanded position lacks a move: not trusted
                return None
            out.append((bit, -found.value))
        return sorted(out, key=lambda row: -row[1])

    def save(self, path: Path) -> None:
        """Write the book as ``path`` (``.npz``), atomically: a stopped build keeps its
        last complete file."""
        keys = sorted(self.entries)
        entries = [self.entries[k] for k in keys]
        tmp = path.with_name(path.name + ".part.npz")
        np.savez_compressed(
            tmp,
            version=VERSION,
            me=np.array([k[0] for k in keys], dtype=np.uint64),
            opp=np.array([k[1] for k in keys], dtype=np.uint64),
            value=np.array([e.value for e in entries], dtype=np.int32),
            expanded=np.array([e.expanded for e in entries], dtype=bool),
            depth=self.depth,
            plies=self.plies,
            full=self.full,
            window=self.window,
        )
        tmp.replace(path)


ARRAYS = ("me", "opp", "value", "expanded")
SCALARS = ("version", "depth", "plies", "full", "window")


def read_book(path: Path) -> Book:
    """The book of a file :meth:`Book.save` wrote; a bad file raises a one-line
    :class:`ValueError` naming it."""
    data = read_arrays(path, "an Othello book")
    missing = [key for key in (*SCALARS, *ARRAYS) if key not in data]
    if missing:
        raise ValueError(f"{path}: not an Othello book (no '{missing[0]}')")
    if int(data["version"]) != VERSION:
        raise ValueError(
            f"{path}: an Othello book of version {int(data['version'])}, not {VERSION}"
        )
    arrays = [data[key] for key in ARRAYS]
    depth, plies, full, window = (int(data[key]) for key in SCALARS[1:])
    n = len(arrays[0])
    if any(a.ndim != 1 or len(a) != n for a in arrays):
        raise ValueError(f"{path}: the book's arrays differ in length")
    me, opp, value, expanded = (a.tolist() for a in arrays)
    entries = {
        (int(m), int(o)): Entry(int(v), bool(x))
        for m, o, v, x in zip(me, opp, value, expanded, strict=True)
    }
    book = Book(entries, depth, plies, full, window)
    book.rows(*START)  # its compiled helpers loaded now, not on the first move's clock
    return book


Evaluate = Callable[[list[Position]], list[int]]
"""Values of positions for their mover (searches to the book's depth)."""


def build(
    evaluate: Evaluate,
    plies: int,
    full: int,
    window: int,
    depth: int,
    known: dict[Position, int] | None = None,
    done: Callable[[int, Book], None] | None = None,
) -> Book:
    """Grow a book from the start (see the module): expand every position of the first
    ``full`` plies, and after them, to ``plies``, each move within ``window`` (internal
    units) of its position's best, by the values of ``evaluate``. ``known``: values
    already searched to ``depth`` (a build resumed), not asked again. ``done``
    is called after each ply with the book so far (to save it).

    >>> book = build(lambda ps: [0] * len(ps), plies=3, full=3, window=0, depth=0)
    >>> len(book), book.entries[canonical(START)].expanded   # 1 + 1 + 3 + 14 positions
    (19, True)
    """
    known = known or {}
    root = canonical(START)
    searched = {root: known[root]} if root in known else dict(_evaluated(evaluate, [root]))
    expanded: set[Position] = set()
    frontier = {root}
    book = Book({}, depth, plies, full, window)
    for ply in range(plies):
        kids = {pos: _children(pos) for pos in sorted(frontier)}
        # A position whose move leaves the opponent without a placement is not expanded
        # (passes are out of the book's reach; they do not come this early in real games).
        kids = {pos: c for pos, c in kids.items() if c and all(placements(k) for k in c)}
        reached = {k for c in kids.values() for k in c if k not in searched}
        searched.update((k, known[k]) for k in reached if k in known)
        searched.update(_evaluated(evaluate, sorted(reached - known.keys())))
        expanded.update(kids)
        frontier = set()
        for c in kids.values():
            values = [-searched[k] for k in c]
            best = max(values)
            frontier.update(
                k for k, v in zip(c, values, strict=True) if ply + 1 < full or v >= best - window
            )
        frontier -= expanded
        entries = {pos: Entry(v, pos in expanded) for pos, v in searched.items()}
        book = Book(entries, depth, ply + 1, full, window)
        if done is not None:
            done(ply + 1, book)
    return book


def _children(pos: Position) -> list[Position]:
    return list(dict.fromkeys(canonical(child(pos, bit)) for bit in placements(pos)))


def _evaluated(evaluate: Evaluate, positions: list[Position]) -> Iterable[tuple[Position, int]]:
    values = evaluate(positions) if positions else []
    if len(values) != len(positions):
        raise ValueError(f"evaluate gave {len(values)} values for {len(positions)} positions")
    return zip(positions, (int(v) for v in values), strict=True)
