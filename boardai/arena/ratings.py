"""Ratings from game results: Elo difference with a 95% interval, LOS, SPRT, Bradley-Terry MLE.

Scores are from the first engine's view: a win 1, a draw 1/2, a loss 0.  The Elo difference of a
score ``p`` is the logistic one, ``400 * log10(p / (1 - p))``.  Its interval maps the normal
interval of the mean score (per-game variance from the win/draw/loss counts) through the same
curve, so it is asymmetric in Elo; ``ci95`` is half its width.  A side that scored everything has
no finite Elo: ``elo`` is then ``inf``/``-inf`` and the interval unbounded (JSON ``null``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054          # two-sided 95% normal quantile


def elo_from_score(p: float) -> float:
    """Logistic Elo difference for an expected score ``p`` in [0, 1] (+-inf at the ends)."""
    if p <= 0.0:
        return -math.inf
    if p >= 1.0:
        return math.inf
    return 400.0 * math.log10(p / (1.0 - p))


def score_from_elo(elo: float) -> float:
    """Expected score of the side that is ``elo`` points stronger."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


@dataclass(frozen=True)
class EloEstimate:
    """A two-engine match summary: score, Elo with its 95% interval, likelihood of superiority."""

    wins: int
    losses: int
    draws: int
    score: float        # mean score per game, in [0, 1]
    elo: float          # may be +-inf
    elo_low: float
    elo_high: float
    los: float          # probability that the first engine is the stronger one

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def ci95(self) -> float:
        """Half-width of the 95% interval (inf when it is unbounded)."""
        return (self.elo_high - self.elo_low) / 2.0


def score_stats(wins: int, losses: int, draws: int) -> tuple[float, float]:
    """Mean score per game and the per-game variance of the score (trinomial)."""
    n = wins + losses + draws
    if n == 0:
        return 0.5, 0.0
    p = (wins + 0.5 * draws) / n
    var = (wins * (1.0 - p) ** 2 + draws * (0.5 - p) ** 2 + losses * p ** 2) / n
    return p, var


