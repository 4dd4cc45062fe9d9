"""The sequential probability ratio test (SPRT) for "A is stronger than B", as engine testers use.

Play games one at a time; after each, compare the log-likelihood ratio (LLR) of H1 (A is
``elo1`` stronger) against H0 (A is ``elo0`` stronger) with Wald's bounds, and stop as soon as
it leaves them. With the usual ``elo0=0,elo1=20`` a clear improvement is accepted in a few
hundred games, and the error rates stay near ``alpha`` (accepting H1 when H0 holds) and
``beta`` (accepting H0 when H1 holds).

>>> test = SPRT.parse("elo0=0,elo1=20,alpha=0.05,beta=0.05")
>>> print(test.status(wins=180, draws=100, losses=120))
LLR 3.728 >= 2.944 (the upper bound): H1 accepted
>>> print(test.status(wins=40, draws=30, losses=35))
LLR 0.160, between the bounds -2.944 and 2.944: no decision yet

Tests: tests/stats/test_sprt.py
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from arena.core.errors import SpecError
from arena.core.spec import split_pairs
from arena.stats.ratings import check_counts, expected_score

Decision = Literal["H1", "H0"]

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""The score of a pair of games per game: 0, 1/2, 1, 3/2 or 2 points over two games."""

_USAGE = "expected elo0=E0,elo1=E1[,alpha=A,beta=B] (e.g. elo0=0,elo1=20,alpha=0.05,beta=0.05)"
_KEYS = ("elo0", "elo1", "alpha", "beta")


@dataclass(frozen=True)
class Verdict:
    """Where a test stands: the LLR, Wald's bounds, and the decision if one was reached."""

    llr: float
    lower: float
    upper: float
    decision: Decision | None
    """``"H1"``: accept elo1 (A is stronger); ``"H0"``: accept elo0; None: keep playing."""

    def __str__(self) -> str:
        """The LLR against the bound it crossed, or between the two: never "in" bounds it left.

        >>> print(Verdict(2.967, -2.944, 2.944, "H1"))
        LLR 2.967 >= 2.944 (the upper bound): H1 accepted
        >>> print(Verdict(-3.1, -2.944, 2.944, "H0"))
        LLR -3.100 <= -2.944 (the lower bound): H0 accepted
        >>> print(Verdict(0.5, -2.944, 2.944, None))
        LLR 0.500, between the bounds -2.944 and 2.944: no decision yet
        """
        if self.decision == "H1":
            return f"LLR {self.llr:.3f} >= {self.upper:.3f} (the upper bound): H1 accepted"
        if self.decision == "H0":
            return f"LLR {self.llr:.3f} <= {self.lower:.3f} (the lower bound): H0 accepted"
        return (
            f"LLR {self.llr:.3f}, between the bounds {self.lower:.3f} and {self.upper:.3f}: "
            "no decision yet"
        )


def _fit(wins: int, draws: int, losses: int, score: float) -> float:
    """max of W·ln w + D·ln d + L·ln l over trinomials (w, d, l) with w + d/2 = ``score``.

    The constraint leaves one free parameter: l = w − (2·score − 1) and d = 2·(score − w),
    with w in [max(0, 2·score − 1), score]. The objective is concave in w and its derivative
    vanishes where N·w² − (W·(s + c) + D·c + L·s)·w + W·s·c = 0 (c = 2s − 1), so the maximum
    is at a root of that quadratic inside the interval, or at an end of it.
    """
    c = 2 * score - 1
    low, high = max(0.0, c), score

    def value(w: float) -> float:
        return _xlog(wins, w) + _xlog(draws, 2 * (score - w)) + _xlog(losses, w - c)

    n = wins + draws + losses
    b = wins * (score + c) + draws * c + losses * score
    disc = max(b * b - 4 * n * wins * score * c, 0.0)
    roots = [(b + sign * math.sqrt(disc)) / (2 * n) for sign in (-1, 1)]
    candidates = [low, high] + [w for w in roots if low < w < high]
    return max(value(w) for w in candidates)


def pair_index(points: float) -> int:
    """Where a pair's points (0, 0.5, 1, 1.5 or 2 over its two games) count.

    >>> pair_index(1.5)
    3
    """
    return round(points * 2)


def check_pairs(pairs: Sequence[int]) -> tuple[int, ...]:
    """``pairs`` as five counts >= 0 (a ValueError otherwise)."""
    counts = tuple(pairs)
    if len(counts) != len(PAIR_SCORES) or any(
        isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in counts
    ):
        raise ValueError(f"expected five counts of pairs >= 0, got {pairs!r}")
    return counts


