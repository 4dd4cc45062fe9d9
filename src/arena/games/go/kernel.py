"""Go's compiled kernel (numba): the rules of :mod:`arena.games.go.rules` over flat arrays.

The contract is :mod:`arena.core.kernel`; ``rules.py`` stays the readable
reference, and the tests play both side by side, move for move
(Tests: tests/games/test_go_kernel.py, tests/games/test_go_ladders.py,
tests/games/test_go_replies.py, tests/games/test_go_learned.py,
tests/games/test_go_nakade.py, tests/games/test_go_lowlib.py).

>>> import arena, numpy as np
>>> game = arena.load_game("go:size=5")
>>> k = kernel(game)
>>> f = k.functions
>>> s = k.encode(game.initial_state())
>>> out = np.empty(k.max_moves, np.int64)
>>> f["legal_moves"](k.params, s, out), int(out[25])  # 25 points, then the pass
(26, 25)
>>> for move in game.parse_moves("c3 pass pass"):
...     f["play"](k.params, s, move)
>>> f["outcome"](k.params, s)  # Black's 25 points against komi 7.5
1
>>> f["seed"](1)
>>> s = k.encode(game.initial_state())
>>> f["playout"](k.params, s) in (-1, 0, 1), f["to_move"](k.params, s) in (0, 1)
(True, True)

Board
-----
Points live on a padded board: ``(row + 2) * W + col + 2`` with ``W = size + 4``,
two rings of border cells (value 3) around the board, so the four neighbours of a
point are ``±1, ±W`` with no edge tests (and the rollout looks two points away
without them). Cells hold 0 (empty), 1 (Black), 2 (White) or 3 (border).

Strings (groups) are circular lists of stones (``next``) with a representative
(``head``) per stone; the representative keeps the size, the Zobrist xor of the
stones and the pseudo-liberties: every (stone, empty neighbour) pair counts
once, with the sum and the sum of squares of those empty points. A string
has no liberty when the count is 0, and exactly one (it is in atari) when all
its pseudo-liberties are the same point, i.e. ``sum**2 == count * sum_sq``
(Cauchy-Schwarz is an equality only for equal terms). On contact the smaller
string is relabelled into the larger; a capture walks the captured string once.

Legality is then local: a stone on an empty point is legal when a neighbour is
empty, or is an own string not in atari, or is an opposing string in atari
(captured); ``ko=simple`` forbids the recorded ko point.

Positional superko
------------------
Boards are identified by a 64-bit Zobrist hash (random keys per colour and
point, in ``p``), so unlike the reference's exact board codes a collision could
forbid a legal move: a check meets one of at most ``maxlen + 1`` earlier boards
among ``2**64`` values, so checking every point at every ply of a 19x19 game
(723 boards, 361 points, 722 plies) errs with a chance near ``1e-11``. The
state keeps the hash of every board of the game in order and, to skip most
searches, a Bloom bit per hash.
As in the reference, a stone that captures nothing only adds a stone, so it is
compared only with the boards before the last capture.

State layout (``s``)
--------------------
A header (ply, passes, ko point, hash, empty count, history length, index of
the first board since the last capture), then the sections whose offsets are
in ``p``: cells, string head, next stone, one record per string head (size,
pseudo-liberty count, sum, sum of squares), string hash, each empty point's
index in the list of empty points, that list, the Bloom bits, the board
hashes, the moves played (``s[moves + ply]``; those before ``encode`` are -1
but the last one) and scratch room, which ``outcome`` uses to count the area
and ``ladder`` to read (nothing else in ``s`` changes there). The history makes
``s`` grow with ``maxlen``: 9,989 ints on 19x19 with the default length (9,012
under simple ko).

Nothing allocates, so the compiled functions run without numba's runtime
(``_nrt=False``) and the helpers are inlined into them: otherwise every helper
call would count references to ``p`` and ``s`` through the runtime, which
cost a third of the time of a playout.

Playouts
--------
``playout`` draws a move uniformly from the empty points not yet tried plus the
pass; a drawn point that is illegal is moved out of the draw, so the move is
uniform over the legal moves and the pass (always legal) bounds the draws.
``rollout`` is the policy of ``mcts:rollout=heuristic`` (the go heuristic's
``candidates``): uniform over the legal points within two king steps of a stone
(every point on an empty board) that fill no own true eye (every neighbour own
or edge, at most one opposing diagonal and none on the edge); else over the
legal points that fill no own eye; else the pass. It draws the same way, the
far points set aside unchecked for the second draw, and obeys every rule,
superko included, so its moves are legal moves.

``tactics`` (``mcts:rollout=tactics``) first answers the opponent's last move:
it saves own strings that move put in atari (capturing a neighbour in atari, or
extending when that leaves two liberties), else captures strings in atari next
to it, else plays one of MoGo's 3x3 shapes around it (``patterns.py``, a table
in ``p`` over the eight neighbours' colours); otherwise it draws as ``rollout``
but never puts two or more own stones in atari. ``prior`` scores every legal
move from the same knowledge for MC-RAVE's priors, and ``trace`` lists the
points of a rollout from the history (``mcts:rave=``).

Ladders
-------
``ladder`` reads whether a string is lost to a ladder: the attacker keeps giving
atari at one of its two liberties, the defender extends at its one liberty, and
the string escapes with three liberties or more, or by taking an attacking string
next to it that is in atari. The reading plays on the position's own cells and puts
them back from an undo log (no copy of the board, none per branch), counting exact
liberties by flooding (the strings' records keep pseudo-liberties only, and it leaves
them alone); past
``LADDER_NODES`` stones placed the answer is "not captured", the safe one for a
prior. ``heuristic.ladder_captured`` is its readable reference. With the knob
``P_LADDERS`` set (``mcts:ladders=1``), ``prior`` scores an extension the ladder
still captures as a self-atari and an atari that starts a working ladder as a
capture. At 2 (``mcts:ladders=2``) the tactical rollout reads them too: it no longer
runs a string the ladder captures, and when the last move left its own string with
two liberties it gives the atari that starts a working ladder (after the saves and
captures, before the shapes), as Pachi's and Fuego's playouts check ladders.

Nakade
------
Never putting two stones or more in atari keeps the tactical rollout from throwing
stones away, but also from killing a group whose eye space is three to six points:
once the attacker holds the vital point of a straight three, filling the rest is a
self-atari, the defender cannot fill it either, and every rollout counts the dead
group alive. With the knob ``P_NAKADE`` set (``mcts:nakade=1``) a self-atari is allowed
(in the rollout, its shapes and ``prior`` alike) when :func:`nakade` finds the stone
inside a region of at most six cells, empty or its own, that the opponent's stones and
the edge enclose, and an opposing string next to it left with one liberty: the
opponent's eye space once its outside liberties are gone, where under area scoring the
stones cost nothing (the region is the opponent's either way) and may kill.

Low liberties
-------------
Fights and capture races are decided by strings with two liberties, and the tactical
rollout looked only at strings in atari. With the knob ``P_LOWLIB`` set
(``mcts:lowlib=1``), after the saves and captures and before the shapes it answers a
move that leaves a string with two liberties (:func:`low_liberties`): the owner of an
own string next to the move gains liberties (it captures a string in atari next to it,
or extends to three liberties or more), and the opponent's string of the move is put in
atari where extending at its other liberty would not reach three liberties. These are
the low-liberty moves of Fuego's playout policy (Enzenberger, Müller, Arneson and Segal,
*Fuego*, IEEE TCIAIG 2(4), 2010), written here from that description.

Last good replies
-----------------
With the knob ``P_LGRF`` set (``mcts:lgrf=1``) the tactical rollout also keeps Baier and
Drake's last good replies with forgetting (LGRF-2, *The power of forgetting*, IEEE TCIAIG
2010): before its own policy it plays the stored reply to the last two moves, else to the
last one, when that is still a move it may play; after the rollout every move of the
winner becomes the reply to the moves before it, and a loser's move that was the stored
reply is forgotten. At 2 (``mcts:lgrf=2``) the reply comes only where the saves,
captures and shapes find nothing, in place of the random move. The tables sit in ``p``
(:func:`reply_offsets`: ``2 (N + 1)`` and ``2 (N + 1)**2`` moves, 2.1 MB on 19x19), so
they last from move to move of a game and a search's threads share them (a lost write
only loses a reply);
``heuristic.learn_replies`` is the readable reference of the learning.

Fitted prior
------------
With the knob ``P_LEARNED`` at K > 0 (``mcts:patterns=K``), ``prior`` turns its hand-set
rates into those of ``learned.py``'s model: each candidate point (empty, not an own eye)
sums the weights of its 3x3 code seen by the player to move, its distances to the last
two moves, its line by stage, its hand-set rate's class and its liberty class (the
fewest liberties of the strings of each side next to it, and of the string a stone there
would make: ``_liberty_class``), read from the table at ``P_WEIGHTS``; its rate is
``50 + K (logit - mean)`` percent over the candidates, 5..95. Weights fitted before the
liberty classes (``learned.HAS_LIBS`` 0) skip counting them. ``Kernel.weights`` loads
another weights file into a kernel's own ``p`` (``mcts:priors=FILE``).

Both draw from a xorshift generator that numba's ``np.random`` (seeded by
``seed``) seeds at the start of each playout: the same seed gives the same
playouts, compiled or not.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from arena.core.kernel import ONGOING, Kernel
from arena.games.go import learned
from arena.games.go.heuristic import LADDER_NODES
from arena.games.go.patterns import pattern_table
from arena.games.go.rules import Go, GoState

# --- the parameter array p ---------------------------------------------------------

P_SIZE = 0
P_N = 1  # points, and the pass move
P_W = 2  # padded row width
P_NP = 3  # padded cells
P_KOMI_LO = 4  # floor(komi): the margin must exceed it for Black to win
P_KOMI_HI = 5  # ceil(komi): White wins below it
P_SUPERKO = 6
P_MAXLEN = 7
P_BLOOM_MASK = 8
P_CELL = 9  # offsets of the sections of s, then of tables in p
P_HEAD = 10
P_NEXT = 11
P_SSIZE = 12
P_PLC = 13
P_PLS = 14
P_PLQ = 15
P_SHASH = 16
P_WHERE = 17
P_EMPTIES = 18
P_BLOOM = 19
P_HIST = 20
P_MOVES = 21
P_SCRATCH = 22  # room for a mark per cell and a stack of points
P_LEN = 23  # length of s
P_ZOB = 24  # offset in p: Zobrist keys, [colour * NP + cell]
P_IDX = 25  # offset in p: point -> cell
P_POINT = 26  # offset in p: cell -> point (-1 on the border)
P_PATTERNS = 27  # offset in p: MoGo's 3x3 shapes by neighbourhood code (patterns.py)
P_LADDERS = 28  # a knob (Kernel.knobs): 0 (default) off, 1 ``prior`` reads ladders, 2 rollouts too
P_LGRF = 29  # a knob: the rollout plays last good replies, 1 first, 2 after the urgent moves
P_REPLIES = 30  # offset in p: the reply tables (:func:`reply_offsets`), -1 where none is stored
P_LEARNED = 31  # a knob: 0 off, K > 0 ``prior`` from the fitted weights, K percent a nat
P_WEIGHTS = 32  # offset in p: the fitted weights (learned.py's flat table)
P_NAKADE = 33  # a knob: 1 a self-atari inside a small region the opponent encloses is allowed
#                once it leaves an opposing string next to it one liberty (:func:`nakade`)
P_LOWLIB = 34  # a knob: 1 the tactical rollout answers a move that leaves a string two liberties
P_HEADER = 35

# --- the header of s ---------------------------------------------------------------

PLY = 0
PASSES = 1
KO = 2  # the cell simple ko forbids, -1 (always -1 under positional superko)
HASH = 3
NEMPTY = 4
NHIST = 5
RUNSTART = 6  # index in the history of the first board since the last capture
S_HEADER = 8

EMPTY, BLACK, WHITE, BORDER = 0, 1, 2, 3
NAKADE_CELLS = 6  # the largest eye space a self-atari inside it may kill (the flower six)

_ZOBRIST_SEED = 0x60_5EED

# The helpers are inlined into their callers: a call between compiled functions
# costs a call and reference counts on p and s, more than most helpers do.
_inline = njit(cache=True, inline="always")
# Nothing here allocates, so the compiled functions go without numba's runtime:
# without it no reference counts on p and s around every inlined helper.
_kernel = njit(cache=True, _nrt=False)


@_inline
def _layout(p):  # type: ignore[no-untyped-def]
    """The header of ``p`` as a tuple: in registers, not reloaded after every store to ``s``."""
    return (
        p[0],
        p[1],
        p[2],
        p[3],
        p[4],
        p[5],
        p[6],
        p[7],
        p[8],
        p[9],
        p[10],
        p[11],
        p[12],
        p[13],
        p[14],
        p[15],
        p[16],
        p[17],
        p[18],
        p[19],
        p[20],
        p[21],
        p[22],
        p[23],
        p[24],
        p[25],
        p[26],
        p[27],
        p[28],
        p[29],
        p[30],
        p[31],
        p[32],
        p[33],
        p[34],
    )


# --- strings ------------------------------------------------------------------------


@_inline
def _in_atari(L, p, s, h):  # type: ignore[no-untyped-def]
    """Whether the string headed by ``h`` has exactly one liberty."""
    count = s[L[P_PLC] + 4 * h]
    if count == 0:
        return False
    total = s[L[P_PLS] + 4 * h]
    return total * total == count * s[L[P_PLQ] + 4 * h]


@_inline
def _add_liberty(L, p, s, h, cell):  # type: ignore[no-untyped-def]
    s[L[P_PLC] + 4 * h] += 1
    s[L[P_PLS] + 4 * h] += cell
    s[L[P_PLQ] + 4 * h] += cell * cell


@_inline
def _remove_liberty(L, p, s, h, cell):  # type: ignore[no-untyped-def]
    s[L[P_PLC] + 4 * h] -= 1
    s[L[P_PLS] + 4 * h] -= cell
    s[L[P_PLQ] + 4 * h] -= cell * cell


@_inline
def _merge(L, p, s, a, b):  # type: ignore[no-untyped-def]
    """Join the strings headed by ``a`` and ``b``; return the new head."""
    head, nxt, size = L[P_HEAD], L[P_NEXT], L[P_SSIZE]
    if s[size + 4 * a] < s[size + 4 * b]:
        a, b = b, a
    stone = b
    while True:
        s[head + stone] = a
        stone = s[nxt + stone]
        if stone == b:
            break
    after_a = s[nxt + a]
    s[nxt + a] = s[nxt + b]
    s[nxt + b] = after_a
    s[size + 4 * a] += s[size + 4 * b]
    s[L[P_PLC] + 4 * a] += s[L[P_PLC] + 4 * b]
    s[L[P_PLS] + 4 * a] += s[L[P_PLS] + 4 * b]
    s[L[P_PLQ] + 4 * a] += s[L[P_PLQ] + 4 * b]
    s[L[P_SHASH] + a] ^= s[L[P_SHASH] + b]
    return a


@_inline
def _take_empty(L, p, s, cell):  # type: ignore[no-untyped-def]
    """Remove ``cell`` from the list of empty points."""
    empties, where = L[P_EMPTIES], L[P_WHERE]
    last_i = s[NEMPTY] - 1
    i = s[where + cell]
    last = s[empties + last_i]
    s[empties + i] = last
    s[where + last] = i
    s[NEMPTY] = last_i


@_inline
def _capture(L, p, s, h, colour):  # type: ignore[no-untyped-def]
    """Remove the string headed by ``h`` (of ``colour``); return its size."""
    cell, nxt, head = L[P_CELL], L[P_NEXT], L[P_HEAD]
    empties, where = L[P_EMPTIES], L[P_WHERE]
    w = L[P_W]
    zob = L[P_ZOB] + colour * L[P_NP]
    stone = h
    while True:
        s[cell + stone] = EMPTY
        n = s[NEMPTY]
        s[empties + n] = stone
        s[where + stone] = n
        s[NEMPTY] = n + 1
        s[HASH] ^= p[zob + stone]
        stone = s[nxt + stone]
        if stone == h:
            break
    # Only the capturer's stones can touch a captured string: give them the points.
    while True:
        for q in (stone - w, stone - 1, stone + 1, stone + w):
            v = s[cell + q]
            if EMPTY < v < BORDER:
                _add_liberty(L, p, s, s[head + q], stone)
        stone = s[nxt + stone]
        if stone == h:
            break
    return s[L[P_SSIZE] + 4 * h]


@_inline
def _place(L, p, s, at, colour):  # type: ignore[no-untyped-def]
    """Put a legal stone on cell ``at``, capture, and set the simple-ko point."""
    cell, head, nxt = L[P_CELL], L[P_HEAD], L[P_NEXT]
    w = L[P_W]
    other = 3 - colour
    key = p[L[P_ZOB] + colour * L[P_NP] + at]
    s[cell + at] = colour
    _take_empty(L, p, s, at)
    s[HASH] ^= key
    s[head + at] = at
    s[nxt + at] = at
    s[L[P_SSIZE] + 4 * at] = 1
    s[L[P_PLC] + 4 * at] = 0
    s[L[P_PLS] + 4 * at] = 0
    s[L[P_PLQ] + 4 * at] = 0
    s[L[P_SHASH] + at] = key
    for q in (at - w, at - 1, at + 1, at + w):
        v = s[cell + q]
        if v == EMPTY:
            _add_liberty(L, p, s, at, q)
        elif v != BORDER:
            _remove_liberty(L, p, s, s[head + q], at)
    # Liberty sums only add up, so joining and capturing may come in any order.
    mine = at
    captured = 0
    ko = -1
    for q in (at - w, at - 1, at + 1, at + w):
        v = s[cell + q]
        if v == colour:
            if s[head + q] != mine:
                mine = _merge(L, p, s, mine, s[head + q])
        elif v == other and s[L[P_PLC] + 4 * s[head + q]] == 0:
            captured += _capture(L, p, s, s[head + q], other)
            ko = q
    if (
        L[P_SUPERKO]
        or captured != 1
        or s[L[P_SSIZE] + 4 * mine] != 1
        or s[L[P_PLC] + 4 * mine] != 1
    ):
        ko = -1  # not the ko shape: a lone stone that took one stone and has no other liberty
    s[KO] = ko
    return captured


# --- rules -------------------------------------------------------------------------


@_inline
def _repeats(L, p, s, key, captures):  # type: ignore[no-untyped-def]
    """Positional superko: whether the board hashed ``key`` occurred before."""
    bit = key & L[P_BLOOM_MASK]
    if not (s[L[P_BLOOM] + (bit >> 6)] >> (bit & 63)) & 1:
        return False
    # Without a capture the stone count is higher than in any board since the last one.
    end = s[NHIST] if captures else s[RUNSTART]
    hist = L[P_HIST]
    for i in range(end):  # noqa: SIM110 (numba compiles no generators)
        if s[hist + i] == key:
            return True
    return False


@_inline
def _legal(L, p, s, at, colour):  # type: ignore[no-untyped-def]
    """Whether ``colour`` may put a stone on cell ``at``."""
    cell, head = L[P_CELL], L[P_HEAD]
    if s[cell + at] != EMPTY or at == s[KO]:
        return False
    w = L[P_W]
    other = 3 - colour
    superko = L[P_SUPERKO]
    free = False
    taken = 0  # Zobrist xor of the captured strings
    h0 = h1 = h2 = -1  # the captured heads seen so far
    for q in (at - w, at - 1, at + 1, at + w):
        v = s[cell + q]
        if v == EMPTY:
            free = True
        elif v == colour:
            if not free and not _in_atari(L, p, s, s[head + q]):
                free = True
        elif v == other and (superko or not free):
            h = s[head + q]
            if _in_atari(L, p, s, h):
                free = True
                if h != h0 and h != h1 and h != h2:
                    taken ^= s[L[P_SHASH] + h]
                    if h0 < 0:
                        h0 = h
                    elif h1 < 0:
                        h1 = h
                    else:
                        h2 = h
    if not free:
        return False
    if not superko:
        return True
    key = s[HASH] ^ p[L[P_ZOB] + colour * L[P_NP] + at] ^ taken
    return not _repeats(L, p, s, key, h0 >= 0)


@_inline
def _over(L, p, s):  # type: ignore[no-untyped-def]
    return s[PASSES] >= 2 or s[PLY] >= L[P_MAXLEN]


@_kernel
def to_move(p, s):  # type: ignore[no-untyped-def]
    return s[PLY] & 1


@_kernel
def legal_moves(p, s, out):  # type: ignore[no-untyped-def]
    L = _layout(p)
    if _over(L, p, s):
        return 0
    colour = (s[PLY] & 1) + 1
    n = L[P_N]
    idx = L[P_IDX]
    count = 0
    for point in range(n):
        if _legal(L, p, s, p[idx + point], colour):
            out[count] = point
            count += 1
    out[count] = n
    return count + 1


@_inline
def _play(L, p, s, move):  # type: ignore[no-untyped-def]
    ply = s[PLY]
    s[L[P_MOVES] + ply] = move
    s[PLY] = ply + 1
    if move == L[P_N]:
        s[PASSES] += 1
        s[KO] = -1
        return
    s[PASSES] = 0
    captured = _place(L, p, s, p[L[P_IDX] + move], (ply & 1) + 1)
    if L[P_SUPERKO]:
        key = s[HASH]
        n = s[NHIST]
        s[L[P_HIST] + n] = key
        s[NHIST] = n + 1
        if captured:
            s[RUNSTART] = n
        bit = key & L[P_BLOOM_MASK]
        s[L[P_BLOOM] + (bit >> 6)] |= np.int64(1) << (bit & 63)


@_kernel
def play(p, s, move):  # type: ignore[no-untyped-def]
    L = _layout(p)
    _play(L, p, s, move)


@_kernel
def area_margin(p, s):  # type: ignore[no-untyped-def]
    """Tromp-Taylor: Black's stones and empty regions reaching only Black, minus White's."""
    L = _layout(p)
    cell, w, n = L[P_CELL], L[P_W], L[P_N]
    seen = L[P_SCRATCH]  # a mark per cell, then the stack
    stack = seen + L[P_NP]
    for i in range(L[P_NP]):
        s[seen + i] = 0
    margin = 0
    for point in range(n):
        at = p[L[P_IDX] + point]
        v = s[cell + at]
        if v == BLACK:
            margin += 1
        elif v == WHITE:
            margin -= 1
        elif not s[seen + at]:
            s[seen + at] = 1
            s[stack] = at
            top = 1
            size = 0
            reaches = 0
            while top:
                top -= 1
                x = s[stack + top]
                size += 1
                for q in (x - w, x - 1, x + 1, x + w):
                    u = s[cell + q]
                    if u == EMPTY:
                        if not s[seen + q]:
                            s[seen + q] = 1
                            s[stack + top] = q
                            top += 1
                    elif u != BORDER:
                        reaches |= u
            if reaches == BLACK:
                margin += size
            elif reaches == WHITE:
                margin -= size
    return margin


@_kernel
def outcome(p, s):  # type: ignore[no-untyped-def]
    L = _layout(p)
    if not _over(L, p, s):
        return ONGOING
    margin = area_margin(p, s)
    if margin > L[P_KOMI_LO]:
        return 1
    if margin < L[P_KOMI_HI]:
        return -1
    return 0


# --- playouts -----------------------------------------------------------------------


@_inline
def _is_own_eye(L, p, s, at, colour):  # type: ignore[no-untyped-def]
    """Every neighbour is own or edge, and the opposing diagonals are at most one
    (none on the edge): filling it would only hurt."""
    cell, w = L[P_CELL], L[P_W]
    for q in (at - w, at - 1, at + 1, at + w):
        v = s[cell + q]
        if v != colour and v != BORDER:
            return False
    other = 3 - colour
    bad = 0
    edge = 0
    for q in (at - w - 1, at - w + 1, at + w - 1, at + w + 1):
        v = s[cell + q]
        if v == other:
            bad += 1
        elif v == BORDER:
            edge = 1
    # One opposing diagonal is fine in the middle of the board, fatal on the edge.
    return bad + edge < 2


@_inline
def _below(x, n):  # type: ignore[no-untyped-def]
    """Step the xorshift generator ``x``; return it and a uniform integer in [0, n)
    from its top 53 bits (the bias, below n / 2**53, is far beneath any test)."""
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    return x, np.int64(np.float64(x >> np.uint64(11)) * (1.0 / 9007199254740992.0) * n)


@_inline
def _draw(L, p, s, colour, x):  # type: ignore[no-untyped-def]
    """A uniformly random legal move, and the generator's new state."""
    empties, where = L[P_EMPTIES], L[P_WHERE]
    untried = s[NEMPTY]
    while True:
        x, r = _below(x, untried + 1)
        if r == untried:
            return L[P_N], x
        at = s[empties + r]
        if _legal(L, p, s, at, colour):
            return p[L[P_POINT] + at], x
        untried -= 1
        last = s[empties + untried]
        s[empties + r] = last
        s[where + last] = r
        s[empties + untried] = at
        s[where + at] = untried


