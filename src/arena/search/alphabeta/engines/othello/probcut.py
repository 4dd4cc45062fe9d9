"""Multi-ProbCut's table for the Othello engine: which shallow searches predict a deep
one, and how closely, at each depth and number of empty cells.

ProbCut (Buro, "ProbCut: An Effective Selective Extension of the Alpha-Beta
Algorithm", 1995) lets a search of ``d - gap`` plies stand for one of ``d``: the deep
value is about ``slope * shallow + offset``, give or take ``sigma``, so where the
shallow value lies more than a few sigma beyond the window the node returns the bound
without its deep search. Multi-ProbCut (Buro, 1997) fits those numbers per game stage
and per depth, and may try more than one shallow depth, cheapest first. Here:

* :class:`Try` is one shallow search: from ``first`` plies on, ``gap`` plies shallower;
  the prediction's ``slope`` and ``offset``; its spread, ``sigma`` in the midgame,
  shrinking by a share for each empty cell more and each ply deeper (the depth no deeper
  than the fit's ``last``, at least :data:`MIN_SIGMA`).
* :data:`FITTED` is what 8x8 plays: fitted by ``scripts/fit_othello_probcut.py`` to
  searches of positions of the engine's own games, ProbCut off (the docstring of
  :data:`FITTED` says which).
* :data:`CLASSIC` is the rule before it, one shallow search of ``d - 4`` from depth 6
  with one spread (1,600 hundredths, four discs) at every stage; smaller boards keep it
  (the fit is of 8x8 positions).

:func:`cut_table` writes the tries out as the array the compiled search reads
(:data:`.search.CUT_DEPTHS` depths by 65 counts of empty cells); the margin in
sigmas is the engine's ``probcut`` (``stats[MPC_MARGIN]``).

Tests: tests/search/test_othello_probcut.py
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np

from arena.search.alphabeta.engines.othello import search


class Try(NamedTuple):
    """One shallow search that may cut a node of ``first`` plies or more (see the module).

    Its spread is ``sigma`` at :data:`AT_EMPTIES` empty cells and depth :data:`AT_DEPTH`,
    times ``per_empty`` for each empty cell more and ``per_depth`` for each ply deeper
    (a spread shrinks by a share, not by an amount: it stays positive wherever it is
    carried).

    >>> t = Try(gap=4, first=6, slope=1.04, offset=0, sigma=1600)
    >>> t.spread(30, 8), t.spread(50, 14)
    (1600, 1600)
    >>> Try(4, 6, 1.0, 0, 1000, per_empty=0.98, per_depth=0.9).spread(30, 9)
    900
    """

    gap: int
    first: int
    slope: float
    offset: int
    sigma: float
    per_empty: float = 1.0
    per_depth: float = 1.0
    last: int = 0
    """The deepest depth fitted: deeper nodes take its spread (a fit must not be carried
    beyond its data; 0 for a spread that does not depend on the depth)."""

    def spread(self, empties: int, depth: int) -> int:
        """The prediction's standard deviation at a node (hundredths)."""
        if self.last:
            depth = min(depth, self.last)
        value = (
            self.sigma
            * self.per_empty ** (empties - AT_EMPTIES)
            * self.per_depth ** (depth - AT_DEPTH)
        )
        return max(MIN_SIGMA, round(value))


AT_EMPTIES, AT_DEPTH = 30, 8
"""Where a try's ``sigma`` is given: a midgame node of depth 8."""
MIN_SIGMA = 200
"""The least spread a try may give (half a disc): a spread fitted over the stages must not
promise, where it is carried, more than any stage showed."""

CLASSIC = (Try(gap=4, first=6, slope=1.04, offset=0, sigma=1600),)
"""The single ProbCut of the engine before Multi-ProbCut (Buro's 1995 form)."""

FITTED = (
    Try(
        gap=2,
        first=3,
        slope=1.008,
        offset=24,
        sigma=960,
        per_empty=0.981,
        per_depth=0.8953,
        last=12,
    ),
    Try(
        gap=4,
        first=6,
        slope=1.024,
        offset=145,
        sigma=1526,
        per_empty=0.9791,
        per_depth=0.8858,
        last=12,
    ),
)
"""8x8's tries: ``scripts/fit_othello_probcut.py --positions 800 --depth 12 --seed 5
--gaps 2 4`` (the gap 2 with ``--first 3``; 2026-12-02, the evaluation of the shipped
pattern file). A node of 3 to 5 plies tries a search 2 shallower; from 6 plies, 4
shallower first, then 2. The gap 4's spread is 1,526 hundredths (3.8 discs) at depth 8
with 30 empty cells, 2,402 at depth 6 with 20 and 761 at depth 12 with 40: the single
spread of :data:`CLASSIC` (1,600) cut too late in the opening and deep nodes, and too
soon near the end."""

MODELS = {"fitted": FITTED, "classic": CLASSIC}
"""The tables by name, for measurements (``scripts/othello_variant.py``)."""


def cut_table(size: int, model: str = "fitted") -> np.ndarray:
    """The compiled search's cut table for a ``size`` board (:func:`table_of` of the
    ``model``'s tries; smaller boards: :data:`CLASSIC`), made once and shared by every
    engine, so read-only.

    >>> t = cut_table(6)
    >>> [int(x) for x in t[30, 8, 0]]   # a smaller board: the classic rule
    [4, 1065, 0, 1600]
    >>> int(t[30, 5, 0, 0])             # below its first depth: no cut
    -1
    """
    return _made(MODELS[model] if size == 8 else CLASSIC)


@lru_cache(maxsize=8)
def _made(tries: tuple[Try, ...]) -> np.ndarray:
    out = table_of(tries)
    out.setflags(write=False)
    return out


def table_of(tries: tuple[Try, ...]) -> np.ndarray:
    """``[empties, depth, try]`` rows of (shallow depth or -1, slope in ``SLOPE_ONE``-ths,
    offset, sigma): at each node the tries whose first depth it has reached, the cheapest
    (widest gap) first, at most :data:`.search.TRIES`."""
    out = search.no_cuts()
    ordered = sorted(tries, key=lambda t: -t.gap)
    for depth in range(out.shape[1]):
        usable = [t for t in ordered if depth >= max(t.first, t.gap)][: search.TRIES]
        for k, t in enumerate(usable):
            for empties in range(out.shape[0]):
                out[empties, depth, k] = (
                    depth - t.gap,
                    round(t.slope * search.SLOPE_ONE),
                    t.offset,
                    t.spread(empties, depth),
                )
    return out
