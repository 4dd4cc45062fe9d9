"""Gomoku's compiled engine: threat-aware alpha-beta over k-windows (numba).

What ``ids`` runs on Gomoku, freestyle (``overline=win``) and exactly five
(``overline=nowin``); ``ids:engine=python`` keeps the readable reference.

The position is a board of cells plus, for every k-window (k cells in a line:
572 on 15x15), how many stones of each player it holds; a move updates the
4k windows through its cell. From those counts, kept incrementally:

- **Exactly five.** A player *holds* a window while nothing bars it: a stone of the
  other in it, or (``overline=nowin``) a stone of its own next to either end, where
  the five would be six. So every count below is of the rule's own fives, fours and
  threes, and the search, the VCF and the answers to a three need nothing else; the
  pattern codes see nine cells of a line, and take a cell past them as not the
  player's;
- **Threats.** A window with k-1 stones of one player that it holds
  is a *four*: its empty cell wins at once. The side to move with a four wins
  (the search returns ``WIN - plies`` at once); facing the opponent's fours it
  must block their empty cells (two distinct ones lose; one is a forced move,
  searched without reducing the depth);
- **Evaluation** (with ``PATTERN = 0``; the engine's own is the patterns', below). Every
  window a player holds alone is worth ``WINDOW[j-1]``
  for its j stones (an open three lies in three windows, a closed one in one,
  so shapes come out of the counts), the mover's counted ``TEMPO`` times, less
  ``THREAT`` for each cell where the other side would make an open or double
  four, squashed into (-900, 900) like the game's heuristics; the constants
  fitted to game results (``scripts/fit_gomoku_eval.py``). Three more terms are there,
  off (measured without a decision, docs/speed.md): the four-three cells
  (:data:`FORK`), the windows along the edge (:data:`EDGE`) and the stones on the edge
  lines (:data:`LINES`);
- **Patterns** (:data:`PATTERN`, measured in docs/speed.md). Each cell's key along
  each of its four lines (its eight neighbours there, 2 bits each) is kept as stones come
  and go, and with it, by two table look-ups (:mod:`.patterns`), the *class* of
  every empty cell for either side: what a stone there would make (a five, an open four,
  a four-three, a double three, an open three, ...). The pattern evaluation weighs the
  empty cells by class, the mover's and the opponent's apart (fitted to game results,
  ``fit_gomoku_eval.py --patterns``), in place of the windows; the moves may be ordered
  by those classes too (:data:`PATTERN_MOVES`). The weights are read by the cell's
  *combination* of four shapes (one look-up more fine-grained than its class:
  :data:`N_COMBOS`), so that each combination may have a weight of its own
  (``fit_gomoku_eval.py --combos``);
- **Moves.** Empty cells within two steps of a stone, scored by the windows
  through them — what the move builds (``5 ** j``) and what it blocks
  (``4 ** j``) — searched best first, at most ``BEAM`` of them below the root
  (so a loss is proven only where no move was left out: else it is ``-950``);
- **Answers to a three** (:data:`ANSWER`). Below the root, a node whose opponent has a
  cell that makes an open or double four searches only the moves that may answer it
  (:func:`defence_cells`: the cells of the opponent's windows through such a cell, and
  the mover's own fours), every one of them and no others: any other move loses. So a
  loss found there is proven, and the alpha-beta itself finds wins by threes (VCT)
  within its depth;
- **VCF.** Before the search, and at the horizon for the side to move, a
  search of continuous fours (each attacking move makes a four, the defender
  must block it): a win found that way is proven.
- **Threats** (``threads=2`` or more): the first helper thread searches the root for
  a win by fours and threes (VCF, then VCT: :mod:`.threats`) for up to
  :data:`THREAT_SHARE` of the move while the main thread deepens (without its root VCF);
  a proven win stops the search and is played. Then it deepens as Lazy SMP's helpers do.
- **The opponent's threats** (off by default: :data:`DEFEND_THREES`; every thread count
  when on): before searching, the threat search
  asks whether the opponent would win by threats with the move (VCF, then VCT with
  :data:`DEFEND_THREES` threes); if so, the root searches only the moves after which it
  no longer does -- the cells of its proof and our own fours (and threes, against a VCT),
  each checked (:meth:`GomokuEngine.defend`).

Alpha-beta negamax with a transposition table (Zobrist keys; depth, bound,
best move; PVS with late-move reductions is a setting, off: :data:`LMR`), iterative
deepening by :func:`~arena.search.alphabeta.engines.driver.deepen`, the deadline read
from compiled code (:mod:`~arena.search.clock.compiled_deadline`).

>>> import arena
>>> game = arena.load_game("gomoku")
>>> engine = make_engine(game)
>>> state = game.play_moves(game.parse_moves("H8 A1 J8 A2 K8 A3 L8"))  # Black: four in a row
>>> move, info = engine.choose(state, 0.3, 64, arena.load_agent("ids"))
>>> game.format_move(move) in ("G8", "M8"), info.root[0]["text"]  # White cannot block both
(True, 'loss in 2')

Tests: tests/search/test_engine_gomoku.py, tests/search/test_lazy_smp.py
"""

from __future__ import annotations

import math
import time
import zipfile
from functools import cache
from pathlib import Path

import numpy as np
from numba import njit

from arena.core.agent import Agent, SearchInfo
from arena.core.game import Game, State
from arena.search.alphabeta.engines.driver import (
    BOUND_TEXT,
    Iteration,
    LazySMP,
    RootSearch,
    deepen,
    node_budget,
)
from arena.search.alphabeta.engines.gomoku import patterns
from arena.search.alphabeta.engines.gomoku.threats import Found, ThreatSearch, add
from arena.search.alphabeta.engines.table_values import (
    EXACT,
    LOWER,
    UPPER,
    entry_key,
    store_entry,
)
from arena.search.clock.compiled_deadline import NEVER, expired, now_ns
from arena.search.clock.deadline import quiet_gc
from arena.search.report import value_rows
from arena.search.values import PROVEN_NOTE, WIN