@_inline
def _near(L, s, at):  # type: ignore[no-untyped-def]
    """Whether a stone stands within two king steps of ``at``."""
    cell, w = L[P_CELL], L[P_W]
    for dr in (-2 * w, -w, 0, w, 2 * w):
        for dc in (-2, -1, 0, 1, 2):
            v = s[cell + at + dr + dc]
            if v == BLACK or v == WHITE:  # noqa: SIM109 (numba)
                return True
    return False


@_inline
def _fits(L, p, s, at, colour, careful):  # type: ignore[no-untyped-def]
    """Whether the rollout may play ``at``: legal, and, when ``careful``, no self-atari of
    two stones or more (:func:`_big_self_atari`)."""
    return _legal(L, p, s, at, colour) and not (careful and _big_self_atari(L, p, s, at, colour))


@_inline
def _draw_rollout(L, p, s, colour, x, careful):  # type: ignore[no-untyped-def]
    """The rollout's move: uniform over the legal points within two king steps of a
    stone (anywhere on an empty board) that fill no own eye; else over the legal
    points that fill no own eye; else the pass. ``careful`` (the tactical rollout):
    never a self-atari of two stones or more either."""
    empties, where = L[P_EMPTIES], L[P_WHERE]
    far = L[P_SCRATCH]  # points left for the second draw, unchecked
    nfar = 0
    anywhere = s[NEMPTY] == L[P_N]
    untried = s[NEMPTY]
    while untried:
        x, r = _below(x, untried)
        at = s[empties + r]
        if not _is_own_eye(L, p, s, at, colour):
            if not (anywhere or _near(L, s, at)):
                s[far + nfar] = at
                nfar += 1
            elif _fits(L, p, s, at, colour, careful):
                return p[L[P_POINT] + at], x
        untried -= 1
        last = s[empties + untried]
        s[empties + r] = last
        s[where + last] = r
        s[empties + untried] = at
        s[where + at] = untried
    while nfar:
        x, r = _below(x, nfar)
        at = s[far + r]
        if _fits(L, p, s, at, colour, careful):
            return p[L[P_POINT] + at], x
        nfar -= 1
        s[far + r] = s[far + nfar]
    return L[P_N], x


