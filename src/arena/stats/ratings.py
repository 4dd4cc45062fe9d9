"""Elo ratings from game results: one pairing (:func:`elo_difference`) or a pool (:func:`fit`).

Both use the logistic Elo scale: a player ``d`` points stronger than its opponent expects to
score ``1 / (1 + 10**(-d / 400))`` per game, so a 60 % score is worth about +70 Elo.

>>> e = elo_difference(wins=55, draws=10, losses=35)
>>> print(e)
+70.4 [+4.9, +135.4] (100 games, 60.0%)
>>> games = [("alice", "bob", 1)] * 60 + [("alice", "bob", 0)] * 40
>>> ratings = fit(games, anchor="bob")
>>> round(ratings["alice"].elo, 1), ratings["bob"].elo
(69.7, 0.0)

The two answer different questions. :func:`elo_difference` is the plain estimate from one
match score (no prior): its interval is Wilson's score interval mapped to Elo, finite on
both sides unless every game went one way. :func:`fit` rates a pool of players together with
a small prior (one virtual draw per pair that met), so every rating and interval is finite
and one player who won or lost everything cannot stretch the others' intervals.

Draws count as half a win and half a loss throughout. :func:`fit` treats every game as a coin
toss with that expectation, so its intervals are wider than :func:`elo_difference`'s when
there are many draws (the trinomial variance of the score is smaller than the binomial one).

Tests: tests/stats/test_ratings.py
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from arena.core.errors import ArenaError

ELO_PER_NAT = 400 / math.log(10)
"""Elo points per unit of natural log-odds (about 173.7)."""

Z95 = 1.959963984540054
"""The two-sided 95 % quantile of the standard normal distribution."""

PRIOR_SD = 1000.0
"""Standard deviation, in Elo, of the Gaussian prior :func:`fit` puts on every rating."""

PRIOR_DRAWS = 1.0
"""Virtual draws :func:`fit` adds to every pair of players that met (BayesElo's kind of prior)."""

_SCORES = (1, 0.5, 0)


def expected_score(elo: float) -> float:
    """The expected score per game of a player ``elo`` points stronger than its opponent.

    >>> expected_score(0.0)
    0.5
    >>> round(expected_score(400.0), 4), round(expected_score(-400.0), 4)
    (0.9091, 0.0909)
    >>> expected_score(math.inf), expected_score(-1e6)
    (1.0, 0.0)
    """
    x = elo / ELO_PER_NAT
    # Branch on the sign so exp never overflows for huge differences.
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def elo_from_score(score: float) -> float:
    """The Elo difference whose expected score is ``score``: ``-400·log10(1/score - 1)``.

    A score of 1 (or 0) is infinitely far above (below) the opponent.

    >>> round(elo_from_score(0.6), 2)
    70.44
    >>> elo_from_score(0.5), elo_from_score(1.0), elo_from_score(0.0)
    (0.0, inf, -inf)
    """
    if score >= 1.0:
        return math.inf
    if score <= 0.0:
        return -math.inf
    # log(p) - log(1 - p) equals the textbook form but keeps precision near 0 and 1.
    return (math.log(score) - math.log1p(-score)) * ELO_PER_NAT


def _format_elo(value: float) -> str:
    return f"{value:+.1f}" if math.isfinite(value) else ("+inf" if value > 0 else "-inf")


@dataclass(frozen=True)
class Estimate:
    """An Elo difference between two players with its 95 % interval ``[low, high]``."""

    elo: float
    low: float
    high: float
    games: int
    score: float
    """Mean score per game of the first player, in [0, 1]."""

    def __str__(self) -> str:
        return (
            f"{_format_elo(self.elo)} [{_format_elo(self.low)}, {_format_elo(self.high)}] "
            f"({self.games} games, {100 * self.score:.1f}%)"
        )


def check_counts(wins: int, draws: int, losses: int) -> int:
    """The number of games, after checking the counts are non-negative integers.

    >>> check_counts(3, 1, 2)
    6
    >>> check_counts(3, -1, 2)
    Traceback (most recent call last):
    ...
    arena.core.errors.ArenaError: draws must be a non-negative integer, got -1
    """
    for name, value in (("wins", wins), ("draws", draws), ("losses", losses)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ArenaError(f"{name} must be a non-negative integer, got {value!r}")
    return wins + draws + losses


def elo_difference(wins: int, draws: int, losses: int) -> Estimate:
    """The Elo difference of a player who scored ``wins``/``draws``/``losses`` against another.

    The point estimate maps the mean score p = (W + D/2)/N through :func:`elo_from_score`.
    The interval is Wilson's score interval (Wilson, 1927) mapped the same way: the scores π
    with (p − π)² <= z²·v(π)/N, where v(π) is the variance of one game's score if the
    expected score were π, and z = 1.96. Without draws v(π) = π(1 − π), Wilson's own
    interval. With draws the draw rate d = D/N is held at its observed value, which gives
    v(π) = π(1 − π) − d/4 (the trinomial variance), and the bounds are the roots of
    (1 + k)·π² − (2p + k)·π + p² + k·d/4 = 0, k = z²/N. Unlike the normal interval
    p ± z·sqrt(v/N), it never leaves [0, 1]: both bounds are finite whenever the score is
    strictly between 0 and 1 (a 19-1 score: +512 [+204, +819]).

    Degenerate cases:

    * All wins (p = 1): the point and the upper bound are +inf (no finite Elo explains a
      perfect score), the lower bound is Wilson's 1/(1 + k). All losses mirror this.
    * All draws: the observed variance is zero, so the interval is Wilson's interval on the
      points as if each draw were a coin toss (wider than the truth, never narrower).
    * No games: ``ValueError`` (an :class:`~arena.core.errors.ArenaError`), since nothing can be
      estimated.

    >>> print(elo_difference(600, 0, 400))
    +70.4 [+48.5, +92.4] (1000 games, 60.0%)
    >>> print(elo_difference(19, 0, 1))
    +511.5 [+203.9, +819.1] (20 games, 95.0%)
    >>> print(elo_difference(4, 0, 0))
    +inf [+7.0, +inf] (4 games, 100.0%)
    >>> elo_difference(0, 0, 0)
    Traceback (most recent call last):
    ...
    arena.core.errors.ArenaError: no games: an Elo difference needs at least one result
    """
    n = check_counts(wins, draws, losses)
    if n == 0:
        raise ArenaError("no games: an Elo difference needs at least one result")
    p = (wins + draws / 2) / n
    low, high = score_bounds(p, draws / n if draws < n else 0.0, n)
    return Estimate(
        elo=elo_from_score(p),
        low=elo_from_score(low),
        high=elo_from_score(high),
        games=n,
        score=p,
    )


def score_bounds(p: float, draw_rate: float, n: int) -> tuple[float, float]:
    """Wilson's 95 % interval for a mean score ``p`` over ``n`` games with this draw rate.

    See :func:`elo_difference`. The bounds always bracket ``p`` and stay in [0, 1].

    >>> [round(x, 4) for x in score_bounds(0.5, 0.0, 4)]
    [0.15, 0.85]
    >>> [round(x, 4) for x in score_bounds(1.0, 0.0, 4)]
    [0.5101, 1.0]
    """
    k = Z95 * Z95 / n
    # The discriminant is k·(4·v + k·(1 − d)) with v = p(1 − p) − d/4 >= 0: never negative.
    root = math.sqrt(max(k * (4 * p * (1 - p) - draw_rate + k * (1 - draw_rate)), 0.0))
    low = (2 * p + k - root) / (2 * (1 + k))
    high = (2 * p + k + root) / (2 * (1 + k))
    # Exact ends stay exact (p = 1 has high = 1, not 1 - ulp), and rounding never crosses p.
    return (0.0 if p == 0 else min(p, max(0.0, low)), 1.0 if p == 1 else max(p, min(1.0, high)))


# ---------------------------------------------------------------------------------------------
# Many players: the Bradley-Terry model with a prior of virtual draws (maximum a posteriori).


@dataclass(frozen=True)
class Rating:
    """One player's fitted Elo with its 95 % interval ``[low, high]``."""

    elo: float
    low: float
    high: float
    games: int
    points: float
    """Points scored: 1 per win, 0.5 per draw."""

    @property
    def score(self) -> float:
        """Mean score per game."""
        return self.points / self.games if self.games else 0.0

    def __str__(self) -> str:
        return (
            f"{_format_elo(self.elo)} [{_format_elo(self.low)}, {_format_elo(self.high)}] "
            f"({self.points:g}/{self.games})"
        )


@dataclass(frozen=True)
class _Pairing:
    """All games between players ``i < j`` (indices into the player tuple)."""

    i: int
    j: int
    games: float
    """Games, virtual draws included when fitting."""
    points: float
    """Points scored by player ``i``."""


@dataclass(frozen=True)
class _Tally:
    players: tuple[str, ...]
    pairings: tuple[_Pairing, ...]


def _tally(triples: Iterable[tuple[str, str, int, float]]) -> _Tally:
    """Aggregate ``(a, b, games, points of a)`` per unordered pair, keeping first-seen order."""
    index: dict[str, int] = {}
    totals: dict[tuple[int, int], tuple[int, float]] = {}
    for a, b, games, points in triples:
        if a == b:
            raise ArenaError(f"player {a!r} cannot play against itself")
        if games == 0:
            continue
        i, j = (index.setdefault(a, len(index)), index.setdefault(b, len(index)))
        # Store each pair once, from the lower index's side.
        key, pts = ((i, j), points) if i < j else ((j, i), games - points)
        g0, p0 = totals.get(key, (0, 0.0))
        totals[key] = (g0 + games, p0 + pts)
    pairings = tuple(_Pairing(i, j, g, p) for (i, j), (g, p) in totals.items())
    return _Tally(tuple(index), pairings)


def _game_triples(
    results: Iterable[tuple[str, str, float]],
) -> Iterable[tuple[str, str, int, float]]:
    for a, b, score in results:
        if isinstance(score, bool) or score not in _SCORES:
            raise ArenaError(
                f"score {score!r} in {a!r} vs {b!r}: expected 1 (win), 0.5 (draw) or 0 (loss)"
            )
        yield a, b, 1, float(score)


def _table_triples(
    table: Mapping[tuple[str, str], tuple[int, int, int]],
) -> Iterable[tuple[str, str, int, float]]:
    for (a, b), (wins, draws, losses) in table.items():
        yield a, b, check_counts(wins, draws, losses), wins + draws / 2


def fit(
    results: Iterable[tuple[str, str, float]],
    anchor: str | None = None,
    *,
    prior_draws: float = PRIOR_DRAWS,
    prior_sd: float = PRIOR_SD,
) -> dict[str, Rating]:
    """Elo ratings for every player in ``results``, an iterable of ``(a, b, score of a)``.

    Each score is 1 (a won), 0.5 (draw) or 0 (b won); who moved first does not matter. The
    model is Bradley-Terry on the Elo scale (Bradley and Terry, 1952): a beats b with
    probability ``expected_score(elo_a - elo_b)``, a draw counting as half a win and half a
    loss. The ratings maximise the posterior: the likelihood of the games plus
    ``prior_draws`` virtual draws between every pair of players that met (the prior of
    Coulom's BayesElo), and a Gaussian prior of standard deviation ``prior_sd`` Elo on each
    rating (a ridge of 1/prior_sd² in log-odds units) that only matters when groups of
    players never met each other.

    Why a prior: a player who won (or lost) every game has no maximum-likelihood rating (the
    likelihood keeps rising as it goes to ±inf). One virtual draw per pair turns a 10-0 into
    10.5/11 (about +510 over the opponent, with the ridge) and keeps its interval finite,
    while it moves ordinary ratings little: 60-40 is rated +69.7 instead of +70.4, and
    600-400 0.07 Elo lower.

    The maximum is found with Newton's method and a backtracking line search; the penalised
    negative log-likelihood is strictly convex, so this converges from any start.

    If ``anchor`` names a player in ``results``, that player is rated 0 and the others are
    relative to it; otherwise (including an ``anchor`` that played no games) the ratings average
    0. The 95 % intervals are profile-likelihood intervals of each rating minus the anchor
    (or minus the mean): the values it can take while the best log-posterior with it held
    there stays within 1.92 (Z95²/2) of the maximum, the others refitted each time. Unlike
    ±1.96 standard errors they follow the skew of lopsided scores: 6-0 is +432 [+71, +1185],
    not the symmetric [-44, +908]; for a 19-1 match they agree with Wilson's interval of
    :func:`elo_difference` to a few Elo. With more than :data:`PROFILE_PLAYERS` players
    they are ±1.96 standard errors (the inverse of the Hessian), which are cheaper.

    >>> games = [("a", "b", 1), ("b", "c", 0.5), ("c", "a", 0), ("a", "c", 1), ("b", "a", 1)]
    >>> r = fit(games)
    >>> [p for p in sorted(r, key=lambda p: -r[p].elo)]
    ['a', 'b', 'c']
    >>> round(sum(x.elo for x in r.values()), 9)
    0.0
    >>> r["a"].games, r["a"].points
    (4, 3.0)
    >>> fit([("a", "a", 1)])
    Traceback (most recent call last):
    ...
    arena.core.errors.ArenaError: player 'a' cannot play against itself
    """
    return _fit(_tally(_game_triples(results)), anchor, prior_draws, prior_sd)


def fit_table(
    table: Mapping[tuple[str, str], tuple[int, int, int]],
    anchor: str | None = None,
    *,
    prior_draws: float = PRIOR_DRAWS,
    prior_sd: float = PRIOR_SD,
) -> dict[str, Rating]:
    """:func:`fit` from a table ``{(a, b): (wins, draws, losses) of a}`` of match totals.

    A pair may appear in both orders; the counts add up. Pairs with no games are ignored (a
    player with no games at all is left out).

    >>> r = fit_table({("alice", "bob"): (600, 0, 400)}, anchor="bob")
    >>> print(r["alice"])
    +70.4 [+48.5, +92.4] (600/1000)
    """
    return _fit(_tally(_table_triples(table)), anchor, prior_draws, prior_sd)


def _fit(
    tally: _Tally, anchor: str | None, prior_draws: float, prior_sd: float
) -> dict[str, Rating]:
    if not prior_sd > 0:
        raise ArenaError(f"prior_sd must be positive, got {prior_sd!r}")
    if not (math.isfinite(prior_draws) and prior_draws >= 0):
        raise ArenaError(f"prior_draws must be a number >= 0, got {prior_draws!r}")
    n = len(tally.players)
    if n == 0:
        return {}
    ridge = (ELO_PER_NAT / prior_sd) ** 2  # prior precision in log-odds units
    # The virtual draws: half a point each way per pair, counted as games by the fit only.
    fitted = tuple(
        _Pairing(p.i, p.j, p.games + prior_draws, p.points + prior_draws / 2)
        for p in tally.pairings
    )
    theta = _maximise(n, fitted, ridge)
    _, hessian = _gradient_hessian(theta, fitted, ridge)
    covariance = _inverse(hessian)
    # Ratings are reported as contrasts: each minus the anchor, or minus the mean.
    if anchor in tally.players:
        base = [0.0] * n
        base[tally.players.index(anchor)] = 1.0
    else:
        base = [1.0 / n] * n
    origin = sum(w * t for w, t in zip(base, theta))
    games, points = _player_totals(n, tally.pairings)
    ratings: dict[str, Rating] = {}
    for k, name in enumerate(tally.players):
        contrast = [(k == m) - w for m, w in enumerate(base)]
        variance = _quadratic_form(covariance, contrast)
        elo = (theta[k] - origin) * ELO_PER_NAT
        if variance <= 1e-18:  # the anchor itself
            low = high = elo
        elif n <= PROFILE_PLAYERS:
            low, high = (
                _profile_bound(theta, fitted, ridge, contrast, sign) * ELO_PER_NAT
                for sign in (-1, 1)
            )
        else:
            half = Z95 * math.sqrt(variance) * ELO_PER_NAT
            low, high = elo - half, elo + half
        ratings[name] = Rating(elo, low, high, games[k], points[k])
    return ratings


def _player_totals(n: int, pairings: Iterable[_Pairing]) -> tuple[list[int], list[float]]:
    games, points = [0] * n, [0.0] * n  # the real games: no virtual draws here
    for p in pairings:
        games[p.i] += p.games
        games[p.j] += p.games
        points[p.i] += p.points
        points[p.j] += p.games - p.points
    return games, points


def _log_sigmoid(x: float) -> float:
    """log(1 / (1 + e^-x)) without overflow or loss of precision at either end."""
    return -math.log1p(math.exp(-x)) if x >= 0 else x - math.log1p(math.exp(x))


def _sigmoid(x: float) -> float:
    return expected_score(x * ELO_PER_NAT)


def _objective(theta: list[float], pairings: Iterable[_Pairing], ridge: float) -> float:
    """Penalised negative log-likelihood, ratings ``theta`` in natural log-odds units."""
    total = 0.5 * ridge * sum(t * t for t in theta)
    for p in pairings:
        d = theta[p.i] - theta[p.j]
        total -= p.points * _log_sigmoid(d) + (p.games - p.points) * _log_sigmoid(-d)
    return total


def _gradient_hessian(
    theta: list[float], pairings: Iterable[_Pairing], ridge: float
) -> tuple[list[float], list[list[float]]]:
    n = len(theta)
    grad = [ridge * t for t in theta]
    hess = [[ridge if r == c else 0.0 for c in range(n)] for r in range(n)]
    for p in pairings:
        s = _sigmoid(theta[p.i] - theta[p.j])
        g = p.games * s - p.points  # expected minus actual points of i
        w = p.games * s * (1.0 - s)
        grad[p.i] += g
        grad[p.j] -= g
        hess[p.i][p.i] += w
        hess[p.j][p.j] += w
        hess[p.i][p.j] -= w
        hess[p.j][p.i] -= w
    return grad, hess


def _maximise(
    n: int,
    pairings: tuple[_Pairing, ...],
    ridge: float,
    tilt: list[float] | None = None,
    start: list[float] | None = None,
) -> list[float]:
    """Newton's method with backtracking (Armijo) line search on :func:`_objective`, minus
    ``tilt``·θ when a tilt is given (see :func:`_profile_bound`)."""
    tilt = tilt or [0.0] * n

    def objective(theta: list[float]) -> float:
        return _objective(theta, pairings, ridge) - sum(a * t for a, t in zip(tilt, theta))

    theta = list(start) if start is not None else [0.0] * n
    value = objective(theta)
    for _ in range(200):
        grad, hess = _gradient_hessian(theta, pairings, ridge)
        grad = [g - a for g, a in zip(grad, tilt)]
        step = _solve(_cholesky(hess), [-g for g in grad])
        slope = sum(g * s for g, s in zip(grad, step))  # < 0: a descent direction
        # -slope/2 estimates how far the value is above the minimum: stop once that is
        # rounding (relative to the value, which a tilt makes large).
        if -slope < 1e-20 + 1e-15 * abs(value):
            break
        t = 1.0
        while True:
            trial = [x + t * s for x, s in zip(theta, step)]
            trial_value = objective(trial)
            if trial_value <= value + 1e-4 * t * slope or t < 1e-12:
                break
            t /= 2
        if t < 1e-12:  # no step lowers the value any more: as close as floats allow
            break
        theta, value = trial, trial_value
    return theta


PROFILE_PLAYERS = 12
"""Up to this many players :func:`fit` gives profile-likelihood intervals; beyond, the
quadratic (Wald) ones, which cost one matrix inverse instead of a fit per bound."""


def _profile_bound(
    theta: list[float],
    pairings: tuple[_Pairing, ...],
    ridge: float,
    contrast: list[float],
    sign: int,
) -> float:
    """The contrast's value where the profile deviance reaches Z95², on the ``sign`` side.

    Maximising the posterior tilted by λ·contrast gives θ(λ), the best ratings whose
    contrast is c(λ) = contrast·θ(λ); its deviance D(λ) = 2·(f(θ(λ)) − f(θ̂)) grows with |λ|
    and dD/dλ = 2λ·contrast·H⁻¹·contrast, so Newton's method on λ finds D = Z95² in a few
    fits, each started from the last.
    """
    n = len(theta)
    best = _objective(theta, pairings, ridge)
    _, hess = _gradient_hessian(theta, pairings, ridge)
    spread = _quadratic_form(_inverse(hess), contrast)
    lam = sign * Z95 / math.sqrt(spread)  # where the quadratic approximation puts it
    point = theta
    for _ in range(30):
        point = _maximise(n, pairings, ridge, [lam * a for a in contrast], point)
        deviance = 2 * (_objective(point, pairings, ridge) - best)
        if abs(deviance - Z95 * Z95) < 1e-6:
            break
        _, hess = _gradient_hessian(point, pairings, ridge)
        slope = 2 * lam * _quadratic_form(_inverse(hess), contrast)
        step = (deviance - Z95 * Z95) / slope
        # Never cross to the other side of the estimate: halve towards it instead.
        lam = lam - step if (lam - step) * sign > 0 else lam / 2
    return sum(a * t for a, t in zip(contrast, point))


# Small dense linear algebra: the Hessian is symmetric positive definite thanks to the ridge.


def _cholesky(a: list[list[float]]) -> list[list[float]]:
    """Lower-triangular L with L·Lᵀ = a."""
    n = len(a)
    low = [[0.0] * n for _ in range(n)]
    for r in range(n):
        for c in range(r + 1):
            s = a[r][c] - sum(low[r][k] * low[c][k] for k in range(c))
            low[r][c] = math.sqrt(s) if r == c else s / low[c][c]
    return low


def _solve(low: list[list[float]], b: list[float]) -> list[float]:
    """x with L·Lᵀ·x = b, by forward then back substitution."""
    n = len(b)
    y = [0.0] * n
    for r in range(n):
        y[r] = (b[r] - sum(low[r][k] * y[k] for k in range(r))) / low[r][r]
    x = [0.0] * n
    for r in reversed(range(n)):
        x[r] = (y[r] - sum(low[k][r] * x[k] for k in range(r + 1, n))) / low[r][r]
    return x


def _inverse(a: list[list[float]]) -> list[list[float]]:
    low = _cholesky(a)
    n = len(a)
    columns = [_solve(low, [float(r == c) for r in range(n)]) for c in range(n)]
    return [[columns[c][r] for c in range(n)] for r in range(n)]


def _quadratic_form(a: list[list[float]], v: list[float]) -> float:
    return sum(v[r] * a[r][c] * v[c] for r in range(len(v)) for c in range(len(v)))
