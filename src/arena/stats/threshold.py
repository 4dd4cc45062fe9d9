"""Has an agent's score reached a target? A sequential test for a grading rubric.

A rubric says "score at least 0.9 against greedy". The *score* of a game is 1 for a win,
1/2 for a draw and 0 for a loss (a forfeit is a loss); the score of a series is its mean.
The question is whether the agent's true expected score ``s`` is at least the target
``P``. No finite number of games can tell ``s = P`` from ``s = P - 0.001``, so the test
has an indifference zone ``[P - δ, P + δ]``: it is Wald's SPRT of H0 ``s = P - δ`` ("not
met") against H1 ``s = P + δ`` ("met").

Games come in pairs (one opening, both colours), and the two games of a pair are not
independent: a deterministic agent that wins an opening with one colour often wins it with
the other too. So the unit of the test is the *pair*, whose score is one of 0, 1/4, 1/2,
3/4, 1 (the pentanomial model, as fishtest tests engines on paired openings): the pairs are
independent when the openings are. The LLR is the generalised one: for each hypothesis the
largest likelihood of the observed pairs under any distribution of the five outcomes with
that mean (found through its one-parameter dual), and the LLR their log-ratio. On games
treated one by one instead (the trinomial model of :mod:`arena.stats.sprt`), perfectly
correlated pairs made the test say "met" for an agent at P − δ 18 % of the time, not 5 %.
Its guarantees (Wald, 1945, approximately, and conservatively in practice):

* when ``s <= P - δ``, it says "met" with probability at most about ``alpha``;
* when ``s >= P + δ``, it says "not met" with probability at most about ``beta``;
* inside the zone either answer may come, and the test may need many games.

A game cap makes the third answer: "undecided", with the 95 % (Wilson) interval of the
score so far. The test is checked only after complete pairs of games (each opening with
both colours), so stopping never favours one colour.

>>> test = ScoreTarget(0.9)
>>> test.hypotheses
(0.85, 0.95)
>>> test.decide(pairs=(0, 0, 0, 0, 30))
'met'
>>> test.decide(pairs=(5, 0, 0, 0, 5))
'not met'
>>> test.decide(pairs=(0, 0, 1, 0, 5)) is None
True

Tests: tests/stats/test_threshold.py
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from arena.core.errors import SpecError
from arena.stats.ratings import check_counts, elo_from_score, score_bounds
from arena.stats.sprt import SPRT, Verdict, pair_llr

Outcome = Literal["met", "not met", "undecided"]

DELTA = 0.05
"""The default half-width of the indifference zone, in score."""


@dataclass(frozen=True)
class ScoreTarget:
    """The sequential test of "expected score >= ``target``" (see the module's text).

    ``delta`` is the half-width of the indifference zone; near 0 or 1 it shrinks to half
    the distance to the end, so both hypotheses stay strictly between 0 and 1.

    >>> ScoreTarget(0.95).hypotheses
    (0.925, 0.975)
    >>> ScoreTarget(1.0)
    Traceback (most recent call last):
    ...
    arena.core.errors.SpecError: a score target must be strictly between 0 and 1, got 1
    """

    target: float
    delta: float = DELTA
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not 0 < self.target < 1:
            raise SpecError(f"a score target must be strictly between 0 and 1, got {self.target:g}")
        if not 0 < self.delta < 0.5:
            raise SpecError(f"delta must be between 0 and 0.5, got {self.delta:g}")
        self.sprt  # checks alpha and beta  # noqa: B018

    @property
    def half_width(self) -> float:
        """δ, shrunk near the ends of [0, 1]."""
        return min(self.delta, self.target / 2, (1 - self.target) / 2)

    @property
    def hypotheses(self) -> tuple[float, float]:
        """The scores of H0 ("not met") and H1 ("met")."""
        d = self.half_width
        return (round(self.target - d, 12), round(self.target + d, 12))

    @property
    def sprt(self) -> SPRT:
        """The same test as an :class:`~arena.stats.sprt.SPRT` between two Elo differences."""
        s0, s1 = self.hypotheses
        return SPRT(elo_from_score(s0), elo_from_score(s1), self.alpha, self.beta)

    def status(self, pairs: Sequence[int]) -> Verdict:
        """The LLR against Wald's bounds after ``pairs``: the counts of pairs that scored
        0, 1/4, 1/2, 3/4 and 1 per game (:data:`~arena.stats.sprt.PAIR_SCORES`)."""
        return self.sprt.verdict(pair_llr(pairs, *self.hypotheses))

    def decide(self, pairs: Sequence[int]) -> Outcome | None:
        """ "met", "not met", or None while the evidence is between the bounds."""
        decision = self.status(pairs).decision
        return None if decision is None else "met" if decision == "H1" else "not met"


def score_interval(wins: int, draws: int, losses: int) -> tuple[float, float]:
    """The 95 % Wilson interval of the mean score (``(0, 1)`` before any game).

    >>> [round(x, 3) for x in score_interval(8, 0, 2)]
    [0.49, 0.943]
    """
    n = check_counts(wins, draws, losses)
    if n == 0:
        return (0.0, 1.0)
    return score_bounds((wins + draws / 2) / n, draws / n if draws < n else 0.0, n)