@_kernel
def _finish(p, s, eyes):  # type: ignore[no-untyped-def]
    # One compiled loop for both policies (compiling it twice doubles the first-use wait).
    # numba's np.random (seeded by ``seed``) seeds a xorshift generator per playout:
    # a draw from it costs a fifth of one from the Mersenne twister.
    L = _layout(p)
    x = np.uint64(np.random.randint(1, 1 << 62))
    while not _over(L, p, s):
        if eyes:
            move, x = _draw_rollout(L, p, s, (s[PLY] & 1) + 1, x, False)
        else:
            move, x = _draw(L, p, s, (s[PLY] & 1) + 1, x)
        _play(L, p, s, move)


@_kernel
def playout(p, s):  # type: ignore[no-untyped-def]
    _finish(p, s, False)
    return outcome(p, s)


@_kernel
def rollout(p, s):  # type: ignore[no-untyped-def]
    _finish(p, s, True)
    return outcome(p, s)


@_kernel
def seed(n):  # type: ignore[no-untyped-def]
    np.random.seed(n)


# --- knowledge: the tactical rollout, priors and traces ---------------------------------


@_inline
def _liberty(L, s, h):  # type: ignore[no-untyped-def]
    """The one liberty of the string headed by ``h``, which is in atari."""
    return s[L[P_PLS] + 4 * h] // s[L[P_PLC] + 4 * h]


