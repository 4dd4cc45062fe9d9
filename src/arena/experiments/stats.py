"""95 % intervals for the numbers experiments show: rates, match scores and means.

>>> p, low, high = rate_interval(7, 10)
>>> p, round(low, 3), round(high, 3)
(0.7, 0.397, 0.892)
>>> [round(x, 3) for x in score_interval(wins=55, draws=10, losses=35)]
[0.6, 0.507, 0.686]
>>> [round(x, 3) for x in mean_interval([1.0, 2.0, 3.0])]
[2.0, -0.484, 4.484]

Tests: tests/experiments/test_framework.py
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from arena.core.errors import ArenaError
from arena.stats.ratings import Z95, check_counts, score_bounds

# Two-sided 95 % quantiles of Student's t for 1..30 degrees of freedom (standard tables);
# beyond 30 the Cornish-Fisher expansion around the normal quantile is within 1e-4.
_T95 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip


def rate_interval(k: float, n: float) -> tuple[float, float, float]:
    """The rate ``k / n`` with its Wilson 95 % score interval.

    Wilson's interval stays inside [0, 1] and keeps its width at rates of 0 or 1,
    where the normal approximation collapses to a point. ``k`` may be fractional
    (MCTS counts a draw as half a win).

    >>> [round(x, 3) for x in rate_interval(0, 20)]
    [0.0, 0.0, 0.161]
    >>> rate_interval(3, 0)
    Traceback (most recent call last):
    ...
    arena.core.errors.ArenaError: a rate needs at least one trial (k=3, n=0)
    """
    if not n > 0:
        raise ArenaError(f"a rate needs at least one trial (k={k}, n={n})")
    if not 0 <= k <= n:
        raise ArenaError(f"a rate needs 0 <= k <= n (k={k}, n={n})")
    p = k / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return p, max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


def score_interval(wins: int, draws: int, losses: int) -> tuple[float, float, float]:
    """The mean score per game (a draw is worth 1/2) with a 95 % interval.

    The interval is the one :func:`arena.stats.ratings.elo_difference` gives, as scores:
    Wilson's score interval with the draw rate held at its observed value (so it stays in
    [0, 1] and keeps its width when every game went one way). When every game was drawn
    the observed variance is zero; rather than claim [0.5, 0.5], it is Wilson's interval
    on the points, which is wider than the truth, never narrower.

    >>> [round(x, 3) for x in score_interval(10, 0, 0)]
    [1.0, 0.722, 1.0]
    >>> [round(x, 3) for x in score_interval(0, 10, 0)]
    [0.5, 0.237, 0.763]
    """
    n = check_counts(wins, draws, losses)
    if n == 0:
        raise ArenaError("no games: a score needs at least one result")
    p = (wins + draws / 2) / n
    return (p, *score_bounds(p, draws / n if draws < n else 0.0, n))


def t95(df: int) -> float:
    """The two-sided 95 % quantile of Student's t with ``df`` degrees of freedom.

    >>> t95(1), t95(30), round(t95(1000), 3)
    (12.706, 2.042, 1.962)
    """
    if df < 1:
        raise ArenaError(f"Student's t needs at least one degree of freedom, not {df}")
    if df <= len(_T95):
        return _T95[df - 1]
    z = Z95
    return (
        z
        + (z**3 + z) / (4 * df)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3)
    )


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean with its 95 % Student t interval (repeats are few, so not the normal one).

    >>> mean_interval([0.5, 0.5])
    (0.5, 0.5, 0.5)
    >>> mean_interval([1.0])
    Traceback (most recent call last):
    ...
    arena.core.errors.ArenaError: an interval for a mean needs at least two values, got 1
    """
    n = len(values)
    if n < 2:
        raise ArenaError(f"an interval for a mean needs at least two values, got {n}")
    mean = math.fsum(values) / n
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = t95(n - 1) * math.sqrt(variance / n)
    return mean, mean - half, mean + half
