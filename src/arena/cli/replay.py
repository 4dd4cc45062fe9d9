"""``arena replay FILE``: list the games of a records file, or replay one move by move.

FILE is either JSON lines (one :class:`~arena.formats.record.GameRecord` per line, as
matches write them) or SGF (:mod:`arena.formats.sgf`); the name decides (``.sgf``,
``.jsonl``), else the content (:mod:`arena.formats.sniff`), and an error names the
format the file was read as. SGF keeps no times, so its moves are shown without them.

Files are read as a stream, a game at a time: a collection of 100,000 games is
listed while it is read, in the memory of a few games (the listing's columns are
as wide as its first thousand rows need).

Tests: tests/cli/test_replay.py
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

from arena.core.errors import ArenaError
from arena.core.game import Game, State, margin_text
from arena.core.words import plural
from arena.formats.record import GameRecord, read_record
from arena.formats.sgf import iter_sgf
from arena.formats.sniff import format_of, looks_like_sgf
from arena.games import load_game

HEAD = 1 << 16
"""Bytes read to decide a file's format by its content."""
CHUNK = 1 << 20
"""Characters of SGF read at a time."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "replay",
        help="list the games in a records file (JSON lines or SGF), or replay one",
        description="Without options, list the games in FILE: players, result, how the game "
        "ended and its length. With --game N, replay game N: every move with its time and "
        "the board after it.",
        epilog="examples: arena replay games.jsonl | arena replay games.jsonl --game 3 --ply 40 "
        "| arena replay game.sgf --game 1 --step",
    )
    p.add_argument("file", metavar="FILE", help="JSON lines of game records, or an SGF file")
    p.add_argument("--game", type=int, metavar="N", help="replay game N (1 is the first)")
    p.add_argument(
        "--ply",
        type=int,
        metavar="K",
        help="print the board only after ply K (0: the start); with --step, start stepping there",
    )
    p.add_argument(
        "--step",
        action="store_true",
        help="walk the game board by board: Enter for the next move, b to go back, a ply "
        "number to jump there, q (or the end of input) to quit",
    )
    p.set_defaults(func=run)


@dataclass
class Entry:
    """One game of a file, with what the listing shows about it."""

    record: GameRecord
    game: Game
    where: str
    """Where it is in the file, for messages: ``line 3`` or ``game 2``."""
    result: str
    reason: str


def run(args: argparse.Namespace) -> int:
    if args.game is None:
        if args.ply is not None or args.step:
            raise ArenaError("--ply and --step need --game N")
        print_listing(args.file, iter_entries(args.file))
        return 0
    # The file is read to its end: the header says how many games it holds, and a
    # damaged game anywhere is reported, as when listing.
    chosen, count = None, 0
    for count, entry in enumerate(iter_entries(args.file), 1):
        if count == args.game:
            chosen = entry
    if chosen is None:
        holds = plural(count, "game")
        raise ArenaError(f"{args.file}: no game {args.game}: the file holds {holds}")
    plies = len(chosen.record.moves)
    if args.ply is not None and not 0 <= args.ply <= plies:
        raise ArenaError(f"{args.file}: --ply {args.ply} is not in 0..{plies} (game {args.game})")
    print(f"game {args.game} of {count} ({chosen.where}): {chosen.record.game}")
    replay(args.file, chosen, args.ply, args.step)
    return 0


# --- reading files ---------------------------------------------------------------------


def iter_entries(path: str) -> Iterator[Entry]:
    """The games of the file at ``path``, one at a time as it is read; errors name the
    file and the line (or the game)."""
    with open(path, "rb") as file:
        head = file.read(HEAD)
        file.seek(0)
        if format_of(path, head) == "SGF":
            # Names may be in another charset (CA); the moves are ASCII either way.
            text = io.TextIOWrapper(file, encoding="utf-8", errors="replace", newline="")
            yield from _sgf_entries(path, iter(lambda: text.read(CHUNK), ""))
            return
        try:
            yield from _json_entries(path, file)
        except ArenaError as exc:
            if looks_like_sgf(head):  # a name that said JSON, a content that says SGF
                raise ArenaError(f"{exc} (the file looks like SGF: name it .sgf)") from None
            raise


def _json_entries(path: str, file: BinaryIO) -> Iterator[Entry]:
    games: dict[str, Game] = {}
    offset = 0  # bytes before this line, for the place of a byte that is not UTF-8
    for number, raw in enumerate(file, 1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ArenaError(
                f"{path}: not JSON game records: not text (byte {offset + exc.start} is not UTF-8)"
            ) from None
        offset += len(raw)
        if not line.strip():
            continue
        where = f"line {number}"
        try:
            record = read_record(line)
            if record.game not in games:
                games[record.game] = load_game(record.game)
        except ArenaError as exc:
            raise ArenaError(f"{path}, {where}: {exc}") from None
        game = games[record.game]
        yield Entry(record, game, where, result_text(record, game), record.reason)


def _sgf_entries(path: str, pieces: Iterable[str]) -> Iterator[Entry]:
    games: dict[str, Game] = {}
    try:
        for number, sgf in enumerate(iter_sgf(pieces), 1):
            reason = sgf.reason
            detail = sgf.comment.partition(":")[2].strip() if reason else ""
            record = GameRecord(
                game=sgf.game,
                players=(sgf.players[0] or "?", sgf.players[1] or "?"),
                moves=sgf.moves,
                reason=reason or "normal",
                detail=detail,
            )
            if sgf.game not in games:
                games[sgf.game] = load_game(sgf.game)
            result = sgf.result or "?"
            yield Entry(record, games[sgf.game], f"game {number}", result, reason or "?")
    except ArenaError as exc:
        raise ArenaError(f"{path}: {exc}") from None


def result_text(record: GameRecord, game: Game) -> str:
    """Who won, and by how much where the game was scored.

    >>> record = GameRecord("go", ("a", "b"), returns=(-1, 1), score=-3.5)
    >>> result_text(record, load_game("go"))
    'White wins by 3.5'
    """
    if not record.finished:
        return f"unfinished after {plural(len(record.moves), 'move')}"
    if record.winner is None:
        return "draw"
    text = f"{game.player_names[record.winner]} wins"
    if record.score is not None and record.reason in ("normal", "adjudication"):
        text += f" by {margin_text(abs(record.score))}"
    return text


# --- printing --------------------------------------------------------------------------


LISTING_BATCH = 1000
"""Rows whose widths set the listing's columns; later rows print as they are read."""


