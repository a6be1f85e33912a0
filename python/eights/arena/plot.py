"""The arena's charts, drawn with matplotlib (the ``plot`` extra, imported through the
package's optional-dependency gate): a tournament's ratings with their 95% intervals, and the
learning curves of best responses (:func:`eights.train.exploit`). Each is a
:class:`matplotlib.figure.Figure` drawn outside pyplot (:mod:`eights._utils.figures`: the
caller's backend is left as it was), saved to a path or returned."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Protocol, Sequence, Tuple

import numpy as np

from .._utils.figures import finish, new_figure

__all__ = ["ExploitCurve", "RatedTable", "plot_exploit", "plot_ratings"]


class RatedTable(Protocol):
    """What the chart reads of a tournament (:class:`eights.arena.TournamentResult` has it)."""

    agents: List[str]
    ratings: np.ndarray
    rating_ci: np.ndarray
    preset: str
    num_players: int
    deals: int


def plot_ratings(result: RatedTable, path: Optional[str] = None) -> Any:
    """A chart of ``result``'s ratings and intervals: saved to ``path``, which is returned
    (``.png`` added to a path without an extension), or, with no path, the
    :class:`matplotlib.figure.Figure` itself (an ImportError naming the ``plot`` extra when
    matplotlib is not installed)."""
    order = np.argsort(result.ratings, kind="stable")
    names = [result.agents[i] for i in order]
    r = result.ratings[order]
    lo = r - result.rating_ci[order, 0]
    hi = result.rating_ci[order, 1] - r
    fig = new_figure("drawing a chart", figsize=(7, 1.2 + 0.5 * len(names)))
    ax = fig.subplots()
    ax.errorbar(r, range(len(names)), xerr=[lo, hi], fmt="o", capsize=4)
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(names)
    ax.set_xlabel(f"rating (Elo scale, {result.agents[0]} = 0), 95% interval")
    ax.set_title(f"{result.preset}, {result.num_players} players, {result.deals} duplicate deals per table")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return finish(fig, path)


class ExploitCurve(Protocol):
    """What the exploitability chart reads of a result (:class:`eights.arena.ExploitResult`)."""

    agent: str
    preset: str
    num_players: int
    warm_start: Optional[str]
    decisions: int
    curve: List[Dict[str, float]]
    win_rate: Optional[float]
    ci: Optional[Tuple[float, float]]


def _exploit_panel(ax: Any, results: Sequence[ExploitCurve], colours: Dict[str, Any]) -> None:
    """One panel's curves: the training score with its 95% band per agent, the evaluated win
    rate as a point with its interval at the end of training, and the fair share."""
    for r in results:
        colour = colours[r.agent]
        x = np.array([p["decisions"] for p in r.curve], float) / 1e6
        y = np.array([p["win_rate"] for p in r.curve], float)
        ax.plot(x, y, color=colour, lw=1.4)
        lo = np.array([p["ci_low"] for p in r.curve], float)
        hi = np.array([p["ci_high"] for p in r.curve], float)
        ax.fill_between(x, lo, hi, color=colour, alpha=0.15, lw=0)
        if r.win_rate is not None and r.ci is not None:
            err = [[r.win_rate - r.ci[0]], [r.ci[1] - r.win_rate]]
            ax.errorbar([r.decisions / 1e6], [r.win_rate], yerr=err, fmt="D", color=colour, ms=5, capsize=3)
    start = "from net's weights" if results[0].warm_start else "from scratch"
    ax.axhline(1.0 / results[0].num_players, color="grey", lw=0.8, ls="--")
    ax.set_title(f"{results[0].preset}, {results[0].num_players} players, {start}", fontsize=10)
    ax.set_xlabel("learner decisions (millions)")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)


def plot_exploit(results: Sequence[ExploitCurve], path: Optional[str] = None) -> Any:
    """The learning curves of best responses, saved to ``path`` (which is returned; ``.png``
    added to a path without an extension) or, with no path, as the
    :class:`matplotlib.figure.Figure` itself: one panel per preset (columns)
    and start (rows: from scratch, from ``net1``'s weights), one colour per agent exploited.
    Each curve is the best response's score in its training games over the learner decisions
    (with its 95% band); a diamond at its end is its win rate on the fresh duplicate deals of
    the evaluation (with its 95% interval); the dashed line is the fair share. ImportError
    naming the ``plot`` extra without matplotlib."""
    if not results:
        raise ValueError("plot_exploit needs at least one result")
    presets = list(dict.fromkeys(r.preset for r in results))
    starts = sorted({r.warm_start or "" for r in results})
    agents = list(dict.fromkeys(r.agent for r in results))
    height = 3.6 * len(starts) + 0.5  # inches: the panels and the legend under them
    fig = new_figure("drawing a chart", figsize=(5 * len(presets), height))
    from matplotlib import colormaps
    from matplotlib.lines import Line2D

    cmap = colormaps["tab10"]
    colours = {agent: cmap(k % 10) for k, agent in enumerate(agents)}
    axes = fig.subplots(len(starts), len(presets), sharey=True, squeeze=False)
    for i, start in enumerate(starts):
        for j, preset in enumerate(presets):
            panel = [r for r in results if r.preset == preset and (r.warm_start or "") == start]
            if panel:
                _exploit_panel(axes[i][j], panel, colours)
            else:
                axes[i][j].set_visible(False)
        axes[i][0].set_ylabel("win rate against the agent")
    handles = [Line2D([], [], color=colours[a], lw=2) for a in agents]
    fig.legend(
        handles, [f"best response to {a}" for a in agents], loc="lower center", ncol=min(len(agents), 4), frameon=False
    )
    fig.tight_layout(rect=(0, 0.4 / height, 1, 1))
    return finish(fig, path)
