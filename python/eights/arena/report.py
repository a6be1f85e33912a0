"""The results of the arena as people and files read them: :class:`EvalResult` (one match,
one line of text), :class:`TournamentResult` (the ratings table, plain JSON-able data,
JSON and CSV files) and :class:`ExploitResult` (a best response's win rate, learning curve and
budget, as text and JSON); their charts are drawn by :mod:`eights.arena.plot`. IPython shows
each as its text, Jupyter the first two as HTML tables (:mod:`eights.arena.report_html`)."""

from __future__ import annotations

import csv
import json
import os
from dataclasses import asdict, dataclass, field
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from .._utils.display import text_display
from .budget import Budget
from .ratings import sweep_pairs
from .report_html import eval_html, speeds, tournament_html

__all__ = ["EvalResult", "ExploitResult", "TournamentResult", "results_format"]

#: The columns of a tournament's CSV file, one row per agent.
_CSV_FIELDS = ["agent", "rating", "rating_low", "rating_high", "interval", "decisions_per_second", "mean_length"]

#: How an agent's interval was found (the JSON and CSV files' ``interval``).
_BOOTSTRAP = "bootstrap over deals"
_PROFILED = "bootstrap over deals, widened to the profile likelihood"


def results_format(path: str) -> str:
    """The format :meth:`TournamentResult.save` writes ``path`` in, ``"json"`` or ``"csv"``,
    from its extension as :func:`os.path.splitext` finds it (any case; a name that is only an
    extension, ``.json``, has none). The command line checks its ``--out`` files with it before
    the tournament, so that it refuses exactly what the save would.

    Raises:
        ValueError: another extension, or none.
    """
    ext = os.path.splitext(str(path))[1].lower()
    if ext not in (".json", ".csv"):
        raise ValueError(f"results can be saved as .json or .csv, got {path!r}")
    return ext[1:]


@text_display
@dataclass
class EvalResult:
    """Result of :func:`evaluate` (agent = table entry 0).

    ``decisions_per_second`` maps each agent's name to its decisions per second of its own
    time to decide (the time the games spend in it, batched calls included); ``str(result)``
    ends with it, and ``seconds`` is the whole match's wall time."""

    agent: str
    opponents: List[str]
    preset: str
    num_players: int
    deals: int
    games: int
    win_rate: float
    ci: Tuple[float, float]
    ci_method: str
    wins: int
    losses: int
    no_winner: int
    mean_hand_points: float
    mean_score: float
    mean_length: float
    truncated: int
    decisions_per_second: Dict[str, float]
    seconds: float
    raw: Dict[str, np.ndarray] = field(repr=False, default_factory=dict)
    #: Share of all decisions at the table (every seat) with more than one legal action.
    choice_share: float = float("nan")

    def __str__(self) -> str:
        lo, hi = self.ci
        return (
            f"{self.agent} vs {', '.join(self.opponents)} on {self.preset} ({self.num_players} players, "
            f"{self.deals} deals x {self.num_players} seats): win rate {self.win_rate:.3f} "
            f"[{lo:.3f}, {hi:.3f}], hand points {self.mean_hand_points:.2f}, score {self.mean_score:+.3f}, "
            f"length {self.mean_length:.1f} decisions; {speeds(self.decisions_per_second)}"
        )

    def _repr_html_(self) -> str:
        return eval_html(self)

    def to_dict(self) -> Dict[str, Any]:
        """The match as plain JSON-able data (one entry of a tournament's ``matches``)."""
        return {
            "agent": self.agent,
            "opponents": list(self.opponents),
            "games": self.games,
            "win_rate": self.win_rate,
            "win_rate_low": self.ci[0],
            "win_rate_high": self.ci[1],
            "wins": self.wins,
            "losses": self.losses,
            "no_winner": self.no_winner,
            "mean_hand_points": self.mean_hand_points,
            "mean_score": self.mean_score,
            "mean_length": self.mean_length,
            "truncated": self.truncated,
            "choice_share": self.choice_share,
        }


