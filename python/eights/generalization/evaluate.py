"""Judging an agent on a split: :func:`evaluate` plays duplicate deals against the
heuristic (or another opponent) on every rule set of the split, and aggregates the win rates
over rule sets into a mean and an interquartile mean with stratified bootstrap intervals (as
rliable does: the deals of each rule set are resampled, and the aggregate recomputed).

A rule set an agent cannot play (``net1`` away from its presets, say) is reported as refused,
with the reason, and left out of the aggregates. The rule sets of a split that do not seat the
player count are left out of it, and named in the result (``left_out``).
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from .._core import check_bot_rules
from .._utils.checks import as_flag, as_int
from .._utils.display import html_table, text_display
from .._utils.figures import finish, new_figure
from .._utils.progress import progress_bar
from ..agents.spec import as_agent
from ..arena import evaluate as _evaluate
from ..arena.cluster import check_address
from ..arena.run import count_arg
from ..arena.stats import per_deal as deal_means
from ..rules import Rules, resolve_preset
from .splits import split as _split
from .splits import unseated

__all__ = ["GeneralizationResult", "RuleSetResult", "evaluate", "iqm", "refusals"]


def _finite(x: float) -> Optional[float]:
    """``x`` as a float, or None when it is not finite (JSON has no NaN)."""
    x = float(x)
    return x if math.isfinite(x) else None


def _interval(ci: tuple) -> str:
    return f"[{ci[0]:.3f}, {ci[1]:.3f}]"


def iqm(values: np.ndarray, axis: int = -1) -> np.ndarray:
    """The interquartile mean along ``axis``: the mean of the middle half after sorting (a
    quarter, rounded down, cut from each end, as ``scipy.stats.trim_mean(x, 0.25)``)."""
    x = np.asarray(values, float)
    axis = as_int(axis, "axis", -max(x.ndim, 1), max(x.ndim, 1) - 1)  # numpy's OverflowError past C long
    x = np.sort(x, axis=axis)
    k = x.shape[axis]
    cut = int(0.25 * k)
    return np.take(x, range(cut, k - cut), axis=axis).mean(axis=axis)


@dataclass
class RuleSetResult:
    """The agent's result on one rule set of the split."""

    name: str
    win_rate: float
    ci: tuple
    deals: int
    refused: Optional[str] = None
    per_deal: np.ndarray = field(default_factory=lambda: np.zeros(0), repr=False)