# stats: nodes, deadline (ns), aborted, horizon seen, VCF plies at the horizon, last look
# at the clock, longest time between two looks (clock.expired).
# SPLIT: 1 when other threads search the same root (they share the work through
# ``busy``); DEFERRED counts the moves left for later because another thread had them.
NODES, END, ABORTED, HORIZON, LEAF_VCF, LAST, LONGEST, NODE_CAP, SPLIT, DEFERRED, NULLED = range(11)
STATS = 11
SPLIT_DEPTH = 3
"""Nodes with this many plies left or more share their moves between threads (ABDADA,
see :func:`search`); shallower ones cost less than the look-up."""
BUSY_BITS = 15
BUSY_MARK = 1 << 62
"""Set in a mark (zobrist keys stay below it), so no mark is 0, an empty slot."""
NO_CAP = 1 << 62
"""``stats[NODE_CAP]`` when the search has no node budget (a budget per thread is how a
measurement stands for equal time on free cores: ``GomokuSearch.budget``)."""
CHECK_EVERY = 127
# geometry g: size, cells, k, windows, beam, answers (1: a node facing a threat of an open
# four searches only its answers), late moves (PVS, and from this move on a ply less:
# LMR; 0: plain alpha-beta); then where the pattern tables start in g: each cell's
# neighbours along its lines (patterns.neighbours), the line shapes by key for player 0
# and 1 (patterns.shape_table, packed: shapes), the combination of the four shapes
# (patterns.combo_table), by which the pattern weights are read.
G_SIZE, G_CELLS, G_K, G_WINDOWS, G_BEAM, G_ANSWER, G_LMR, G_NBR, G_SHAPE, G_COMBO = range(10)
G_KIND, G_NULL = 10, 11
G_TABLES = 12
# position counters c: stones, hash, fours of player 0 and 1, threes of player 0 and 1
# (windows a player holds alone with k-1 and k-2 stones).
# Past them, when the pattern evaluation is on (PATTERN): each cell's key along each of its
# four lines (4 per cell), then each player's shape code of every cell (the four shapes as
# the digits of s0 + 10 s1 + 100 s2 + 1000 s3; a cell apiece, player 0's first), kept for
# the empty cells (an occupied one's is made afresh when its stone comes off); then how
# many empty cells each player has of each class (N_CLASSES apiece, player 0's first).
C_STONES, C_HASH, C_FOURS, C_THREES = 0, 1, 2, 4
COUNTERS = 6
C_KEYS = COUNTERS
# sums: each player's window value; then, with the pattern evaluation, each player's sum
# over the empty cells of its classes' weights as the mover's and as the opponent's.
S_PATTERN = 2
# window counts cnt[win]: the stones of player 0 and 1 in it, then what bars player 0 and 1
# from it (the other's stones in it; exactly five: also the player's own next to its ends).
# A player *holds* a window while nothing bars it.
FLANKS = 8
"""The most windows a cell flanks (two a line)."""
TABLE_BITS = 20
BEAM = 12
ANSWER = 1
"""1: below the root, a node whose opponent threatens an open (or double) four searches
only the moves that may answer it (:func:`defence_cells`), every one of them: the others
lose, so a loss found there is proven (a win by threes, found by the search itself)."""
LMR = 0
"""Late moves below the root (:func:`search`): 0, plain alpha-beta, every move with the
node's window; N > 0, principal variation search (the first move with the window, the
others with a null window first, searched again only when they beat it) where the moves
from the Nth on, past :data:`LMR_DEPTH`, are searched a ply shallower first (late move
reductions), unless the move is forced, answers a three or makes a four; a large N is PVS
alone. Off: with 3, half the nodes to depth 9, but 52.0% (Elo +14 [-14, +42]) against the
engine without them over 600 games at 0.5 s a move, no decision, and no change against
Rapfi (docs/speed.md)."""
LMR_DEPTH = 3
"""Plies left from which a node reduces its late moves."""
NULL = 0
"""Null-move pruning below the root (:func:`search`): 0, none; R > 0, a node with
:data:`NULL_DEPTH` plies or more left whose static value is at least beta, when the
opponent has no four and no open three to play (the only case where passing is safe
to assume harmless) and the move before was not a pass, first lets the opponent move
twice, searched ``R + 1`` plies shallower with a null window at beta, and is cut if
that still fails high. Off: with 3, a third fewer nodes to depth 7 and the same moves, but
51.3% (Elo +9 [-26, +44]) against the engine without it over 382 games at 0.5 s a move, an
SPRT's H0 (docs/speed.md)."""
NULL_DEPTH = 3
"""Plies left from which a node may try a null move."""
NULL_WINDOW = 1e-6
"""The width of PVS's null window (values are floats; the evaluation's units are whole
numbers, proven results about 10**6)."""
ROOT_VCF = 12
VCF_SHARE = 0.3
"""The share of the move's time the root's VCF search may take (the rest deepens)."""
VCF_MAX_SECONDS = 2.0
"""And at most this long: past it, the search's own horizon VCF serves better."""
"""Attacking fours the root's VCF search may chain."""
LEAF_PLIES = 3
"""Attacking fours of the VCF search at the horizon."""
HELPER_BEAM = BEAM
"""Moves a node searches in Lazy SMP's helper threads (the main search: :data:`BEAM`).
A helper with another beam searches other moves than the main one and stores what it
finds in the shared table (docs/speed.md measures it)."""
HELPER_LEAF_PLIES = LEAF_PLIES
"""Attacking fours of the helpers' VCF search at the horizon (the main search:
:data:`LEAF_PLIES`)."""
THREAT_THREES = 3
"""Threes along a line of the threat search's VCT (:mod:`.threats`) that the
threat thread of ``threads=2`` runs at the root (its VCF first)."""
ROOT_THREES = 0
"""One thread: threes of the root's threat search in place of its VCF (0: the engine's
own VCF; with 1 it scored 50.5% against 0 over 100 games at 0.5 s a move, docs/speed.md
"The opponent's threats")."""
DEFEND_THREES = -1
"""Before searching, the opponent's win by threats if it had the move (its VCF, then its
VCT with at most this many threes; -1: not looked for): when it has one, the root
searches only the moves after which it has none (:meth:`GomokuEngine.defend`). Off: with
1 it scored 48.0% (48-0-52) against the engine without it over 100 games at 0.5 s a move
(docs/speed.md, "The opponent's threats")."""
DEFEND_SHARE = 0.2
"""The share of the move's time that look may take (the rest deepens)."""
THREAT_PLIES = 99
"""The plies a win by threats is reported in: it comes sooner (the search does not count
them)."""
THREAT_SHARE = 0.5
"""The share of the move's time the threat thread may take before it deepens too."""
TEMPO = 1.25
"""The mover's windows count this many times the opponent's."""
THREAT = 60.0
"""Less this for each (cell, window) where the opponent makes an open or double four."""
FORK = (0.0, 0.0)
"""For each (cell, window) of a four-three (:func:`fork_cells`): the mover's, the
opponent's."""
EDGE = 1.0
"""The weight of a window along the edge (its cells all on the first line): a line
there cannot grow across it, so its stones are worth less."""
LINES = (0.0, 0.0, 0.0)
"""A stone's value by its line from the board's edge: on the edge, on the second line,
further in (a stone on the edge takes part in fewer lines, and in those only along it)."""
PATTERN = 1.0
"""1: the evaluation sums what a stone on each empty cell would make for either side (its
class, :mod:`.patterns`: :data:`PATTERN_MOVER` for the mover's, :data:`PATTERN_OTHER`
for the opponent's) in place of the windows; 0: the windows (the pattern codes are then
not kept, so they cost nothing). On: it scored 61.3% (119-0-75, Elo +80 [+30, +130])
against the windows over 194 games at 0.5 s a move, an SPRT's accepted H1 (docs/speed.md),
at about 15% fewer nodes a second."""
PATTERN_MOVER = (0.0, 5.0, 10.5, -17.0, 51.0, 84.0, 41.0, 169.0, 68.0, 451.0, 301.0, 1825.0,
                 1825.0, 1825.0)  # fmt: skip
"""The mover's weight of an empty cell by its class (NONE ... FIVE), in the windows' units
(the engine plays the weights by combination of :data:`COMBOS_FILE`, in these units, and
these where a combination was never fitted; ``combos=classes`` of the measurement script
plays these):
fitted to all 58,164 positions of 2,185 games, the engine's own and against Rapfi (issue
29's databases; ``scripts/fit_gomoku_eval.py --patterns`` fits four fifths of them and
prints values close to these: 1,941 for the four-three); F4 and FIVE, never seen by the
fit (the mover wins at once), are given the four-three's."""
PATTERN_OTHER = (0.0, -2.0, -8.4, 22.0, -41.0, -55.0, -34.0, -188.0, -86.0, -339.0, -225.0,
                 -651.0, -458.0, -1870.0)  # fmt: skip
"""The same for the opponent's cells (where the mover must answer)."""
N_CLASSES = len(patterns.CLASSES)
N_COMBOS = len(patterns.COMBOS)
"""The engine reads every pattern weight by the cell's combination of four shapes
(:data:`.patterns.COMBOS`); weights given by class (:data:`N_CLASSES` of them) are spread
over their combinations (:func:`by_combo`), which changes nothing but the table's size."""
COMBOS_FILE = Path(__file__).with_name("combos.npz")
"""The engine's own pattern weights, one a combination for the mover's cells and one for
the opponent's (``mover``, ``other``; :func:`shipped_combos`), and its count terms
(``counts``; :func:`shipped_counts`): fitted together by ``scripts/fit_gomoku_eval.py
--combos OUT.npz --counts`` (ridge 0.03) to four fifths of 49,145 positions of 2,100 games
-- 1,500 of Rapfi's self-play at 50 ms a move and 600 of ``best`` at 0.3 s against it,
from random 2-ply openings -- held-out log-loss 0.388, against 0.402 by combination alone
and 0.431 by class alone; a combination never seen keeps its class's weight
(:data:`PATTERN_MOVER`, :data:`PATTERN_OTHER`, the units). By combination they scored
53.9% (123-0-105) against the class weights at 0.5 s a move, and with the count terms
53.4% (170-1-148) against the combinations alone: two SPRTs' accepted H1
(docs/speed.md). Fitted on freestyle games; exactly five plays them too."""
COUNT_CAP = 3
"""The most cells of one class a count term counts (:func:`load_counts`)."""
PATTERN_MOVES = 0.0
"""1 (with :data:`PATTERN` on): a move's score is its log-odds of being played, from the
windows' score (its logarithm times :data:`MOVES_WINDOWS`) and the cell's class for the
mover (:data:`MOVES_MOVER`) and for the opponent (:data:`MOVES_OTHER`); 0: the windows'
score alone. Fitted (a conditional logit over each position's candidates) to the moves
played in 46,128 positions of 1,765 games (the engine's own and against Rapfi): the move played
was among the first 12 (the beam) in 93.6% of the held-out fifth's positions, against
91.3% by the windows' score alone, and first in 34.2% against 30.9%."""
MOVES_WINDOWS = 2.65
MOVES_MOVER = (-0.81, -0.32, 0.25, 0.96, 0.17, 0.9, 0.63, 1.29, -2.71, -1.17, 2.13, 0.34, -1.66,
               0.0)  # fmt: skip
MOVES_OTHER = (0.13, 0.09, -0.01, -0.29, 0.23, 0.09, 0.4, 0.47, -1.26, -0.74, 0.71, 0.12, 0.06,
               0.0)  # fmt: skip
V_CELLS = 5
"""Where the cells' values start in the evaluation's array, past the window values
(0..k stones): tempo, threat, the two fork values, then one per cell (:func:`weights`)."""
LOST_SOON = 950.0
"""The value of a node whose searched moves all lose when the beam left some unsearched."""
SOFT = 3000.0
STATIC = 900.0
INF = math.inf
PROVEN = WIN - 10_000.0
MAX_PLY = 128


def geometry(size: int, k: int, exact: bool = False) -> tuple[np.ndarray, ...]:
    """``(g, windows, through, count_through, near, count_near)`` of a board.

    ``through[cell]`` lists the ``count_through[cell]`` windows through the cell; past
    them, from column ``4 k``, the windows the cell *flanks* (the cell next to either
    end, in line), their number in the last column: with ``exact`` (the rule of exactly
    five, ``overline=nowin``) a stone there bars its owner from the window, whose five
    would be six. Freestyle lists none."""
    cells = size * size
    windows = []
    ends = []
    for r in range(size):
        for c in range(size):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                er, ec = r + (k - 1) * dr, c + (k - 1) * dc
                if 0 <= er < size and 0 <= ec < size:
                    windows.append([(r + i * dr) * size + c + i * dc for i in range(k)])
                    flanks = ((r - dr, c - dc), (er + dr, ec + dc))
                    on = [(y, x) for y, x in flanks if 0 <= y < size and 0 <= x < size]
                    ends.append([y * size + x for y, x in on])
    w = np.array(windows, np.int64).reshape(len(windows), k)
    through = np.zeros((cells, 4 * k + FLANKS + 1), np.int64)
    count = np.zeros(cells, np.int64)
    for i, row in enumerate(windows):
        for cell in row:
            through[cell, count[cell]] = i
            count[cell] += 1
        for cell in ends[i] if exact else ():
            through[cell, 4 * k + through[cell, -1]] = i
            through[cell, -1] += 1
    near = np.zeros((cells, 25), np.int64)
    count_near = np.zeros(cells, np.int64)
    for cell in range(cells):
        r, c = divmod(cell, size)
        for rr in range(max(0, r - 2), min(size, r + 3)):
            for cc in range(max(0, c - 2), min(size, c + 3)):
                if (rr, cc) != (r, c):
                    near[cell, count_near[cell]] = rr * size + cc
                    count_near[cell] += 1
    nbr = patterns.neighbours(size).ravel()
    shape, combo = _pattern_tables(exact)
    # Both players' shapes of a key in one byte (player 1's in the high half), eight keys
    # to a word: 64 KB, which stays in the cache where 2 x 65,536 words would not.
    both = (shape[0].astype(np.int64) | shape[1].astype(np.int64) << 4).reshape(-1, 8)
    packed = (both << (8 * np.arange(8))).sum(axis=1)
    at = G_TABLES
    starts = [at, at + nbr.size, at + nbr.size + packed.size]
    starts.append(starts[-1] + combo.size)  # each combination's class
    g = np.array([size, cells, k, len(windows), BEAM, ANSWER, LMR, *starts, NULL], np.int64)
    g = np.concatenate([g, nbr, packed, combo, patterns.combo_classes()])
    return g, w, through, count, near, count_near