@text_display
@dataclass
class TournamentResult:
    """Result of :func:`tournament`: ``decisions_per_second`` holds each agent's decisions per
    second of its own time to decide over every match it played (the ratings table's
    ``decisions/s`` column, the JSON and CSV files' ``decisions_per_second``); ``profiled``
    lists the agents whose interval was widened to the profile likelihood's, because the
    bootstrap over deals cannot bound one of their pairs (see
    :func:`~eights.arena.ratings.rating_intervals`)."""

    agents: List[str]
    preset: str
    num_players: int
    deals: int
    ratings: np.ndarray
    rating_ci: np.ndarray  # (k, 2)
    wins: np.ndarray  # (k, k) pairwise wins, ties half
    matches: List[EvalResult]
    decisions_per_second: Dict[str, float]
    mean_length: Dict[str, float]
    profiled: List[int] = field(default_factory=list)

    def win_rate(self, i: int, j: int) -> float:
        """Share of the games between ``i`` and ``j`` that ``i`` won (ties half)."""
        tot = self.wins[i, j] + self.wins[j, i]
        return float(self.wins[i, j] / tot) if tot > 0 else float("nan")

    def table(self) -> str:
        """The ratings table and the matches as text."""
        w = max(8, max(len(a) for a in self.agents))
        lines = [
            f"{self.preset}, {self.num_players} players, {self.deals} duplicate deals per table "
            f"(ratings: Bradley-Terry, Elo scale, {self.agents[0]} = 0, 95% bootstrap intervals)",
            f"{'agent':<{w}}  {'rating':>7}  {'95% interval':>17}   {'decisions/s':>12}",
        ]
        order = np.argsort(-self.ratings, kind="stable")
        for i in order:
            lo, hi = self.rating_ci[i]
            a = self.agents[i]
            dps = self.decisions_per_second.get(a, float("nan"))
            mark = "*" if i in self.profiled else " "
            lines.append(f"{a:<{w}}  {self.ratings[i]:7.0f}  [{lo:7.0f}, {hi:7.0f}]{mark}  {dps:12,.0f}")
        lines.append("")
        lines.append("matches (win rate of the first agent, 95% interval; hand points; game length):")
        for m in self.matches:
            lo, hi = m.ci
            lines.append(
                f"  {m.agent} vs {', '.join(m.opponents)}: {m.win_rate:.3f} [{lo:.3f}, {hi:.3f}]  "
                f"points {m.mean_hand_points:.2f}  length {m.mean_length:.1f}"
            )
        if self.profiled:
            lines += [
                "",
                "*: widened to the profile likelihood of the fit (games counted as independent): one of this",
                "agent's pairs was a sweep in 2.5% or more of the bootstrap's resamples, which all end at the",
                "gap the fit's prior sets.",
            ]
        sweeps = self.sweeps()
        if sweeps:
            pairs = "; ".join(f"{self.agents[i]} won every game against {self.agents[j]}" for i, j in sweeps)
            lines += [
                "",
                f"note: {pairs}.",
                "Such a rating gap is set by the fit's half virtual win each way, not by the games; without",
                "that prior the gap's interval would have no upper end.",
            ]
        return "\n".join(lines)

    def sweeps(self) -> List[Tuple[int, int]]:
        """The pairs ``(i, j)`` where ``i`` won every game the two played against each other
        (ties count half to each, so a tie breaks a sweep). Their rating gap is set by
        :func:`~eights.arena.bradley_terry`'s prior, not by the games, and every bootstrap
        resample is the same sweep: both agents' intervals are the profile likelihood's
        (``profiled``)."""
        return sweep_pairs(self.wins)

    def __str__(self) -> str:
        return self.table()

    def _repr_html_(self) -> str:
        return tournament_html(self)

    def to_dict(self) -> Dict[str, Any]:
        """The results as plain JSON-able data: the settings, one entry per agent
        (rating, 95% interval, decisions per second, mean game length), the pairwise
        wins and one entry per match."""
        return {
            "preset": self.preset,
            "num_players": self.num_players,
            "deals": self.deals,
            "agents": [
                {
                    "agent": a,
                    "rating": float(self.ratings[i]),
                    "rating_low": float(self.rating_ci[i, 0]),
                    "rating_high": float(self.rating_ci[i, 1]),
                    "interval": _PROFILED if i in self.profiled else _BOOTSTRAP,
                    "decisions_per_second": float(self.decisions_per_second.get(a, float("nan"))),
                    "mean_length": float(self.mean_length.get(a, float("nan"))),
                }
                for i, a in enumerate(self.agents)
            ],
            "pairwise_wins": self.wins.tolist(),
            "sweeps": [[self.agents[i], self.agents[j]] for i, j in self.sweeps()],
            "matches": [m.to_dict() for m in self.matches],
        }

    def save(self, path: str) -> None:
        """Write the results to ``path``: JSON (:meth:`to_dict`) for ``.json``, or CSV with one
        row per agent (agent, rating, interval, decisions per second, mean length) for ``.csv``.

        Raises:
            ValueError: another file extension.
        """
        fmt = results_format(path)
        data = self.to_dict()
        if fmt == "json":
            with open(path, "w", encoding="utf-8") as f:
                json.dump(data, f, indent=2)
                f.write("\n")
            return
        settings = {"preset": self.preset, "num_players": self.num_players, "deals": self.deals}
        with open(path, "w", encoding="utf-8", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(settings) + _CSV_FIELDS)
            writer.writeheader()
            for row in data["agents"]:
                writer.writerow({**settings, **row})

    def plot(self, path: Optional[str] = None) -> Any:
        """A chart of the ratings with their intervals (needs matplotlib: the ``plot`` extra):
        with no ``path`` the :class:`matplotlib.figure.Figure` (a notebook shows it when a cell
        ends with it), else saved there and the path written returned (``.png`` added to a path
        without an extension). The caller's matplotlib backend is left as it was."""
        from .plot import plot_ratings

        return plot_ratings(self, path)