@text_display
@dataclass
class GeneralizationResult:
    """The result of :func:`evaluate`: one :class:`RuleSetResult` per rule set and the
    aggregates over the rule sets the agent played (mean and IQM, each with a 95% interval;
    NaN when it played none). ``left_out``: the presets of the split that do not seat
    ``num_players`` (see :func:`eights.generalization.unseated`)."""

    agent: str
    opponent: str
    split: str
    num_players: int
    deals: int
    rule_sets: List[RuleSetResult]
    mean: float
    mean_ci: tuple
    iqm: float
    iqm_ci: tuple
    left_out: List[str] = field(default_factory=list)

    @property
    def fair_share(self) -> float:
        """The win rate of an agent as strong as its opponents (1 / players)."""
        return 1.0 / self.num_players

    def table(self) -> str:
        """The results as a text table."""
        w = max([len(r.name) for r in self.rule_sets] + [12])
        lines = [
            f"{self.agent} vs {self.opponent} on split {self.split!r} ({self.num_players} players, "
            f"{self.deals} duplicate deals per rule set; fair share {self.fair_share:.3f})",
            f"{'rule set':<{w}}  win rate   95% interval",
        ]
        for r in self.rule_sets:
            if r.refused is not None:
                lines.append(f"{r.name:<{w}}  refused: {r.refused}")
            else:
                lines.append(f"{r.name:<{w}}  {r.win_rate:8.3f}   [{r.ci[0]:.3f}, {r.ci[1]:.3f}]")
        played = sum(r.refused is None for r in self.rule_sets)
        if played:
            lines.append(f"{'mean':<{w}}  {self.mean:8.3f}   [{self.mean_ci[0]:.3f}, {self.mean_ci[1]:.3f}]")
            lines.append(f"{'IQM':<{w}}  {self.iqm:8.3f}   [{self.iqm_ci[0]:.3f}, {self.iqm_ci[1]:.3f}]")
        lines.append(f"({played} of {len(self.rule_sets)} rule sets played)")
        if self.left_out:
            total = len(self.rule_sets) + len(self.left_out)
            lines.append(
                f"({len(self.left_out)} of {total} rule sets of the split do not seat {self.num_players} players, "
                f"left out: {', '.join(self.left_out)})"
            )
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()

    def _repr_html_(self) -> str:
        """The table as HTML (what Jupyter shows): a row per rule set, then the mean and IQM."""
        text = self.table().splitlines()
        rows = [
            [r.name, "refused", ""] if r.refused is not None else [r.name, f"{r.win_rate:.3f}", _interval(r.ci)]
            for r in self.rule_sets
        ]
        if any(r.refused is None for r in self.rule_sets):
            for name, value, ci in (("mean", self.mean, self.mean_ci), ("IQM", self.iqm, self.iqm_ci)):
                rows.append([name, f"{value:.3f}", _interval(ci)])
        notes = [f"{r.name} refused: {r.refused}" for r in self.rule_sets if r.refused is not None]
        notes += [line.strip("()") for line in text if line.startswith("(")]
        return html_table(text[0], ["rule set", "win rate", "95% interval"], rows, notes)

    def to_dict(self) -> Dict[str, Any]:
        """Plain JSON-able data; a number that is not finite (the win rate of a refused rule
        set, the aggregates when none was played) is None."""
        return {
            "agent": self.agent,
            "opponent": self.opponent,
            "split": self.split,
            "num_players": self.num_players,
            "deals": self.deals,
            "mean": _finite(self.mean),
            "mean_ci": [_finite(x) for x in self.mean_ci],
            "iqm": _finite(self.iqm),
            "iqm_ci": [_finite(x) for x in self.iqm_ci],
            "rule_sets": [
                {
                    "name": r.name,
                    "win_rate": _finite(r.win_rate),
                    "ci": [_finite(x) for x in r.ci],
                    "deals": r.deals,
                    "refused": r.refused,
                }
                for r in self.rule_sets
            ],
            "left_out": list(self.left_out),
        }

    def save(self, path: str) -> None:
        """Write :meth:`to_dict` as JSON (strict JSON: null, never NaN)."""
        with open(path, "w", encoding="utf-8") as f:
            json.dump(self.to_dict(), f, indent=2, allow_nan=False)

    def plot(self, path: Optional[str] = None) -> Any:
        """A chart of the win rates (one bar per rule set, the aggregates last) with their
        intervals and the fair share (needs matplotlib): with no ``path`` the
        :class:`matplotlib.figure.Figure`, else saved there and the path written returned
        (:func:`eights._utils.outputs.chart_path`: ``.png`` added to a path without an
        extension). The caller's matplotlib backend is left as it was."""
        rows = [r for r in self.rule_sets if r.refused is None]
        names = [r.name for r in rows] + ["mean", "IQM"]
        vals = [r.win_rate for r in rows] + [self.mean, self.iqm]
        cis = [r.ci for r in rows] + [self.mean_ci, self.iqm_ci]
        err = np.array([[v - lo for v, (lo, _) in zip(vals, cis)], [hi - v for v, (_, hi) in zip(vals, cis)]])
        fig = new_figure("plotting a generalization result", figsize=(7, 0.3 * len(names) + 1.2))
        ax = fig.subplots()
        colors = ["#4c72b0"] * len(rows) + ["#dd8452", "#dd8452"]
        ax.barh(range(len(names)), vals, xerr=np.clip(err, 0, None), color=colors, capsize=2)
        ax.axvline(self.fair_share, color="grey", linestyle="--", linewidth=1, label="fair share")
        ax.set_yticks(range(len(names)))
        ax.set_yticklabels(names, fontsize=7)
        ax.invert_yaxis()
        ax.set_xlim(0, 1)
        ax.set_xlabel(f"win rate against {self.opponent} (95% interval)")
        ax.set_title(f"{self.agent}: split {self.split}, {self.num_players} players", fontsize=9)
        ax.legend(loc="lower right", fontsize=7)
        fig.tight_layout()
        return finish(fig, path)


def _rule_set(value: Any, i: int) -> Rules:
    """Entry ``i`` of ``rule_sets`` as an :class:`eights.Rules` (see
    :func:`eights.rules.resolve_preset`)."""
    rules = resolve_preset(value, f"rule_sets[{i}]")
    return rules if isinstance(rules, Rules) else Rules(rules)


def _refusal(spec: Any, rules: Rules, num_players: int) -> Optional[str]:
    """Why the built-in bot ``spec`` cannot play ``rules`` (``net1`` away from the rules it
    was trained for), or None."""
    if spec.bot is None:
        return None
    try:
        check_bot_rules(spec.bot, rules, num_players)
    except ValueError as exc:
        return str(exc)
    return None


def refusals(agent: Any, rule_sets: Sequence[Rules], num_players: int = 2) -> List[Optional[str]]:
    """Why ``agent`` cannot play each of ``rule_sets`` (:class:`eights.Rules`) at
    ``num_players``, None for each it can: a built-in bot or network file refused by rules it
    was not trained for (``net1`` away from its presets); a Python policy plays them all. Found
    without playing: :func:`evaluate` reports these, the command line refuses an agent that
    can play none before it starts."""
    spec = as_agent(agent, "agent")
    return [_refusal(spec, rules, num_players) for rules in rule_sets]