@_inline
def _own_heads(L, s, at, colour):  # type: ignore[no-untyped-def]
    """The heads of the distinct strings of ``colour`` next to the cell ``at``, first come
    first, then -1 for each missing one (four in all)."""
    cell, head, w = L[P_CELL], L[P_HEAD], L[P_W]
    h0 = h1 = h2 = h3 = -1
    for q in (at - w, at - 1, at + 1, at + w):
        if s[cell + q] != colour:
            continue
        h = s[head + q]
        if h == h0 or h == h1 or h == h2:  # noqa: SIM109 (numba)
            continue
        if h0 < 0:
            h0 = h
        elif h1 < 0:
            h1 = h
        elif h2 < 0:
            h2 = h
        else:
            h3 = h
    return h0, h1, h2, h3


@_inline
def _safe(L, p, s, at, colour):  # type: ignore[no-untyped-def]
    """The size of the string ``colour`` would make on the empty cell ``at`` when it would be
    left in atari (a self-atari), else 0 (two liberties or more, or a capture)."""
    cell, head, nxt, w = L[P_CELL], L[P_HEAD], L[P_NEXT], L[P_W]
    other = 3 - colour
    a0 = -1  # two distinct liberties other than ``at`` prove safety
    for q in (at - w, at - 1, at + 1, at + w):
        v = s[cell + q]
        if v == EMPTY:
            if a0 < 0:
                a0 = q
            elif q != a0:
                return 0
        elif v == other and _in_atari(L, p, s, s[head + q]):
            return 0  # a capture frees points
    size = 1
    for h in _own_heads(L, s, at, colour):
        if h < 0:
            break
        size += s[L[P_SSIZE] + 4 * h]
        if _in_atari(L, p, s, h):
            continue  # its only liberty is ``at``
        stone = h
        while True:
            for r in (stone - w, stone - 1, stone + 1, stone + w):
                if r != at and s[cell + r] == EMPTY:
                    if a0 < 0:
                        a0 = r
                    elif r != a0:
                        return 0
            stone = s[nxt + stone]
            if stone == h:
                break
    return size


@_inline
def _big_self_atari(L, p, s, at, colour):  # type: ignore[no-untyped-def]
    """Whether ``colour``'s stone on the empty cell ``at`` leaves two stones or more in atari,
    capturing nothing; with ``P_NAKADE`` set, not when that is a nakade (:func:`nakade`)."""
    return _safe(L, p, s, at, colour) >= 2 and not (L[P_NAKADE] and nakade(p, s, at, colour))


@_kernel
def nakade(p, s, at, colour):  # type: ignore[no-untyped-def]
    """Whether ``colour``'s stone on the empty cell ``at`` (a self-atari) is a nakade: it
    leaves an opposing string next to it with one liberty (it had two, ``at`` one of
    them: the opponent has no liberty left outside), and it stays inside a region of at
    most ``NAKADE_CELLS`` cells, empty or ``colour``'s, that the opponent's stones and the
    edge enclose. That is the opponent's eye space, where filling kills a group whose three-
    to six-point eye has lost its vital point and costs nothing under area scoring (the
    region is the opponent's either way). A self-atari that fills an own liberty while the
    opponent's strings have liberties outside (a capture race lost) is not one. A call, not
    inlined: it runs only for self-ataris, which are rare."""
    L = _layout(p)
    cell, head, w = L[P_CELL], L[P_HEAD], L[P_W]
    other = 3 - colour
    short = False
    for q in (at - w, at - 1, at + 1, at + w):
        if s[cell + q] == other:
            a0, a1 = _liberty_pair(L, p, s, s[head + q])
            if a0 == at or a1 == at:
                short = True
    if not short:
        return False
    region = _nakade_room(L)
    s[region] = at
    count, i = 1, 0
    while i < count:
        x = s[region + i]
        i += 1
        for q in (x - w, x - 1, x + 1, x + w):
            v = s[cell + q]
            if v != EMPTY and v != colour:
                continue  # the opponent's stone or the edge: the region's wall
            seen = False
            for j in range(count):
                if s[region + j] == q:
                    seen = True
                    break
            if not seen:
                if count == NAKADE_CELLS:
                    return False
                s[region + count] = q
                count += 1
    return True


@_inline
def _captures_next_to(L, p, s, h, colour, out, n):  # type: ignore[no-untyped-def]
    """Add to ``s[out + n:]`` (room for ``N`` moves) the legal captures of the opposing
    strings in atari next to the string headed by ``h`` (of ``colour``); return the new
    count."""
    cell, head, nxt, w = L[P_CELL], L[P_HEAD], L[P_NEXT], L[P_W]
    other = 3 - colour
    stone = h
    while True:
        for q in (stone - w, stone - 1, stone + 1, stone + w):
            if s[cell + q] == other and _in_atari(L, p, s, s[head + q]):
                lib = _liberty(L, s, s[head + q])
                if n < L[P_N] and _legal(L, p, s, lib, colour):
                    s[out + n] = lib
                    n += 1
        stone = s[nxt + stone]
        if stone == h:
            break
    return n


@_inline
def _saving(L, p, s, h, colour, out, n):  # type: ignore[no-untyped-def]
    """Add to ``s[out + n:]`` (room for ``N`` moves) the moves that save the string headed
    by ``h`` (of ``colour``, in atari): captures of an adjacent string in atari, and the
    extension at its liberty when that leaves two liberties (and, with ``P_LADDERS`` at 2,
    a ladder does not capture it); return the new count."""
    n = _captures_next_to(L, p, s, h, colour, out, n)
    lib = _liberty(L, s, h)
    if (
        n < L[P_N]
        and _legal(L, p, s, lib, colour)
        and _safe(L, p, s, lib, colour) == 0
        and not (L[P_LADDERS] >= 2 and ladder(p, s, lib, lib))  # running a broken ladder
    ):
        s[out + n] = lib
        n += 1
    return n


@_inline
def _neighbourhood(L, s, at):  # type: ignore[no-untyped-def]
    """The 3x3 code of cell ``at`` (patterns.py): its eight neighbours from the top left,
    row by row, two bits each (0 empty, 1 Black, 2 White, 3 off the board)."""
    c, w = L[P_CELL] + at, L[P_W]
    return (
        s[c - w - 1]
        | s[c - w] << 2
        | s[c - w + 1] << 4
        | s[c - 1] << 6
        | s[c + 1] << 8
        | s[c + w - 1] << 10
        | s[c + w] << 12
        | s[c + w + 1] << 14
    )


@_inline
def _shape(L, p, s, at):  # type: ignore[no-untyped-def]
    """Whether the 3x3 neighbourhood of cell ``at`` is one of MoGo's shapes (patterns.py)."""
    return p[L[P_PATTERNS] + _neighbourhood(L, s, at)] != 0


@_inline
def _urgent(L, p, s, colour, out):  # type: ignore[no-untyped-def]
    """The urgent moves after the opponent's last move: saving own strings it put in atari,
    else capturing the opposing strings in atari around it, else (``P_LOWLIB`` set) the
    answers to strings it left with two liberties (:func:`low_liberties`), else
    (``P_LADDERS`` at 2) the ataris that start a working ladder on its own string when it
    has two liberties, else MoGo's 3x3 shapes around it (at 2, none that runs a string a
    ladder captures). Their number, in ``s[out:]``."""
    last = s[L[P_MOVES] + s[PLY] - 1] if s[PLY] > 0 else -1
    if last < 0 or last >= L[P_N]:
        return 0
    cell, head, w = L[P_CELL], L[P_HEAD], L[P_W]
    at = p[L[P_IDX] + last]
    n = 0
    for q in (at - w, at - 1, at + 1, at + w):
        if s[cell + q] == colour and _in_atari(L, p, s, s[head + q]):
            n = _saving(L, p, s, s[head + q], colour, out, n)
    if n:
        return n
    other = 3 - colour
    for q in (at, at - w, at - 1, at + 1, at + w, at - w - 1, at - w + 1, at + w - 1, at + w + 1):
        if s[cell + q] == other and _in_atari(L, p, s, s[head + q]):
            lib = _liberty(L, s, s[head + q])
            if n < L[P_N] and _legal(L, p, s, lib, colour):
                s[out + n] = lib
                n += 1
    if n:
        return n
    if L[P_LOWLIB]:
        n = low_liberties(p, s, at, colour, out)
        if n:
            return n
    if L[P_LADDERS] >= 2:
        n = _ladder_ataris(p, s, at, colour, out)
        if n:
            return n
    for q in (at - w, at - 1, at + 1, at + w, at - w - 1, at - w + 1, at + w - 1, at + w + 1):
        if (
            s[cell + q] == EMPTY
            and _shape(L, p, s, q)
            and not _is_own_eye(L, p, s, q, colour)
            and _legal(L, p, s, q, colour)
            and not _big_self_atari(L, p, s, q, colour)
            and not (L[P_LADDERS] >= 2 and _runs_a_ladder(p, s, q, colour))
        ):
            s[out + n] = q
            n += 1
    return n


