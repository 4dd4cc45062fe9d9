"""Elo estimates: known answers, agreement between the two estimators, and interval coverage."""

from __future__ import annotations

import math
import random

import pytest

from arena.core.errors import ArenaError
from arena.stats.ratings import (
    Rating,
    elo_difference,
    elo_from_score,
    expected_score,
    fit,
    fit_table,
)

SIXTY_PERCENT = 70.44  # -400·log10(1/0.6 - 1)


def play(rng: random.Random, elos: dict[str, float], a: str, b: str, draw: float = 0.0) -> float:
    """One game from the logistic model; draws (if any) keep a's expected score unchanged."""
    p = expected_score(elos[a] - elos[b])
    draw = min(draw, 2 * p, 2 * (1 - p))
    u = rng.random()
    return 1.0 if u < p - draw / 2 else 0.5 if u < p + draw / 2 else 0.0


def round_robin(
    rng: random.Random, elos: dict[str, float], per_pair: int, draw: float = 0.0
) -> list[tuple[str, str, float]]:
    names = sorted(elos)
    games = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            for k in range(per_pair):
                # Alternate who is listed first, as colours alternate in a match.
                x, y = (a, b) if k % 2 == 0 else (b, a)
                games.append((x, y, play(rng, elos, x, y, draw)))
    return games


def flat(ratings: dict[str, Rating]) -> dict[tuple[str, str], float]:
    """Ratings as a flat mapping, which ``pytest.approx`` can compare."""
    fields = ("elo", "low", "high", "games", "points")
    return {(name, f): getattr(r, f) for name, r in ratings.items() for f in fields}


def covers(r: Rating, truth: float) -> bool:
    return r.low <= truth <= r.high


# --- expected_score / elo_from_score ---------------------------------------------------------


@pytest.mark.parametrize("elo", [-800.0, -70.0, 0.0, 1.5, 400.0, 2000.0])
def test_score_and_elo_are_inverse(elo: float) -> None:
    assert elo_from_score(expected_score(elo)) == pytest.approx(elo, abs=1e-9)


def test_extreme_differences_do_not_overflow() -> None:
    assert expected_score(1e9) == 1.0
    assert expected_score(-1e9) == 0.0


# --- elo_difference --------------------------------------------------------------------------


def test_sixty_percent_is_about_70_elo() -> None:
    e = elo_difference(600, 0, 400)
    assert e.elo == pytest.approx(SIXTY_PERCENT, abs=0.01)
    assert e.games == 1000 and e.score == pytest.approx(0.6)
    # Same score with draws: same point, and a narrower interval (less variance per game).
    d = elo_difference(500, 200, 300)
    assert d.elo == pytest.approx(e.elo)
    assert d.high - d.low < e.high - e.low


def wilson(k: float, n: int) -> tuple[float, float]:
    """Wilson's 95 % score interval for k successes in n trials, the textbook formula."""
    z = 1.959963984540054
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def test_a_19_to_1_score_has_two_finite_bounds() -> None:
    # Was [+308, +inf] (the normal interval passed a score of 1). By hand: Wilson's interval
    # for 19/20 is [0.76384, 0.99110], that is 400·log10(p/(1-p)) = [+203.9, +819.1].
    e = elo_difference(19, 0, 1)
    assert e.elo == pytest.approx(511.5, abs=0.1)
    assert (e.low, e.high) == pytest.approx((203.9, 819.1), abs=0.1)
    low, high = wilson(19, 20)
    assert (e.low, e.high) == pytest.approx((elo_from_score(low), elo_from_score(high)))
    assert str(elo_difference(1, 0, 19)) == "-511.5 [-819.1, -203.9] (20 games, 5.0%)"


def test_a_perfect_score_has_wilsons_lower_bound() -> None:
    # Was [-72, +inf] for 4-0: a bound below 0 for a player who won every game.
    # Wilson at p = 1: 1/(1 + z²/n) = 1/(1 + 3.8415/4) = 0.51007, +7.0 Elo.
    e = elo_difference(4, 0, 0)
    assert e.elo == e.high == math.inf
    assert e.low == pytest.approx(7.0, abs=0.05)