def _aggregate(played: Sequence[RuleSetResult], seed: int, bootstrap: int) -> tuple:
    """Mean and IQM over rule sets, with stratified bootstrap 95% intervals."""
    if not played:
        nan = float("nan")
        return nan, (nan, nan), nan, (nan, nan)
    rates = np.array([r.win_rate for r in played])
    rng = np.random.default_rng([seed, 0x6E4])
    boot = np.empty((bootstrap, len(played)))
    for j, r in enumerate(played):
        d = len(r.per_deal)
        boot[:, j] = r.per_deal[rng.integers(0, d, size=(bootstrap, d))].mean(axis=1)
    means, iqms = boot.mean(axis=1), iqm(boot, axis=1)

    def ci(x: np.ndarray) -> tuple:
        lo, hi = np.percentile(x, [2.5, 97.5])
        return float(lo), float(hi)

    return float(rates.mean()), ci(means), float(iqm(rates)), ci(iqms)


def evaluate(
    agent: Any,
    split: str = "heldout_presets",
    num_players: int = 2,
    games: int = 200,
    seed: int = 0,
    opponent: Any = "heuristic",
    threads: int = 0,
    bootstrap: int = 2000,
    progress: bool = False,
    rule_sets: Optional[Sequence[Any]] = None,
    ray: Optional[str] = None,
) -> GeneralizationResult:
    """Play ``agent`` against ``opponent`` (every other seat) on every rule set of ``split``
    (see :data:`eights.generalization.SPLITS`; or the given ``rule_sets``: preset names, paths
    to TOML rules files or :class:`eights.Rules`), ``games``
    duplicate deals each, and aggregate (see the module documentation).

    An agent that reads the rules (``obs_rules = True`` on a Python policy) is given the
    rules encoding with its observations. ``ray``: play on a Ray cluster (see
    :func:`eights.arena.evaluate`; the same results for the same seed). Raises
    ``ValueError`` for an unknown split, a split with no rule set for ``num_players``, an
    opponent refused by a rule set (before any game) and the arena's errors for bad
    arguments; an agent refused by a rule set is reported, not raised. The split's presets
    that do not seat ``num_players`` are named in the result's ``left_out``.
    """
    num_players = as_int(num_players, "num_players", 2, 10)
    games = as_int(games, "games", 1)
    # Checked before any game (it is used only at the end), with the arena's range and message.
    bootstrap = count_arg(bootstrap, "bootstrap", 100, 10**6)
    progress = as_flag(progress, "progress")
    ray = check_address(ray)
    spec = as_agent(agent, "agent")
    opp = as_agent(opponent, "opponent")
    if isinstance(rule_sets, (str, Rules, os.PathLike)):  # one rule set
        rule_sets = [rule_sets]
    left_out: List[str] = []
    if rule_sets is None:
        sets = _split(split, num_players)
        left_out = unseated(split, num_players)
        if not sets:
            raise ValueError(
                f"num_players={num_players}: no rule set of split {split!r} seats {num_players} players"
                + (f" ({', '.join(left_out)} do not)" if left_out else "")
            )
    else:
        sets = [_rule_set(r, i) for i, r in enumerate(rule_sets)]
        if not sets:  # a mean over nothing was NaN, labelled with the default split
            raise ValueError("rule_sets must name at least one rule set (None: the split's)")
    refused = refusals(spec, sets, num_players)
    for rules, why in zip(sets, refusals(opp, sets, num_players)):  # before any game
        if why is not None:
            raise ValueError(f"the opponent {opp.label} cannot play the rule set {rules.name}: {why}")
    bar = progress_bar(progress, total=len(sets), desc=f"{spec.label} on {split}", unit="rule set")
    results: List[RuleSetResult] = []
    try:
        for rules, why in zip(sets, refused):
            if why is not None:
                results.append(RuleSetResult(rules.name, math.nan, (math.nan, math.nan), 0, refused=why))
            else:
                r = _evaluate(
                    spec, opp, preset=rules, num_players=num_players, games=games, seed=seed, threads=threads, ray=ray
                )
                per_deal = deal_means(r.raw, num_players)
                results.append(RuleSetResult(rules.name, r.win_rate, r.ci, games, per_deal=per_deal))
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    mean, mean_ci, iq, iqm_ci = _aggregate([r for r in results if r.refused is None], seed, bootstrap)
    return GeneralizationResult(
        spec.label, opp.label, split, num_players, games, results, mean, mean_ci, iq, iqm_ci, left_out=left_out
    )
