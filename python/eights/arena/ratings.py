"""Ratings of a tournament: pairwise wins per deal (the winner of a game beats every other
seat, a game without a winner is half a win each way), Bradley-Terry strengths on the Elo
scale, and their 95% intervals: a bootstrap over deals, and the profile likelihood of the
same fit for the agents of a pair that the bootstrap cannot bound (a sweep)."""

from __future__ import annotations

import itertools
import math
import numbers
from typing import Any, Dict, Iterable, List, Sequence, Tuple

import numpy as np

from .._utils.checks import as_int, as_real, describe
from .run import rotation_table

__all__ = ["bradley_terry", "pair_wins_per_deal", "profile_intervals", "rating_intervals", "sweep_pairs"]

#: Elo points per unit of natural-log strength.
_ELO = 400.0 / math.log(10.0)
#: How far the log-likelihood falls at the ends of a 95% profile-likelihood interval: half
#: the 95% quantile of the chi-squared distribution with one degree of freedom.
_HALF_CHI2_95 = 3.841458820694124 / 2
#: A pair is "nearly a sweep" for the bootstrap when at least this share of its resamples is
#: one: the percentile interval's end on that side is then the prior's, not the games'.
_SWEEP_SHARE = 0.025
#: The largest win count (and ``prior``) a fit takes: 2**53, the last integer a float64
#: holds exactly, far beyond any tournament's counts (``MAX_DEALS`` deals per table) and far
#: below where the sums of the fit overflow (1e308 gave NaN ratings).
_MAX_COUNT = float(2**53)


def _check_wins(wins: Any, stack: bool = False) -> np.ndarray:
    """``wins`` as a float array: a square matrix ``(k, k)`` (with ``stack``, or a stack
    ``(..., k, k)``) of at least one agent, of finite counts in ``[0, 2**53]``;
    ``TypeError`` for what is not an array of numbers, ``ValueError`` naming ``wins``."""
    what = "a square matrix of finite counts (k, k)" + (" or a stack of them (..., k, k)" if stack else "")
    try:
        w = np.asarray(wins, dtype=float)
    except (TypeError, ValueError):  # strings, ragged lists, None inside
        raise TypeError(f"wins must be {what}, got {describe(wins)}") from None
    if w.ndim < 2 or (w.ndim > 2 and not stack) or w.shape[-1] != w.shape[-2] or w.shape[-1] == 0:
        raise ValueError(f"wins must be {what} with at least one agent, got shape {w.shape}")
    bad = ~(np.isfinite(w) & (w >= 0) & (w <= _MAX_COUNT))
    if bad.any():
        raise ValueError(f"wins must be a square matrix of finite counts in [0, 2**53], got {w[bad].flat[0]}")
    return w


def bradley_terry(wins: np.ndarray, prior: float = 0.5, iterations: int = 10000, tol: float = 1e-9) -> np.ndarray:
    """Bradley-Terry strengths on the Elo scale from a matrix of wins.

    ``wins[i, j]`` is how often ``i`` beat ``j`` (ties count half to each); a stack of
    matrices ``(..., k, k)`` is fitted at once. ``prior`` virtual wins are added both ways
    between every pair that met, so a clean sweep gives a large but finite rating gap.
    Fitted with Hunter's MM algorithm; returns ratings ``400 * log10(strength)`` with the
    first agent at 0.

    Raises:
        ValueError: ``wins`` is not a square matrix (or a stack of them) of finite counts in
            ``[0, 2**53]``; ``prior`` outside ``[0, 2**53]``, ``tol`` below 0 or not finite,
            ``iterations`` outside ``[1, 10**7]``.
        TypeError: arguments of the wrong type.
    """
    w = _check_wins(wins, stack=True)
    prior = _check_prior(prior)
    iterations = as_int(iterations, "iterations", 1, 10**7)
    tol = as_real(tol, "tol")
    if tol < 0:
        raise ValueError(f"tol must be a finite number >= 0, got {tol}")
    single = w.ndim == 2
    w = _with_prior(np.atleast_3d(w) if not single else w[None], prior)
    games = w + np.swapaxes(w, -1, -2)
    total = w.sum(axis=-1)
    p = np.ones(total.shape)
    for _ in range(iterations):
        denom = (games / (p[..., :, None] + p[..., None, :])).sum(axis=-1)
        new = np.where(denom > 0, total / np.where(denom > 0, denom, 1.0), p)
        new = np.maximum(new, 1e-300)
        new /= np.exp(np.mean(np.log(new), axis=-1, keepdims=True))
        done = np.max(np.abs(np.log(new) - np.log(p))) < tol
        p = new
        if done:
            break
    r = 400.0 * np.log10(p)
    r = r - r[..., :1]
    return r[0] if single else r


