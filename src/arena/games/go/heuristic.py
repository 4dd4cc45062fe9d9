"""Go: an area estimate minus komi, with penalties for groups short of liberties.

The value is a margin in points for Black, as the Tromp-Taylor count
(:meth:`GoState.score`) would give it, corrected where the count is
obviously wrong in the middle of a game:

* **Stones.** Every stone on the board counts one point for its colour.
* **Influence.** An empty point counts for the colour whose stones are nearer,
  in steps through empty points (a Voronoi split by simultaneous dilation of
  both colours' stones), if that colour reaches it within ``_REACH`` (4)
  steps; points equally near both colours are dame. The reach limit keeps a
  lone stone on a large board from owning the whole of it, as the plain
  count would say.
* **Enclosures.** Points out of reach still count for a colour when their
  empty region borders that colour only and covers at most a quarter of the
  board: the large territories of the endgame (corners of 13x13 and 19x19
  boards; smaller boards have no point five steps from every stone in so
  small a region), which the plain count gets right, but not the open board
  of the opening.
* **Komi** (from the game's config) is subtracted, as in the count.
* **Groups short of liberties**, per stone (a big group matters more), with
  weights tuned in play (alpha-beta at depth 2 and greedy, 5x5 to 9x9):

  - in atari and the opponent to move: it can be taken now. ``_CAPTURE`` =
    3 points per stone: two for the stones changing sides (they stop
    counting for their owner and their points start counting for the
    capturer), about one for the empty points nearby that they still
    claim in the estimate. Not when the only liberty is the simple-ko
    point the opponent may not retake on this move.
  - in atari and its owner to move: it must run and often cannot get away
    (ladders, nets, a second atari): ``_ATARI`` = 2 per stone;
  - two liberties: one move from atari, ``_TWO`` = 1.5 per stone, unless
    both liberties are points enclosed by that colour's stones (two such
    eyes cannot be filled by the opponent: the group is alive).

  Against the same heuristic with 2, 1 and 0.5 (the plain capture swing
  and halves), these weights scored 85/120 as greedy and 101/120 as depth-2
  alpha-beta on 5x5, and 45/60 as greedy on 9x9 (seeded openings, both
  colours).

Only the atari terms depend on whose turn it is. The margin ``m`` maps to
``SCALE * m / (points + |komi|)`` clipped to ``[-SCALE, SCALE]``: the stones,
influence and komi alone never reach the clip, so one point of margin is
worth the same everywhere on a board (30.8 on 5x5 with komi 7.5, 2.7 on 19x19).
A terminal position gets its exact count on the same scale.

Groups, liberties and regions come from the game's own bit dilation
(:meth:`Go.adjacent`, :meth:`Go.groups`, :meth:`Go.flood`), a few dozen big-int
operations per group.

:func:`candidates` keeps, for rollouts, the points within two king steps of
a stone (knight's moves included: common shapes in Go), never a point that
would fill one of the mover's true eyes, and the pass only when nothing else
is left, so rollouts end when both sides have only eyes to fill.

>>> import arena
>>> game = arena.load_game("go:size=5")
>>> evaluate(game.initial_state())  # komi 7.5 on 25 + 7.5 points
-230.76923076923077
>>> evaluate(game.play_moves(game.parse_moves("c3"))) > 0  # the centre stone reaches 24 points
True
>>> state = game.play_moves(game.parse_moves("c3 c4 b4 pass d4"))  # White C4 in atari
>>> shortage(state), shortage(state.play(game.pass_move))  # White to move; Black to move
(2.0, 3.0)
>>> len(candidates(game.initial_state(), game.initial_state().legal_moves()))
25

``ladder_captured`` reads ladders: the readable reference of the compiled kernel's
``ladder``, which ``mcts:ladders=1`` lets Go's prior use.

``learn_replies`` updates the last good replies of ``mcts:lgrf=1`` after a rollout: the
readable reference of the kernel's ``_learn_replies``.

>>> one, two = {}, {}
>>> learn_replies([10, 11, 12, 13], 2, 1, one, two)  # Black (even plies) won
>>> one, two  # Black's 12 answers 11 and (10, 11); White's 13 was not a good reply
({(0, 11): 12}, {(0, 10, 11): 12})

Tests: tests/games/test_go_heuristic.py, tests/search/test_dynkomi.py,
tests/games/test_go_ladders.py, tests/games/test_go_replies.py
"""

from __future__ import annotations