def los(wins: int, losses: int) -> float:
    """Likelihood of superiority: 1/2 (1 + erf((W - L) / sqrt(2 (W + L)))); draws do not count."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


def elo_estimate(wins: int, losses: int, draws: int) -> EloEstimate:
    """Elo difference of a match and its 95% interval from its win/loss/draw counts."""
    n = wins + losses + draws
    p, var = score_stats(wins, losses, draws)
    if n == 0:
        return EloEstimate(0, 0, 0, 0.5, 0.0, -math.inf, math.inf, 0.5)
    half = Z95 * math.sqrt(var / n)
    low, high = elo_from_score(p - half), elo_from_score(p + half)
    if var == 0.0:      # one side took every point (or all draws): nothing bounds the difference
        low, high = (-math.inf, math.inf) if p != 0.5 else (low, high)
    return EloEstimate(wins, losses, draws, p, elo_from_score(p), low, high, los(wins, losses))


# --- SPRT --------------------------------------------------------------------------------
@dataclass(frozen=True)
class SprtSpec:
    """H0: the Elo difference is ``elo0``; H1: it is ``elo1``; error rates ``alpha``, ``beta``."""

    elo0: float = 0.0
    elo1: float = 20.0
    alpha: float = 0.05
    beta: float = 0.05

    @classmethod
    def parse(cls, text: str) -> "SprtSpec":
        """``elo0=0,elo1=20,alpha=0.05,beta=0.05`` (any subset; the rest are defaults)."""
        values: dict[str, float] = {}
        for part in (p for p in text.split(",") if p.strip()):
            key, eq, value = part.partition("=")
            key = key.strip().lower()
            if not eq or key not in ("elo0", "elo1", "alpha", "beta"):
                raise ValueError(f"bad SPRT setting {part.strip()!r}: write elo0=0,elo1=20,"
                                 "alpha=0.05,beta=0.05 (any of these keys)")
            try:
                values[key] = float(value)
            except ValueError:
                raise ValueError(f"SPRT {key}={value.strip()!r} is not a number") from None
        spec = cls(**values)
        if not spec.elo1 > spec.elo0:
            raise ValueError(f"SPRT needs elo1 > elo0, got elo0={spec.elo0:g}, elo1={spec.elo1:g}")
        for name in ("alpha", "beta"):
            if not 0.0 < getattr(spec, name) < 0.5:
                raise ValueError(f"SPRT {name} must be between 0 and 0.5, got {getattr(spec, name):g}")
        return spec

    @property
    def lower(self) -> float:
        """Accept H0 when the log-likelihood ratio falls to this bound."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """Accept H1 when the log-likelihood ratio reaches this bound."""
        return math.log((1.0 - self.beta) / self.alpha)


@dataclass(frozen=True)
class SprtState:
    llr: float
    lower: float
    upper: float
    verdict: str | None      # None (go on), "H0" or "H1"

    def to_json(self) -> dict:
        return {"llr": round(self.llr, 4), "lower": round(self.lower, 4),
                "upper": round(self.upper, 4), "verdict": self.verdict}


def sprt(wins: int, losses: int, draws: int, spec: SprtSpec) -> SprtState:
    """Sequential probability ratio test of H1 (Elo ``elo1``) against H0 (Elo ``elo0``).

    Each hypothesis is the result distribution with the observed draw rate ``d`` and the
    expected score ``s`` of its Elo: win ``s - d/2``, loss ``1 - s - d/2``.  Draws then cancel
    out and LLR = W ln(w1 / w0) + L ln(l1 / l0), exactly Wald's test on the decisive games (Hex
    has no draws).  ``d`` is capped so that every probability stays positive.
    """
    n = wins + losses + draws
    if n == 0:
        return SprtState(0.0, spec.lower, spec.upper, None)
    s0, s1 = score_from_elo(spec.elo0), score_from_elo(spec.elo1)
    d = min(draws / n, 0.99 * 2.0 * min(s0, s1, 1.0 - s0, 1.0 - s1))
    w0, w1 = s0 - d / 2.0, s1 - d / 2.0
    l0, l1 = 1.0 - s0 - d / 2.0, 1.0 - s1 - d / 2.0
    llr = wins * math.log(w1 / w0) + losses * math.log(l1 / l0)
    verdict = "H1" if llr >= spec.upper else "H0" if llr <= spec.lower else None
    return SprtState(llr, spec.lower, spec.upper, verdict)


# --- Bradley-Terry ------------------------------------------------------------------------
@dataclass(frozen=True)
class Rating:
    engine: str
    elo: float
    ci95: float
    games: int
    score: float           # points scored / games played

    def to_json(self) -> dict:
        return {"engine": self.engine, "elo": round(self.elo, 1), "ci95": round(self.ci95, 1),
                "games": self.games, "score": round(self.score, 4)}


def bradley_terry(names: list[str], points: np.ndarray, games: np.ndarray,
                  prior_draws: float = 1.0, iterations: int = 100) -> list[Rating]:
    """Maximum-likelihood Elo ratings of a round robin, the first engine anchored at 0.

    ``points[i, j]`` is what ``i`` scored against ``j`` (draws 1/2), ``games[i, j]`` how many games
    they played.  Each pair that met also gets ``prior_draws`` virtual drawn games, which keeps
    the estimate finite when one engine won every game against another.  Newton's method on the
    log-likelihood in natural units; intervals from the inverse Fisher information with the
    anchor's row and column removed.
    """
    k = len(names)
    points = np.asarray(points, dtype=float)
    games = np.asarray(games, dtype=float)
    met = games > 0
    n = games + prior_draws * met
    s = points + 0.5 * prior_draws * met
    r = np.zeros(k)                 # ratings in natural log-odds units
    hess = np.zeros((k, k))
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(r[None, :] - r[:, None]))     # p[i, j]: i beats j
        grad = (s - n * p).sum(axis=1)
        w = n * p * (1.0 - p)
        hess = np.diag(w.sum(axis=1)) - w
        if k == 1:
            break
        step = np.linalg.lstsq(hess[1:, 1:], grad[1:], rcond=None)[0]
        r[1:] += step
        if np.max(np.abs(step)) < 1e-10:
            break
    scale = 400.0 / math.log(10.0)
    var = np.zeros(k)
    if k > 1:
        try:
            var[1:] = np.diag(np.linalg.inv(hess[1:, 1:]))
        except np.linalg.LinAlgError:
            var[1:] = np.inf
    played = games.sum(axis=1)
    out = []
    for i, name in enumerate(names):
        g = int(played[i])
        out.append(Rating(name, float(r[i] * scale), float(Z95 * math.sqrt(var[i]) * scale), g,
                          float(points[i].sum() / g) if g else 0.0))
    return out


def finite_or_none(x: float, digits: int = 1) -> float | None:
    """For JSON: a rounded number, or None for an infinite or undefined one."""
    return round(x, digits) if math.isfinite(x) else None