def print_listing(path: str, entries: Iterable[Entry]) -> None:
    """One row per game, printed while the file is read (a batch of rows at a time)."""
    header = ("#", "game", "first", "second", "result", "reason", "plies")
    rows: list[tuple[str, ...]] = [header]
    widths: list[int] | None = None
    try:
        for number, e in enumerate(entries, 1):
            r = e.record
            rows.append((str(number), r.game, *r.players, e.result, e.reason, str(len(r.moves))))
            if len(rows) > LISTING_BATCH:
                widths = widths or _widths(rows)
                _print_rows(rows, widths)
                rows = []
    finally:  # a damaged game: the games before it are listed, then the error
        if widths is not None or len(rows) > 1:
            _print_rows(rows, widths or _widths(rows))
    if widths is None and len(rows) == 1:
        print(f"{path}: no games")


def _widths(rows: list[tuple[str, ...]]) -> list[int]:
    return [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]


def _print_rows(rows: list[tuple[str, ...]], widths: list[int]) -> None:
    lines = []
    for row in rows:
        cells = [cell.ljust(width) for cell, width in zip(row, widths)]
        # The numbers, first and last, line up on the right.
        cells[0], cells[-1] = row[0].rjust(widths[0]), row[-1].rjust(widths[-1])
        lines.append("  ".join(cells).rstrip())
    if lines:
        print("\n".join(lines), flush=True)


def replay(path: str, entry: Entry, ply: int | None, step: bool) -> None:
    """Print the game's header, then each move with its time and the boards asked for:
    after every move, or only after ``ply``; ``step`` walks the game board by board."""
    record, game = entry.record, entry.game
    names = game.player_names
    for side, player in zip(names, record.players):
        print(f"{side}: {player}")
    print(f"result: {entry.result} ({entry.reason})")
    if record.detail:
        print(f"detail: {record.detail}")
    states = [game.initial_state(record.seed)]
    lines = []
    for number, text in enumerate(record.moves, 1):
        mover = names[states[-1].to_move]
        try:
            states.append(states[-1].play(game.parse_move(text)))
        except ArenaError as exc:
            raise ArenaError(f"{path}, {entry.where}, move {number}: {exc}") from None
        lines.append(f"{number:>4}. {mover:<8} {text:<6} {_cost(record, number - 1)}".rstrip())
    if step:
        if not _step(states, lines, 0 if ply is None else min(ply, len(lines))):
            return
    else:
        for number, line in enumerate(lines, 1):
            if ply is None or number <= ply:
                print(line)
            if number == ply or (ply is None):
                print(states[number].render())
        if ply == 0:
            print(states[0].render())
    print(f"ply {states[-1].ply}: {states[-1].result_text()}")


STEP_PROMPT = "-- Enter: next move, b: back, a number: go to that move, q: quit -- "


def _step(states: list[State], lines: list[str], at: int) -> bool:
    """Walk the game from ply ``at``: Enter goes forward, ``b`` (or ``p``) back, a number
    jumps to that ply. False when the reader quits before the end."""
    for line in lines[:at]:
        print(line)
    last = len(lines)
    while True:
        print(states[at].render())
        if at == last:
            return True
        print(STEP_PROMPT, end="", flush=True)
        answer = sys.stdin.readline()
        if not sys.stdin.isatty():
            print()  # piped input is not echoed: end the prompt's line ourselves
        word = answer.strip().lower()
        if not answer or word == "q":
            return False
        if word in ("b", "p", "back"):
            at = max(at - 1, 0)
            print(f"back to ply {at}")
        elif word.isdecimal():
            at = min(int(word), last)
            print(f"at ply {at}")
        else:
            print(lines[at])
            at += 1


def _cost(record: GameRecord, index: int) -> str:
    """The time (and nodes, where the agent said) one move took."""
    if index < record.opening_plies:
        return "(opening)"
    if index >= len(record.seconds):
        return ""
    text = f"{record.seconds[index]:8.3f} s"
    nodes = record.nodes[index] if index < len(record.nodes) else None
    return text + (f"  {nodes} nodes" if nodes is not None else "")