from typing import NamedTuple

from arena.core.bitboard import iter_bits
from arena.core.evaluation import SCALE
from arena.games.go.rules import Go, GoState

_REACH = 4  # dilation steps of the influence estimate
_ENCLOSED = 4  # enclosures count up to 1/_ENCLOSED of the board
_CAPTURE = 3.0  # points per stone of a group the side to move can take now
_ATARI = 2.0  # points per stone of the mover's own group in atari
_TWO = 1.5  # points per stone of a group with two liberties (not two eyes)


class _Board(NamedTuple):
    """Tables of one Go board size and komi."""

    factor: float  # evaluation units per point of margin
    enclosed: int  # largest empty region counted as an enclosure
    diagonals: tuple[int, ...]  # per point: its diagonal neighbours on the board
    edge: int  # points on the edge (fewer than four diagonal neighbours)
    not_first_col: int
    not_last_col: int


_BOARDS: dict[str, _Board] = {}


def _board(game: Go) -> _Board:
    found = _BOARDS.get(game.spec)
    if found is None:
        size = game.size
        diagonals = []
        edge = 0
        for p in range(game.points):
            row, col = divmod(p, size)
            mask = 0
            for r, c in ((row - 1, col - 1), (row - 1, col + 1), (row + 1, col - 1),
                         (row + 1, col + 1)):  # fmt: skip
                if 0 <= r < size and 0 <= c < size:
                    mask |= 1 << (r * size + c)
            diagonals.append(mask)
            if mask.bit_count() < 4:
                edge |= 1 << p
        found = _BOARDS[game.spec] = _Board(
            SCALE / (game.points + abs(game.komi)),
            game.points // _ENCLOSED,
            tuple(diagonals),
            edge,
            game.not_first_col,
            game.not_last_col,
        )
    return found


def area_estimate(game: Go, black: int, white: int) -> int:
    """Black's stones and near points minus White's (see the module docstring), before komi."""
    adjacent = game.adjacent
    empty = game.full & ~(black | white)
    free = empty
    black_front, white_front = black, white
    near_black = near_white = 0
    for _ in range(_REACH):
        # Both colours grow one step at once; a point both reach in the same step is dame.
        reach_black = adjacent(black_front) & free
        reach_white = adjacent(white_front) & free
        if not reach_black | reach_white:
            break
        near_black |= reach_black & ~reach_white
        near_white |= reach_white & ~reach_black
        free &= ~(reach_black | reach_white)
        black_front, white_front = reach_black, reach_white
    margin = (black | near_black).bit_count() - (white | near_white).bit_count()
    if free:
        # Points out of reach: whole regions bordering one colour only are its territory.
        limit = _board(game).enclosed
        unreached = free
        while unreached:
            region = game.flood(unreached & -unreached, empty)
            unreached &= ~region
            if region.bit_count() > limit:
                continue
            border = adjacent(region)
            if not border & white:
                # (Small regions are not the empty board: this one borders Black.)
                margin += (region & free).bit_count()
            elif not border & black:
                margin -= (region & free).bit_count()
    return margin


def _eyes(game: Go, own: int, opp: int) -> int:
    """Empty points whose orthogonal neighbours are all stones of ``own`` (eye shapes)."""
    return game.full & ~(own | opp | game.adjacent(game.full & ~own))


def shortage(state: GoState) -> float:
    """The liberty terms in points for Black: each short group counts against its owner."""
    game = state.game
    adjacent = game.adjacent
    black, white = state.black, state.white
    empty = game.full & ~(black | white)
    mover = state.to_move
    ko_point = state.ko
    ko = 1 << ko_point if ko_point >= 0 else 0
    value = 0.0
    for colour, stones, eyes, sign in (
        (0, black, _eyes(game, black, white), -1.0),
        (1, white, _eyes(game, white, black), 1.0),
    ):
        for group in game.groups(stones):
            libs = adjacent(group) & empty
            if libs & (libs - 1):  # two or more
                if libs.bit_count() > 2 or not libs & ~eyes:
                    continue
                weight = _TWO
            elif colour != mover and libs != ko:
                weight = _CAPTURE
            else:
                weight = _ATARI
            value += sign * weight * group.bit_count()
    return value