def test_draws_hold_the_draw_rate_and_narrow_the_interval() -> None:
    # 55-10-35 by hand: p = 0.6, d = 0.1, k = 1.96²/100 = 0.038415; the bounds are
    # (2p + k ± sqrt(k·(4p(1-p) - d + k(1-d)))) / (2(1+k)) = 0.50704 and 0.68556.
    e = elo_difference(55, 10, 35)
    expected = (elo_from_score(0.50704), elo_from_score(0.68556))
    assert (e.low, e.high) == pytest.approx(expected, abs=0.1)
    plain = wilson(60, 100)  # the same points without draws: a wider interval
    assert elo_from_score(plain[0]) < e.low and e.high < elo_from_score(plain[1])


def test_even_score_is_zero_and_symmetric() -> None:
    e = elo_difference(30, 40, 30)
    assert e.elo == 0.0 and e.low == pytest.approx(-e.high)
    f = elo_difference(30, 10, 60)
    g = elo_difference(60, 10, 30)
    assert (f.elo, f.low, f.high) == pytest.approx((-g.elo, -g.high, -g.low))


def test_all_wins_and_all_losses_give_infinite_point_and_finite_other_bound() -> None:
    w = elo_difference(12, 0, 0)
    assert w.elo == math.inf and w.high == math.inf
    assert 0 < w.low < math.inf
    loss = elo_difference(0, 0, 12)
    assert loss.elo == -math.inf and loss.low == -math.inf
    assert loss.high == pytest.approx(-w.low)
    # More wins in a row: a higher lower bound.
    assert elo_difference(50, 0, 0).low > w.low
    assert str(w).startswith("+inf [+")


def test_a_score_near_certainty_stays_finite() -> None:
    e = elo_difference(9, 0, 1)  # the normal interval's upper score was past 1
    assert math.isfinite(e.elo) and math.isfinite(e.low) and math.isfinite(e.high)


def test_all_draws_fall_back_to_wilson_on_the_points() -> None:
    low, high = wilson(3.5, 7)
    e = elo_difference(0, 7, 0)
    assert e.elo == 0.0 and (e.low, e.high) == pytest.approx(
        (elo_from_score(low), elo_from_score(high))
    )


def test_no_games_is_an_error() -> None:
    with pytest.raises(ValueError, match="no games"):
        elo_difference(0, 0, 0)


@pytest.mark.parametrize("counts", [(-1, 0, 3), (1.5, 0, 0), (True, 0, 0), ("3", 1, 1)])
def test_bad_counts_are_rejected(counts: tuple) -> None:
    with pytest.raises(ValueError, match="must be a non-negative integer"):
        elo_difference(*counts)


# --- fit: two players ------------------------------------------------------------------------


def test_two_players_agree_with_elo_difference() -> None:
    games = [("A", "B", 1.0)] * 600 + [("B", "A", 1.0)] * 400
    r = fit(games, anchor="B")
    e = elo_difference(600, 0, 400)
    assert r["B"] == Rating(0.0, 0.0, 0.0, 1000, 400.0)
    assert r["A"].elo == pytest.approx(e.elo, abs=0.1)  # the prior's pull is tiny
    # Delta method (fit) versus a logistic transform of the score interval: close, not equal.
    assert r["A"].low == pytest.approx(e.low, abs=0.5)
    assert r["A"].high == pytest.approx(e.high, abs=0.5)
    assert (r["A"].games, r["A"].points) == (1000, 600.0)


def test_two_players_with_draws_same_point_wider_interval() -> None:
    r = fit_table({("A", "B"): (500, 200, 300)}, anchor="B")
    e = elo_difference(500, 200, 300)
    assert r["A"].elo == pytest.approx(e.elo, abs=0.1)
    # Draws counted as half win, half loss: the binomial variance exceeds the trinomial one.
    assert r["A"].high - r["A"].low > e.high - e.low