@_inline
def _liberties_after(L, p, s, at, colour, skip):  # type: ignore[no-untyped-def]
    """The liberties the string ``colour`` would make on the empty cell ``at`` would have
    besides ``skip`` (a cell, or -1), counted up to 3; 3 when it captures a string in atari
    (which frees points)."""
    cell, head, nxt, w = L[P_CELL], L[P_HEAD], L[P_NEXT], L[P_W]
    other = 3 - colour
    a0 = a1 = -1  # two distinct liberties found so far; a third ends the count
    for q in (at - w, at - 1, at + 1, at + w):
        v = s[cell + q]
        if v == other and _in_atari(L, p, s, s[head + q]):
            return 3
        if v == EMPTY and q != skip and q != a0 and q != a1:
            if a0 < 0:
                a0 = q
            elif a1 < 0:
                a1 = q
            else:
                return 3
    for h in _own_heads(L, s, at, colour):
        if h < 0:
            break
        stone = h
        while True:
            for r in (stone - w, stone - 1, stone + 1, stone + w):
                if s[cell + r] == EMPTY and r != at and r != skip and r != a0 and r != a1:
                    if a0 < 0:
                        a0 = r
                    elif a1 < 0:
                        a1 = r
                    else:
                        return 3
            stone = s[nxt + stone]
            if stone == h:
                break
    return int(a0 >= 0) + int(a1 >= 0)  # int(): numpy's bools add as a logical or


@_inline
def _three_liberties(L, p, s, at, colour, skip):  # type: ignore[no-untyped-def]
    """Whether the string ``colour`` would make on the empty cell ``at`` has three liberties
    or more besides ``skip`` (a cell, or -1), or captures a string in atari (which frees
    points)."""
    return _liberties_after(L, p, s, at, colour, skip) >= 3


@_inline
def _liberties(L, s, h):  # type: ignore[no-untyped-def]
    """The liberties of the string headed by ``h``, counted up to 4 (the records keep
    pseudo-liberties); walks its stones until a fourth shows."""
    cell, nxt, w = L[P_CELL], L[P_NEXT], L[P_W]
    a0 = a1 = a2 = -1
    stone = h
    while True:
        for r in (stone - w, stone - 1, stone + 1, stone + w):
            if s[cell + r] == EMPTY and r != a0 and r != a1 and r != a2:
                if a0 < 0:
                    a0 = r
                elif a1 < 0:
                    a1 = r
                elif a2 < 0:
                    a2 = r
                else:
                    return 4
        stone = s[nxt + stone]
        if stone == h:
            break
    return int(a0 >= 0) + int(a1 >= 0) + int(a2 >= 0)


@_inline
def _fewest_liberties(L, s, at, colour):  # type: ignore[no-untyped-def]
    """The fewest liberties (up to 4) of a string of ``colour`` next to the cell ``at``; 0
    when there is none."""
    fewest = 0
    for h in _own_heads(L, s, at, colour):
        if h < 0:
            break
        count = _liberties(L, s, h)
        if fewest == 0 or count < fewest:
            fewest = count
    return fewest


@_inline
def _liberty_class(L, p, s, at, colour):  # type: ignore[no-untyped-def]
    """``learned.liberty_class`` of the empty cell ``at`` for ``colour``: the fewest
    liberties of an opposing and of an own string next to it, and the liberties of the
    string a stone there would make."""
    opponent = _fewest_liberties(L, s, at, 3 - colour)
    own = _fewest_liberties(L, s, at, colour)
    return (opponent * 5 + own) * 4 + _liberties_after(L, p, s, at, colour, -1)


@_kernel
def low_liberties(p, s, at, colour, out):  # type: ignore[no-untyped-def]
    """Put in ``s[out:]`` the answers to the opponent's stone on cell ``at`` when it leaves a
    string with two liberties, and return their number (``P_LOWLIB``; the low-liberty
    moves of Fuego's playouts, written from its paper's description): for each own string
    next to it with two liberties, the captures of opposing strings in atari next to that
    string and the extensions that give it three liberties or more (none into an own
    eye); for the opponent's string of ``at`` with two liberties, the atari at either
    liberty that leaves no self-atari when the extension at the other would not reach
    three liberties (the string cannot simply run). A call, not inlined, as
    :func:`_ladder_ataris`."""
    L = _layout(p)
    head = L[P_HEAD]
    other = 3 - colour
    n = 0
    for h in _own_heads(L, s, at, colour):
        if h < 0:
            break
        a0, a1 = _liberty_pair(L, p, s, h)
        if a0 < 0:
            continue
        n = _captures_next_to(L, p, s, h, colour, out, n)
        for lib in (a0, a1):
            if (
                n < L[P_N]
                and _legal(L, p, s, lib, colour)
                and not _is_own_eye(L, p, s, lib, colour)
                and _three_liberties(L, p, s, lib, colour, -1)
            ):
                s[out + n] = lib
                n += 1
    a0, a1 = _liberty_pair(L, p, s, s[head + at])
    if a0 >= 0:
        for x, y in ((a0, a1), (a1, a0)):
            if (
                n < L[P_N]
                and _legal(L, p, s, x, colour)
                and _safe(L, p, s, x, colour) == 0
                and not _three_liberties(L, p, s, y, other, x)
            ):
                s[out + n] = x
                n += 1
    return n


@_kernel
def _runs_a_ladder(p, s, at, colour):  # type: ignore[no-untyped-def]
    """Whether ``colour``'s stone on cell ``at`` extends an own string in atari that a
    ladder still captures (a shape there would run a broken ladder). A call, not inlined,
    as :func:`_ladder_ataris`."""
    L = _layout(p)
    cell, head, w = L[P_CELL], L[P_HEAD], L[P_W]
    for q in (at - w, at - 1, at + 1, at + w):
        if s[cell + q] == colour and _in_atari(L, p, s, s[head + q]):
            return ladder(p, s, at, at) == 1
    return False


@_kernel
def _ladder_ataris(p, s, at, colour, out):  # type: ignore[no-untyped-def]
    """Put in ``s[out:]`` the ataris that start a working ladder on the string of the stone on
    cell ``at`` when it has exactly two liberties; return their number. A call, not
    inlined: the rollout's compiled body stays small enough to compile in seconds."""
    L = _layout(p)
    n = 0
    a0, a1 = _liberty_pair(L, p, s, s[L[P_HEAD] + at])
    for lib in (a0, a1):
        if lib >= 0 and _legal(L, p, s, lib, colour) and ladder(p, s, lib, at):
            s[out + n] = lib
            n += 1
    return n


@_inline
def _draw_tactics(L, p, s, colour, x):  # type: ignore[no-untyped-def]
    """The tactical rollout's move: an urgent move (:func:`_urgent`) at random, else (with
    ``P_LGRF`` at 2) a stored last good reply, else as :func:`_draw_rollout` but never a
    self-atari of two stones or more."""
    urgent = _ladder_rooms(L)[7]  # after the ladder reader's rooms: it may read meanwhile
    n = _urgent(L, p, s, colour, urgent)
    if n:
        x, r = _below(x, n)
        return p[L[P_POINT] + s[urgent + r]], x
    if L[P_LGRF] == 2:
        move = _stored_reply(p, s, colour)
        if move >= 0:
            return move, x
    return _draw_rollout(L, p, s, colour, x, True)


@_kernel
def tactics(p, s):  # type: ignore[no-untyped-def]
    """The rollout of ``mcts:rollout=tactics``: save own strings the last move put in atari,
    capture opposing strings in atari next to it, play MoGo's 3x3 shapes around it; never
    fill an own eye, never put two or more own stones in atari; uniform among the rest near
    the stones (then anywhere). With ``P_LGRF`` set, a stored last good reply to the two
    moves before (else to the one before) comes first, and the replies are learnt from the
    result (:func:`_learn_replies`)."""
    L = _layout(p)
    x = np.uint64(np.random.randint(1, 1 << 62))
    start = s[PLY]
    while not _over(L, p, s):
        colour = (s[PLY] & 1) + 1
        move = _stored_reply(p, s, colour) if L[P_LGRF] == 1 else -1
        if move < 0:
            move, x = _draw_tactics(L, p, s, colour, x)
        _play(L, p, s, move)
    result = outcome(p, s)
    if L[P_LGRF]:
        _learn_replies(p, s, start, result)
    return result


# --- the last good replies (Baier and Drake's LGRF-2) -----------------------------------


@_inline
def _reply_cells(L, s, ply):  # type: ignore[no-untyped-def]
    """The offsets in ``p`` of the replies of the player to move at ``ply`` to the move
    before (LGR-1) and to the two before (LGR-2); -1 where those moves are unknown (before
    the position's history)."""
    moves, n1 = L[P_MOVES], L[P_N] + 1
    colour = ply & 1
    prev1 = s[moves + ply - 1] if ply >= 1 else -1
    prev2 = s[moves + ply - 2] if ply >= 2 else -1
    one = two = -1
    if prev1 >= 0:
        one = L[P_REPLIES] + colour * n1 + prev1
        if prev2 >= 0:
            two = L[P_REPLIES] + 2 * n1 + (colour * n1 + prev2) * n1 + prev1
    return one, two


@_kernel
def _stored_reply(p, s, colour):  # type: ignore[no-untyped-def]
    """The stored reply to the last two moves, else to the last one, when it is still a
    move the tactical rollout may play (legal, no own eye filled, no self-atari of two
    stones or more); else -1. A call, not inlined: the rollout's body compiles quickly."""
    L = _layout(p)
    one, two = _reply_cells(L, s, s[PLY])
    for at in (two, one):
        if at < 0 or p[at] < 0:
            continue
        cell = p[L[P_IDX] + p[at]]  # ``_fits`` refuses it when taken (``_legal``)
        if not _is_own_eye(L, p, s, cell, colour) and _fits(L, p, s, cell, colour, True):
            return p[at]
    return -1


