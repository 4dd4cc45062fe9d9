"""The SPRT: formulas, parsing, and error rates and stopping lengths on seeded synthetic streams."""

from __future__ import annotations

import math
import random
import re

import pytest

from arena.core.errors import SpecError
from arena.stats.ratings import expected_score
from arena.stats.sprt import SPRT, Verdict

STANDARD = SPRT(elo0=0, elo1=20)  # the usual "is it better?" test, alpha = beta = 0.05
DRAW_RATE = 0.3


def run(test: SPRT, elo: float, seed: int, cap: int = 20_000) -> tuple[str | None, int]:
    """Play games at true Elo ``elo`` (30 % draws) until the test decides or ``cap`` games."""
    rng = random.Random(seed)
    p = expected_score(elo)
    win_below, draw_below = p - DRAW_RATE / 2, p + DRAW_RATE / 2  # keeps the mean score p
    wins = draws = losses = 0
    for games in range(1, cap + 1):
        u = rng.random()
        if u < win_below:
            wins += 1
        elif u < draw_below:
            draws += 1
        else:
            losses += 1
        decision = test.status(wins, draws, losses).decision
        if decision is not None:
            return decision, games
    return None, cap


# --- formulas --------------------------------------------------------------------------------


def test_bounds_formula() -> None:
    assert STANDARD.bounds == pytest.approx((math.log(0.05 / 0.95), math.log(0.95 / 0.05)))
    lower, upper = SPRT(0, 5, alpha=0.01, beta=0.1).bounds
    assert lower == pytest.approx(math.log(0.1 / 0.99))
    assert upper == pytest.approx(math.log(0.9 / 0.01))


def test_llr_formula_by_hand() -> None:
    s0, s1 = 0.5, 1 / (1 + 10 ** (-20 / 400))
    # Only wins: the best trinomial with mean s is w = s, l = 1 - s (no draws).
    assert STANDARD.llr(3, 0, 0) == pytest.approx(3 * math.log(s1 / s0))
    # Only draws: d = 2(1 - s) above an even score, d = 1 at it.
    assert STANDARD.llr(0, 5, 0) == pytest.approx(5 * math.log(2 * (1 - s1)))


def test_llr_maximises_the_trinomial_likelihood_under_each_hypothesis() -> None:
    # Brute force over the one free parameter w (l = w - (2s - 1), d = 2(s - w)).
    def best(w_count: int, d_count: int, l_count: int, s: float) -> float:
        low, high = max(0.0, 2 * s - 1), s
        grid = (low + (high - low) * i / 20_000 for i in range(1, 20_000))
        return max(
            w_count * math.log(w)
            + d_count * math.log(2 * (s - w))
            + l_count * math.log(w - 2 * s + 1)
            for w in grid
        )

    s0, s1 = 0.5, expected_score(20)
    for counts in [(180, 100, 120), (10, 5, 30), (7, 1, 2)]:
        by_grid = best(*counts, s1) - best(*counts, s0)
        assert STANDARD.llr(*counts) == pytest.approx(by_grid, abs=1e-3)


def test_llr_agrees_with_the_normal_approximation_to_second_order() -> None:
    w, d, losses = 180, 100, 120
    n = w + d + losses
    mean = (w + d / 2) / n
    var = (w * (1 - mean) ** 2 + d * (0.5 - mean) ** 2 + losses * mean**2) / n
    s0, s1 = 0.5, expected_score(20)
    approximation = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
    assert STANDARD.llr(w, d, losses) == pytest.approx(approximation, rel=0.05)


def test_llr_is_zero_at_the_midpoint_and_antisymmetric_around_it() -> None:
    # Midpoint of the hypotheses in score terms: an even score when elo0 = -elo1.
    test = SPRT(-10, 10)
    assert test.llr(30, 40, 30) == pytest.approx(0.0, abs=1e-12)
    assert test.llr(40, 20, 30) == pytest.approx(-test.llr(30, 20, 40))


def test_llr_grows_with_the_number_of_games() -> None:
    assert STANDARD.llr(60, 20, 40) * 10 == pytest.approx(STANDARD.llr(600, 200, 400))


def test_no_games_give_zero() -> None:
    assert STANDARD.llr(0, 0, 0) == 0.0
    assert STANDARD.status(0, 0, 0).decision is None


@pytest.mark.parametrize(
    ("counts", "decision"),
    [((40, 0, 0), "H1"), ((0, 0, 40), "H0"), ((0, 40, 0), "H0"), ((25, 0, 1), "H1")],
)
def test_clean_sweeps_and_all_draws_decide(counts: tuple[int, int, int], decision: str) -> None:
    # A sweep has zero variance: the normal approximation stayed at LLR 0 for ever.
    assert SPRT(0, 200).status(*counts).decision == decision


