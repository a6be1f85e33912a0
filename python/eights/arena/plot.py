"""The arena's chart: a tournament's ratings with their 95% intervals, drawn with
matplotlib (the ``plot`` extra, imported through the package's optional-dependency gate)."""

from __future__ import annotations

from typing import List, Protocol

import numpy as np

from .._utils.optional import import_optional

__all__ = ["RatedTable", "plot_ratings"]


class RatedTable(Protocol):
    """What the chart reads of a tournament (:class:`eights.arena.TournamentResult` has it)."""

    agents: List[str]
    ratings: np.ndarray
    rating_ci: np.ndarray
    preset: str
    num_players: int
    deals: int


def plot_ratings(result: RatedTable, path: str) -> None:
    """Save a chart of ``result``'s ratings and intervals to ``path`` (an ImportError naming
    the ``plot`` extra when matplotlib is not installed)."""
    matplotlib = import_optional("matplotlib", "plot", "saving a chart")
    matplotlib.use("Agg")
    plt = import_optional("matplotlib.pyplot", "plot", "saving a chart")
    order = np.argsort(result.ratings, kind="stable")
    names = [result.agents[i] for i in order]
    r = result.ratings[order]
    lo = r - result.rating_ci[order, 0]
    hi = result.rating_ci[order, 1] - r
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.5 * len(names)))
    ax.errorbar(r, range(len(names)), xerr=[lo, hi], fmt="o", capsize=4)
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(names)
    ax.set_xlabel(f"rating (Elo scale, {result.agents[0]} = 0), 95% interval")
    ax.set_title(f"{result.preset}, {result.num_players} players, {result.deals} duplicate deals per table")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