def _check_prior(prior: Any) -> float:
    prior = as_real(prior, "prior")
    if not 0 <= prior <= _MAX_COUNT:  # a larger prior overflows the fit's sums
        raise ValueError(f"prior must be a finite number in [0, 2**53], got {prior}")
    return prior


def _with_prior(w: np.ndarray, prior: float) -> np.ndarray:
    """``w`` with ``prior`` virtual wins added both ways between every pair that met."""
    met = (w + np.swapaxes(w, -1, -2)) > 0
    return w + prior * met


def sweep_pairs(wins: np.ndarray) -> List[Tuple[int, int]]:
    """The pairs ``(i, j)`` where ``i`` won every game the two played (``wins[i, j] > 0``,
    ``wins[j, i] == 0``; a tie counts half to each, so it breaks a sweep)."""
    w = _check_wins(wins)
    k = w.shape[0]
    return [(i, j) for i in range(k) for j in range(k) if i != j and w[i, j] > 0 and w[j, i] == 0]


def _log_likelihood(x: np.ndarray, w: np.ndarray) -> float:
    """The Bradley-Terry log-likelihood of natural-log strengths ``x`` for wins ``w``."""
    return float(-(w * np.logaddexp(0.0, x[None, :] - x[:, None])).sum())


def _maximise(x: np.ndarray, w: np.ndarray, free: np.ndarray) -> Tuple[np.ndarray, float]:
    """Newton's method on the strengths ``x[free]``, the others held: the log-likelihood is
    concave, and every pair meets, so each step solves a definite system; a step that would
    lower the likelihood is halved."""
    n = w + w.T
    like = _log_likelihood(x, w)
    for _ in range(200):
        if len(free) == 0:
            break
        p = 1.0 / (1.0 + np.exp(x[None, :] - x[:, None]))
        grad = (w - n * p).sum(axis=1)
        v = n * p * (1.0 - p)
        hess = v - np.diag(v.sum(axis=1))
        step = np.linalg.solve(hess[np.ix_(free, free)], -grad[free])
        scale = 1.0
        while True:
            y = x.copy()
            y[free] += scale * step
            new = _log_likelihood(y, w)
            if new >= like - 1e-12 or scale < 1e-6:
                break
            scale /= 2
        x, like = y, max(new, like)
        if np.max(np.abs(scale * step)) < 1e-10:
            break
    return x, like


def profile_intervals(wins: np.ndarray, prior: float = 0.5, agents: Sequence[int] = ()) -> np.ndarray:
    """95% profile-likelihood intervals ``(k, 2)`` of the ratings :func:`bradley_terry` fits
    (Elo scale, the first agent at 0), for the agents listed (indices in ``[0, k - 1]``, each
    once; all but the first when none are; the others' rows are NaN).

    Agent ``a``'s interval holds the ratings ``t`` where the highest likelihood with ``a``
    held at ``t`` (every other agent refitted) is within half the 95% chi-squared quantile
    of the fit's (the virtual wins of ``prior`` included, so a sweep gets a finite interval
    above its point, set by the virtual loss). Games count as independent: wins are what
    the likelihood sees, not deals. The pairs that met must link every agent to every other
    (at a table of three, two agents the third always beat never meet, and need not).
    """
    raw = _check_wins(wins)
    prior = _check_prior(prior)
    chosen = _check_agents(agents, raw.shape[0])
    if prior == 0 and sweep_pairs(raw):
        raise ValueError("with prior=0 a sweep's rating gap has no finite fit: give a prior > 0")
    w = _with_prior(raw, prior)
    k = w.shape[0]
    apart = _unreached((w + w.T) > 0)
    if apart:
        raise ValueError(
            f"profile_intervals needs the pairs that played to link every agent to agent 0; agents {apart} "
            "are not linked (their ratings have no common scale)"
        )
    best = bradley_terry(wins, prior=prior) / _ELO
    top = _log_likelihood(best, w)
    out = np.full((k, 2), np.nan)
    out[0] = 0.0
    for a in chosen or range(1, k):
        if a != 0:
            free = np.array([i for i in range(1, k) if i != a], dtype=np.int64)
            out[a] = [_profile_end(best, w, free, a, sign, top) * _ELO for sign in (-1.0, 1.0)]
    return out