def test_without_anchor_ratings_average_zero() -> None:
    r = fit_table({("A", "B"): (600, 0, 400)})
    assert r["A"].elo == pytest.approx(SIXTY_PERCENT / 2, abs=0.05)
    assert r["A"].elo == pytest.approx(-r["B"].elo)
    # Each side carries half the difference, and so half its uncertainty.
    anchored = fit_table({("A", "B"): (600, 0, 400)}, anchor="B")["A"]
    assert r["A"].high - r["A"].low == pytest.approx((anchored.high - anchored.low) / 2)


def test_fit_and_fit_table_agree() -> None:
    rng = random.Random(3)
    games = round_robin(rng, {"x": 0.0, "y": 50.0, "z": -80.0}, 40, draw=0.3)
    table: dict[tuple[str, str], tuple[int, int, int]] = {}
    for a, b, s in games:
        w, d, loss = table.get((a, b), (0, 0, 0))
        table[(a, b)] = (w + (s == 1), d + (s == 0.5), loss + (s == 0))
    assert flat(fit(games)) == pytest.approx(flat(fit_table(table)))


# --- fit: many players -----------------------------------------------------------------------

TRUE = {"A": 0.0, "B": 120.0, "C": -200.0}


def test_large_simulation_recovers_true_elos() -> None:
    rng = random.Random(2024)
    r = fit(round_robin(rng, TRUE, 3000, draw=0.25), anchor="A")
    for name, truth in TRUE.items():
        assert covers(r[name], truth), (name, r[name])
        assert r[name].elo == pytest.approx(truth, abs=20)
        assert r[name].high - r[name].low < 40


def test_intervals_cover_the_truth_about_95_percent_of_the_time() -> None:
    # 50 seeded experiments, 100 games per pair, decisive games only (the model exactly).
    hits = total = 0
    for seed in range(50):
        r = fit(round_robin(random.Random(seed), TRUE, 100), anchor="A")
        for name in ("B", "C"):
            hits += covers(r[name], TRUE[name])
            total += 1
    assert hits / total >= 0.85


def test_anchor_shifts_ratings_but_keeps_differences_and_widths() -> None:
    games = round_robin(random.Random(5), TRUE, 60, draw=0.2)
    free, anchored = fit(games), fit(games, anchor="C")
    assert anchored["C"].elo == 0.0 and anchored["C"].low == anchored["C"].high == 0.0
    shift = free["C"].elo
    for name in TRUE:
        assert anchored[name].elo == pytest.approx(free[name].elo - shift)
    # Relative to C, A's uncertainty is that of a difference: wider than around the mean.
    assert anchored["A"].high - anchored["A"].low > free["A"].high - free["A"].low


def test_unknown_anchor_falls_back_to_the_mean() -> None:
    games = round_robin(random.Random(6), TRUE, 20)
    assert fit(games, anchor="nobody") == fit(games)


def test_swapping_listing_order_changes_nothing() -> None:
    games = round_robin(random.Random(7), TRUE, 30, draw=0.3)
    swapped = [(b, a, 1 - s) for a, b, s in games]
    assert flat(fit(swapped, anchor="B")) == pytest.approx(flat(fit(games, anchor="B")))


def test_renaming_players_renames_ratings() -> None:
    games = round_robin(random.Random(8), TRUE, 30, draw=0.3)
    rename = {"A": "C", "B": "A", "C": "B"}
    renamed = fit([(rename[a], rename[b], s) for a, b, s in games])
    original = {rename[name]: r for name, r in fit(games).items()}
    assert flat(renamed) == pytest.approx(flat(original))


def test_reversing_every_result_negates_ratings() -> None:
    games = round_robin(random.Random(9), TRUE, 30, draw=0.3)
    r, flipped = fit(games), fit([(a, b, 1 - s) for a, b, s in games])
    for name in TRUE:
        assert (flipped[name].elo, flipped[name].low) == pytest.approx(
            (-r[name].elo, -r[name].high)
        )


