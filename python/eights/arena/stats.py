"""The statistics of a match: every game's outcome per table entry, the win rate's 95%
interval (a percentile bootstrap over deals, or the Wilson interval over games when every
deal gives the same result), and :func:`summarise`, which turns a run into an
:class:`~eights.arena.report.EvalResult`."""

from __future__ import annotations

import math
from typing import Any, Dict, Sequence, Tuple

import numpy as np

from .report import EvalResult
from .run import rotation_table

__all__ = ["Z95", "bootstrap_ci", "outcomes", "per_deal", "summarise", "wilson_interval"]

#: Most distinct per-deal results resampled by their counts (see :func:`bootstrap_ci`).
_FEW_VALUES = 64

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson_interval(successes: float, trials: int, z: float = Z95) -> Tuple[float, float]:
    """Wilson score interval for a proportion (``successes`` may be fractional)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1.0 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    # At p = 0 or 1 one end is exactly 0 or 1 (rounding would leave it a hair inside).
    lo = 0.0 if p <= 0.0 else max(0.0, centre - half)
    hi = 1.0 if p >= 1.0 else min(1.0, centre + half)
    return (lo, hi)


def outcomes(res: Dict[str, np.ndarray], n: int) -> np.ndarray:
    """Per game and table entry: 1 win, 0 loss, 1/n without a winner. Shape (games, n)."""
    winner = np.asarray(res["winner"], np.int64)
    rotation = np.asarray(res["rotation"], np.int64)
    out = np.zeros((len(winner), n))
    won = winner >= 0
    out[~won, :] = 1.0 / n
    rows = np.flatnonzero(won)
    out[rows, rotation_table(n)[rotation[rows], winner[rows]]] = 1.0
    return out


def per_deal(res: Dict[str, np.ndarray], n: int) -> np.ndarray:
    """Table entry 0's mean result over the ``n`` games of each duplicate deal (its ``n``
    rotations, consecutive in ``res``), one value a deal: what paired comparisons resample."""
    return outcomes(res, n)[:, 0].reshape(-1, n).mean(axis=1)


def bootstrap_ci(per_deal: np.ndarray, rng: np.random.Generator, samples: int) -> Tuple[float, float]:
    """The 2.5 and 97.5 percentiles of the mean of ``samples`` resamples of ``per_deal``.

    A deal's result takes few values (a mean of a few games' 0, 1 or 1/n), and resampling
    ``d`` deals with replacement draws each distinct value a multinomial number of times:
    the same distribution of means as drawing ``d`` indices, in ``samples x values`` draws
    instead of ``samples x d`` (a hundredth of the time at 1,000 deals). Results with many
    distinct values are resampled by index."""
    d = len(per_deal)
    values, counts = np.unique(per_deal, return_counts=True)
    if len(values) <= _FEW_VALUES:
        means = rng.multinomial(d, counts / d, size=samples) @ values / d
    else:
        means = per_deal[rng.integers(0, d, size=(samples, d))].mean(axis=1)
    lo, hi = np.percentile(means, [2.5, 97.5])
    return float(lo), float(hi)


def _win_rate_ci(out: np.ndarray, n: int, deals: int, seed: int, bootstrap: int) -> Tuple[float, float, str]:
    per_deal = out.reshape(deals, n).mean(axis=1)
    rng = np.random.default_rng([seed, 0xC1])
    lo, hi = bootstrap_ci(per_deal, rng, bootstrap)
    if hi - lo <= 0.0:
        lo, hi = wilson_interval(float(out.sum()), len(out))
        return lo, hi, "Wilson over games"
    return lo, hi, "bootstrap over deals"


def summarise(
    names: Sequence[str],
    res: Dict[str, np.ndarray],
    preset: str,
    deals: int,
    seed: int,
    bootstrap: int,
    seconds: float,
) -> EvalResult:
    """The :class:`EvalResult` of table entry 0 (``names[0]``) in the run ``res``."""
    n = len(names)
    out = outcomes(res, n)[:, 0]
    games = len(out)
    lo, hi, method = _win_rate_ci(out, n, deals, seed, bootstrap)
    # The seat of table entry 0 in each game.
    seat_of_0 = np.argmin(rotation_table(n), axis=1)[np.asarray(res["rotation"], np.int64)]
    rows = np.arange(games)
    winner = res["winner"]
    dps: Dict[str, Any] = {}
    for k, name in enumerate(names):
        s = float(res["agent_seconds"][k])
        dps.setdefault(name, float(res["agent_decisions"][k]) / s if s > 0 else float("inf"))
    return EvalResult(
        agent=names[0],
        opponents=list(names[1:]),
        preset=preset,
        num_players=n,
        deals=deals,
        games=games,
        win_rate=float(out.mean()),
        ci=(float(lo), float(hi)),
        ci_method=method,
        wins=int(np.sum(winner == seat_of_0)),
        losses=int(np.sum((winner >= 0) & (winner != seat_of_0))),
        no_winner=int(np.sum(winner < 0)),
        mean_hand_points=float(res["hand_points"][rows, seat_of_0].mean()),
        mean_score=float(res["score_returns"][rows, seat_of_0].mean()),
        mean_length=float(res["decisions"].mean()),
        truncated=int(res["truncated"].sum()),
        decisions_per_second=dps,
        seconds=seconds,
        raw=res,
        choice_share=_share(res),
    )


def _share(res: Dict[str, np.ndarray]) -> float:
    """Decisions with more than one legal action over all decisions (every seat)."""
    decisions = int(np.sum(res["agent_decisions"]))
    return int(np.sum(res["agent_choices"])) / decisions if decisions else float("nan")
