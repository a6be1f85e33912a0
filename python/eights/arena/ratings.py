"""Ratings of a tournament: pairwise wins per deal (the winner of a game beats every other
seat, a game without a winner is half a win each way), Bradley-Terry strengths on the Elo
scale, and their 95% intervals from a bootstrap over deals."""

from __future__ import annotations

import itertools
from typing import Dict, List, Sequence

import numpy as np

from .run import rotation_table

__all__ = ["bradley_terry", "pair_wins_per_deal", "rating_intervals"]


def bradley_terry(wins: np.ndarray, prior: float = 0.5, iterations: int = 10000, tol: float = 1e-9) -> np.ndarray:
    """Bradley-Terry strengths on the Elo scale from a matrix of wins.

    ``wins[i, j]`` is how often ``i`` beat ``j`` (ties count half to each); a stack of
    matrices ``(..., k, k)`` is fitted at once. ``prior`` virtual wins are added both ways
    between every pair that met, so a clean sweep gives a large but finite rating gap.
    Fitted with Hunter's MM algorithm; returns ratings ``400 * log10(strength)`` with the
    first agent at 0.
    """
    w = np.asarray(wins, float)
    single = w.ndim == 2
    w = np.atleast_3d(w) if not single else w[None]
    met = (w + np.swapaxes(w, -1, -2)) > 0
    w = w + prior * met
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


def rating_intervals(per_table: List[np.ndarray], deals: int, seed: int, bootstrap: int) -> np.ndarray:
    """95% intervals ``(k, 2)`` of the ratings from ``bootstrap`` resamples of the deals
    (drawn table by table from a generator seeded from ``seed``), each resample fitted
    with :func:`bradley_terry`."""
    k = per_table[0].shape[-1]
    rng = np.random.default_rng([seed, 0xB7])
    resampled = np.zeros((bootstrap, k * k))
    for p in per_table:
        counts = rng.multinomial(deals, np.full(deals, 1.0 / deals), size=bootstrap)
        resampled += counts @ p.reshape(deals, k * k)
    boot = bradley_terry(resampled.reshape(bootstrap, k, k))
    return np.stack([np.percentile(boot, 2.5, axis=0), np.percentile(boot, 97.5, axis=0)], axis=1)
