"""The learning curve of a self-play run: the win rate in training games against each kind of
opponent (:attr:`eights.train.SelfPlay.results`) and the last update's PPO statistics, one point
per call of :meth:`LearningCurve.add`, written as CSV and drawn as a PNG (with matplotlib)."""

from __future__ import annotations

import csv
import os
from typing import Any, Dict, List

import numpy as np

__all__ = ["LearningCurve"]


#: The CSV's names of the last update's statistics (:func:`eights.train.ppo_update`).
STATS = {"ent": "entropy", "kl": "approx_kl", "pg": "policy_loss", "v": "value_loss", "teacher": "teacher_loss"}


class LearningCurve:
    """Points ``{"step", "seconds", "vs_<kind>", "games_<kind>", "lr", "entropy", "approx_kl",
    "policy_loss", "value_loss"}`` (and ``"teacher_loss"`` while a teacher is on), one per
    :meth:`add`."""

    def __init__(self) -> None:
        self.points: List[Dict[str, Any]] = []

    def add(self, run: Any) -> Dict[str, Any]:
        """A point from a :class:`~eights.train.SelfPlay` run's results since the last point
        (which it clears); returns the point."""
        point: Dict[str, Any] = {"step": run.step, "seconds": round(run.elapsed(), 1)}
        for kind, res in run.results.items():
            point[f"vs_{kind}"] = float(np.mean(res)) if res else float("nan")
            point[f"games_{kind}"] = len(res)
            res.clear()
        optimizer = getattr(run, "optimizer", None)
        if optimizer is not None:
            point["lr"] = float(optimizer.param_groups[0]["lr"])
        for key, name in STATS.items():
            value = getattr(run, "stats", {}).get(key)
            if value is not None:
                point[name] = round(float(value), 6)
        self.points.append(point)
        return point

    def write_csv(self, path: str) -> None:
        """The points as CSV (nothing without points): a column for every key of any point, in
        the order they first appear, empty where a point has none."""
        if not self.points:
            return
        names = list(dict.fromkeys(k for point in self.points for k in point))
        with open(path, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=names, restval="")
            w.writeheader()
            w.writerows(self.points)

    def plot(self, path: str, title: str, fair: float = 0.5) -> None:
        """The win rates against learner decisions as a PNG (nothing without points), with a
        dashed line at the table's fair share ``fair`` (``1 / players``: what an agent as strong
        as its opponents wins). Drawn outside pyplot: the caller's matplotlib backend stays."""
        if not self.points:
            return
        from .._utils.figures import new_figure

        steps = np.array([c["step"] for c in self.points])
        fig = new_figure("the learning curve", figsize=(7, 4))
        ax = fig.subplots()
        for key in (k for k in self.points[0] if k.startswith("vs_")):
            y = np.array([c[key] for c in self.points], dtype=float)
            ax.plot(steps, y, label=key[3:] + (" bot" if key != "vs_snapshots" else ""))
        ax.axhline(fair, color="grey", lw=0.8, ls="--", label=f"fair share ({fair:.2f})")
        ax.set_xlabel("learner decisions")
        ax.set_ylabel("win rate in training games")
        ax.set_ylim(0, 1)
        ax.set_title(title)
        ax.legend()
        ax.grid(alpha=0.3)
        fig.tight_layout()
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        fig.savefig(path, dpi=110)
