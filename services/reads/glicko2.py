"""Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013), one game per rating period, and the Plackett–Luce
model of OpenSkill for three or more seats, both on the Glicko scale (1500, RD 350).

A rating is ``Skill(rating, rd, volatility)``. Two seats: the paper's algorithm as written (steps 1–8, the
volatility by the Illinois method). Three or more: OpenSkill's ``PlackettLuce`` on
``mu = 25 + (rating − 1500) / 42`` and ``sigma = rd / 42``: 42 = 350 / (25/3) maps both starting points onto
each other, and OpenSkill's performance spread (beta = 25/6, × 42 = 175) is Glicko's (400 / ln 10 ≈ 174), so a
rating means the same in both.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

START, START_RD, START_VOLATILITY = 1500.0, 350.0, 0.06
TAU = 0.5  # the system constant: how much the volatility may change (the paper's example uses 0.5)
SCALE = 173.7178  # 400 / ln 10
OPENSKILL_SCALE = 42.0
EPSILON = 0.000001


@dataclass(frozen=True)
class Skill:
    rating: float = START
    rd: float = START_RD
    volatility: float = START_VOLATILITY


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def rate(player: Skill, games: list[tuple[Skill, float]], tau: float = TAU) -> Skill:
    """``player`` after one rating period of ``games``: (opponent, score) with score 1 win, 0.5 draw, 0 loss."""
    mu, phi, sigma = (player.rating - START) / SCALE, player.rd / SCALE, player.volatility
    if not games:  # step 6 alone: the deviation grows
        return Skill(player.rating, min(START_RD, math.sqrt(phi * phi + sigma * sigma) * SCALE), sigma)
    opponents = [((o.rating - START) / SCALE, o.rd / SCALE, s) for o, s in games]
    v = 1 / sum(_g(pj) ** 2 * _e(mu, mj, pj) * (1 - _e(mu, mj, pj)) for mj, pj, _ in opponents)
    improvement = sum(_g(pj) * (s - _e(mu, mj, pj)) for mj, pj, s in opponents)
    delta = v * improvement
    sigma = _volatility(phi, sigma, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    mu_new = mu + phi_new * phi_new * improvement
    return Skill(mu_new * SCALE + START, min(START_RD, phi_new * SCALE), sigma)


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, the root of f by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        gain = ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2)
        return gain - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = c, f_c
    return math.exp(big_a / 2)


def two_seats(a: Skill, b: Skill, score_a: float) -> tuple[Skill, Skill]:
    """Both players after one game between them (``score_a``: 1, 0.5 or 0 for ``a``)."""
    return rate(a, [(b, score_a)]), rate(b, [(a, 1 - score_a)])


def many_seats(skills: list[Skill], ranks: list[int]) -> list[Skill]:
    """Every seat after one game of three or more (``ranks``: 1 for the winners, ties share a rank), by
    OpenSkill's Plackett–Luce model on the Glicko scale; volatilities are left as they are."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    teams = [[model.rating(mu=25 + (s.rating - START) / OPENSKILL_SCALE, sigma=s.rd / OPENSKILL_SCALE)]
             for s in skills]
    rated = model.rate(teams, ranks=ranks)
    return [Skill(START + (team[0].mu - 25) * OPENSKILL_SCALE, min(START_RD, team[0].sigma * OPENSKILL_SCALE),
                  s.volatility) for team, s in zip(rated, skills)]
