"""The score-target test of a rubric: its error rates on simulated games, and its edges."""

from __future__ import annotations

import random

import pytest

from arena.core.errors import SpecError
from arena.stats.threshold import ScoreTarget, score_interval

RUNS = 400


def run(test: ScoreTarget, score: float, draw_rate: float, seed: int, cap: int = 5000):
    """Games of true mean score ``score`` (with draws) until the test decides; checked after
    every pair of games, as ``arena grade`` does. Returns (decision, games)."""
    rng = random.Random(seed)
    draws_ = min(draw_rate, 2 * min(score, 1 - score))
    win_below, draw_below = score - draws_ / 2, score + draws_ / 2
    w = d = lost = 0
    for games in range(1, cap + 1):
        u = rng.random()
        if u < win_below:
            w += 1
        elif u < draw_below:
            d += 1
        else:
            lost += 1
        if games % 2 == 0:
            decision = test.decide(w, d, lost)
            if decision is not None:
                return decision, games
    return None, cap


@pytest.mark.parametrize(("target", "draw_rate"), [(0.9, 0.0), (0.6, 0.3), (0.45, 0.1)])
def test_error_rates_at_the_edges_of_the_zone_are_what_it_claims(target, draw_rate):
    """At s = P - δ "met" comes at most about alpha of the time; at s = P + δ "not met" at
    most about beta (Wald's bounds are conservative). 400 runs: the binomial standard error
    at 5 % is 1.1 %, so 8 % is three of them above the claim."""
    test = ScoreTarget(target)
    low, high = test.hypotheses
    wrong_met = sum(run(test, low, draw_rate, seed)[0] == "met" for seed in range(RUNS))
    wrong_not = sum(run(test, high, draw_rate, seed)[0] == "not met" for seed in range(RUNS))
    assert wrong_met / RUNS <= 0.08
    assert wrong_not / RUNS <= 0.08
    # And the test is not trivially conservative: it errs sometimes (a test that never
    # decides, or always needs the cap, would pass the two lines above).
    assert wrong_met + wrong_not > 0


def test_clear_cases_decide_correctly_and_fast():
    test = ScoreTarget(0.9)
    strong = [run(test, 0.99, 0.0, seed) for seed in range(100)]
    weak = [run(test, 0.6, 0.2, seed) for seed in range(100)]
    assert all(d == "met" for d, _ in strong)
    assert all(d == "not met" for d, _ in weak)
    assert max(n for _, n in strong) <= 80  # a near-perfect agent is graded in a few dozen
    assert max(n for _, n in weak) <= 40


def test_smaller_alpha_errs_less():
    loose, strict = ScoreTarget(0.6, alpha=0.2, beta=0.2), ScoreTarget(0.6, alpha=0.01, beta=0.01)
    low = loose.hypotheses[0]
    errs = [sum(run(t, low, 0.0, s)[0] == "met" for s in range(RUNS)) for t in (loose, strict)]
    assert errs[1] < errs[0]
    assert errs[1] / RUNS <= 0.03


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
