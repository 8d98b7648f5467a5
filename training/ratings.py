"""Ratings fitted to all arena results at once: Plackett-Luce / Bradley-Terry, pure numpy.

Each agent ``i`` has a strength ``theta_i``. A game's finishing order (by total reward,
highest first) has the Plackett-Luce probability: the winner is drawn from the seats with
probability proportional to ``exp(theta)``, then the runner-up from the rest, and so on.
With two players this is the Bradley-Terry model, ``P(a beats b) = 1 / (1 + exp(theta_b -
theta_a))``. An agent holding several seats of one game enters each with its own theta.

Ties (equal totals) are averaged over their orders: the log-likelihood of a tied group is
the mean over every order of the group, which for two players is exactly half a win each.

The fit maximises the log-likelihood of *all* games together (plus a weak prior: every
agent also drew ``prior_games`` games against a virtual agent of strength 0, so perfect
records stay finite), by Newton's method. Games are first counted by their outcome
(which agents finished in which tied groups), so the fit depends only on those counts:
shuffling the games changes nothing, bit for bit.

Ratings are reported on an Elo-like scale, ``1500 + 400 / ln(10) * (theta - mean
theta)``: 400 points apart means 10:1 odds head to head. The 95% intervals come from the
inverse of the observed information (the negative Hessian at the optimum), for the
centred ratings.

>>> from fatezoo.training.ratings import fit_ratings
>>> fit = fit_ratings(["a", "b"], [((0, 1), (1.0, 0.0))] * 3 + [((0, 1), (0.0, 1.0))],
...                   prior_games=0)
>>> round(fit["a"]["rating"] - fit["b"]["rating"], 1)  # 400 * log10(3 / 1)
190.8
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np

ELO_SCALE = 400.0 / math.log(10.0)
ELO_BASE = 1500.0
Z95 = 1.959963984540054
MAX_STEP = 4.0  # the longest Newton step of the fit, in natural-log strength (695 Elo)
MODEL = "plackett-luce"


def finishing_groups(seats, returns) -> tuple[tuple[int, ...], ...]:
    """A game's outcome: the agents grouped by equal total reward, best group first.

    Args:
        seats: the agent index in each seat.
        returns: each seat's total reward.

    Returns:
        A tuple of groups, each a sorted tuple of agent indices (an agent appears once per
        seat it held).

    >>> finishing_groups((0, 1, 0), (1.0, -1.0, 1.0))
    ((0, 0), (1,))
    """
    by_value: dict[float, list[int]] = {}
    for a, r in zip(seats, returns):
        by_value.setdefault(float(r), []).append(int(a))
    return tuple(tuple(sorted(by_value[v])) for v in sorted(by_value, reverse=True))


class _Terms:
    """The log-likelihood as ``c . theta - sum_t w_t log(m_t . exp(theta))``."""

    def __init__(self, k: int):
        self.k = k
        self.c = np.zeros(k)
        self.denoms: dict[tuple[int, ...], float] = {}

    def add_game(self, groups, count: int) -> None:
        remaining = Counter(a for g in groups for a in g)
        for group in groups:
            size = len(group)
            for a in group:  # every member is picked once, whatever the tie order
                self.c[a] += count
            # stage j of the group: the not-yet-picked members are a uniform random
            # subset of the group of size size - j; average log of the denominator over it
            rest = remaining.copy()
            for a in group:
                rest[a] -= 1
            for j in range(size):
                subsets = list(itertools.combinations(range(size), size - j))
                w = count / len(subsets)
                for sub in subsets:
                    m = rest.copy()
                    for s in sub:
                        m[group[s]] += 1
                    key = tuple(m[i] for i in range(self.k))
                    self.denoms[key] = self.denoms.get(key, 0.0) + w
            remaining = rest

    def arrays(self):
        keys = sorted(self.denoms)
        m = np.array(keys, np.float64).reshape(len(keys), self.k)
        w = np.array([self.denoms[key] for key in keys], np.float64)
        return self.c.copy(), m, w


def _objective(theta, c, m, w, prior):
    """Log posterior, gradient and Hessian at ``theta``."""
    # each denominator scaled by its own strongest member: no term underflows to 0,
    # however far apart the strengths are
    top = np.where(m > 0, theta, -np.inf).max(1)  # (T,)
    z = np.where(m > 0, m * np.exp(np.minimum(theta - top[:, None], 0.0)), 0.0)
    s = z.sum(1)  # >= 1: the strongest member's own term
    p = z / s[:, None]
    logs = np.log(s) + top
    f = c @ theta - w @ logs
    g = c - w @ p
    h = -(np.diag(w @ p) - (p * w[:, None]).T @ p)
    if prior > 0:  # prior_games draws against a virtual agent of strength 0
        sig = 0.5 * (1.0 + np.tanh(0.5 * theta))  # the logistic function, never overflowing
        f += prior * np.sum(0.5 * theta - np.logaddexp(0.0, theta))
        g = g + prior * (0.5 - sig)
        h = h - np.diag(prior * sig * (1.0 - sig))
    return f, g, h


def fit_ratings(labels, games, prior_games: float = 1.0, max_iter: int = 200) -> dict:
    """Fit Plackett-Luce strengths to every game at once (see the module docs).

    Args:
        labels: one name per agent.
        games: iterable of ``(seats, returns)``: the agent index in each seat and each
            seat's total reward. Seats held by the same agent are not compared.
        prior_games: virtual drawn games of each agent against strength 0 (> 0 keeps
            perfect records finite; 0 is the plain maximum-likelihood fit).
        max_iter: Newton iterations at most.

    Returns:
        label -> ``rating`` (Elo-like, mean 1500), ``se`` (its standard error), ``ci``
        ([low, high] 95%), ``theta`` (natural-log strength, centred).

    Raises:
        ValueError: fewer than 2 agents, a bad agent index, or (with no prior) results
            that do not pin the ratings down (an unbeaten agent).
    """
    outcomes: Counter = Counter()
    for seats, returns in games:
        if len(seats) != len(returns):
            raise ValueError(f"a game needs one return per seat, got seats {seats!r} and "
                             f"returns {returns!r}")
        outcomes[finishing_groups(seats, returns)] += 1
    return fit_outcomes(labels, outcomes, prior_games, max_iter)


def fit_outcomes(labels, outcomes, prior_games: float = 1.0, max_iter: int = 200,
                 anchors: dict | None = None) -> dict:
    """:func:`fit_ratings` from outcome counts: ``{finishing_groups(...): games}``.

    ``anchors``: label -> rating held fixed (a fixed scale: ``fatezoo eval`` rates an agent
    against its suite's declared ratings). The other agents are fitted around them and
    nothing is re-centred; an anchor's ``se`` is 0. None: every agent is free and the
    ratings have mean 1500.
    """
    labels = list(labels)
    k = len(labels)
    if k < 2:
        raise ValueError(f"ratings need at least 2 agents, got {k}")
    if not (isinstance(prior_games, (int, float)) and math.isfinite(prior_games)
            and prior_games >= 0):
        raise ValueError(f"prior_games must be a finite number >= 0, got {prior_games!r}")
    anchors = dict(anchors or {})
    for lab, rating in anchors.items():
        if lab not in labels or not math.isfinite(rating):
            raise ValueError(f"anchor {lab!r}: {rating!r} must be a finite rating of one of "
                             f"{labels}")
    for groups in outcomes:
        for a in (a for g in groups for a in g):
            if not 0 <= a < k:
                raise ValueError(f"agent index {a!r} is out of range [0, {k})")
    terms = _Terms(k)
    for groups in sorted(outcomes):  # sorted: the fit never sees the game order
        if len({a for g in groups for a in g}) > 1:  # one agent alone tells nothing
            terms.add_game(groups, int(outcomes[groups]))
    c, m, w = terms.arrays()
    fixed = np.array([lab in anchors for lab in labels])
    free = ~fixed
    theta = np.array([(anchors[lab] - ELO_BASE) / ELO_SCALE if lab in anchors else 0.0
                      for lab in labels])
    f, g, h = _objective(theta, c, m, w, prior_games)
    if not len(w) and prior_games == 0:
        raise ValueError("no games between different agents to fit ratings to")
    converged = False
    for _ in range(max_iter):
        step = np.zeros(k)
        step[free] = np.linalg.pinv(-h[np.ix_(free, free)]) @ g[free]
        # far from the optimum the curvature all but vanishes (an agent rated 3,000 Elo
        # above its opponents) and a Newton step can jump thousands of Elo: it is cut to
        # MAX_STEP, and the line search below keeps each step an improvement
        longest = np.max(np.abs(step))
        if longest > MAX_STEP:
            step *= MAX_STEP / longest
        t = 1.0
        while True:  # backtracking line search: the objective is concave
            cand = theta + t * step
            fc, gc, hc = _objective(cand, c, m, w, prior_games)
            if fc >= f - 1e-12 or t < 1e-8:
                break
            t *= 0.5
        theta, f, g, h = cand, fc, gc, hc
        if np.max(np.abs(t * step)) < 1e-10:
            converged = True
            break
    info = np.linalg.eigvalsh(-h[np.ix_(free, free)])  # ascending
    # with no prior and no anchor one eigenvalue is 0 (a common shift)
    weakest = info[1] if prior_games == 0 and not anchors else info[0] if len(info) else 1.0
    if not converged or weakest <= 1e-9 * max(1.0, float(w.sum())) \
            or np.max(np.abs(theta)) > 30:
        raise ValueError("the ratings do not converge: an agent won (or lost) every game; "
                         "fit with prior_games > 0")
    if anchors:
        cov = np.zeros((k, k))
        cov[np.ix_(free, free)] = np.linalg.pinv(-h[np.ix_(free, free)])
    else:
        theta = theta - theta.mean()
        centre = np.eye(k) - 1.0 / k
        cov = centre @ np.linalg.pinv(-h) @ centre
    se = np.sqrt(np.clip(np.diag(cov), 0.0, None)) * ELO_SCALE
    out = {}
    for i, lab in enumerate(labels):
        rating = float(anchors[lab]) if lab in anchors else ELO_BASE + ELO_SCALE * float(theta[i])
        s = float(se[i])
        out[lab] = {"rating": rating, "se": s, "ci": [rating - Z95 * s, rating + Z95 * s],
                    "theta": float(theta[i])}
    return out