@_kernel
def _learn_replies(p, s, start, result):  # type: ignore[no-untyped-def]
    """After a rollout from ply ``start`` that ended with ``result``: every move of the
    winner becomes the stored reply to the move before it and to the two before it; a
    move of the loser that is the stored reply there is forgotten (the F of LGRF). Passes
    are never stored. ``heuristic.learn_replies`` is the readable reference."""
    if result == 0:
        return
    L = _layout(p)
    winner = 0 if result > 0 else 1
    for ply in range(start, s[PLY]):
        move = s[L[P_MOVES] + ply]
        if move < 0 or move >= L[P_N]:
            continue
        one, two = _reply_cells(L, s, ply)
        if (ply & 1) == winner:
            if one >= 0:
                p[one] = move
            if two >= 0:
                p[two] = move
        else:
            if one >= 0 and p[one] == move:
                p[one] = -1
            if two >= 0 and p[two] == move:
                p[two] = -1


def reply_offsets(p: np.ndarray) -> tuple[int, int]:
    """Where the reply tables sit in ``p``: LGR-1's ``[colour, previous move]`` and LGR-2's
    ``[colour, move before it, previous move]``, moves as points with the pass last."""
    n1 = int(p[P_N]) + 1
    return int(p[P_REPLIES]), int(p[P_REPLIES]) + 2 * n1


# --- ladders ----------------------------------------------------------------------------

# LADDER_NODES (the reference's): stones the reader may place before it answers "not captured".

_LADDER_OPEN, _LADDER_CAPTURED, _LADDER_ATTACK = 0, 1, 2


@_inline
def _ladder_rooms(L):  # type: ignore[no-untyped-def]
    """Offsets in ``s`` of the board the reader plays on (the position's own cells, put back
    from the undo log), its marks, two stone stacks, undo log, frames, the counter of its
    flood stamps, and the end of its rooms (:func:`_scratch_room` sizes them). The marks
    start past the area count's marks and stack and the rollout's far points, so only
    the reader writes them: its stamps only grow, and a stale mark never matches."""
    board = L[P_CELL]
    mark = L[P_SCRATCH] + L[P_NP] + L[P_N]
    stack = mark + L[P_NP]
    stack2 = stack + L[P_N]
    log = stack2 + L[P_N]
    frames = log + L[P_N] + 2 * LADDER_NODES + 8
    counter = frames + 3 * LADDER_NODES + 7
    return board, mark, stack, stack2, log, frames, counter, counter + 1


@_inline
def _nakade_room(L):  # type: ignore[no-untyped-def]
    """The offset in ``s`` of :func:`nakade`'s region: after the tactical rollout's urgent
    moves (which it may be asked about while they are gathered)."""
    return _ladder_rooms(L)[7] + L[P_N]


@_inline
def _flood(L, s, stone, stack):  # type: ignore[no-untyped-def]
    """Flood the string of ``stone`` on the reader's board (the position's cells as the
    reading left them): its stones into ``s[stack:]``; return their number, its exact
    liberty count and its two lowest liberties' cells (-1: none). A fresh stamp per flood
    marks the cells seen, so the marks are never cleared."""
    board, mark, _, _, _, _, counter, _ = _ladder_rooms(L)
    w = L[P_W]
    stamp = s[counter] + 1
    s[counter] = stamp
    colour = s[board + stone]
    s[mark + stone] = stamp
    s[stack] = stone
    n = 1
    i = 0
    libs = 0
    a = b = -1
    while i < n:
        x = s[stack + i]
        i += 1
        for q in (x - w, x - 1, x + 1, x + w):
            if s[mark + q] == stamp:
                continue
            v = s[board + q]
            if v == colour:
                s[mark + q] = stamp
                s[stack + n] = q
                n += 1
            elif v == EMPTY:
                s[mark + q] = stamp
                libs += 1
                if a < 0 or q < a:
                    a, b = q, a
                elif b < 0 or q < b:
                    b = q
    return n, libs, a, b


@_inline
def _ladder_put(L, s, at, colour, top):  # type: ignore[no-untyped-def]
    """Put a ``colour`` stone on the reader's board's empty cell ``at`` and take the opposing
    strings next to it left without a liberty, logging every changed cell (``cell * 4 +
    old value``) from ``top``; return the new top and the new string's liberty count
    (0: the move was suicide, so illegal)."""
    board, _, _, stack2, log, _, _, _ = _ladder_rooms(L)
    w = L[P_W]
    other = 3 - colour
    s[board + at] = colour
    s[log + top] = at * 4 + EMPTY
    top += 1
    for q in (at - w, at - 1, at + 1, at + w):
        if s[board + q] != other:
            continue
        n, libs, _, _ = _flood(L, s, q, stack2)
        if libs == 0:
            for i in range(n):
                x = s[stack2 + i]
                s[board + x] = EMPTY
                s[log + top] = x * 4 + other
                top += 1
    _, libs, _, _ = _flood(L, s, at, stack2)
    return top, libs


@_inline
def _ladder_attacked(L, s, target, defender, attacker_libs, top):  # type: ignore[no-untyped-def]
    """After the attacker's stone (its string has ``attacker_libs`` liberties): the ladder's
    state, and the defender's forced extension when it is in atari and no attacking string
    next to it is in atari too (its capture would escape). Returns the state, its two
    liberties, the log's top and the stones placed (0 or 1)."""
    board, _, stack, stack2, _, _, _, _ = _ladder_rooms(L)
    w = L[P_W]
    if attacker_libs == 0:
        return _LADDER_OPEN, -1, -1, top, 0  # suicide: not a move
    n, libs, lib, _ = _flood(L, s, target, stack)
    if libs == 0:
        return _LADDER_CAPTURED, -1, -1, top, 0
    if libs >= 2:
        return _LADDER_OPEN, -1, -1, top, 0  # the atari took stones: no atari
    attacker = 3 - defender
    for i in range(n):
        x = s[stack + i]
        for q in (x - w, x - 1, x + 1, x + w):
            if s[board + q] == attacker and _flood(L, s, q, stack2)[1] == 1:
                return _LADDER_OPEN, -1, -1, top, 0
    top, _ = _ladder_put(L, s, lib, defender, top)
    state, a, b = _ladder_extended(L, s, target)
    return state, a, b, top, 1


@_inline
def _ladder_extended(L, s, target):  # type: ignore[no-untyped-def]
    """After the defender's move: captured at one liberty or none (the attacker takes it),
    escaped at three or more, else the attacker's turn with these two liberties."""
    _, _, stack, _, _, _, _, _ = _ladder_rooms(L)
    _, libs, a, b = _flood(L, s, target, stack)
    if libs <= 1:
        return _LADDER_CAPTURED, -1, -1
    if libs >= 3:
        return _LADDER_OPEN, -1, -1
    return _LADDER_ATTACK, a, b


@_kernel
def ladder(p, s, at, target):  # type: ignore[no-untyped-def]
    """1 when, after the player to move puts a stone on cell ``at`` (an extension of an own
    string in atari, or an atari on an opposing string), the string on cell ``target``
    (``at`` itself for an extension) is lost to a ladder, else 0.

    The attacker gives atari at either of the string's two liberties (the lower cell
    first); the defender escapes by taking an attacking string next to it that is in
    atari, else must extend at its liberty, and escapes with three liberties or more. A
    depth-first search over the attacker's choices (the defender's moves are forced), on
    the position's own cells with an undo log that puts them back (no copy of the board:
    the tactical rollout reads ladders at many of its moves). Ko and superko are ignored
    (a ladder rarely turns on a ko, and a prior may be wrong now and then). Past
    ``LADDER_NODES`` stones placed the answer is 0: "not captured" only keeps the prior
    as it was. ``heuristic.ladder_captured`` is the reference; ``s`` is as it was but for
    the scratch room."""
    L = _layout(p)
    board, _, _, _, log, _, _, _ = _ladder_rooms(L)
    found, top = _ladder_read(L, s, at, target)
    while top > 0:  # the position's cells as they were
        top -= 1
        entry = s[log + top]
        s[board + (entry >> 2)] = entry & 3
    return found


@_inline
def _ladder_read(L, s, at, target):  # type: ignore[no-untyped-def]
    """:func:`ladder`'s answer, and the top of the undo log it leaves."""
    board, _, _, _, log, frames, _, _ = _ladder_rooms(L)
    mover = (s[PLY] & 1) + 1
    top, libs = _ladder_put(L, s, at, mover, 0)
    defender = s[board + target]
    if defender != mover and defender != 3 - mover:
        return 0, top
    nodes = 1
    if defender == mover:  # an extension: taken at one liberty or none (suicide)
        state, a, b = _ladder_extended(L, s, target)
    else:
        state, a, b, top, placed = _ladder_attacked(L, s, target, defender, libs, top)
        nodes += placed
    depth = 0
    while nodes <= LADDER_NODES:
        if state == _LADDER_CAPTURED:
            return 1, top
        if state == _LADDER_ATTACK:
            # A frame per attacker's turn: the log's top, the second choice.
            s[frames + 2 * depth] = top
            s[frames + 2 * depth + 1] = b
            depth += 1
            choice = a
        else:
            # Back to the deepest turn whose second choice is untried (-1 once tried).
            while depth > 0 and s[frames + 2 * depth - 1] < 0:
                depth -= 1
            if depth == 0:
                return 0, top
            saved = s[frames + 2 * depth - 2]
            while top > saved:
                top -= 1
                entry = s[log + top]
                s[board + (entry >> 2)] = entry & 3
            choice = s[frames + 2 * depth - 1]
            s[frames + 2 * depth - 1] = -1
        top, libs = _ladder_put(L, s, choice, 3 - defender, top)
        state, a, b, top, placed = _ladder_attacked(L, s, target, defender, libs, top)
        nodes += 1 + placed
    return 0, top