def test_all_wins_player_gets_a_finite_large_rating() -> None:
    games = round_robin(random.Random(10), {"B": 0.0, "C": 0.0}, 40)
    games += [("A", "B", 1.0)] * 20 + [("C", "A", 0.0)] * 20
    r = fit(games, anchor="B")
    assert math.isfinite(r["A"].elo) and math.isfinite(r["A"].low)
    assert 400 < r["A"].elo < 2000
    assert r["A"].points == r["A"].games == 40
    # The all-losses mirror image.
    flipped = fit([(a, b, 1 - s) for a, b, s in games], anchor="B")
    assert flipped["A"].elo == pytest.approx(-r["A"].elo, rel=1e-6)


def test_the_prior_is_one_virtual_draw_per_pair() -> None:
    # 10-0 plus a virtual draw is 10.5/11: by hand 400·log10(21) = +528.9 without the ridge.
    r = fit_table({("A", "B"): (10, 0, 0)}, anchor="B", prior_sd=1e9)
    assert r["A"].elo == pytest.approx(528.9, abs=0.1)
    assert (r["A"].games, r["A"].points) == (10, 10.0)  # the virtual games are not counted
    # Without the prior a perfect score has no finite maximum: only the ridge holds it.
    assert fit_table({("A", "B"): (10, 0, 0)}, anchor="B", prior_draws=0)["A"].elo > 800
    with pytest.raises(ValueError, match="prior_draws must be a number >= 0"):
        fit_table({("A", "B"): (1, 0, 0)}, prior_draws=-1)


def test_players_who_never_met_stay_finite() -> None:
    r = fit_table({("A", "B"): (10, 0, 0), ("C", "D"): (3, 4, 3)})
    assert all(math.isfinite(x.elo) and math.isfinite(x.high) for x in r.values())
    assert r["C"].elo == pytest.approx(r["D"].elo)


def test_empty_results_give_no_ratings() -> None:
    assert fit([]) == {}


@pytest.mark.parametrize("score", [2, -1, 0.25, "1", None, True])
def test_unknown_score_is_rejected(score: object) -> None:
    with pytest.raises(ValueError, match=r"expected 1 \(win\), 0.5 \(draw\) or 0 \(loss\)"):
        fit([("A", "B", 1), ("A", "B", score)])


def test_self_play_is_rejected() -> None:
    with pytest.raises(ValueError, match="cannot play against itself"):
        fit([("A", "B", 1), ("B", "B", 0.5)])
    with pytest.raises(ValueError, match="cannot play against itself"):
        fit_table({("A", "A"): (1, 0, 0)})


def test_bad_table_counts_and_prior_are_rejected() -> None:
    with pytest.raises(ValueError, match="losses must be a non-negative integer"):
        fit_table({("A", "B"): (1, 0, -2)})
    with pytest.raises(ValueError, match="prior_sd must be positive"):
        fit([("A", "B", 1)], prior_sd=0)


def test_error_messages_are_one_line() -> None:
    for call in (lambda: fit([("A", "B", 3)]), lambda: elo_difference(0, 0, 0)):
        with pytest.raises(ArenaError) as info:
            call()
        assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("wins", "losses", "low", "high"),
    # By hand (bisection on one parameter, no ridge): the scores p where
    # (W + 1/2)·ln p + (L + 1/2)·ln(1 - p) falls 1.92 below its maximum, as Elo.
    [(19, 1, 208.7, 827.6), (4, 0, -6.9, 1230.6), (6, 0, 74.7, 1291.7)],
)
def test_intervals_are_profile_likelihood_intervals(
    wins: int, losses: int, low: float, high: float
) -> None:
    r = fit_table({("A", "B"): (wins, 0, losses)}, anchor="B", prior_sd=1e9)["A"]
    assert (r.low, r.high) == pytest.approx((low, high), abs=0.1)


def test_a_sweep_s_interval_lies_above_zero() -> None:
    # The quadratic interval of 6-0 was [-44, +908]: "perhaps weaker" after six wins.
    r = fit_table({("A", "B"): (6, 0, 0)}, anchor="B")["A"]
    assert 0 < r.low < r.elo < r.high