@cache
def _pattern_tables(exact: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The line shapes and the cells' combinations (:mod:`.patterns`), built once a
    rule (``exact``: exactly five)."""
    return patterns.shape_table(exact), patterns.combo_table()


def load_combos(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """Pattern weights from an ``.npz`` of ``mover`` and ``other`` (what
    ``scripts/fit_gomoku_eval.py --combos`` writes), by combination (:func:`by_combo`).
    Anything else raises ValueError in one line.

    >>> mover, other = load_combos(COMBOS_FILE)
    >>> mover.shape == other.shape == (N_COMBOS,)
    True
    """
    try:
        table = np.load(path)
    except (OSError, ValueError, zipfile.BadZipFile) as error:
        raise ValueError(f"{path}: not pattern weights ({error})") from None
    if not isinstance(table, np.lib.npyio.NpzFile):
        raise ValueError(f"{path}: not pattern weights (an .npz of mover and other)")
    with table:
        if not {"mover", "other"} <= set(table.files):
            raise ValueError(f"{path}: not pattern weights (no mover and other in it)")
        return by_combo(table["mover"]), by_combo(table["other"])


def load_counts(path: Path) -> np.ndarray:
    """The count terms of an ``.npz`` of pattern weights (:func:`load_combos`; what
    ``scripts/fit_gomoku_eval.py --combos OUT.npz --counts`` writes as ``counts``), in
    the same units: four rows of one weight a class -- the mover's if it has any empty
    cell of the class, the mover's a cell of it (up to :data:`COUNT_CAP`), then the same
    two for the opponent's cells. A file without them has none (zeros); a table of
    another shape raises ValueError in one line.

    >>> load_counts(COMBOS_FILE).shape == (4, N_CLASSES)
    True
    """
    load_combos(path)  # the file's own errors, in one line
    with np.load(path) as table:
        if "counts" not in table.files:
            return np.zeros((4, N_CLASSES))
        counts = np.asarray(table["counts"], float)
    if counts.shape != (4, N_CLASSES):
        raise ValueError(
            f"{path}: counts of shape {counts.shape}: four rows of {N_CLASSES}, one a class"
        )
    return counts


@cache
def shipped_combos() -> tuple[np.ndarray, np.ndarray]:
    """The engine's pattern weights by combination, the mover's and the opponent's
    (:data:`COMBOS_FILE`)."""
    return load_combos(COMBOS_FILE)


@cache
def shipped_counts() -> np.ndarray:
    """The engine's count terms (:func:`load_counts` of :data:`COMBOS_FILE`)."""
    return load_counts(COMBOS_FILE)


def by_combo(weights: tuple[float, ...] | np.ndarray) -> np.ndarray:
    """Pattern weights by combination (:data:`N_COMBOS` of them): as they are, or, given by
    class (:data:`N_CLASSES`), each combination its class's.

    >>> w = by_combo(tuple(float(c) for c in range(N_CLASSES)))
    >>> combo = patterns.COMBOS.index((patterns.DEAD, patterns.B1, patterns.F3, patterns.B4))
    >>> patterns.CLASSES[int(w[combo])]
    'B4F3'
    """
    weights = np.asarray(weights, float)
    if weights.shape == (N_COMBOS,):
        return weights
    if weights.shape == (N_CLASSES,):
        return weights[patterns.combo_classes()]
    raise ValueError(
        f"gomoku weights: {weights.size} pattern weights: give one a class ({N_CLASSES})"
        f" or one a combination ({N_COMBOS})"
    )


WINDOW = (2.0, 100.0, 185.0, 1240.0)
"""The value of a window a player holds alone with 1, 2, 3 and 4 stones (more stones:
ten times the last, on a longer line). With :data:`TEMPO` and :data:`THREAT`, fitted to
the results of 800 games of the engine's own play (``scripts/fit_gomoku_eval.py``): a
window of three stones is worth not ten times one of two, as the constants before
(1, 10, 100, 1000; 1.5; 300) had it, but less than twice, and the opponent's four (the
mover must block it) about twelve times (docs/speed.md)."""


def window_values(k: int, window: tuple[float, ...] = WINDOW) -> list[float]:
    """The values of windows of 0..k stones held alone (a k's value is never read).

    >>> window_values(5, (1.0, 10.0, 100.0, 1000.0))
    [0.0, 1.0, 10.0, 100.0, 1000.0, 10000.0]
    """
    out = [0.0]
    for j in range(1, k + 1):
        out.append(window[j - 1] if j <= len(window) else out[-1] * 10.0)
    return out


def weights(
    k: int,
    tempo: float = TEMPO,
    threat: float = THREAT,
    window: tuple[float, ...] = WINDOW,
    fork: tuple[float, float] = FORK,
    size: int = 15,
    lines: tuple[float, ...] = LINES,
    edge: float = EDGE,
    pattern: float = PATTERN,
    pattern_weights: tuple[tuple[float, ...] | np.ndarray, tuple[float, ...] | np.ndarray]
    | None = None,
    pattern_moves: float = PATTERN_MOVES,
    counts: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(value, attack, defend)`` by the stones of a window (0..k); ``value`` goes on
    with the evaluation's other constants: ``tempo``, ``threat``, ``fork``, then the
    value of a stone on each cell of a ``size`` board (``lines``: by its line from the
    edge, the last for every line further in), then the weight of each window of
    :func:`geometry`'s (``edge`` for those along the edge, else 1), then the classes'
    weights for the mover and for the opponent, by combination (:func:`by_combo`: given by
    class or by combination; ``None``, the shipped ones, :func:`shipped_combos`), and
    ``pattern`` (:data:`PATTERN`), whether any count term is not 0, and the count terms
    (:func:`load_counts`; ``None``: the shipped ones with the shipped pattern weights,
    else none).
    ``attack`` and ``defend`` go on with the move scores by the mover's and the
    opponent's class at the cell, times ``pattern_moves``, then the weight of the
    windows' score (:data:`MOVES_WINDOWS`, times ``pattern_moves``).

    >>> value = weights(5, size=15, lines=(0.0, 80.0, 145.0), edge=0.5)[0]
    >>> [float(value[5 + V_CELLS + cell]) for cell in (0, 16, 112)]  # A15, B14, H8
    [0.0, 80.0, 145.0]
    >>> [float(value[5 + V_CELLS + 225 + win]) for win in (0, 1, 2)]  # A15-E15, A15-A11, A15-E11
    [0.5, 0.5, 1.0]
    """
    rows, cols = np.divmod(np.arange(size * size), size)
    line = np.minimum(np.minimum(rows, cols), np.minimum(size - 1 - rows, size - 1 - cols))
    cells = np.asarray(lines, float)[np.minimum(line, len(lines) - 1)]
    along = line[geometry(size, k)[1]].max(axis=1) == 0  # every cell on the edge
    scale = np.where(along, edge, 1.0)
    if pattern_moves != 0.0 and pattern == 0.0:
        raise ValueError("gomoku weights: pattern_moves needs pattern on (its classes)")
    if counts is None:
        counts = shipped_counts() if pattern_weights is None else np.zeros((4, N_CLASSES))
    if pattern_weights is None:
        pattern_weights = shipped_combos()
    mover, other = (by_combo(part) for part in pattern_weights)
    terms = np.asarray(counts, float).ravel()
    value = np.array(
        [*window_values(k, window), tempo, threat, *fork, *cells, *scale, *mover, *other, pattern,
         float(np.any(terms != 0.0)), *terms]
    )  # fmt: skip
    attack = np.array([5.0**j for j in range(k + 1)])
    defend = np.array([0.0] + [4.0**j for j in range(1, k + 1)])
    attack[k - 1], defend[k - 1] = 1e9, 1e8  # complete a line; block one
    attack[k - 2], defend[k - 2] = (
        attack[k - 2] * 4,
        defend[k - 2] * 3,
    )  # make a four; block a three
    log_odds = pattern_moves * MOVES_WINDOWS
    attack = np.array([*attack, *(pattern_moves * by_combo(MOVES_MOVER)), log_odds])
    defend = np.array([*defend, *(pattern_moves * by_combo(MOVES_OTHER)), log_odds])
    return value, attack, defend


@njit(cache=True)
def pattern_at(g):  # type: ignore[no-untyped-def]
    """Where the classes' weights start in the evaluation's array (:func:`weights`); the
    pattern evaluation is on where ``value[pattern_at(g) + 2 * N_COMBOS]`` is not 0."""
    return g[G_K] + V_CELLS + g[G_CELLS] + g[G_WINDOWS]


@njit(cache=True)
def place(
    g, w, through, count, near, count_near, zobrist, value, board, cnt, sums, nearby, c, cell, p
):  # type: ignore[no-untyped-def]
    """Put a stone of player ``p`` on ``cell`` and update every count."""
    place_windows(
        g, w, through, count, near, count_near, zobrist, value, board, cnt, sums, nearby, c, cell, p
    )
    at = pattern_at(g)
    if value[at + 2 * N_COMBOS] != 0.0:
        pattern_move(g, value, board, c, sums, cell, p, True, at)


@njit(cache=True)
def remove(
    g, w, through, count, near, count_near, zobrist, value, board, cnt, sums, nearby, c, cell, p
):  # type: ignore[no-untyped-def]
    """Take the stone of player ``p`` off ``cell`` (the exact inverse of :func:`place`)."""
    remove_windows(
        g, w, through, count, near, count_near, zobrist, value, board, cnt, sums, nearby, c, cell, p
    )
    at = pattern_at(g)
    if value[at + 2 * N_COMBOS] != 0.0:
        pattern_move(g, value, board, c, sums, cell, p, False, at)


@njit(cache=True)
def place_windows(
    g, w, through, count, near, count_near, zobrist, value, board, cnt, sums, nearby, c, cell, p
):  # type: ignore[no-untyped-def]
    """:func:`place` without the pattern codes: the VCF search's, which reads only the
    windows' counts (its :func:`remove_windows` leaves the codes as they were)."""
    k = g[G_K]
    q = 1 - p
    board[cell] = p + 1
    c[C_STONES] += 1
    c[C_HASH] ^= zobrist[p, cell]
    sums[p] += value[k + V_CELLS + cell]
    scale = k + V_CELLS + g[G_CELLS]  # where the windows' weights start in value
    for i in range(count[cell]):
        win = through[cell, i]
        a = cnt[win, p]
        b = cnt[win, q]
        if cnt[win, 2 + p] == 0:  # p holds it: one stone more
            sums[p] += value[scale + win] * (value[a + 1] - value[a])
            if a + 1 == k - 1:
                c[C_FOURS + p] += 1
                c[C_THREES + p] -= 1
            elif a == k - 1:
                c[C_FOURS + p] -= 1
            elif a + 1 == k - 2:
                c[C_THREES + p] += 1
        if cnt[win, 2 + q] == 0:  # q held it: no more
            sums[q] -= value[scale + win] * value[b]
            if b == k - 1:
                c[C_FOURS + q] -= 1
            elif b == k - 2:
                c[C_THREES + q] -= 1
        cnt[win, p] = a + 1
        cnt[win, 2 + q] += 1
    flanks = 4 * k
    for i in range(through[cell, flanks + FLANKS]):  # exactly five: p's five there is six
        win = through[cell, flanks + i]
        if cnt[win, 2 + p] == 0:
            a = cnt[win, p]
            sums[p] -= value[scale + win] * value[a]
            if a == k - 1:
                c[C_FOURS + p] -= 1
            elif a == k - 2:
                c[C_THREES + p] -= 1
        cnt[win, 2 + p] += 1
    for i in range(count_near[cell]):
        nearby[near[cell, i]] += 1


@njit(cache=True)
def remove_windows(
    g, w, through, count, near, count_near, zobrist, value, board, cnt, sums, nearby, c, cell, p
):  # type: ignore[no-untyped-def]
    """The exact inverse of :func:`place_windows`."""
    k = g[G_K]
    q = 1 - p
    board[cell] = 0
    c[C_STONES] -= 1
    c[C_HASH] ^= zobrist[p, cell]
    sums[p] -= value[k + V_CELLS + cell]
    scale = k + V_CELLS + g[G_CELLS]
    for i in range(count[cell]):
        win = through[cell, i]
        a = cnt[win, p] - 1
        b = cnt[win, q]
        cnt[win, p] = a
        cnt[win, 2 + q] -= 1
        if cnt[win, 2 + p] == 0:
            sums[p] -= value[scale + win] * (value[a + 1] - value[a])
            if a + 1 == k - 1:
                c[C_FOURS + p] -= 1
                c[C_THREES + p] += 1
            elif a == k - 1:
                c[C_FOURS + p] += 1
            elif a + 1 == k - 2:
                c[C_THREES + p] -= 1
        if cnt[win, 2 + q] == 0:
            sums[q] += value[scale + win] * value[b]
            if b == k - 1:
                c[C_FOURS + q] += 1
            elif b == k - 2:
                c[C_THREES + q] += 1
    flanks = 4 * k
    for i in range(through[cell, flanks + FLANKS]):
        win = through[cell, flanks + i]
        cnt[win, 2 + p] -= 1
        if cnt[win, 2 + p] == 0:
            a = cnt[win, p]
            sums[p] += value[scale + win] * value[a]
            if a == k - 1:
                c[C_FOURS + p] += 1
            elif a == k - 2:
                c[C_THREES + p] += 1
    for i in range(count_near[cell]):
        nearby[near[cell, i]] -= 1


@njit(cache=True)
def pattern_weigh(g, value, c, sums, r, cell, at, sign):  # type: ignore[no-untyped-def]
    """Add (``sign`` 1) or take off (-1) the weights of player ``r``'s combination at
    ``cell``, and count its class in or out."""
    cells = g[G_CELLS]
    combo = g[g[G_COMBO] + c[C_KEYS + 4 * cells + r * cells + cell]]
    sums[S_PATTERN + 2 * r] += sign * value[at + combo]
    sums[S_PATTERN + 2 * r + 1] += sign * value[at + N_COMBOS + combo]
    c[C_KEYS + 6 * cells + r * N_CLASSES + g[g[G_KIND] + combo]] += 1 if sign > 0.0 else -1


@njit(cache=True)
def count_value(g, value, c, p, at):  # type: ignore[no-untyped-def]
    """The count terms of the mover ``p``'s raw value (:func:`load_counts`): for each class
    and side, a weight if any empty cell has it and one per cell up to
    :data:`COUNT_CAP`."""
    out = 0.0
    base = C_KEYS + 6 * g[G_CELLS]
    weights = at + 2 * N_COMBOS + 2
    for side in range(2):
        r = p if side == 0 else 1 - p
        for kind in range(1, N_CLASSES):
            n = c[base + r * N_CLASSES + kind]
            if n > 0:
                w = weights + 2 * side * N_CLASSES + kind
                out += value[w] + value[w + N_CLASSES] * min(n, COUNT_CAP)
    return out


@njit(cache=True)
def shapes(g, key):  # type: ignore[no-untyped-def]
    """The byte of both players' shapes for ``key`` (player 0's in the low four bits)."""
    return (g[g[G_SHAPE] + (key >> 3)] >> ((key & 7) * 8)) & 255


@njit(cache=True)
def pattern_move(g, value, board, c, sums, cell, p, placing, at):  # type: ignore[no-untyped-def]
    """Keep the pattern codes and sums as a stone of ``p`` goes on ``cell`` (``placing``;
    the board already holds it) or comes off (the board already without it): the keys of
    the cells within four steps along its lines change, and so, for the empty ones, their
    shapes along that line, their codes and their classes' weights in the sums. (An
    occupied cell's code is left stale: it is made afresh when its stone comes off.)"""
    cells = g[G_CELLS]
    codes = C_KEYS + 4 * cells
    if placing:  # no longer an empty cell
        for r in range(2):
            pattern_weigh(g, value, c, sums, r, cell, at, -1.0)
    bits = p + 1
    power = 1
    for d in range(4):
        row = g[G_NBR] + (cell * 4 + d) * 8
        for s in range(8):
            y = g[row + s]
            if y < 0:
                continue
            ki = C_KEYS + 4 * y + d
            shift = 2 * (7 - s)  # seen from y, cell lies on the opposite side
            old_key = c[ki]
            key = old_key | (bits << shift) if placing else old_key & ~(3 << shift)
            c[ki] = key
            if board[y] != 0:
                continue
            before, after = shapes(g, old_key), shapes(g, key)
            if before == after:
                continue
            for r in range(2):
                digit = (before >> (4 * r)) & 15
                shape = (after >> (4 * r)) & 15
                if shape != digit:
                    ci = codes + r * cells + y
                    pattern_weigh(g, value, c, sums, r, y, at, -1.0)
                    c[ci] += (shape - digit) * power
                    pattern_weigh(g, value, c, sums, r, y, at, 1.0)
        power *= 10
    if not placing:  # an empty cell again: its code afresh from its keys
        for r in range(2):
            code = 0
            power = 1
            for d in range(4):
                code += ((shapes(g, c[C_KEYS + 4 * cell + d]) >> (4 * r)) & 15) * power
                power *= 10
            c[codes + r * cells + cell] = code
            pattern_weigh(g, value, c, sums, r, cell, at, 1.0)


@njit(cache=True)
def four_cells(g, w, cnt, board, p, out, fours):  # type: ignore[no-untyped-def]
    """The distinct empty cells that complete a four of player ``p`` (into ``out``):
    ``fours`` is how many windows hold one (``c[C_FOURS + p]``, kept as stones come and
    go), so the scan ends at the last of them instead of reading every window."""
    k = g[G_K]
    n = 0
    for win in range(g[G_WINDOWS]):
        if fours <= 0:
            break
        if cnt[win, p] == k - 1 and cnt[win, 2 + p] == 0:
            fours -= 1
            for i in range(k):
                cell = w[win, i]
                if board[cell] == 0:
                    seen = False
                    for j in range(n):
                        if out[j] == cell:
                            seen = True
                    if not seen:
                        out[n] = cell
                        n += 1
    return n


@njit(cache=True)
def fours_through(g, w, through, count, cnt, board, p, cell, out):  # type: ignore[no-untyped-def]
    """:func:`four_cells` when every four of ``p`` runs through ``cell`` (its stone just
    made them, and ``p`` had none before): only the windows through it are read."""
    k = g[G_K]
    n = 0
    for i in range(count[cell]):
        win = through[cell, i]
        if cnt[win, p] == k - 1 and cnt[win, 2 + p] == 0:
            for t in range(k):
                y = w[win, t]
                if board[y] == 0:
                    n = add(out, n, y)
    return n


@njit(cache=True)
def makes_double(g, w, through, count, board, cnt, q, x):  # type: ignore[no-untyped-def]
    """Whether ``q`` playing the empty cell ``x`` gets two or more winning cells at once
    (an open four or a double four)."""
    k = g[G_K]
    # The completions of q's windows through x that would hold k-1 stones.
    first = -1
    for j in range(count[x]):
        other = through[x, j]
        if cnt[other, q] == k - 2 and cnt[other, 2 + q] == 0:
            y = -1
            for t in range(k):
                y = w[other, t]
                if y != x and board[y] == 0:
                    break
            # The window's two empty cells are x and y.
            if first < 0:
                first = y
            elif y != first:
                return True
    return False


@njit(cache=True)
def threat_cells(g, w, through, count, board, cnt, q):  # type: ignore[no-untyped-def]
    """How many empty cells would give ``q`` two or more winning cells at once (an
    open four or a double four): the threats the other side must answer. (A cell is
    counted once for each of q's (k-2)-windows it lies in.)"""
    k = g[G_K]
    found = 0
    for win in range(g[G_WINDOWS]):
        if cnt[win, q] != k - 2 or cnt[win, 2 + q] != 0:
            continue
        for i in range(k):
            x = w[win, i]
            if board[x] == 0 and makes_double(g, w, through, count, board, cnt, q, x):
                found += 1
    return found


@njit(cache=True)
def defence_cells(g, w, through, count, board, cnt, c, p, out):  # type: ignore[no-untyped-def]
    """The moves of ``p`` (to move, neither side with a four) that may answer the
    opponent's threat to make an open or double four, into ``out``; returns how many
    (0 when the opponent has no such threat: every move may then be played).

    Any other move loses: the opponent makes the open four, and ``p``, without a four of
    its own, cannot block both cells. A cell that stops a threat at ``x`` is ``x`` or
    lies in one of the opponent's (k-2)-windows through ``x`` (else those windows are
    unchanged); so the empty cells of those windows, with the cells where ``p`` makes a
    four (gaining the tempo), hold every move that does not lose at once.

    ``c`` holds how many windows of k-2 stones each side has alone (``C_THREES``): each
    scan ends at the last of them."""
    k = g[G_K]
    q = 1 - p
    n = 0
    left = c[C_THREES + q]
    for win in range(g[G_WINDOWS]):
        if left <= 0:
            break
        if cnt[win, q] != k - 2 or cnt[win, 2 + q] != 0:
            continue
        left -= 1
        for i in range(k):
            x = w[win, i]
            if board[x] != 0 or not makes_double(g, w, through, count, board, cnt, q, x):
                continue
            for j in range(count[x]):
                other = through[x, j]
                if cnt[other, q] == k - 2 and cnt[other, 2 + q] == 0:
                    for t in range(k):
                        y = w[other, t]
                        if board[y] == 0:
                            n = add(out, n, y)
    if n == 0:
        return 0
    left = c[C_THREES + p]
    for win in range(g[G_WINDOWS]):
        if left <= 0:
            break
        if cnt[win, p] == k - 2 and cnt[win, 2 + p] == 0:
            left -= 1
            for t in range(k):
                y = w[win, t]
                if board[y] == 0:
                    n = add(out, n, y)
    return n


@njit(cache=True)
def fork_cells(g, w, through, count, board, cnt, p):  # type: ignore[no-untyped-def]
    """How many empty cells of ``p``'s (k-2)-windows (where it makes a four) also lie in
    a window of its own with k-3 stones or more along another line (where it makes a
    three with the same stone): the cells of a four-three. (A cell is counted once for
    each of p's (k-2)-windows it lies in, as in :func:`threat_cells`.)"""
    k = g[G_K]
    found = 0
    for win in range(g[G_WINDOWS]):
        if cnt[win, p] != k - 2 or cnt[win, 2 + p] != 0:
            continue
        step = w[win, 1] - w[win, 0]  # the line's direction
        for i in range(k):
            x = w[win, i]
            if board[x] != 0:
                continue
            for j in range(count[x]):
                other = through[x, j]
                if (
                    cnt[other, p] >= k - 3
                    and cnt[other, 2 + p] == 0
                    and w[other, 1] - w[other, 0] != step
                ):
                    found += 1
                    break
    return found


@njit(cache=True)
def static(g, w, through, count, board, cnt, sums, c, p, value):  # type: ignore[no-untyped-def]
    """The mover's value: its windows (counted ``tempo`` times) against the other's,
    less ``threat`` for every cell where the other side makes an unstoppable four, and
    its four-three cells (:func:`fork_cells`) against the other's."""
    k = g[G_K]
    tempo, threat, fork, fork_other = value[k + 1], value[k + 2], value[k + 3], value[k + 4]
    q = 1 - p
    at = pattern_at(g)
    if value[at + 2 * N_COMBOS] != 0.0:  # the pattern evaluation
        raw = sums[S_PATTERN + 2 * p] + sums[S_PATTERN + 2 * q + 1]
        if value[at + 2 * N_COMBOS + 1] != 0.0:  # the count terms
            raw += count_value(g, value, c, p, at)
        return STATIC * raw / (abs(raw) + SOFT)
    raw = tempo * sums[p] - sums[q]
    if c[C_THREES + q] > 0:  # else no window to scan: the leaves' commonest case
        raw -= threat * threat_cells(g, w, through, count, board, cnt, q)
        if fork_other != 0.0:
            raw -= fork_other * fork_cells(g, w, through, count, board, cnt, q)
    if c[C_THREES + p] > 0 and fork != 0.0:
        raw += fork * fork_cells(g, w, through, count, board, cnt, p)
    return STATIC * raw / (abs(raw) + SOFT)


@njit(cache=True)
def cell_score(g, c, through, count, attack, defend, cnt, p, cell):  # type: ignore[no-untyped-def]
    """The move's score for player ``p``: what it builds and what it blocks (and, with
    :data:`PATTERN_MOVES`, what it makes by the cell's classes for either side)."""
    q = 1 - p
    s = 0.0
    at = g[G_K] + 1
    for i in range(count[cell]):
        win = through[cell, i]
        if cnt[win, 2 + p] == 0:
            s += attack[cnt[win, p]]
        elif cnt[win, 2 + q] == 0:
            s += defend[cnt[win, q]]
    if attack[at + N_COMBOS] != 0.0:  # a move's log-odds: of the windows' score, the classes
        codes = C_KEYS + 4 * g[G_CELLS] + cell
        s = attack[at + N_COMBOS] * math.log1p(s)
        s += attack[at + g[g[G_COMBO] + c[codes + p * g[G_CELLS]]]]
        s += defend[at + g[g[G_COMBO] + c[codes + q * g[G_CELLS]]]]
    return s


@njit(cache=True)
def score_moves(g, c, through, count, attack, defend, board, cnt, nearby, p, cells, scores):  # type: ignore[no-untyped-def]
    """The empty cells near stones, with their scores for player ``p``; returns how many."""
    n = 0
    for cell in range(g[G_CELLS]):
        if board[cell] == 0 and nearby[cell] > 0:
            cells[n] = cell
            scores[n] = cell_score(g, c, through, count, attack, defend, cnt, p, cell)
            n += 1
    return n


@njit(cache=True)
def sort_by_score(cells, scores, n, first):  # type: ignore[no-untyped-def]
    """Sort the first ``n`` cells by score, best first; ``first`` (if present) at the front."""
    for i in range(n):
        if cells[i] == first:
            scores[i] = 1e18
    for i in range(1, n):
        cell, s = cells[i], scores[i]
        j = i
        while j > 0 and scores[j - 1] < s:
            cells[j] = cells[j - 1]
            scores[j] = scores[j - 1]
            j -= 1
        cells[j] = cell
        scores[j] = s


@njit(cache=True)
def vcf(
    g,
    w,
    through,
    count,
    near,
    count_near,
    zobrist,
    value,
    board,
    cnt,
    sums,
    nearby,
    c,
    p,
    fours_left,
    buf,
    ply,
    stats,
):  # type: ignore[no-untyped-def]
    """The plies to a win of player ``p``, to move, by continuous fours (at most
    ``fours_left`` of them), or 0 when none is found; the first attack goes to ``buf[ply, 0]``.

    ``p`` has no four now and the opponent none either (callers check).
    """
    stats[NODES] += 1
    if stats[NODES] & CHECK_EVERY == 0 and (
        expired(stats, END, LAST, LONGEST) or stats[NODES] >= stats[NODE_CAP]
    ):
        stats[ABORTED] = 1
    if stats[ABORTED] or fours_left <= 0 or ply >= MAX_PLY - 2:
        return 0
    k = g[G_K]
    q = 1 - p
    # Candidate attacks: the empty cells of windows with k-2 stones of p and none of q
    # (``c[C_THREES + p]`` of them: the scan ends at the last). Every four the attack
    # makes runs through it (p had none): :func:`fours_through` reads only those windows.
    moves = buf[ply]
    n = 0
    threes = c[C_THREES + p]
    for win in range(g[G_WINDOWS]):
        if threes <= 0:
            break
        if cnt[win, p] == k - 2 and cnt[win, 2 + p] == 0:
            threes -= 1
            for i in range(k):
                cell = w[win, i]
                if board[cell] == 0:
                    seen = False
                    for j in range(n):
                        if moves[j] == cell:
                            seen = True
                    if not seen and n < moves.size:
                        moves[n] = cell
                        n += 1
    blocks = buf[ply + 1]
    for i in range(n):
        cell = moves[i]
        place_windows(
            g,
            w,
            through,
            count,
            near,
            count_near,
            zobrist,
            value,
            board,
            cnt,
            sums,
            nearby,
            c,
            cell,
            p,
        )
        won = 0
        m = fours_through(g, w, through, count, cnt, board, p, cell, blocks)
        if m >= 2:
            won = 3  # two winning cells: one block cannot stop both
        elif m == 1:
            block = blocks[0]
            place_windows(
                g,
                w,
                through,
                count,
                near,
                count_near,
                zobrist,
                value,
                board,
                cnt,
                sums,
                nearby,
                c,
                block,
                q,
            )
            if c[C_FOURS + q] == 0:  # else the block made a four p must answer
                won = vcf(
                    g, w, through, count, near, count_near, zobrist, value, board, cnt, sums,
                    nearby, c, p, fours_left - 1, buf, ply + 2, stats,
                )  # fmt: skip
                if won:
                    won += 2
            remove_windows(
                g,
                w,
                through,
                count,
                near,
                count_near,
                zobrist,
                value,
                board,
                cnt,
                sums,
                nearby,
                c,
                block,
                q,
            )
        remove_windows(
            g,
            w,
            through,
            count,
            near,
            count_near,
            zobrist,
            value,
            board,
            cnt,
            sums,
            nearby,
            c,
            cell,
            p,
        )
        if won:
            buf[ply, 0] = cell  # the winning attack, for the caller
            return won
        if stats[ABORTED]:
            return 0
    return 0


SEARCH_SIGNATURE = (
    "float64(int64[::1], int64[:, ::1], int64[:, ::1], int64[::1], int64[:, ::1], int64[::1],"
    " int64[:, ::1], float64[::1], float64[::1], float64[::1], int64[::1], int64[:, ::1],"
    " float64[::1], int64[::1], int64[::1], int64, int64, int64, float64, float64,"
    " int64[::1], float64[::1], int64[::1], int64[::1], int64[:, ::1], float64[:, ::1],"
    " int64[::1])"
)
"""Declared: a recursive function whose types numba infers does not load from its cache."""


@njit(SEARCH_SIGNATURE, cache=True)
def search(
    g,
    w,
    through,
    count,
    near,
    count_near,
    zobrist,
    value,
    attack,
    defend,
    board,
    cnt,
    sums,
    nearby,
    c,
    p,
    ply,
    depth,
    alpha,
    beta,
    keys,
    values,
    meta,
    busy,
    buf,
    sbuf,
    stats,
):  # type: ignore[no-untyped-def]
    """Negamax value for player ``p`` to move, ``ply`` plies below the root.

    Threads share a node's later moves (``stats[SPLIT]``, Lazy SMP's threads only): a
    node with :data:`SPLIT_DEPTH` plies or more left marks itself in ``busy`` (the
    positions threads are searching now), and leaves any move but the first whose
    position another thread has marked for after the rest -- Weill's ABDADA (1996) in
    the simplified form of Kerrigan's "Simplified ABDADA". Two threads at one depth then
    split a node's moves instead of searching the same ones; one thread never marks."""
    stats[NODES] += 1
    if stats[NODES] & CHECK_EVERY == 0 and (
        expired(stats, END, LAST, LONGEST) or stats[NODES] >= stats[NODE_CAP]
    ):
        stats[ABORTED] = 1
    if stats[ABORTED]:
        return 0.0
    q = 1 - p
    if c[C_FOURS + p] > 0:
        return WIN - (ply + 1)
    if c[C_STONES] >= g[G_CELLS]:
        return 0.0
    moves = buf[ply]
    forced = four_cells(g, w, cnt, board, q, moves, c[C_FOURS + q])
    if forced >= 2:
        return -(WIN - (ply + 2))
    if depth <= 0 or ply >= MAX_PLY - 4:
        stats[HORIZON] = 1
        if forced == 0 and stats[LEAF_VCF] > 0:
            plies = vcf(
                g, w, through, count, near, count_near, zobrist, value, board, cnt, sums,
                nearby, c, p, stats[LEAF_VCF], buf, ply, stats,
            )  # fmt: skip
            if plies:
                return WIN - (ply + plies)
        return static(g, w, through, count, board, cnt, sums, c, p, value)
    key = c[C_HASH] ^ p
    mask = keys.size - 1
    slot = key & mask
    first = -1
    # The entry's words, each read once; its key checked by XOR (see store_entry).
    m = meta[slot]
    entry_value = values[slot]
    if entry_key(keys[slot], entry_value, m) == key and m != 0:
        first = (m >> 10) - 1
        if m & 255 >= depth:
            stats[HORIZON] = 1
            v = entry_value
            if v >= PROVEN:
                v -= ply
            elif v <= -PROVEN:
                v += ply
            bound = (m >> 8) & 3
            if bound == EXACT:
                return v
            if bound == LOWER and v > alpha:
                alpha = v
            elif bound == UPPER and v < beta:
                beta = v
            if alpha >= beta:
                return v
    pruned = False
    answers = 0
    if forced == 0 and g[G_ANSWER] != 0 and c[C_THREES + q] > 0:
        answers = defence_cells(g, w, through, count, board, cnt, c, p, moves)
    if (
        g[G_NULL] > 0
        and forced == 0
        and answers == 0
        and ply > 0
        and depth >= NULL_DEPTH
        and stats[NULLED] != ply
        and beta < PROVEN
        and static(g, w, through, count, board, cnt, sums, c, p, value) >= beta
    ):
        saved = stats[NULLED]
        stats[NULLED] = ply + 1  # the opponent's node after the pass: no pass back
        v = -search(
            g, w, through, count, near, count_near, zobrist, value, attack, defend, board,
            cnt, sums, nearby, c, q, ply + 1, depth - 1 - g[G_NULL], -beta,
            -beta + NULL_WINDOW, keys, values, meta, busy, buf, sbuf, stats,
        )  # fmt: skip
        stats[NULLED] = saved
        if stats[ABORTED]:
            return 0.0
        if v >= beta:
            return beta if v >= PROVEN else v  # no proof: the pass was not a move
    if forced == 1:
        n = 1
        child_depth = depth  # a forced block: no reduction
    elif answers > 0:  # the opponent threatens an open four: only the answers, all of them
        n = answers
        for j in range(n):
            sbuf[ply, j] = cell_score(g, c, through, count, attack, defend, cnt, p, moves[j])
        sort_by_score(moves, sbuf[ply], n, first)
        child_depth = depth - 1
    else:
        n = score_moves(
            g, c, through, count, attack, defend, board, cnt, nearby, p, moves, sbuf[ply]
        )
        sort_by_score(moves, sbuf[ply], n, first)
        pruned = n > g[G_BEAM]
        n = min(n, g[G_BEAM])
        child_depth = depth - 1
    alpha_in = alpha
    best = -INF
    best_move = -1
    split = stats[SPLIT] != 0 and depth >= SPLIT_DEPTH and n > 1
    share = split and child_depth >= SPLIT_DEPTH
    mark = key | BUSY_MARK
    bmask = busy.size - 1
    if split:
        busy[key & bmask] = mark
    deferred = 0  # moves left for the second pass, kept in moves[] (already read)
    i = 0
    searched = 0
    late = g[G_LMR]
    # Late moves a ply shallower: not a forced block nor an answer to a three (each is the
    # only defence, or one of the few), and, below, never a move that makes a four.
    reduce = late > 0 and forced == 0 and answers == 0 and depth >= LMR_DEPTH
    fours = c[C_FOURS + p]
    while True:
        if i < n:
            cell = moves[i]
            i += 1
        elif i - n < deferred:
            cell = moves[i - n]
            i += 1
        else:
            break
        if share and searched > 0 and i <= n:
            theirs = (key ^ zobrist[p, cell] ^ 1) | BUSY_MARK  # the child's key: q to move
            if busy[theirs & bmask] == theirs:
                moves[deferred] = cell
                deferred += 1
                stats[DEFERRED] += 1
                continue
        searched += 1
        place(
            g,
            w,
            through,
            count,
            near,
            count_near,
            zobrist,
            value,
            board,
            cnt,
            sums,
            nearby,
            c,
            cell,
            p,
        )
        # PVS: after the first move a null window above alpha first (with LMR a ply
        # shallower too), then the full depth, then the full window, each only when the
        # one before beat alpha.
        d, low = child_depth, -beta
        if late > 0 and searched > 1:
            low = -alpha - NULL_WINDOW
            if reduce and searched >= late and c[C_FOURS + p] == fours:
                d -= 1
        while True:
            v = -search(
                g, w, through, count, near, count_near, zobrist, value, attack, defend, board,
                cnt, sums, nearby, c, q, ply + 1, d, low, -alpha, keys, values, meta, busy, buf,
                sbuf, stats,
            )  # fmt: skip
            if stats[ABORTED] or v <= alpha:
                break
            if d < child_depth:
                d = child_depth
            elif low != -beta and v < beta:
                low = -beta
            else:
                break
        remove(
            g,
            w,
            through,
            count,
            near,
            count_near,
            zobrist,
            value,
            board,
            cnt,
            sums,
            nearby,
            c,
            cell,
            p,
        )
        if stats[ABORTED]:
            if split and busy[key & bmask] == mark:
                busy[key & bmask] = 0
            return 0.0
        if v > best:
            best, best_move = v, cell
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    if split and busy[key & bmask] == mark:
        busy[key & bmask] = 0
    if pruned and best <= -PROVEN:
        # Every move searched loses, but not every move was searched: no proof.
        best = -LOST_SOON
    bound = UPPER if best <= alpha_in else LOWER if best >= beta else EXACT
    stored = best + ply if best >= PROVEN else best - ply if best <= -PROVEN else best
    data = min(depth, 255) | (bound << 8) | ((best_move + 1) << 10)
    store_entry(keys, values, meta, slot, key, stored, data)
    return best


@njit(cache=True, nogil=True)  # other threads (a web server's event loop) run meanwhile
def search_root(
    g,
    w,
    through,
    count,
    near,
    count_near,
    zobrist,
    value,
    attack,
    defend,
    board,
    cnt,
    sums,
    nearby,
    c,
    p,
    depth,
    first,
    keys,
    values,
    meta,
    busy,
    buf,
    sbuf,
    stats,
    out,
    allow,
):  # type: ignore[no-untyped-def]
    """Search the root's candidate moves to ``depth`` (``first`` first); rows
    ``(cell, value, bound)`` into ``out``; returns how many were searched completely.

    Only the cells where ``allow`` is not 0 are searched (the moves that refute the
    opponent's threats: :meth:`GomokuEngine.defend`), unless none of them is a candidate."""
    q = 1 - p
    moves = out[:, 0]
    cells = buf[0]
    forced = four_cells(g, w, cnt, board, q, cells, c[C_FOURS + q])
    if forced >= 1:
        n = forced
        sort_by_score(cells, sbuf[0], 0, first)  # nothing to sort: blocks are all that matter
    else:
        n = score_moves(g, c, through, count, attack, defend, board, cnt, nearby, p, cells, sbuf[0])
        if n == 0:  # an empty board: the centre
            size = g[G_SIZE]
            cells[0] = (size // 2) * size + size // 2
            n = 1
        kept = 0
        for i in range(n):
            if allow[cells[i]] != 0:
                cells[kept] = cells[i]
                sbuf[0, kept] = sbuf[0, i]
                kept += 1
        if kept > 0:
            n = kept
        sort_by_score(cells, sbuf[0], n, first)
    order = cells[:n].copy()
    alpha = -INF
    best = -INF
    for i in range(n):
        cell = order[i]
        place(
            g,
            w,
            through,
            count,
            near,
            count_near,
            zobrist,
            value,
            board,
            cnt,
            sums,
            nearby,
            c,
            cell,
            p,
        )
        v = -search(
            g, w, through, count, near, count_near, zobrist, value, attack, defend, board, cnt,
            sums, nearby, c, q, 1, depth - 1, -INF, -alpha, keys, values, meta, busy, buf, sbuf,
            stats,
        )  # fmt: skip
        remove(
            g,
            w,
            through,
            count,
            near,
            count_near,
            zobrist,
            value,
            board,
            cnt,
            sums,
            nearby,
            c,
            cell,
            p,
        )
        if stats[ABORTED]:
            return i
        moves[i] = cell
        out[i, 1] = v
        out[i, 2] = EXACT if v > alpha or i == 0 else UPPER
        if v > best:
            best = v
            if v > alpha:
                alpha = v
    return n


class GomokuSearch(RootSearch):
    """The engine's arrays for one board, one root at a time (the driver's Deepening)."""

    SCRATCH = ("board", "cnt", "sums", "nearby", "c", "buf", "sbuf", "stats", "out")

    def __init__(self, game: Game, tempo: float = TEMPO, threat: float = THREAT) -> None:
        size, k = game.rows, game.k  # type: ignore[attr-defined]
        self.size, self.k = size, k
        self.exact: bool = game.exact  # type: ignore[attr-defined]
        self.geo = geometry(size, k, game.exact)  # type: ignore[attr-defined]
        self.value, self.attack, self.defend = weights(k, tempo, threat, size=size)
        cells = size * size
        rng = np.random.default_rng(20261123)
        self.zobrist = rng.integers(1, 1 << 62, size=(2, cells), dtype=np.int64)
        self.board = np.zeros(cells, np.int64)
        self.cnt = np.zeros((self.geo[1].shape[0], 4), np.int64)
        self.sums = np.zeros(S_PATTERN + 4, float)
        self.nearby = np.zeros(cells, np.int64)
        self.c = np.zeros(COUNTERS + 6 * cells + 2 * N_CLASSES, np.int64)
        self.keys = np.zeros(1 << TABLE_BITS, np.int64)
        self.values = np.zeros(1 << TABLE_BITS, float)
        self.meta = np.zeros(1 << TABLE_BITS, np.int64)
        self.busy = np.zeros(1 << BUSY_BITS, np.int64)
        """The positions the threads are searching now (shared by the helpers' copies)."""
        self.split = False
        """Threads that search together share a node's moves (ABDADA, :func:`search`):
        off by default (plain Lazy SMP); ``scripts/smp_probe.py`` turns it on."""
        self.buf = np.zeros((MAX_PLY + 2, cells), np.int64)
        self.sbuf = np.zeros((MAX_PLY + 2, cells), float)
        self.stats = np.zeros(STATS, np.int64)
        self.longest = 0
        self.out = np.zeros((cells, 3), float)
        self.allow = np.ones(cells, np.int64)
        """The root moves the search may play (not 0; shared by the helpers' copies): all,
        or those that refute the opponent's threats (:meth:`GomokuEngine.defend`)."""
        self.player = 0
        self.first = -1
        self.nodes = 0
        self.leaf_vcf = LEAF_PLIES
        self.budget: int | None = None
        """Measurements: the most nodes each thread searches in a move (None: no budget)."""
        self.threats: ThreatSearch | None = None
        """A helper thread's threat search (VCF, then VCT), run at the root before it
        deepens: :meth:`look_for_threats`."""
        self.threat_root: tuple[State, float, GomokuSearch] | None = None
        """This move's root, the seconds the threat search may take, and the main search
        (stopped when a win is proven)."""
        self.threat_found: Found | None = None

    def varied(self, beam: int, leaf_plies: int) -> GomokuSearch:
        """A helper (:meth:`~arena.search.alphabeta.engines.driver.RootSearch.helper`)
        that searches ``beam`` moves a node and ``leaf_plies`` fours at the horizon: its own
        geometry row (the beam is ``g[G_BEAM]``), the same table; this search unchanged."""
        twin = self.helper()
        g = self.geo[0].copy()
        g[G_BEAM] = beam
        twin.geo = (g, *self.geo[1:])
        twin.leaf_vcf = leaf_plies
        return twin  # type: ignore[return-value]

    def arrays(self) -> tuple[np.ndarray, ...]:
        g, w, through, count, near, count_near = self.geo
        return (
            g, w, through, count, near, count_near, self.zobrist, self.value, self.board,
            self.cnt, self.sums, self.nearby, self.c,
        )  # fmt: skip

    def set_root(self, state: State) -> None:
        """Load ``state``'s stones (counts rebuilt from an empty board)."""
        self.board[:] = 0
        self.cnt[:] = 0
        self.sums[:] = 0.0
        self.nearby[:] = 0
        self.c[:] = 0
        self.empty_patterns()
        arrays = self.arrays()
        for cell in range(self.size * self.size):
            owner = state.stone(cell)  # type: ignore[attr-defined]
            if owner is not None:
                place(*arrays, cell, owner)
        self.player = state.to_move
        self.first = -1
        self.nodes = 0
        self.halted = False
        self.longest = 0
        if self.threats is not None:
            self.threats.halted = False

    def empty_patterns(self) -> None:
        """The pattern codes and sums of the empty board (the edges in the keys)."""
        g, cells = self.geo[0], self.size * self.size
        at = int(pattern_at(g))
        if self.value[at + 2 * N_COMBOS] == 0.0:
            return
        shape, combo = _pattern_tables(self.exact)
        board = np.zeros(cells, np.int64)
        keys = patterns.keys(board, g[g[G_NBR] : g[G_SHAPE]].reshape(cells, 4, 8))
        self.c[C_KEYS : C_KEYS + 4 * cells] = keys.ravel()
        for r in (0, 1):
            code = (shape[r][keys].astype(np.int64) * np.array([1, 10, 100, 1000])).sum(axis=1)
            self.c[C_KEYS + (4 + r) * cells : C_KEYS + (5 + r) * cells] = code
            combos = at + combo[code]
            self.sums[S_PATTERN + 2 * r] = self.value[combos].sum()
            self.sums[S_PATTERN + 2 * r + 1] = self.value[combos + N_COMBOS].sum()
            kinds = C_KEYS + 6 * cells + r * N_CLASSES
            self.c[kinds : kinds + N_CLASSES] = np.bincount(
                patterns.combo_classes()[combo[code]], minlength=N_CLASSES
            )

    def reset(self) -> None:
        self.keys[:] = 0
        self.values[:] = 0.0
        self.meta[:] = 0
        self.busy[:] = 0

    def win_now(self) -> int | None:
        """A cell that completes the mover's line, if any."""
        g, w = self.geo[0], self.geo[1]
        if self.c[C_FOURS + self.player] == 0:
            return None
        n = four_cells(
            g, w, self.cnt, self.board, self.player, self.buf[0], self.c[C_FOURS + self.player]
        )
        return int(self.buf[0, 0]) if n else None

    def vcf(self, fours: int, end_ns: int) -> tuple[int, int] | None:
        """``(first attack, plies to the win)`` of a win by continuous fours for the
        mover, if one is found."""
        p = self.player
        if self.c[C_FOURS + 1 - p] > 0 or self.c[C_FOURS + p] > 0:
            return None
        self.stats[:] = (0, end_ns, 0, 0, 0, now_ns(), self.longest, NO_CAP, 0, 0, 0)
        plies = vcf(*self.arrays(), p, fours, self.buf, 0, self.stats)
        self.nodes += int(self.stats[NODES])
        self.longest = int(self.stats[LONGEST])
        return (int(self.buf[0, 0]), int(plies)) if plies else None

    def look_for_threats(self) -> bool:
        """The threat thread's first work of a move: a proven win by threats for the side
        to move (stops the main search: the engine plays it), or False."""
        assert self.threats is not None and self.threat_root is not None
        state, seconds, main = self.threat_root
        self.threat_root = None
        if self.halted:
            return False
        found = self.threats.search(state, THREAT_THREES, seconds)
        self.nodes += self.threats.nodes
        if found is None or self.halted:
            return False
        self.threat_found = found
        main.stop()
        return True

    def stop(self) -> None:
        super().stop()
        if self.threats is not None:
            self.threats.stop()

    def iterate(self, depth: int, end_ns: int) -> Iteration | None:
        if self.threat_root is not None and self.look_for_threats():
            return None
        g, w, through, count, near, count_near = self.geo
        cap = NO_CAP if self.budget is None else self.budget - self.nodes
        self.stats[:] = (
            0, end_ns, 0, 0, self.leaf_vcf, now_ns(), self.longest, cap, int(self.split), 0, 0
        )  # fmt: skip
        if self.halted:  # checked after the write: a stop() racing it still wins
            self.best_partial = None
            return None
        n = search_root(
            g, w, through, count, near, count_near, self.zobrist, self.value, self.attack,
            self.defend, self.board, self.cnt, self.sums, self.nearby, self.c, self.player,
            depth, self.first, self.keys, self.values, self.meta, self.busy, self.buf,
            self.sbuf, self.stats, self.out, self.allow,
        )  # fmt: skip
        self.nodes += int(self.stats[NODES])
        self.longest = int(self.stats[LONGEST])
        rows = self.root_rows(self.out, n, bool(self.stats[ABORTED]))
        if not rows:
            return None
        self.first = rows[0][0]
        return Iteration(
            value=rows[0][1],
            move=rows[0][0],
            rows=[(cell, v, BOUND_TEXT[b]) for cell, v, b in rows],
            pv=[rows[0][0]],
            horizon=bool(self.stats[HORIZON]),
        )


class GomokuEngine:
    """``ids``'s engine for one Gomoku board (freestyle or exactly five)."""

    def __init__(
        self, game: Game, tempo: float = TEMPO, threat: float = THREAT, threads: int = 1
    ) -> None:
        self.game = game
        self.search = GomokuSearch(game, tempo, threat)
        self.search.split = False  # ABDADA off by default, as Othello's (docs/speed.md)
        self.smp = (
            LazySMP(
                [self.search.varied(HELPER_BEAM, HELPER_LEAF_PLIES) for _ in range(threads - 1)]
            )
            if threads > 1
            else None
        )
        """Lazy SMP's helpers (``ids:threads=N``): the first searches the root for a win
        by threats (VCF, then VCT: :mod:`.threats`) for up to
        :data:`THREAT_SHARE` of the move while the main thread deepens, then deepens
        beside it; the others deepen."""
        if self.smp is not None:
            self.smp.helpers[0].threats = ThreatSearch(game)
        self.root_threes = ROOT_THREES
        self.root_threats = ThreatSearch(game) if threads == 1 else None
        """One thread: the root's threat search in place of its VCF when
        :attr:`root_threes` (:data:`ROOT_THREES`) is above 0."""
        self.defend_threes = DEFEND_THREES
        """Threes of the opponent's threat search before each move (-1: none; :meth:`defend`)."""
        self.defence = ThreatSearch(game)
        self.defended: tuple[int, int] | None = None
        """The last move's look at the opponent's threats, when it found one: (the root
        moves kept, the candidates)."""
        # Load the compiled code and touch the tables now, off the clock.
        state = game.initial_state()
        for move in (state.legal_moves()[len(state.legal_moves()) // 2], 0):
            state = state.play(move)
        self.search.set_root(state)
        self.search.iterate(2, NEVER)
        self.search.vcf(2, NEVER)
        self.search.reset()

    def stop(self) -> None:
        """End the search under way soon (from another thread, or from a listener)."""
        self.search.stop()

    def choose(
        self,
        state: State,
        seconds: float | None,
        maxdepth: int,
        agent: Agent,
        nodes: int | None = None,
    ) -> tuple[int, SearchInfo]:
        """The move and its report; ``nodes``: at most about that many nodes (the search
        looks at its count every :data:`CHECK_EVERY` + 1), on one thread and without the
        root's timed searches of threats (the VCF at the horizon stays), so the same
        position gives the same move on any machine."""
        with quiet_gc(), node_budget(self.search, nodes) as budgeted:
            return self._choose(state, seconds, maxdepth, agent, budgeted)

    def _choose(
        self,
        state: State,
        seconds: float | None,
        maxdepth: int,
        agent: Agent,
        budgeted: bool = False,
    ) -> tuple[int, SearchInfo]:
        start = time.perf_counter()
        search = self.search
        if self.smp is not None:  # a helper still ending its last move must not stop this one
            self.smp.ready()
        search.set_root(state)
        game = state.game
        win = search.win_now()
        if win is not None:
            return win, proven(state, win, WIN - 1, search.nodes, start)
        smp = None if budgeted else self.smp
        if seconds is not None and smp is None and not budgeted:
            budget = min(VCF_SHARE * seconds, VCF_MAX_SECONDS)
            if self.root_threats is not None and self.root_threes > 0:
                threat = self.root_threats.search(state, self.root_threes, budget)
                if threat is not None:
                    return threat.move, threat_proof(state, threat, threat.nodes, start)
            else:
                found = search.vcf(ROOT_VCF, now_ns() + int(budget * 1e9))
                if found is not None:
                    return found[0], proven(state, found[0], WIN - found[1], search.nodes, start)
        search.allow[:] = 1
        self.defended = None
        if seconds is not None and self.defend_threes >= 0 and not budgeted:
            self.defend(state, DEFEND_SHARE * seconds)
        legal = state.legal_moves()
        size = game.rows  # type: ignore[attr-defined]
        centre = (size // 2) * size + size // 2
        fallback = centre if centre in legal else legal[0]
        if smp is None:
            return deepen(state, search, seconds, maxdepth, agent, fallback, start=start)
        helpers = smp.ready()
        for helper in helpers:
            helper.set_root(state)  # type: ignore[attr-defined]
        threat = helpers[0]
        threat.threat_found = None
        share = THREAT_SHARE * seconds if seconds is not None else None
        threat.threat_root = (state, share, search)
        move, info = deepen(state, search, seconds, maxdepth, agent, fallback, start=start, smp=smp)
        found = threat.threat_found
        if found is not None:  # a proven win by threats: played (the search was stopped)
            return found.move, threat_proof(state, found, info.nodes, start)
        return move, info

    def defend(self, state: State, seconds: float) -> list[int] | None:
        """Restrict the root to the moves that refute the opponent's win by threats, if it
        has one: the cells near stones after which its threat search (its VCF, then its
        VCT: :attr:`defend_threes`) finds no win -- a block in the threat's cells, a four
        of our own that gains the tempo. Returns the moves kept (None: no restriction:
        no threat found, or every move loses to it, or the look ran out of time first).

        Within ``seconds`` in all; a move not looked at for lack of time is kept."""
        search = self.search
        p = state.to_move
        if self.defend_threes < 0:
            return None
        if search.c[C_FOURS + 1 - p] > 0 or search.c[C_FOURS + p] > 0:
            return None  # a five to block (the root's forced move) or to complete
        end = time.perf_counter() + seconds
        threats = self.defence
        threes = -1
        for t in sorted({0, self.defend_threes}):  # the VCF first, then the VCT
            left = end - time.perf_counter()
            if left <= 0:
                return None
            if threats.search(state, t, left, attacker=1 - p) is not None:
                threes = t
                break
        if threes < 0:
            return None
        # A move outside the proof's cells leaves the proof standing unless it makes a
        # four of ours (against a VCT: or a three, whose four outpaces a three).
        candidates = sorted(
            set(threats.proof_cells()) | set(threats.counter_cells(state, p, threes > 0))
        )
        kept = []
        for y in candidates:
            left = end - time.perf_counter()
            if left <= 0 or threats.search(state.play(y), threes, left) is None:
                kept.append(y)  # refutes it (or not looked at: kept)
        if not kept:
            return None
        self.defended = (len(kept), len(candidates))
        search.allow[:] = 0
        search.allow[kept] = 1
        return kept


def threat_proof(state: State, found: Found, nodes: int, start: float) -> SearchInfo:
    """The report of a win the threat search proved: a five at once (1 ply) is reported
    as a VCF, as the engine's own root search reports it."""
    plies = 1 if found.kind == "five" else THREAT_PLIES
    method = "vct" if found.kind == "vct" else "vcf"
    return proven(state, found.move, WIN - plies, nodes, start, method)


def proven(
    state: State, move: int, value: float, nodes: int, start: float, method: str = "vcf"
) -> SearchInfo:
    """The report of a move found by a proof (a win at once, by continuous fours, or by
    threats: ``method``)."""
    info = SearchInfo(
        seconds=time.perf_counter() - start,
        depth=1,
        nodes=nodes,
        value=value,
        engine="compiled",
        method=method,
        units=PROVEN_NOTE,
    )
    info.root = value_rows(state, [(move, value, "=")], 1)
    return info


def make_engine(game: Game, threads: int = 1) -> GomokuEngine:
    """The engine for a Gomoku board, freestyle or exactly five (``overline=nowin``),
    searching with ``threads`` threads."""
    return GomokuEngine(game, threads=threads)