@_inline
def _liberty_pair(L, p, s, h):  # type: ignore[no-untyped-def]
    """The two liberties of the string headed by ``h`` when it has exactly two (counted:
    the records keep pseudo-liberties), else (-1, -1); walks its stones until a third
    shows."""
    cell, nxt, w = L[P_CELL], L[P_NEXT], L[P_W]
    a0 = a1 = -1
    stone = h
    while True:
        for r in (stone - w, stone - 1, stone + 1, stone + w):
            if s[cell + r] == EMPTY and r != a0 and r != a1:
                if a0 < 0:
                    a0 = r
                elif a1 < 0:
                    a1 = r
                else:
                    return -1, -1
        stone = s[nxt + stone]
        if stone == h:
            break
    return (a0, a1) if a1 >= 0 else (-1, -1)


@_inline
def _two_liberties(L, p, s, h):  # type: ignore[no-untyped-def]
    """Whether the string headed by ``h`` has exactly two liberties."""
    return _liberty_pair(L, p, s, h)[1] >= 0


PRIOR_NEUTRAL = 50
PRIOR_CAPTURE = 80  # takes an opposing string in atari (90 for two stones or more)
PRIOR_SAVE = 80  # extends or captures to save an own string in atari
PRIOR_LOCAL = 55  # next to the opponent's last move
PRIOR_SHAPE = 65  # next to it, one of MoGo's 3x3 shapes
PRIOR_FIRST_LINE = 30  # the edge, while the board is mostly empty
PRIOR_SECOND_LINE = 45  # the second line, while the board is mostly empty (9x9 and up)
PRIOR_SELF_ATARI = 15  # two stones or more left in atari
PRIOR_EYE = 5  # fills an own eye
PRIOR_PASS = 20
LEARNED_LOW, LEARNED_HIGH = 5, 95  # the fitted prior's rates stay within these
LEARNED_SENTINEL = -(1 << 50)  # a candidate's logit, stored below every rate until scaled
LEARNED_NO_MOVE = learned.NO_MOVE
LEARNED_OFF_LAST, LEARNED_OFF_PREV = learned.OFF_LAST, learned.OFF_PREV
LEARNED_OFF_LINE, LEARNED_OFF_HEUR = learned.OFF_LINE, learned.OFF_HEUR
LEARNED_OFF_LIBS, LEARNED_HAS_LIBS = learned.OFF_LIBS, learned.HAS_LIBS
LEARNED_NLINE, LEARNED_SCALE = learned.NLINE, learned.SCALE


@_kernel
def prior(p, s, out):  # type: ignore[no-untyped-def]
    """Knowledge win rates (percent) of the legal moves for the player to move (Fuego's and
    MoGo's kind of prior): captures and atari escapes high, self-ataris and own-eye fills
    low, the first two lines low while the board is mostly empty, the last move's
    neighbourhood a little higher; pass low. With ``P_LADDERS`` set: an extension that
    :func:`ladder` still captures low (a self-atari), an atari that starts a working
    ladder as high as a capture."""
    L = _layout(p)
    if _over(L, p, s):
        return 0
    colour = (s[PLY] & 1) + 1
    other = 3 - colour
    cell, head, w, size = L[P_CELL], L[P_HEAD], L[P_W], L[P_SIZE]
    n = L[P_N]
    ladders = L[P_LADDERS]
    early = 3 * s[NEMPTY] > 2 * n  # under a third of the board taken
    last = s[L[P_MOVES] + s[PLY] - 1] if s[PLY] > 0 else -1
    last_at = p[L[P_IDX] + last] if 0 <= last < n else -100
    for point in range(n):
        at = p[L[P_IDX] + point]
        out[point] = PRIOR_NEUTRAL
        if s[cell + at] != EMPTY:
            continue
        if _is_own_eye(L, p, s, at, colour):
            out[point] = PRIOR_EYE
            continue
        value = PRIOR_NEUTRAL
        d = at - last_at
        if d != 0 and -1 <= d % w - (w if d % w > 1 else 0) <= 1 and abs(d) <= w + 1:
            value = PRIOR_LOCAL  # one of the eight neighbours
            if _shape(L, p, s, at):
                value = PRIOR_SHAPE
        if early:
            row, col = point // size, point % size
            line = min(min(row, col), min(size - 1 - row, size - 1 - col))
            if line == 0:
                value = PRIOR_FIRST_LINE
            elif line == 1 and size >= 9:
                value = PRIOR_SECOND_LINE
        saves = False
        for q in (at - w, at - 1, at + 1, at + w):
            v = s[cell + q]
            if v == other and _in_atari(L, p, s, s[head + q]):
                big = s[L[P_SSIZE] + 4 * s[head + q]] >= 2
                value = max(value, PRIOR_CAPTURE + 10 * big)
            elif (
                v == colour and _in_atari(L, p, s, s[head + q]) and _safe(L, p, s, at, colour) == 0
            ):
                saves = True
            elif (
                ladders
                and v == other
                and value < PRIOR_CAPTURE
                and _two_liberties(L, p, s, s[head + q])
                and ladder(p, s, at, q)
            ):
                big = s[L[P_SSIZE] + 4 * s[head + q]] >= 2
                value = max(value, PRIOR_CAPTURE + 10 * big)  # starts a working ladder
        broken = False  # an extension the ladder still captures: running a broken ladder
        if saves:
            if ladders and ladder(p, s, at, at):
                broken = True
            else:
                value = max(value, PRIOR_SAVE)
        if value < PRIOR_CAPTURE and (broken or _big_self_atari(L, p, s, at, colour)):
            value = PRIOR_SELF_ATARI
        out[point] = value
    out[n] = PRIOR_PASS
    if L[P_LEARNED] > 0:
        _learned_prior(L, p, s, colour, last, out)
    return 1