def margin_per_value(game: Go) -> float:
    """Points of margin per unit of :func:`evaluate` (which is the margin times a
    factor, clipped to ``[-SCALE, SCALE]``), so reports can show the estimate in points.

    >>> from arena.games import load_game
    >>> round(margin_per_value(load_game("go:size=9,komi=7.5")) * SCALE, 1)   # 81 points + komi
    88.5
    """
    return 1 / _board(game).factor


HANDICAP_STONE = 7.0
"""Points a handicap stone adds to a search's komi at the start (:func:`search_komi`)."""
HANDICAP_PLIES = 0.55
"""The extra komi is gone after this many plies per point of the board (about 200 on
19x19, 45 on 9x9)."""


def search_komi(state: GoState) -> float:
    """The komi a search plays for (``mcts:dynkomi=1``): the rules' komi plus, in a
    handicap game, :data:`HANDICAP_STONE` points per stone for White at the start, falling
    linearly to nothing by ply ``HANDICAP_PLIES * points``.

    A search giving (or taking) a handicap otherwise sees nearly every simulation end
    the same way, and win rates near 0 or 1 tell its moves apart poorly: White gives up,
    Black plays loosely. Counting the stones back early keeps the win rates informative
    while the lead is large (the "linear" dynamic komi of Baudis, *Balancing MCTS by
    dynamically adjusting the komi value*, ICGA Journal 34(3), 2011). The game's rules and
    score never change: only what the search counts as a win.

    >>> from arena.games import load_game
    >>> game = load_game("go:size=19,handicap=4,komi=0.5")
    >>> state = game.initial_state()
    >>> round(search_komi(state), 2), search_komi(load_game("go:size=19").initial_state())
    (28.36, 7.5)
    """
    game = state.game
    stones = state.handicap
    if not stones:
        return game.komi
    left = max(0.0, 1.0 - state.ply / (HANDICAP_PLIES * game.points))
    return game.komi + HANDICAP_STONE * stones * left


def evaluate(state: GoState) -> float:
    """How good the position is for Black (player 0), in [-SCALE, SCALE]."""
    game = state.game
    factor = _board(game).factor
    if state.is_terminal():
        margin = state.score()
    else:
        margin = area_estimate(game, state.black, state.white) - game.komi + shortage(state)
    return max(-SCALE, min(SCALE, margin * factor))


def true_eyes(state: GoState, player: int) -> int:
    """The true eyes of ``player``: eye shapes whose diagonals hold at most one enemy
    stone, none on the edge (more, and the enemy can make the eye false)."""
    game = state.game
    board = _board(game)
    own, opp = (state.black, state.white) if player == 0 else (state.white, state.black)
    found = 0
    for p in iter_bits(_eyes(game, own, opp)):
        enemy = board.diagonals[p] & opp
        if not enemy or (not board.edge >> p & 1 and not enemy & (enemy - 1)):
            found |= 1 << p
    return found


def _king_step(board: _Board, game: Go, x: int) -> int:
    """``x`` and every point one king step (orthogonal or diagonal) from it."""
    x |= ((x << 1) & board.not_first_col) | ((x >> 1) & board.not_last_col)
    return x | ((x << game.size) & game.full) | (x >> game.size)


def candidates(state: GoState, moves: tuple[int, ...]) -> tuple[int, ...]:
    """Moves worth sampling in rollouts, in ``moves`` order.

    Points within two king steps of a stone (every point on an empty board)
    that do not fill a true eye of the mover; if there are none, any point
    that does not fill one; then the pass alone if ``moves`` has it; else
    ``moves`` unchanged.
    """
    if not moves:
        return moves
    game = state.game
    board = _board(game)
    stones = state.black | state.white
    no_eye = game.full & ~true_eyes(state, state.to_move)
    near = _king_step(board, game, _king_step(board, game, stones)) if stones else game.full
    pass_move = game.pass_move
    for allowed in (near & no_eye, no_eye):
        kept = tuple(m for m in moves if m != pass_move and allowed >> m & 1)
        if kept:
            return kept
    return (pass_move,) if pass_move in moves else moves


# --- ladders (the readable reference of the kernel's ``ladder``) ------------------------

LADDER_NODES = 200
"""Stones a ladder reading may place before it answers "not captured" (the kernel's budget)."""


class _OutOfNodes(Exception):
    """The reading placed more than :data:`LADDER_NODES` stones."""


