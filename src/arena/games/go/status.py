"""Go: which stones are alive, dead or in seki, estimated by playouts (GTP's ``final_status_list``).

Tromp-Taylor area scoring counts every stone on the board, so a game that two
programs pass out with dead stones still on the board is miscounted unless a
controller asks which stones are dead (GoGui, gogui-twogtp and the server
bridges ask with ``final_status_list dead``). The estimate here is the one
Monte Carlo engines make: play the position out many times with a playout
that keeps each side's groups alive where they can be (never filling an own
eye, never putting an own group in atari without a capture), and see who
owns each point at the end.

* A group is **dead** when its points end up in the opponent's area in more
  than half the playouts.
* A living group is in **seki** when, in most playouts, it ends beside an
  empty point that borders both colours (a shared liberty neither side fills).
* Every other stone is **alive**.

>>> import arena
>>> game = arena.load_game("go:size=5")
>>> state = game.play_moves(game.parse_moves(
...     "b1 d1 b2 d2 b3 d3 b4 d4 b5 d5 e3 c3 pass pass"))   # Black's E3 is dead
>>> [game.format_move(p) for p in final_status(state, "dead")]
['E3']
>>> len(final_status(state, "alive")), final_status(state, "seki")
(11, ())

Tests: tests/games/test_go_status.py
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from arena.core.bitboard import iter_bits
from arena.games.go.rules import Go, GoState

STATUSES = ("alive", "dead", "seki")

_EMPTY, _BLACK, _WHITE = 0, 1, 2


@dataclass(frozen=True)
class Ownership:
    """Per point: the share of playouts in which it ended in Black's area, in White's,
    and as a shared point bordering both colours (dame)."""

    black: tuple[float, ...]
    white: tuple[float, ...]
    dame: tuple[float, ...]
    playouts: int


@cache
def _neighbours(game: Go) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(iter_bits(game.adjacent(1 << p) & ~(1 << p))) for p in range(game.points))


def _group(board: list[int], nbrs: tuple[tuple[int, ...], ...], start: int) -> tuple[set, set]:
    """The stones of the group at ``start`` and its liberties."""
    colour = board[start]
    stones, libs, todo = {start}, set(), [start]
    while todo:
        p = todo.pop()
        for q in nbrs[p]:
            v = board[q]
            if v == _EMPTY:
                libs.add(q)
            elif v == colour and q not in stones:
                stones.add(q)
                todo.append(q)
    return stones, libs


def _try(
    board: list[int], nbrs: tuple[tuple[int, ...], ...], p: int, colour: int, ko: int
) -> list[int] | None:
    """The stones ``colour`` captures by a stone on ``p`` when the playout may play it
    (legal, not an own eye, not a self-atari without capture, not the ko point), else None."""
    if p == ko:
        return None
    around = [board[q] for q in nbrs[p]]
    if all(v == colour for v in around):
        return None  # an own eye (or a point only own stones reach): never filled
    other = 3 - colour
    board[p] = colour
    captured: list[int] = []
    for q in nbrs[p]:
        if board[q] == other and q not in captured:
            stones, libs = _group(board, nbrs, q)
            if not libs:
                captured.extend(stones)
    if captured:
        board[p] = _EMPTY
        return captured
    _, libs = _group(board, nbrs, p)
    board[p] = _EMPTY
    return captured if len(libs) >= 2 else None


def _playout(game: Go, state: GoState, rng: random.Random) -> list[int]:
    """The board at the end of one playout from ``state``."""
    n = game.points
    nbrs = _neighbours(game)
    board = [_EMPTY] * n
    for p in iter_bits(state.black):
        board[p] = _BLACK
    for p in iter_bits(state.white):
        board[p] = _WHITE
    colour = _BLACK if state.to_move == 0 else _WHITE
    empties = [p for p in range(n) if board[p] == _EMPTY]
    passes, ko = 0, -1
    for _ in range(3 * n):
        # A random untried empty point until one may be played; none left: a pass.
        untried = len(empties)
        while untried:
            i = rng.randrange(untried)
            p = empties[i]
            captured = _try(board, nbrs, p, colour, ko)
            if captured is not None:
                break
            untried -= 1
            empties[i], empties[untried] = empties[untried], p
        if untried:
            board[p] = colour
            empties[i] = empties[-1]
            empties.pop()
            for s in captured:
                board[s] = _EMPTY
                empties.append(s)
            lone = len(captured) == 1 and all(board[q] != colour for q in nbrs[p])
            ko = captured[0] if lone else -1
            passes = 0
        else:
            passes += 1
            ko = -1
            if passes == 2:
                break
        colour = 3 - colour
    return board


def ownership(state: GoState, playouts: int | None = None, seed: int = 1) -> Ownership:
    """Who owns each point after ``playouts`` playouts (default: about 4,000 points'
    worth, at least 8: 49 on 9x9, a third of a second; 11 on 19x19, several seconds),
    each ended when both sides pass."""
    game = state.game
    n = game.points
    count = playouts if playouts is not None else max(8, 4000 // n)
    rng = random.Random(seed)
    black, white, dame = [0] * n, [0] * n, [0] * n
    nbrs = _neighbours(game)
    for _ in range(count):
        board = _playout(game, state, rng)
        for p in range(n):
            v = board[p]
            if v == _BLACK:
                black[p] += 1
            elif v == _WHITE:
                white[p] += 1
            else:
                seen = {board[q] for q in nbrs[p]}
                if _BLACK in seen and _WHITE in seen:
                    dame[p] += 1
                elif _BLACK in seen:
                    black[p] += 1
                elif _WHITE in seen:
                    white[p] += 1
    share = [tuple(x / count for x in counts) for counts in (black, white, dame)]
    return Ownership(share[0], share[1], share[2], count)


def final_status(state: GoState, status: str, playouts: int | None = None) -> tuple[int, ...]:
    """The stones of ``state`` with ``status`` (``alive``, ``dead`` or ``seki``), in point
    order."""
    if status not in STATUSES:
        raise ValueError(f"{status!r} is not one of {'|'.join(STATUSES)}")
    game = state.game
    owned = ownership(state, playouts)
    empty = game.full & ~(state.black | state.white)
    found: list[int] = []
    for stones, mine in ((state.black, owned.black), (state.white, owned.white)):
        for group in game.groups(stones):
            points = list(iter_bits(group))
            kept = sum(mine[p] for p in points) / len(points)
            if kept <= 0.5:
                kind = "dead"
            else:
                shared = iter_bits(game.adjacent(group) & empty)
                kind = "seki" if any(owned.dame[p] > 0.5 for p in shared) else "alive"
            if kind == status:
                found.extend(points)
    return tuple(sorted(found))
