"""Arena ratings: Elo and its interval, LOS, SPRT and the Bradley-Terry fit."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardai.arena.ratings import (
    SprtSpec, bradley_terry, elo_estimate, elo_from_score, los, score_from_elo, sprt,
)


def test_elo_interval_and_los_match_hand_computed_values():
    # 60 wins, 30 losses, 10 draws.  By hand:
    #   score p = (60 + 10/2) / 100 = 0.65;  Elo = 400 log10(0.65 / 0.35) = 107.54
    #   per-game variance = (60 * 0.35^2 + 10 * 0.15^2 + 30 * 0.65^2) / 100 = 0.2025
    #   standard error 0.45 / 10 = 0.045;  p +- 1.96 * 0.045 = 0.5618 .. 0.7382
    #   -> Elo 400 log10(0.5618 / 0.4382) = 43.16 .. 400 log10(0.7382 / 0.2618) = 180.08
    #   half-width (180.08 - 43.16) / 2 = 68.46;  LOS = (1 + erf(30 / sqrt(180))) / 2 = 0.99922
    e = elo_estimate(60, 30, 10)
    assert e.games == 100 and e.score == pytest.approx(0.65)
    assert e.elo == pytest.approx(107.54, abs=0.01)
    assert e.elo_low == pytest.approx(43.16, abs=0.01)
    assert e.elo_high == pytest.approx(180.08, abs=0.01)
    assert e.ci95 == pytest.approx(68.46, abs=0.01)
    assert e.los == pytest.approx(0.99922, abs=1e-5)


def test_even_match_and_one_sided_match():
    even = elo_estimate(10, 10, 0)
    assert even.elo == 0.0 and even.los == 0.5
    # 10 games, 5-5: p = 0.5, variance 0.25, se = 0.5/sqrt(20); 1.96 * 0.1118 = 0.2191
    assert even.elo_high == pytest.approx(400 * math.log10(0.7191 / 0.2809), abs=0.05)
    sweep = elo_estimate(8, 0, 0)
    assert sweep.elo == math.inf and sweep.ci95 == math.inf


@given(st.integers(0, 200), st.integers(0, 200), st.integers(0, 200))
def test_swapping_sides_negates_elo(w, lo, d):
    if w + lo + d == 0:
        return
    a, b = elo_estimate(w, lo, d), elo_estimate(lo, w, d)
    assert a.score + b.score == pytest.approx(1.0)
    if math.isfinite(a.elo):
        assert a.elo == pytest.approx(-b.elo, abs=1e-9)
        assert a.elo_low <= a.elo <= a.elo_high
    assert a.los + b.los == pytest.approx(1.0) or w + lo == 0


@given(st.floats(-1500, 1500))
def test_score_and_elo_are_inverse(elo):
    assert elo_from_score(score_from_elo(elo)) == pytest.approx(elo, abs=1e-6)


def test_los_counts_only_decisive_games():
    assert los(0, 0) == 0.5
    assert los(12, 4) == pytest.approx(0.5 * (1 + math.erf(8 / math.sqrt(32))))


def test_sprt_decides_lopsided_results_and_waits_on_even_ones():
    spec = SprtSpec(elo0=0, elo1=50)
    assert sprt(30, 2, 0, spec).verdict == "H1"
    assert sprt(2, 30, 0, spec).verdict == "H0"
    assert sprt(5, 5, 0, spec).verdict is None
    # by hand: s1 = 1 / (1 + 10^(-50/400)) = 0.57146; a win adds ln(0.57146 / 0.5) = 0.13359,
    # a loss ln(0.42854 / 0.5) = -0.15423: 30 wins and 2 losses give 4.0078 - 0.3085 = 3.6993
    assert sprt(30, 2, 0, spec).llr == pytest.approx(3.6993, abs=1e-3)
    # bounds: log(beta / (1 - alpha)) and log((1 - beta) / alpha) = -+log(19) at 5% / 5%
    assert spec.upper == pytest.approx(math.log(19)) and spec.lower == pytest.approx(-math.log(19))


@pytest.mark.parametrize("text,message", [
    ("elo0=0,elo1=x", "not a number"),
    ("elo2=3", "elo0=0,elo1=20"),
    ("elo0=10,elo1=5", "elo1 > elo0"),
    ("alpha=0.7", "between 0 and 0.5"),
])
def test_sprt_settings_errors_say_what_is_accepted(text, message):
    with pytest.raises(ValueError, match=message):
        SprtSpec.parse(text)


def test_sprt_parse_keeps_defaults():
    assert SprtSpec.parse("elo1=30") == SprtSpec(elo0=0, elo1=30, alpha=0.05, beta=0.05)


def test_bradley_terry_of_two_engines_is_the_match_elo():
    points = np.array([[0, 65.0], [35.0, 0]])
    games = np.array([[0, 100.0], [100.0, 0]])
    a, b = bradley_terry(["a", "b"], points, games, prior_draws=0)
    assert a.elo == 0.0 and a.ci95 == 0.0                 # the anchor
    assert b.elo == pytest.approx(-elo_estimate(60, 30, 10).elo, abs=1e-6)
    # binomial interval in logistic units: 1.96 / sqrt(n p (1 - p)) natural units
    expected = 1.959964 / math.sqrt(100 * 0.65 * 0.35) * 400 / math.log(10)
    assert b.ci95 == pytest.approx(expected, rel=1e-4)
    assert (a.games, a.score, b.score) == (100, 0.65, 0.35)


def test_bradley_terry_recovers_ratings_of_a_large_consistent_round_robin():
    true = np.array([0.0, 150.0, -200.0])
    n = 10000.0
    points = np.zeros((3, 3))
    games = np.full((3, 3), n) - np.diag([n] * 3)
    for i in range(3):
        for j in range(3):
            if i != j:
                points[i, j] = n * score_from_elo(true[i] - true[j])
    ratings = bradley_terry(["x", "y", "z"], points, games, prior_draws=0)
    assert [r.elo for r in ratings] == pytest.approx(list(true), abs=1e-6)


def test_bradley_terry_stays_finite_when_one_engine_wins_everything():
    points = np.array([[0, 10.0], [0.0, 0]])
    games = np.array([[0, 10.0], [10.0, 0]])
    ratings = bradley_terry(["strong", "weak"], points, games)
    assert math.isfinite(ratings[1].elo) and ratings[1].elo < -300
    assert math.isfinite(ratings[1].ci95)


def test_a_sweep_is_reported_as_not_finite_with_its_bound():
    # 10 games all won: 0.025 ** (1/10) = 0.6915 is the least score at 95% -> Elo >= +140
    import io

    from rich.console import Console

    from boardai.arena.match import MatchScore
    from boardai.arena.report import elo_text, print_score, sweep_bound

    assert sweep_bound(10) == pytest.approx(400 * math.log10(0.6915 / 0.3085), abs=0.5)
    score = MatchScore("mcts", "random")
    score.by_colour["black"] = [5, 0, 0]
    score.by_colour["white"] = [5, 0, 0]
    assert elo_text(score) == "not finite (A won every game; at least +140)"
    out = io.StringIO()
    print_score(Console(file=out, width=200), score, "10 games", 0)
    line = [t for t in out.getvalue().splitlines() if "Elo" in t][0]
    assert "Elo difference (A - B): not finite (A won every game; at least +140) (95%)" in line
    assert "inf" not in line
    lost = MatchScore("random", "mcts")
    lost.by_colour["black"] = [0, 3, 0]
    assert elo_text(lost) == f"not finite (B won every game; at most {-sweep_bound(3):+.0f})"