def cost_of_mean(counts: tuple[int, ...], s: float) -> float:
    """How much log-likelihood the pair counts lose when their distribution must have mean
    ``s``: max over λ of Σ nᵢ·ln(1 + λ·(aᵢ − s)), with 1 + λ·(aⱼ − s) >= 0 for every
    outcome j (aᵢ the :data:`PAIR_SCORES`). The LLR of mean s1 against s0 is
    ``cost_of_mean(counts, s0) - cost_of_mean(counts, s1)``.

    The largest log-likelihood of the counts under a distribution of mean ``s`` is
    Σ nᵢ·ln(nᵢ/N) minus this (the dual of the constrained maximum: pᵢ = p̂ᵢ / (1 + λ(aᵢ − s));
    at an end of λ's range, mass goes to an outcome never seen). The objective is concave,
    so its derivative is found to zero by bisection with Newton steps.
    """
    terms = [(n, a - s) for n, a in zip(counts, PAIR_SCORES, strict=True) if n]
    low, high = -1 / (1 - s), 1 / s  # where 1 + λ(a − s) stays >= 0 for a = 1 and a = 0
    shrink = 1 - 1e-12

    def slope(lam: float) -> tuple[float, float]:
        first = second = 0.0
        for n, c in terms:
            q = c / (1 + lam * c)
            first += n * q
            second -= n * q * q
        return first, second

    def value(lam: float) -> float:
        return sum(n * math.log(1 + lam * c) for n, c in terms)

    a, b = low * shrink, high * shrink
    if slope(b)[0] >= 0:  # still rising at the end: the optimum is there
        return value(b)
    if slope(a)[0] <= 0:
        return value(a)
    lam = 0.0
    for _ in range(200):
        first, second = slope(lam)
        if abs(first) < 1e-12 or b - a < 1e-12 * (1 + abs(lam)):
            break  # lam is the optimum
        if first > 0:
            a = lam
        else:
            b = lam
        step = lam - first / second if second < 0 else (a + b) / 2
        lam = step if a < step < b else (a + b) / 2
    return value(lam)


def pair_llr(pairs: Sequence[int], s0: float, s1: float) -> float:
    """The generalised log-likelihood ratio of mean score ``s1`` against ``s0`` after
    ``pairs`` (the counts of pairs that scored :data:`PAIR_SCORES`); 0 before any pair.

    >>> round(pair_llr((5, 0, 60, 0, 25), 0.5, 0.6), 3)
    7.199
    """
    counts = check_pairs(pairs)
    if not sum(counts):
        return 0.0
    return cost_of_mean(counts, s0) - cost_of_mean(counts, s1)


def _xlog(count: int, p: float) -> float:
    """count·ln p, with 0·ln 0 = 0 (an outcome never seen costs nothing)."""
    if count == 0:
        return 0.0
    return count * math.log(p) if p > 0 else -math.inf