def _check_agents(agents: Any, k: int) -> List[int]:
    """``agents`` of :func:`profile_intervals` as a list of ints: agent indices (rows of the
    ``k``-agent ``wins``; 0, the anchor, has the interval ``[0, 0]``), each listed once, read
    one at a time. ``TypeError`` for what is not a list of integers (a bool included: it
    indexed every row); ``ValueError`` for an index out of ``[0, k - 1]`` or listed twice
    (before: an ``IndexError``, a singular matrix for -1, numpy errors for floats)."""
    what = f"a list of agent indices (int) in [0, {k - 1}], the rows of wins"
    if agents is None:
        return []
    if isinstance(agents, (str, bytes)) or not isinstance(agents, Iterable):
        raise TypeError(f"agents must be {what}, got {describe(agents)}")
    out: List[int] = []
    for i, a in enumerate(agents):
        if isinstance(a, (bool, np.bool_)) or not isinstance(a, numbers.Integral):
            raise TypeError(f"agents must be {what}, got {describe(a)} at agents[{i}]")
        index = int(a)
        if not 0 <= index < k:
            raise ValueError(
                f"agents must be agent indices in [0, {k - 1}] (the rows of wins), got {index} at agents[{i}]"
            )
        if index in out:  # each agent's profile is computed once; at most k entries are read
            raise ValueError(f"agent {index} is listed twice in agents; list each agent once")
        out.append(index)
    return out


def _unreached(met: np.ndarray) -> List[int]:
    """The agents that no chain of pairs that ``met`` links to agent 0."""
    seen, todo = {0}, [0]
    while todo:
        i = todo.pop()
        for j in np.flatnonzero(met[i]):
            if int(j) not in seen:
                seen.add(int(j))
                todo.append(int(j))
    return [i for i in range(met.shape[0]) if i not in seen]


def _profile_end(best: np.ndarray, w: np.ndarray, free: np.ndarray, a: int, sign: float, top: float) -> float:
    """The end of agent ``a``'s profile-likelihood interval on the side ``sign``: doubling
    steps out from the fit until the likelihood has fallen far enough, then bisection to
    1e-5 (a thousandth of an Elo point); the profile is concave, so there is one crossing."""
    x = best.copy()

    def fallen(t: float) -> bool:
        nonlocal x
        x[a] = t
        x, like = _maximise(x, w, free)
        return top - like >= _HALF_CHI2_95

    inner, reach = best[a], 1.0
    while not fallen(best[a] + sign * reach):
        # Every pair holds a virtual loss, so the profile falls without bound: this ends.
        if reach > 2.0**20:
            return math.inf * sign
        inner, reach = best[a] + sign * reach, 2 * reach
    outer = best[a] + sign * reach
    while abs(outer - inner) > 1e-5:
        mid = (inner + outer) / 2
        if fallen(mid):
            outer = mid
        else:
            inner = mid
    return float((inner + outer) / 2)