@text_display
@dataclass
class ExploitResult:
    """Result of :func:`eights.train.exploit`: the best response's win rate against the agent on fresh
    duplicate deals (``win_rate``, ``ci``; None when the evaluation was skipped or
    interrupted), the learning curve, the budget asked for and spent, and the hardware.

    ``curve`` holds one point per window of training updates: ``decisions`` and ``minutes``
    (spent at the window's end), ``games`` (training games ended in it), ``win_rate`` (the
    learner's score in them, sampling its policy: 1 a win, 0 a loss, 1/n without a winner)
    and its Wilson 95% interval ``ci_low``/``ci_high``."""

    agent: str
    preset: str
    num_players: int
    seed: int
    budget: Budget
    warm_start: Optional[str]
    decisions: int
    updates: int
    minutes: float
    cpu_minutes: float
    hardware: str
    stopped: str
    curve: List[Dict[str, float]]
    win_rate: Optional[float] = None
    ci: Optional[Tuple[float, float]] = None
    eval: Dict[str, Any] = field(default_factory=dict)
    config: Dict[str, Any] = field(default_factory=dict)
    out: Optional[str] = None
    evaluation: Optional[EvalResult] = field(default=None, repr=False, compare=False)
    policy: Any = field(default=None, repr=False, compare=False)

    @property
    def fair_share(self) -> float:
        """The win rate of an agent as strong as the others at the table: ``1 / num_players``."""
        return 1.0 / self.num_players

    @property
    def interrupted(self) -> bool:
        """Whether Ctrl-C stopped the training (or the evaluation) before its end."""
        return self.stopped == "interrupted"

    def table(self) -> str:
        """The result as text: settings, budget, hardware, win rate and the learning curve."""
        start = "from net1's weights" if self.warm_start == "net1" else "from scratch"
        lines = [
            f"best response to {self.agent} on {self.preset}, {self.num_players} players ({start}, seed {self.seed})",
            f"budget: {self.budget}; spent {self.decisions:,} learner decisions in {self.updates} updates, "
            f"{self.minutes:.1f} min (CPU {self.cpu_minutes:.1f} min)" + (" - interrupted" if self.interrupted else ""),
            f"hardware: {self.hardware}",
        ]
        if self.win_rate is not None and self.ci is not None:
            ev = self.eval
            lines.append(
                f"evaluation: {ev['deals']} fresh duplicate deals ({ev['games']} games, seed {ev['seed']}), "
                f"{'greedy' if ev['greedy'] else 'sampled'} policy, {ev['minutes']:.1f} min"
            )
            lines.append(
                f"win rate of the best response: {self.win_rate:.3f} [{self.ci[0]:.3f}, {self.ci[1]:.3f}] "
                f"(95% interval; fair share {self.fair_share:.3f})"
            )
        else:
            lines.append("evaluation: not run" + (" (interrupted)" if self.interrupted else ""))
        lines.append("learning curve (score in training games, sampled policy):")
        lines.append(f"  {'decisions':>12}  {'minutes':>7}  {'games':>6}  {'win rate':>8}  95% interval")
        for p in self.curve:
            lines.append(
                f"  {p['decisions']:>12,}  {p['minutes']:7.1f}  {p['games']:6d}  {p['win_rate']:8.3f}  "
                f"[{p['ci_low']:.3f}, {p['ci_high']:.3f}]"
            )
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()

    def to_dict(self) -> Dict[str, Any]:
        """The result as plain JSON-able data (:meth:`load` reads it back)."""
        skip = {"evaluation", "policy", "budget", "ci"}
        data = {k: v for k, v in asdict(self).items() if k not in skip}
        data["budget"] = {"decisions": self.budget.decisions, "minutes": self.budget.minutes}
        data["ci"] = list(self.ci) if self.ci is not None else None
        return data

    def save(self, path: str) -> None:
        """Write :meth:`to_dict` to ``path`` as JSON."""
        with open(path, "w", encoding="utf-8") as f:
            json.dump(self.to_dict(), f, indent=2)
            f.write("\n")

    @classmethod
    def load(cls, path: str) -> ExploitResult:
        """A result saved by :meth:`save` (without its policy and full evaluation); a file that
        is not one is a ``ValueError`` naming it: missing, a folder or not a regular file (a FIFO,
        a device: not opened), over 64 MiB, not JSON, a field missing, unknown or wrong."""
        import stat

        def num(v: Any, count: bool = False) -> bool:  # finite (an integer within 2**53); a count: >= 0
            if isinstance(v, int) and not isinstance(v, bool):
                return abs(v) <= 2**53 and (v >= 0 or not count)
            return not count and isinstance(v, float) and bool(np.isfinite(v))

        keys = ("decisions", "minutes", "games", "win_rate", "ci_low", "ci_high")

        def point(p: Any) -> bool:
            return isinstance(p, dict) and all(k in p and num(p[k], k in ("decisions", "games")) for k in keys)

        text = (lambda v: isinstance(v, str), "a string")
        maybe_text = (lambda v: v is None or isinstance(v, str), "null or a string")
        count = (lambda v: num(v, True), "a whole number >= 0")
        duration = (lambda v: num(v) and v >= 0, "a finite number >= 0")
        obj = (lambda v: isinstance(v, dict), "an object")
        checks = {
            "agent": text, "preset": text, "hardware": text, "stopped": text, "warm_start": maybe_text,
            "out": maybe_text, "decisions": count, "updates": count, "minutes": duration, "cpu_minutes": duration,
            "num_players": (lambda v: num(v, True) and v >= 2, "a whole number >= 2"),
            "seed": (lambda v: isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 2**64, "a seed"),
            "budget": obj, "eval": obj, "config": obj,
            "curve": (lambda v: isinstance(v, list) and all(map(point, v)), f"a list of points with {', '.join(keys)}"),
            "win_rate": (lambda v: v is None or num(v), "null or a finite number"),
            "ci": (lambda v: v is None or (isinstance(v, list) and len(v) == 2 and all(map(num, v))), "null or a pair"),
        }  # fmt: skip
        evaluated = {"deals": count, "games": count, "seed": checks["seed"], "minutes": duration}
        evaluated["greedy"] = (lambda v: isinstance(v, bool), "true or false")

        def check(data: Any) -> None:  # KeyError naming a missing field, ValueError one that is wrong
            if not isinstance(data, dict):
                raise ValueError(f"its JSON is a {type(data).__name__}, not an object")
            unknown = sorted(str(k) for k in data if k not in checks)
            if unknown:
                raise ValueError(f"unknown field {unknown[0][:40]!r}")
            names = list(cls.__dataclass_fields__)
            for key in names[: names.index("curve") + 1]:  # the fields without a default
                if key not in data:
                    raise KeyError(key)
            for key, (ok, what) in checks.items():
                if key in data and not ok(data[key]):
                    raise ValueError(f"its {key!r} is not {what}")
            if data.get("win_rate") is not None and data.get("ci") is not None:  # what table() reads of it
                for key, (ok, what) in evaluated.items():
                    if not ok(data.get("eval", {}).get(key)):
                        raise ValueError(f"its eval[{key!r}] is missing or not {what}")

        path = os.fspath(path)
        bad, limit = f"{path}: not an exploit result saved by ExploitResult.save", 64 << 20
        try:
            mode = os.stat(path).st_mode
            if not stat.S_ISREG(mode):
                what = "is a folder, not a file" if stat.S_ISDIR(mode) else "not a regular file (a FIFO, a device)"
                raise ValueError(f"{path}: {what}, not read")
            with open(path, "rb") as f:
                raw = f.read(limit + 1)
        except FileNotFoundError:
            raise ValueError(f"{path}: no such file") from None
        except OSError as exc:
            raise ValueError(f"{path}: cannot read: {exc.strerror or exc}") from None
        try:
            if len(raw) > limit:
                raise ValueError(f"over {limit:,} bytes")
            data = json.loads(raw.decode("utf-8"))
            check(data)
            data["budget"] = Budget(**data["budget"])
            data["ci"] = tuple(data["ci"]) if data.get("ci") is not None else None
            return cls(**data)
        except (KeyError, TypeError, AttributeError, ValueError, OverflowError, RecursionError) as exc:
            first = (str(exc).splitlines() or [type(exc).__name__])[0]
            what = f"no {exc.args[0]!r} in it" if isinstance(exc, KeyError) and exc.args else first
            what = "its JSON is nested too deeply" if isinstance(exc, RecursionError) else what
            raise ValueError(f"{bad}: {what}") from None

    def plot(self, path: Optional[str] = None) -> Any:
        """The learning curve and the evaluated win rate as a chart (needs matplotlib): with no
        ``path`` the :class:`matplotlib.figure.Figure`, else saved there and the path written
        returned (``.png`` added to a path without an extension)."""
        from .plot import plot_exploit

        return plot_exploit([self], path)
