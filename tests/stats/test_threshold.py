"""The score-target test of a rubric: its error rates on simulated pairs of games, with
independent and with correlated colours, and its edges."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from arena.core.errors import SpecError
from arena.stats.sprt import PAIR_SCORES
from arena.stats.threshold import ScoreTarget, score_interval

RUNS = 300

Pairs = Callable[[float], list[float]]
"""A model of a pair of games: the chances of its five outcomes for a mean score s."""


def independent(s: float) -> list[float]:
    """Two independent games without draws (coin flips)."""
    return [(1 - s) ** 2, 0.0, 2 * s * (1 - s), 0.0, s * s]


def correlated(s: float) -> list[float]:
    """Both games of a pair end alike (a deterministic agent that wins an opening wins it
    with both colours): two games carry the evidence of one."""
    return [1 - s, 0.0, 0.0, 0.0, s]


def drawish(s: float) -> list[float]:
    """Independent games with a third of them drawn."""
    d = min(1 / 3, 2 * min(s, 1 - s))
    game = [1 - s - d / 2, d, s - d / 2]  # loss, draw, win: mean s
    out = [0.0] * 5
    for i, p in enumerate(game):
        for j, q in enumerate(game):
            out[i + j] += p * q
    return out


def split(s: float) -> list[float]:
    """The colour decides some openings (pairs of one win and one loss), the others are
    lost (or won) with both colours: less variance than independent games."""
    if s <= 0.5:
        return [1 - 2 * s, 0.0, 2 * s, 0.0, 0.0]
    return [0.0, 0.0, 2 - 2 * s, 0.0, 2 * s - 1]


def run(test: ScoreTarget, model: Pairs, s: float, seed: int, cap: int = 4000):
    """Pairs drawn from ``model`` at mean score ``s`` until the test decides or ``cap``
    games. Returns (decision, games)."""
    rng = random.Random(seed)
    chances = model(s)
    counts = [0] * len(PAIR_SCORES)
    for pairs in range(1, cap // 2 + 1):
        counts[rng.choices(range(5), chances)[0]] += 1
        decision = test.decide(counts)
        if decision is not None:
            return decision, 2 * pairs
    return None, cap


@pytest.mark.parametrize(
    ("target", "model"),
    [(0.9, independent), (0.6, correlated), (0.45, drawish), (0.3, split)],
)
def test_error_rates_at_the_edges_of_the_zone_are_what_it_claims(target, model):
    """At s = P - δ "met" comes at most about alpha (5 %) of the time; at s = P + δ "not
    met" at most about beta (Wald's bounds are conservative). 300 runs: the binomial
    standard error at 5 % is 1.3 %, so 9 % is three of them above the claim."""
    test = ScoreTarget(target)
    low, high = test.hypotheses
    wrong_met = sum(run(test, model, low, seed)[0] == "met" for seed in range(RUNS))
    wrong_not = sum(run(test, model, high, seed)[0] == "not met" for seed in range(RUNS))
    assert wrong_met / RUNS <= 0.09
    assert wrong_not / RUNS <= 0.09
    # Not trivially conservative: a test that never decided would pass the lines above.
    assert wrong_met + wrong_not > 0


def test_games_counted_one_by_one_would_err_on_correlated_pairs():
    """Why the test counts pairs: the trinomial SPRT of the same hypotheses, fed the games
    of perfectly correlated pairs one by one, says "met" at P - δ far more than 5 % of the
    time (18 % in 1,000 runs); the pair test stays near 5 %."""
    test = ScoreTarget(0.6)
    low = test.hypotheses[0]
    trinomial = test.sprt
    wrong = 0
    for seed in range(200):
        rng = random.Random(seed)
        wins = losses = 0
        while True:
            if rng.random() < low:
                wins += 2
            else:
                losses += 2
            decision = trinomial.status(wins, 0, losses).decision
            if decision is not None:
                wrong += decision == "H1"
                break
    assert wrong / 200 >= 0.12


def test_clear_cases_decide_correctly_and_fast():
    test = ScoreTarget(0.9)
    strong = [run(test, independent, 0.99, seed) for seed in range(100)]
    weak = [run(test, drawish, 0.6, seed) for seed in range(100)]
    assert all(d == "met" for d, _ in strong)
    assert all(d == "not met" for d, _ in weak)
    assert max(n for _, n in strong) <= 100  # a near-perfect agent: a few dozen games
    assert max(n for _, n in weak) <= 100


def test_smaller_alpha_errs_less():
    loose, strict = ScoreTarget(0.6, alpha=0.2, beta=0.2), ScoreTarget(0.6, alpha=0.01, beta=0.01)
    low = loose.hypotheses[0]
    errs = [
        sum(run(t, independent, low, s)[0] == "met" for s in range(RUNS)) for t in (loose, strict)
    ]
    assert errs[1] < errs[0]
    assert errs[1] / RUNS <= 0.03


def test_a_clean_sweep_decides_though_it_has_no_variance():
    test = ScoreTarget(0.9)
    # ln(0.95 / 0.85) a pair against Wald's 2.944: 27 pairs of wins (54 games). Counted game
    # by game it would be 27 games, as if the two games of a pair could not be one event.
    assert test.decide((0, 0, 0, 0, 27)) == "met"
    assert test.decide((0, 0, 0, 0, 26)) is None
    assert test.decide((3, 0, 0, 0, 0)) == "not met"
    assert test.status((0, 0, 0, 0, 0)).llr == 0.0
    with pytest.raises(ValueError, match="five counts"):
        test.decide((1, 2, 3))


def test_hypotheses_stay_inside_zero_one():
    assert ScoreTarget(0.98).hypotheses == (0.97, 0.99)
    assert ScoreTarget(0.02).hypotheses == (0.01, 0.03)
    with pytest.raises(SpecError, match="strictly between 0 and 1"):
        ScoreTarget(0.0)
    with pytest.raises(SpecError, match="delta"):
        ScoreTarget(0.5, delta=0.6)
    with pytest.raises(SpecError, match="alpha"):
        ScoreTarget(0.5, alpha=1.5)


def test_interval_brackets_the_score():
    low, high = score_interval(30, 10, 0)
    assert low < 35 / 40 < high <= 1
    assert score_interval(0, 0, 0) == (0.0, 1.0)