@dataclass(frozen=True)
class SPRT:
    """A test of H0 "A is ``elo0`` stronger" against H1 "A is ``elo1`` stronger" (elo0 < elo1).

    ``alpha`` is the chance of accepting H1 when H0 holds, ``beta`` that of accepting H0 when
    H1 holds. Elo here is the logistic Elo of :mod:`arena.stats.ratings` (cutechess-cli's and
    fishtest's "logistic" model, not fishtest's normalized Elo).

    >>> SPRT(elo0=0, elo1=20).bounds == (math.log(0.05 / 0.95), math.log(0.95 / 0.05))
    True
    >>> SPRT(elo0=10, elo1=5)
    Traceback (most recent call last):
    ...
    arena.core.errors.SpecError: SPRT: elo0 must be below elo1, got elo0=10, elo1=5
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not (math.isfinite(self.elo0) and math.isfinite(self.elo1)):
            raise SpecError(f"SPRT: elo0 and elo1 must be finite, got {self.elo0}, {self.elo1}")
        if not self.elo0 < self.elo1:
            raise SpecError(
                f"SPRT: elo0 must be below elo1, got elo0={self.elo0:g}, elo1={self.elo1:g}"
            )
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0 < value < 1:
                raise SpecError(f"SPRT: {name} must be between 0 and 1, got {value:g}")
        if not self.alpha + self.beta < 1:
            # Otherwise the lower bound is not below the upper one.
            raise SpecError(f"SPRT: alpha + beta must be below 1, got {self.alpha + self.beta:g}")

    @classmethod
    def parse(cls, text: str) -> SPRT:
        """An SPRT from ``"elo0=0,elo1=20,alpha=0.05,beta=0.05"``.

        Items may be separated by commas or spaces (cutechess-cli's ``-sprt`` style); alpha and
        beta default to 0.05.

        >>> SPRT.parse("elo0=0 elo1=10")
        SPRT(elo0=0.0, elo1=10.0, alpha=0.05, beta=0.05)
        >>> SPRT.parse("elo0=0,elo2=10")
        Traceback (most recent call last):
        ...
        arena.core.errors.SpecError: SPRT 'elo0=0,elo2=10': unknown parameter 'elo2'; valid: elo0, elo1, alpha, beta; expected elo0=E0,elo1=E1[,alpha=A,beta=B] (e.g. elo0=0,elo1=20,alpha=0.05,beta=0.05)
        """  # noqa: E501
        owner = f"SPRT {text!r}"
        if not text.strip():
            raise SpecError(f"{owner}: empty spec; {_USAGE}")
        try:
            raw = split_pairs(text, owner, _KEYS, separators=", \t\n")
        except SpecError as problem:
            raise SpecError(f"{problem}; {_USAGE}") from None
        fields: dict[str, float] = {}
        for key, value in raw.items():
            try:
                fields[key] = float(value)
            except ValueError:
                raise SpecError(f"{owner}: {key}={value!r} is not a number; {_USAGE}") from None
        missing = [k for k in ("elo0", "elo1") if k not in fields]
        if missing:
            raise SpecError(f"SPRT {text!r}: missing {' and '.join(missing)}; {_USAGE}")
        return cls(**fields)

    @property
    def bounds(self) -> tuple[float, float]:
        """Wald's stopping bounds ``(ln(β/(1−α)), ln((1−β)/α))`` for the LLR (Wald, 1945).

        >>> [round(b, 3) for b in SPRT(0, 20).bounds]
        [-2.944, 2.944]
        """
        return (
            math.log(self.beta / (1 - self.alpha)),
            math.log((1 - self.beta) / self.alpha),
        )

    def llr(self, wins: int, draws: int, losses: int) -> float:
        """The log-likelihood ratio of H1 against H0 after these results (A's view).

        The generalised SPRT on the trinomial model of a game (win, draw, loss): for each
        hypothesis, the likelihood of the results under the best-fitting distribution whose
        expected score is s1 (resp. s0), and the LLR is the difference of their logarithms
        (M. Van den Bergh, "A Practical Introduction to the GSPRT"; fishtest uses the same
        model). It is exact, so it needs no variance: a clean sweep, all draws or all losses
        are evidence like any other results. (The normal approximation
        ``N·(s1 − s0)·(2·s̄ − s0 − s1) / (2·v)`` is undefined while the variance v is zero, so
        a 40-0 sweep never decided; this agrees with it to second order otherwise.)

        >>> test = SPRT(0, 20)
        >>> round(test.llr(180, 100, 120), 3)
        3.728
        >>> test.llr(0, 0, 0)
        0.0
        >>> round(SPRT(0, 200).llr(40, 0, 0), 2)  # 40 * ln(s1 / s0)
        16.74
        """
        n = check_counts(wins, draws, losses)
        if n == 0:
            return 0.0
        s0, s1 = expected_score(self.elo0), expected_score(self.elo1)
        return _fit(wins, draws, losses, s1) - _fit(wins, draws, losses, s0)

    def llr_pairs(self, pairs: Sequence[int]) -> float:
        """The log-likelihood ratio of H1 against H0 after ``pairs``: how many pairs of
        games (one opening, both colours) scored 0, 1/2, 1, 3/2 and 2 points for A.

        The pentanomial model, as fishtest tests engines on paired openings: the pair is
        the unit, since its two games are not independent (an opening that decides the
        game for whoever moves first splits the pair; a deterministic agent that wins an
        opening with one colour often wins it with the other). The same generalised
        LLR as :meth:`llr`, over the five outcomes of a pair (:func:`cost_of_mean`).

        Where the openings decide most games (each side wins the pair's game it moves
        first in), the split pairs say nothing of who is stronger, and the pairs won or
        lost twice decide sooner than the same games counted one by one:

        >>> test = SPRT(0, 20)
        >>> pairs = (5, 0, 60, 0, 25)  # 60 pairs split, 25 won twice, 5 lost twice
        >>> round(test.llr_pairs(pairs), 3), round(test.llr(wins=110, draws=0, losses=70), 3)
        (3.116, 2.005)
        >>> print(test.status_pairs(pairs))
        LLR 3.116 >= 2.944 (the upper bound): H1 accepted
        >>> test.llr_pairs((0, 0, 0, 0, 0))
        0.0
        """
        return pair_llr(pairs, expected_score(self.elo0), expected_score(self.elo1))

    def status_pairs(self, pairs: Sequence[int]) -> Verdict:
        """:meth:`status` on pairs of games (:meth:`llr_pairs`).

        >>> SPRT(0, 20).status_pairs((0, 0, 80, 0, 0)).decision  # 80 split pairs: even
        'H0'
        """
        return self.verdict(self.llr_pairs(pairs))

    def status(self, wins: int, draws: int, losses: int) -> Verdict:
        """The LLR, the bounds, and H1/H0 once the LLR reaches the upper/lower bound.

        >>> SPRT(0, 20).status(0, 0, 0).decision is None
        True
        >>> SPRT(0, 20).status(100, 100, 180).decision
        'H0'
        """
        return self.verdict(self.llr(wins, draws, losses))

    def verdict(self, llr: float) -> Verdict:
        """The decision an ``llr`` makes against this test's bounds."""
        lower, upper = self.bounds
        decision: Decision | None = "H1" if llr >= upper else "H0" if llr <= lower else None
        return Verdict(llr, lower, upper, decision)