@_inline
def _bucket(size, point, move):  # type: ignore[no-untyped-def]
    """Coulom's distance from ``point`` to ``move`` as ``learned``'s bucket (``NO_MOVE``
    for no move or a pass)."""
    if move < 0 or move >= size * size:
        return LEARNED_NO_MOVE
    dr = abs(point // size - move // size)
    dc = abs(point % size - move % size)
    d = dr + dc + max(dr, dc)
    return min(max(d, 2), 17) - 2


@_inline
def _learned_prior(L, p, s, colour, last, out):  # type: ignore[no-untyped-def]
    """Replace the hand-set rates in ``out`` by the fitted model's (``learned.py``): a
    candidate's rate is 50 + K (logit - the candidates' mean logit) percent, 5..95;
    the hand-set rate is one of its features. Occupied points and own eyes keep theirs."""
    n, size = L[P_N], L[P_SIZE]
    cell, weights = L[P_CELL], L[P_WEIGHTS]
    prev = s[L[P_MOVES] + s[PLY] - 2] if s[PLY] > 1 else -1
    taken = n - s[NEMPTY]
    st = 0 if 20 * taken < 3 * n else (1 if 20 * taken < 7 * n else 2)
    line_base = weights + LEARNED_OFF_LINE + st * LEARNED_NLINE
    libs = p[weights + LEARNED_HAS_LIBS] != 0  # weights fitted before them have none
    total = 0
    count = 0
    for point in range(n):
        at = p[L[P_IDX] + point]
        if s[cell + at] != EMPTY or out[point] == PRIOR_EYE:
            continue
        code = _neighbourhood(L, s, at)
        if colour == WHITE:  # seen by the player to move: the colours swapped
            code = ((code & 0x5555) << 1) | ((code >> 1) & 0x5555)
        row, col = point // size, point % size
        line = min(min(row, col), min(size - 1 - row, size - 1 - col))
        logit = (
            p[weights + code]
            + p[weights + LEARNED_OFF_LAST + _bucket(size, point, last)]
            + p[weights + LEARNED_OFF_PREV + _bucket(size, point, prev)]
            + p[line_base + min(line, LEARNED_NLINE - 1)]
            + p[weights + LEARNED_OFF_HEUR + out[point] // 5]
        )
        if libs:
            logit += p[weights + LEARNED_OFF_LIBS + _liberty_class(L, p, s, at, colour)]
        out[point] = LEARNED_SENTINEL + logit  # marked as a candidate until the mean is known
        total += logit
        count += 1
    if count == 0:
        return
    mean = total / count
    k = L[P_LEARNED]
    for point in range(n):
        if out[point] > LEARNED_SENTINEL // 2:
            continue
        rate = 50.0 + k * (out[point] - LEARNED_SENTINEL - mean) / LEARNED_SCALE
        out[point] = int(min(max(rate, LEARNED_LOW), LEARNED_HIGH) + 0.5)


@_kernel
def owners(p, s, out):  # type: ignore[no-untyped-def]
    """Who holds each point ``row * size + col`` (row 0 the top, as the rules): 0 (Black),
    1 (White) or -1 (empty)."""
    cells, index = p[P_CELL], p[P_IDX]
    for point in range(p[P_N]):
        out[point] = s[cells + p[index + point]] - 1
    return p[P_N]


@_kernel
def trace(p, start, end, out):  # type: ignore[no-untyped-def]
    """The points played from position ``start`` to ``end`` (``point * 2 + player``, passes
    left out), from the history ``end`` keeps."""
    L = _layout(p)
    moves = L[P_MOVES]
    count = 0
    for ply in range(start[PLY], end[PLY]):
        move = end[moves + ply]
        if 0 <= move < L[P_N]:
            out[count] = move * 2 + (ply & 1)
            count += 1
    return count


# --- building positions ---------------------------------------------------------------


@_kernel
def _rebuild(p, s):  # type: ignore[no-untyped-def]
    """Strings, liberties, the empty list and the hash, from the cells alone."""
    L = _layout(p)
    cell, head, nxt = L[P_CELL], L[P_HEAD], L[P_NEXT]
    w, n, np_ = L[P_W], L[P_N], L[P_NP]
    zob = L[P_ZOB]
    s[NEMPTY] = 0
    s[HASH] = 0
    stones = L[P_SCRATCH]
    for point in range(n):
        at = p[L[P_IDX] + point]
        v = s[cell + at]
        if v == EMPTY:
            k = s[NEMPTY]
            s[L[P_EMPTIES] + k] = at
            s[L[P_WHERE] + at] = k
            s[NEMPTY] = k + 1
        else:
            s[head + at] = -1
            s[HASH] ^= p[zob + v * np_ + at]
    for point in range(n):
        root = p[L[P_IDX] + point]
        colour = s[cell + root]
        if colour == EMPTY or s[head + root] >= 0:
            continue
        # Flood the string, then chain its stones and count its pseudo-liberties.
        s[head + root] = root
        s[stones] = root
        count = 1
        i = 0
        while i < count:
            x = s[stones + i]
            i += 1
            for q in (x - w, x - 1, x + 1, x + w):
                if s[cell + q] == colour and s[head + q] < 0:
                    s[head + q] = root
                    s[stones + count] = q
                    count += 1
        s[L[P_SSIZE] + 4 * root] = count
        s[L[P_PLC] + 4 * root] = 0
        s[L[P_PLS] + 4 * root] = 0
        s[L[P_PLQ] + 4 * root] = 0
        key = 0
        for i in range(count):
            x = s[stones + i]
            s[nxt + x] = s[stones + (i + 1) % count]
            key ^= p[zob + colour * np_ + x]
            for q in (x - w, x - 1, x + 1, x + w):
                if s[cell + q] == EMPTY:
                    _add_liberty(L, p, s, root, q)
        s[L[P_SHASH] + root] = key


def _scratch_room(cells: int, n: int) -> int:
    """The scratch section's length: the area count's marks and stack (``cells + n``; the
    rollout's far points and ``_rebuild``'s stack fit there), the ladder reader's rooms
    (:func:`_ladder_rooms`: marks, two stacks of stones, the undo log (every placed
    stone and every stone that can be taken on one line of play), a frame per attacker's
    turn and the stamps' counter), then the tactical rollout's urgent moves (``n``), which
    the reader may not overwrite: it reads while they are gathered, and ``nakade``'s
    region (``NAKADE_CELLS``)."""
    return 2 * cells + 5 * n + 5 * LADDER_NODES + 16 + NAKADE_CELLS


def params(game: Go) -> np.ndarray:
    """The parameter array ``p`` of ``game``: sizes, komi, rules, offsets and tables."""
    size, n = game.size, game.points
    w = size + 4  # two border rings: the rollout looks two points away
    cells = w * w
    history = game.maxlen + 1 if game.superko else 1
    bloom_bits = 64
    while bloom_bits < 16 * history and bloom_bits < 1 << 16:
        bloom_bits *= 2
    if not game.superko:
        bloom_bits = 64
    # A string's size and liberty count, sum and sum of squares sit together
    # (``4 * head`` on), so a string is one cache line.
    sections = [cells, cells, cells, 4 * cells, 0, 0, 0, cells, cells]
    sections += [n, bloom_bits // 64, history, game.maxlen, _scratch_room(cells, n)]
    offsets = [S_HEADER]
    for length in sections:
        offsets.append(offsets[-1] + length)
    offsets[P_PLC - P_CELL : P_PLQ - P_CELL + 1] = [
        offsets[P_SSIZE - P_CELL] + i for i in (1, 2, 3)
    ]
    zob = P_HEADER
    idx = zob + 3 * cells
    point = idx + n
    patterns = point + cells
    table = pattern_table()
    weights = patterns + len(table)
    replies = weights + learned.LENGTH
    p = np.zeros(replies + 2 * (n + 1) + 2 * (n + 1) ** 2, np.int64)
    p[P_PATTERNS] = patterns
    p[patterns:weights] = table
    p[P_WEIGHTS] = weights
    p[weights:replies] = learned.weight_table()
    p[P_REPLIES] = replies
    p[replies:] = -1
    p[P_SIZE], p[P_N], p[P_W], p[P_NP] = size, n, w, cells
    set_komi(p, game.komi)
    p[P_SUPERKO], p[P_MAXLEN], p[P_BLOOM_MASK] = game.superko, game.maxlen, bloom_bits - 1
    p[P_CELL : P_LEN + 1] = offsets
    p[P_ZOB], p[P_IDX], p[P_POINT] = zob, idx, point
    rng = np.random.default_rng(_ZOBRIST_SEED + size)
    keys = rng.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max, 2 * cells, np.int64)
    p[zob + cells : zob + 3 * cells] = keys  # colour 0 (empty) keeps zeros
    p[point : point + cells] = -1
    for q in range(n):
        at = (q // size + 2) * w + q % size + 2
        p[idx + q] = at
        p[point + at] = q
    return p


def _bits(codes: int | tuple[int, ...], width: int) -> np.ndarray:
    """The low ``width`` bits of each code (one row per code, lowest bit first)."""
    codes = (codes,) if isinstance(codes, int) else codes
    nbytes = (width + 7) // 8
    raw = np.frombuffer(b"".join(c.to_bytes(nbytes, "little") for c in codes), np.uint8)
    rows = np.unpackbits(raw.reshape(len(codes), nbytes), axis=1, bitorder="little")
    return rows[:, :width].astype(np.int64)


def _board_hashes(p: np.ndarray, codes: tuple[int, ...], n: int) -> np.ndarray:
    """The Zobrist hashes of reference board codes (``black | white << n``)."""
    if not codes:
        return np.zeros(0, np.int64)
    cells = int(p[P_NP])
    at = p[p[P_IDX] : p[P_IDX] + n]
    keys = np.concatenate([p[p[P_ZOB] + cells + at], p[p[P_ZOB] + 2 * cells + at]])
    return np.bitwise_xor.reduce(np.where(_bits(codes, 2 * n) == 1, keys, 0), axis=1)


def encode(p: np.ndarray, state: GoState) -> np.ndarray:
    """The kernel position of ``state`` (a new array)."""
    game = state.game
    n = game.points
    s = np.zeros(int(p[P_LEN]), np.int64)
    cell = int(p[P_CELL])
    s[cell : cell + p[P_NP]] = BORDER
    at = p[p[P_IDX] : p[P_IDX] + n]
    bits = _bits(state.code(), 2 * n)[0]
    s[cell + at] = bits[:n] * BLACK + bits[n:] * WHITE
    s[PLY], s[PASSES] = state.ply, state.passes
    s[KO] = at[state.ko_point] if state.ko_point >= 0 else -1
    _rebuild(p, s)
    hashes = _board_hashes(p, state.earlier_boards(), n)
    s[NHIST] = len(hashes)
    s[RUNSTART] = len(hashes) - state.run_length()
    hist = int(p[P_HIST])
    s[hist : hist + len(hashes)] = hashes
    bits = hashes & p[P_BLOOM_MASK]
    np.bitwise_or.at(s, p[P_BLOOM] + (bits >> 6), np.left_shift(1, bits & 63))
    moves = int(p[P_MOVES])
    s[moves : moves + game.maxlen] = -1
    if state.ply > 0:
        s[moves + state.ply - 1] = state.last_move
    return s


def moves_played(k: Kernel, s: np.ndarray, start: int = 0) -> list[int]:
    """The moves recorded in ``s`` from ply ``start`` on (-1 for moves made before
    ``encode``), e.g. those of a playout."""
    moves = int(k.params[P_MOVES])
    return [int(m) for m in s[moves + start : moves + int(s[PLY])]]


def set_komi(p: np.ndarray, komi: float) -> None:
    """Make ``outcome`` count ``komi`` (points added to White's area) in the params ``p``:
    Black wins above it, White below, a margin equal to it is a draw."""
    p[P_KOMI_LO], p[P_KOMI_HI] = math.floor(komi), math.ceil(komi)


def kernel(game: Go) -> Kernel:
    """The kernel of ``game`` (any size, komi, ko rule and maxlen)."""
    p = params(game)
    functions = {
        "legal_moves": legal_moves,
        "play": play,
        "to_move": to_move,
        "outcome": outcome,
        "playout": playout,
        "rollout": rollout,
        "seed": seed,
        "trace": trace,
        "prior": prior,
        "tactics": tactics,
        "owners": owners,
    }

    def load_weights(path: str) -> None:
        p[p[P_WEIGHTS] : p[P_WEIGHTS] + learned.LENGTH] = learned.load_table(path)

    return Kernel(
        name=game.spec,
        params=p,
        knobs={
            "ladders": P_LADDERS,
            "lgrf": P_LGRF,
            "patterns": P_LEARNED,
            "nakade": P_NAKADE,
            "lowlib": P_LOWLIB,
        },
        max_moves=game.points + 1,
        max_plies=game.maxlen,
        encode=lambda state: encode(p, state),  # type: ignore[arg-type]
        functions=functions,
        komi=lambda komi: set_komi(p, komi),
        weights=load_weights,
    )