def _put(game: Go, stones: tuple[int, int], colour: int, point: int) -> tuple[tuple[int, int], int]:
    """``colour``'s stone on ``point`` with the opposing groups it leaves without a liberty
    taken: the new stones and the new group's liberties (none: suicide)."""
    own = stones[colour] | 1 << point
    opp = stones[1 - colour]
    empty = game.full & ~(own | opp)
    for stone in iter_bits(game.adjacent(1 << point) & opp):
        group = game.flood(1 << stone, opp)
        if not game.adjacent(group) & empty:
            opp &= ~group
    after = (own, opp) if colour == 0 else (opp, own)
    return after, _liberties(game, after, point)


def _liberties(game: Go, stones: tuple[int, int], point: int) -> int:
    """The liberties of the group on ``point``."""
    black, white = stones
    group = game.flood(1 << point, black if black >> point & 1 else white)
    return game.adjacent(group) & ~(black | white) & game.full


def ladder_captured(state: GoState, move: int, target: int) -> bool:
    """Whether the group on ``target`` is lost to a ladder after the player to move plays
    ``move``: an extension of an own group in atari (``target`` = ``move``), or an atari on
    an opposing group.

    The attacker gives atari at either of the group's two liberties (the lower point
    first); the defender escapes by taking an attacking group next to it that is in
    atari, else extends at its liberty, and escapes with three liberties or more. Ko is
    ignored; past :data:`LADDER_NODES` stones placed the answer is False. The kernel's
    ``ladder`` reads the same way, faster (Tests: tests/games/test_go_ladders.py).
    """
    game = state.game
    mover = state.to_move
    nodes = 0

    def put(stones: tuple[int, int], colour: int, point: int) -> tuple[tuple[int, int], int]:
        nonlocal nodes
        nodes += 1
        if nodes > LADDER_NODES:
            raise _OutOfNodes
        return _put(game, stones, colour, point)

    def extended(stones: tuple[int, int]) -> bool:
        """After the defender's move: taken at one liberty or none, safe at three."""
        libs = _liberties(game, stones, target)
        if libs.bit_count() != 2:
            return libs.bit_count() <= 1
        return any(attacked(*put(stones, attacker, point)) for point in iter_bits(libs))

    def attacked(stones: tuple[int, int], own_libs: int) -> bool:
        """After the attacker's stone (its group has ``own_libs``)."""
        if not own_libs:
            return False  # suicide: not a move
        libs = _liberties(game, stones, target)
        if libs.bit_count() != 1:
            return not libs
        group = game.flood(1 << target, stones[defender])
        for stone in iter_bits(game.adjacent(group) & stones[attacker]):
            if _liberties(game, stones, stone).bit_count() == 1:
                return False  # the defender takes it
        return extended(put(stones, defender, libs.bit_length() - 1)[0])

    try:
        stones, libs = put((state.black, state.white), mover, move)
        if stones[0] >> target & 1:
            defender = 0
        elif stones[1] >> target & 1:
            defender = 1
        else:
            return False
        attacker = 1 - defender
        return extended(stones) if defender == mover else attacked(stones, libs)
    except _OutOfNodes:
        return False


def learn_replies(
    moves: list[int],
    start: int,
    result: int,
    one: dict[tuple[int, int], int],
    two: dict[tuple[int, int, int], int],
    passed: int | None = None,
) -> None:
    """Baier and Drake's last good reply with forgetting (LGRF-2, *The power of forgetting*,
    IEEE TCIAIG 2010), after a rollout: ``moves[ply]`` is the move played at each ply (-1
    where unknown, Black on even plies), the rollout's from ``start``; ``result`` 1 Black
    won, -1 White, 0 a draw (nothing learnt). Each move of the winner becomes the reply of
    its colour (0 Black, 1 White) to the move before it (``one[colour, previous]``) and to
    the two before it (``two[colour, before that, previous]``); each move of the loser that
    is the stored reply there is forgotten. The pass (``passed``) is never stored."""
    if result == 0:
        return
    winner = 0 if result > 0 else 1
    for ply in range(start, len(moves)):
        move = moves[ply]
        if move < 0 or move == passed:
            continue
        colour = ply % 2
        prev1 = moves[ply - 1] if ply >= 1 else -1
        prev2 = moves[ply - 2] if ply >= 2 else -1
        keys: list[tuple[dict, tuple[int, ...]]] = []
        if prev1 >= 0:
            keys.append((one, (colour, prev1)))
            if prev2 >= 0:
                keys.append((two, (colour, prev2, prev1)))
        for table, key in keys:
            if colour == winner:
                table[key] = move
            elif table.get(key) == move:
                del table[key]