def pair_wins_per_deal(res: Dict[str, np.ndarray], idx: Sequence[int], k: int, deals: int) -> np.ndarray:
    """Pairwise wins of one table (``idx``: the tournament's agent at each table entry), per
    deal: shape (deals, k, k)."""
    n = len(idx)
    entry = rotation_table(n)
    out = np.zeros((deals, k, k))
    for g in range(len(res["winner"])):
        d = g // n
        r = int(res["rotation"][g])
        w = int(res["winner"][g])
        if w < 0:
            for a, b in itertools.permutations(range(n), 2):
                out[d, idx[a], idx[b]] += 0.5
            continue
        win = int(entry[r, w])
        for b in range(n):
            if b != win:
                out[d, idx[win], idx[b]] += 1.0
    return out


#: Counts of deals drawn in one part of a table's resamples (:func:`rating_intervals`): 128 MiB.
RESAMPLE_PART = 1 << 24
#: The most deal counts the bootstrap of one tournament draws deal by deal (resamples times
#: deals times tables; at about 75 ns a count, some twenty minutes): past it the deals are
#: resampled through their distinct outcomes (:func:`rating_intervals`).
MAX_RESAMPLE_COUNTS = 16_000_000_000


def rating_intervals(
    per_table: List[np.ndarray], deals: int, seed: int, bootstrap: int
) -> Tuple[np.ndarray, List[int]]:
    """95% intervals ``(k, 2)`` of the ratings from ``bootstrap`` resamples of the deals
    (drawn table by table from a generator seeded from ``seed``), each resample fitted
    with :func:`bradley_terry`, and the agents whose interval is widened to the profile
    likelihood's (:func:`profile_intervals`).

    A pair where one agent won every game is the same sweep in every resample, and one that
    is a sweep in at least 2.5% of them puts a percentile at the sweep's gap, which the
    fit's prior sets: for both agents of such a pair the interval is widened to cover the
    profile-likelihood interval (the first agent's stays 0).
    """
    k = per_table[0].shape[-1]
    rng = np.random.default_rng([seed, 0xB7])
    resampled = np.zeros((bootstrap, k * k))
    # The resamples of a table in parts of at most RESAMPLE_PART counts, drawn in the same
    # order from the same stream as in one call (so the same numbers): one call held a
    # (bootstrap, deals) matrix, 745 GiB at 10**6 resamples of 10**5 deals, and ran seconds
    # deaf to Ctrl-C; Python's signal handlers run between the parts.
    #
    # Past MAX_RESAMPLE_COUNTS in all (10**6 resamples of 10**5 deals would take hours), a
    # table's deals are resampled through their distinct outcomes instead: drawing deals
    # uniformly and counting each outcome is drawing the outcomes in proportion to their
    # counts, so the resamples follow the same law at a cost set by the few outcomes a table
    # has, not by its deals (other numbers for a seed, hence only there).
    by_outcome = deals * bootstrap * len(per_table) > MAX_RESAMPLE_COUNTS
    for p in per_table:
        flat = p.reshape(deals, k * k)
        if by_outcome:
            flat, freq = np.unique(flat, axis=0, return_counts=True)
            probs = freq / deals
        else:
            probs = np.full(deals, 1.0 / deals)
        rows = max(1, RESAMPLE_PART // len(probs))
        for lo in range(0, bootstrap, rows):
            hi = min(bootstrap, lo + rows)
            counts = rng.multinomial(deals, probs, size=hi - lo)
            resampled[lo:hi] += counts @ flat
    stack = resampled.reshape(bootstrap, k, k)
    boot = bradley_terry(stack)
    ci = np.stack([np.percentile(boot, 2.5, axis=0), np.percentile(boot, 97.5, axis=0)], axis=1)
    swept = ((stack > 0) & (np.swapaxes(stack, 1, 2) == 0)).mean(axis=0) >= _SWEEP_SHARE
    widen = sorted({int(i) for pair in np.argwhere(swept | swept.T) for i in pair} - {0})
    wins = sum(p.sum(axis=0) for p in per_table)
    if widen and not _unreached((wins + wins.T) > 0):  # else no common scale: the bootstrap's, as it is
        prof = profile_intervals(wins, agents=widen)
        ci[widen, 0] = np.minimum(ci[widen, 0], prof[widen, 0])
        ci[widen, 1] = np.maximum(ci[widen, 1], prof[widen, 1])
    return ci, widen