def test_all_draws_accept_equal_strength() -> None:
    # Draws are evidence for H0 (elo 0) against H1 (elo 20), slowly: 60 draws decide it.
    assert STANDARD.status(0, 20, 0).decision is None
    assert STANDARD.status(0, 60, 0).decision == "H0"
    # With hypotheses symmetric around an even score, draws say nothing.
    assert SPRT(-10, 10).llr(0, 60, 0) == pytest.approx(0.0, abs=1e-9)


def test_status_decides_at_the_bounds() -> None:
    lower, upper = STANDARD.bounds
    assert STANDARD.status(180, 100, 120) == Verdict(
        STANDARD.llr(180, 100, 120), lower, upper, "H1"
    )
    assert STANDARD.status(100, 100, 180).decision == "H0"
    assert STANDARD.status(40, 30, 35).decision is None
    assert str(STANDARD.status(40, 30, 35)).endswith(": no decision yet")


def test_bad_counts_are_rejected() -> None:
    with pytest.raises(ValueError, match="wins must be a non-negative integer"):
        STANDARD.llr(-1, 0, 0)


# --- parsing ---------------------------------------------------------------------------------


def test_parse_full_and_default_forms() -> None:
    assert SPRT.parse("elo0=0,elo1=20,alpha=0.05,beta=0.05") == SPRT(0, 20)
    assert SPRT.parse("elo0=-1.5, elo1=3 beta=0.1") == SPRT(-1.5, 3, beta=0.1)
    assert SPRT.parse(" ELO1=5,elo0=0 ") == SPRT(0, 5)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "empty spec"),
        ("elo0=0,elo1", "malformed parameter 'elo1'"),
        ("elo0=0,elo1=20,gamma=1", "unknown parameter 'gamma'"),
        ("elo0=0,elo0=1,elo1=20", "elo0 given twice"),
        ("elo0=0,elo1=big", "elo1='big' is not a number"),
        ("elo1=20", "missing elo0"),
        ("alpha=0.1", "missing elo0 and elo1"),
    ],
)
def test_parse_errors_name_the_expected_format(text: str, problem: str) -> None:
    with pytest.raises(SpecError) as info:
        SPRT.parse(text)
    message = str(info.value)
    assert problem in message
    assert "expected elo0=E0,elo1=E1[,alpha=A,beta=B]" in message
    assert "\n" not in message


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("elo0=20,elo1=0", "elo0 must be below elo1"),
        ("elo0=5,elo1=5", "elo0 must be below elo1"),
        ("elo0=0,elo1=inf", "must be finite"),
        ("elo0=0,elo1=5,alpha=0", "alpha must be between 0 and 1"),
        ("elo0=0,elo1=5,beta=1.5", "beta must be between 0 and 1"),
        ("elo0=0,elo1=5,alpha=0.6,beta=0.5", "alpha + beta must be below 1"),
    ],
)
def test_invalid_parameters_are_rejected(text: str, problem: str) -> None:
    with pytest.raises(ValueError, match=re.escape(problem)):
        SPRT.parse(text)


# --- synthetic streams -----------------------------------------------------------------------


def test_clearly_stronger_accepts_h1_quickly() -> None:
    decision, games = run(STANDARD, elo=40, seed=1)
    assert decision == "H1"
    assert 50 < games < 3000  # about 400 on average


def test_clearly_weaker_accepts_h0() -> None:
    decision, games = run(STANDARD, elo=-20, seed=2)
    assert decision == "H0"
    assert games < 3000  # about 400 on average


def test_between_the_hypotheses_still_stops() -> None:
    decisions = {run(STANDARD, elo=10, seed=s, cap=50_000)[0] for s in range(10)}
    assert None not in decisions  # every run stopped, about 1700 games on average
    assert decisions == {"H0", "H1"}  # and at the midpoint either verdict occurs


def test_false_positive_rate_is_near_alpha() -> None:
    # 200 seeded runs at the H0 Elo, capped; about 1100 games each on average.
    runs = [run(STANDARD, elo=0, seed=s, cap=10_000) for s in range(200)]
    false_positives = sum(decision == "H1" for decision, _ in runs) / len(runs)
    undecided = sum(decision is None for decision, _ in runs)
    assert false_positives <= 2 * STANDARD.alpha
    assert undecided <= 2


def test_false_negative_rate_is_near_beta() -> None:
    runs = [run(STANDARD, elo=20, seed=10_000 + s, cap=10_000) for s in range(200)]
    false_negatives = sum(decision == "H0" for decision, _ in runs) / len(runs)
    assert false_negatives <= 2 * STANDARD.beta


def test_the_verdict_names_the_bound_it_crossed() -> None:
    # Was "LLR 2.967 in [-2.944, 2.944]: H1 accepted", which reads as a contradiction.
    text = str(STANDARD.status(180, 100, 120))
    assert text == "LLR 3.728 >= 2.944 (the upper bound): H1 accepted"
    assert " in [" not in text
    assert str(STANDARD.status(100, 100, 180)).endswith("(the lower bound): H0 accepted")
