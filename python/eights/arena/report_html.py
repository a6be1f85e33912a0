"""The arena's results as Jupyter shows them (their ``_repr_html_``): a match's numbers and a
tournament's ratings and matches as HTML tables, with the same numbers, notes and labels as
their text (:mod:`eights.arena.report`, which also takes :func:`speeds` from here), every label
escaped."""

from __future__ import annotations

from typing import Any, Dict

import numpy as np

from .._utils.display import html_table, number

__all__ = ["eval_html", "speeds", "tournament_html"]


def speeds(rates: Dict[str, float]) -> str:
    """Each agent's decisions per second, as text: ``"decisions/s: a 1,200, b 5,400,000"``."""
    return "decisions/s: " + ", ".join(f"{name} {rate:,.0f}" for name, rate in rates.items())


def eval_html(r: Any) -> str:
    """An :class:`~eights.arena.EvalResult` as an HTML table of one row."""
    lo, hi = r.ci
    title = (
        f"{r.agent} vs {', '.join(r.opponents)} on {r.preset} ({r.num_players} players, "
        f"{r.deals} deals x {r.num_players} seats)"
    )
    columns = ["win rate", "95% interval", "wins", "losses", "no winner", "hand points", "score", "length"]
    row = [
        f"{r.win_rate:.3f}", f"[{lo:.3f}, {hi:.3f}]", f"{r.wins:,}", f"{r.losses:,}", f"{r.no_winner:,}",
        f"{r.mean_hand_points:.2f}", f"{r.mean_score:+.3f}", f"{r.mean_length:.1f}",
    ]  # fmt: skip
    return html_table(title, columns, [row], [speeds(r.decisions_per_second)], labels=0)


def tournament_html(t: Any) -> str:
    """A :class:`~eights.arena.TournamentResult` as two HTML tables, the ratings (best first)
    and the matches, followed by the notes of its text (profiled intervals, sweeps)."""
    text = t.table().split("\n\n")
    rows = []
    for i in np.argsort(-t.ratings, kind="stable"):
        lo, hi = t.rating_ci[i]
        a = t.agents[i]
        rows.append(
            [
                a,
                f"{t.ratings[i]:.0f}",
                f"[{lo:.0f}, {hi:.0f}]" + ("*" if i in t.profiled else ""),
                number(t.decisions_per_second.get(a, float("nan")), "{:,.0f}"),
                number(t.mean_length.get(a, float("nan")), "{:.1f}"),
            ]
        )
    ratings = html_table(
        text[0].splitlines()[0], ["agent", "rating", "95% interval", "decisions/s", "mean length"], rows
    )
    matches = [
        [
            f"{m.agent} vs {', '.join(m.opponents)}",
            f"{m.win_rate:.3f}",
            f"[{m.ci[0]:.3f}, {m.ci[1]:.3f}]",
            f"{m.mean_hand_points:.2f}",
            f"{m.mean_length:.1f}",
        ]  # fmt: skip
        for m in t.matches
    ]
    notes = [" ".join(part.split()) for part in text[2:]]
    columns = ["match", "win rate of the first", "95% interval", "hand points", "length"]
    return ratings + html_table("matches", columns, matches, notes)
