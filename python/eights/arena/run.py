"""Benchmark policies against the built-in bots with duplicate deals.

``eights.arena`` answers "how strong is my policy?" with numbers that control for
the luck of the deal:

* :func:`evaluate` plays one agent against opponents and reports its win rate with a
  95% confidence interval, mean hand points, mean score and mean game length;
* :func:`tournament` plays every table of agents and fits Bradley-Terry ratings
  (Elo scale) with bootstrap confidence intervals.

**Agents** are

* bot names: ``"random"``, ``"heuristic"``, ``"ismcts:N"`` (information-set MCTS,
  ``N`` simulations per decision), ``"pimc:N"`` (determinized Monte Carlo, ``N``
  sampled worlds per decision), ``"net"`` (the learned policy shipped with the package,
  on the presets it was trained for, see ``eights._core.net_presets()``), all written in
  Rust;
* Python callables ``f(obs, mask) -> action`` (``obs`` the acting seat's float32
  observation, ``mask`` its bool action mask);
* objects with ``act(obs, mask) -> action`` or ``act_batch(obs, masks) -> actions``
  (``obs`` of shape ``(k, OBS_SIZE)``, ``masks`` ``(k, NUM_ACTIONS)``); ``act_batch``
  is preferred when both exist;
* ``(name, agent)`` pairs, to label any of the above in the results.

**Duplicate deals.** Deal ``d`` is dealt from ``arena_deal_seed(seed, d)`` and played
``num_players`` times: in rotation ``r`` seat ``k`` is played by table entry
``(k + r) % num_players``, so every agent holds every hand of every deal. ``games``
counts deals; a run plays ``games * num_players`` games. When every agent is a
built-in bot the games run in Rust threads (the results are identical for any thread
count); otherwise the Python agents are called in batches of up to ``batch_size``
games played in lockstep.

**Statistics.** A game scores 1 for its winner, 0 for the others, and ``1/n`` for every
seat when nobody wins (a blocked or truncated hand). The win rate is the mean score;
its 95% interval is a percentile bootstrap over deals (the rotations of one deal stay
together, which is what makes the interval honest for duplicate play), falling back to
the Wilson interval over games when every deal gives the same result. Bootstrap
samples are drawn from ``seed``, so results are reproducible.

Example::

    import eights.arena as arena

    r = arena.evaluate("heuristic", "random", preset="crazy_eights", games=500, seed=0)
    print(r)                       # win rate 0.96 [0.95, 0.97] ...
    t = arena.tournament(["random", "heuristic", "pimc:50"], games=200)
    print(t.table())
"""

from __future__ import annotations

import itertools
import json
import math
import os
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from .. import _core
from .._utils.checks import describe as _describe
from .._core import NUM_ACTIONS, Bot, Game
from ..records import EpisodeRecorder

__all__ = [
    "Agent",
    "EvalResult",
    "TournamentResult",
    "as_agent",
    "bradley_terry",
    "evaluate",
    "play",
    "tournament",
    "wilson_interval",
]

AgentSpec = Union[str, Callable[[np.ndarray, np.ndarray], Any], Any]

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054


# --------------------------------------------------------------------------
# Agents
# --------------------------------------------------------------------------


@dataclass
class Agent:
    """A normalised agent: a built-in bot (``bot`` set) or a Python policy."""

    name: str
    bot: Optional[str] = None
    act: Optional[Callable[[np.ndarray, np.ndarray], Any]] = None
    act_batch: Optional[Callable[[np.ndarray, np.ndarray], Any]] = None

    @property
    def is_builtin(self) -> bool:
        return self.bot is not None


AGENT_HELP = (
    f"a bot name ({_core.BOT_NAMES_HELP}), a callable f(obs, mask) -> action, an object "
    "with act(obs, mask) or act_batch(obs, masks), or a (name, agent) pair"
)


def as_agent(spec: Any, what: str = "agent") -> Agent:
    """Normalise an agent specification (see the module documentation).

    Raises:
        ValueError: an unknown bot name or a bad simulation count.
        TypeError: anything that is not an agent.
    """
    if isinstance(spec, Agent):
        return spec
    if isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], str):
        inner = as_agent(spec[1], what)
        return Agent(spec[0], inner.bot, inner.act, inner.act_batch)
    if isinstance(spec, str):
        try:
            name = _core.parse_bot(spec)
        except ValueError as exc:
            raise ValueError(f"{what}: {exc}") from None
        return Agent(name, bot=name)
    if isinstance(spec, (Bot, _core.RandomBot)):
        raise TypeError(
            f"{what}: pass built-in bots by name (e.g. \"heuristic\"), not as {type(spec).__name__} "
            "objects, so that the arena can seed them for every game"
        )
    batch = getattr(spec, "act_batch", None)
    act = getattr(spec, "act", None)
    if callable(batch) or callable(act):
        label = getattr(spec, "name", None)
        name = label if isinstance(label, str) else type(spec).__name__
        return Agent(name, act=act if callable(act) else None, act_batch=batch if callable(batch) else None)
    if callable(spec):
        name = getattr(spec, "__name__", None) or type(spec).__name__
        return Agent(name, act=spec)
    raise TypeError(f"{what} must be {AGENT_HELP}; got {_describe(spec)}")


def _unique_names(agents: Sequence[Agent]) -> List[str]:
    names = [a.name for a in agents]
    out = []
    for i, n in enumerate(names):
        if names.count(n) > 1:
            n = f"{n}#{names[:i].count(n) + 1}"
        out.append(n)
    return out


# --------------------------------------------------------------------------
# Playing
# --------------------------------------------------------------------------


#: Upper bounds of the integer arguments (the Rust core takes them as 64-bit integers).
_MAX_GAMES = 10**9
_MAX_THREADS = 1024
_U64_MAX = 2**64 - 1


def _check_int(value: Any, name: str, low: int, high: Optional[int] = None) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer, got {_describe(value)}")
    if value < low:
        raise ValueError(f"{name} must be >= {low}, got {value}")
    if high is not None and value > high:
        raise ValueError(f"{name} must be in [{low}, {high}], got {value}")
    return int(value)


def _empty_results(n: int) -> Dict[str, np.ndarray]:
    return {
        "deal": np.zeros(0, np.uint64),
        "rotation": np.zeros(0, np.int64),
        "winner": np.zeros(0, np.int64),
        "hand_points": np.zeros((0, n)),
        "score_returns": np.zeros((0, n)),
        "decisions": np.zeros(0, np.int64),
        "truncated": np.zeros(0, bool),
        "agent_decisions": np.zeros(n, np.int64),
        "agent_seconds": np.zeros(n),
        "agent_max_seconds": np.zeros(n),
    }


def _concat(parts: List[Dict[str, np.ndarray]], n: int) -> Dict[str, np.ndarray]:
    out = _empty_results(n)
    if not parts:
        return out
    for key in out:
        if key in ("agent_decisions", "agent_seconds"):
            out[key] = np.sum([p[key] for p in parts], axis=0)
        elif key == "agent_max_seconds":
            out[key] = np.max([p[key] for p in parts], axis=0)
        else:
            out[key] = np.concatenate([p[key] for p in parts])
    return out


def _play_python(
    table: Sequence[Agent],
    preset: str,
    n: int,
    seed: int,
    start: int,
    count: int,
    rules: Optional[Dict[str, Any]],
    recorder: Optional[EpisodeRecorder] = None,
) -> Dict[str, np.ndarray]:
    """Play deals ``start..start+count`` with Python agents, batched per agent (and save
    the record of every game with ``recorder``)."""
    games: List[Game] = []
    seats: List[List[Any]] = []  # per game, per seat: Bot or None (Python agent)
    rot: List[int] = []
    deals: List[int] = []
    for d in range(start, start + count):
        for r in range(n):
            g = Game(preset, n, seed=_core.arena_deal_seed(seed, d), rules=rules)
            bots = []
            for s in range(n):
                k = _core.arena_agent_at(s, r, n)
                a = table[k]
                bots.append(Bot(a.bot, seed=_core.arena_bot_seed(seed, d, r, k)) if a.bot is not None else None)
            games.append(g)
            seats.append(bots)
            rot.append(r)
            deals.append(d)
    dec = np.zeros(n, np.int64)
    sec = np.zeros(n)
    longest = np.zeros(n)
    active = list(range(len(games)))
    while active:
        waiting: Dict[int, List[Tuple[int, int]]] = {}
        still = []
        for gi in active:
            g = games[gi]
            while not (g.is_terminal or g.is_truncated):
                s = g.current_player
                k = _core.arena_agent_at(s, rot[gi], n)
                bot = seats[gi][s]
                if bot is None:
                    waiting.setdefault(k, []).append((gi, s))
                    still.append(gi)
                    break
                t = time.perf_counter()
                a = bot.act(g)
                dt = time.perf_counter() - t
                sec[k] += dt
                longest[k] = max(longest[k], dt)
                dec[k] += 1
                g.step(a)
        for k, items in waiting.items():
            agent = table[k]
            obs = np.stack([games[gi].observation(s) for gi, s in items])
            masks = np.stack([games[gi].action_mask() for gi, _ in items])
            t = time.perf_counter()
            if agent.act_batch is not None:
                actions: List[Any] = list(np.asarray(agent.act_batch(obs, masks)).reshape(-1))
                if len(actions) != len(items):
                    raise ValueError(
                        f"agent {agent.name!r}: act_batch returned {len(actions)} actions for "
                        f"{len(items)} observations"
                    )
            else:
                assert agent.act is not None  # as_agent gives every Python agent act or act_batch
                actions = [agent.act(o, m) for o, m in zip(obs, masks)]
            dt = time.perf_counter() - t
            sec[k] += dt
            # A batched decision counts as the batch's time shared equally.
            longest[k] = max(longest[k], dt / len(items))
            dec[k] += len(items)
            for (gi, s), raw, m in zip(items, actions, masks):
                if isinstance(raw, (bool, np.bool_)) or not isinstance(raw, (int, np.integer)):
                    raise TypeError(
                        f"agent {agent.name!r} returned {_describe(raw)}; actions are integers in "
                        f"[0, {NUM_ACTIONS})"
                    )
                action = int(raw)
                if not (0 <= action < NUM_ACTIONS and m[action]):
                    raise ValueError(
                        f"agent {agent.name!r} chose illegal action {action} at seat {s}; legal actions: "
                        f"{np.flatnonzero(m).tolist()}"
                    )
                games[gi].step(action)
        active = still
    if recorder is not None:
        for gi, g in enumerate(games):
            seat_agents = [table[_core.arena_agent_at(p, rot[gi], n)].name for p in range(n)]
            recorder.save(g, {"arena": {"deal": deals[gi], "rotation": rot[gi], "seed": seed, "agents": seat_agents}})
    return {
        "deal": np.asarray(deals, np.uint64),
        "rotation": np.asarray(rot, np.int64),
        "winner": np.asarray([-1 if g.winner is None else g.winner for g in games], np.int64),
        "hand_points": np.asarray([g.hand_points for g in games], float).reshape(-1, n),
        "score_returns": np.asarray([g.returns("score") for g in games], float).reshape(-1, n),
        "decisions": np.asarray([g.decision_count for g in games], np.int64),
        "truncated": np.asarray([g.is_truncated for g in games], bool),
        "agent_decisions": dec,
        "agent_seconds": sec,
        "agent_max_seconds": longest,
    }


def play(
    table: Sequence[AgentSpec],
    preset: str = "crazy_eights",
    games: int = 100,
    seed: int = 0,
    threads: int = 0,
    rules: Optional[Dict[str, Any]] = None,
    batch_size: int = 256,
    progress: Any = None,
    record_dir: Optional[str] = None,
) -> Dict[str, np.ndarray]:
    """Play ``games`` duplicate deals at one table (one agent per seat).

    ``record_dir``: save the record of every game there (``episode_<k>.json``, see
    ``eights.Game.record``, with an ``"arena"`` entry: deal, rotation, seed and the agent
    at each seat); the games are then played through the Python loop (same deals, same
    bot seeds, so the same results), which is slower for tables of built-in bots.

    Returns a dict of numpy arrays with one row per game, in (deal, rotation) order:
    ``deal``, ``rotation``, ``winner`` (seat, -1 for none), ``hand_points`` and
    ``score_returns`` (games, n), ``decisions``, ``truncated``; plus per table entry
    ``agent_decisions``, ``agent_seconds`` (thinking time) and ``agent_max_seconds``
    (the longest decision; for a batched Python agent, a batch's time over its size). ``progress`` is an
    optional callable receiving the number of games just finished.
    """
    agents = [as_agent(a, f"table[{i}]") for i, a in enumerate(table)]
    n = len(agents)
    games = _check_int(games, "games", 1, _MAX_GAMES)
    seed = _check_int(seed, "seed", 0, _U64_MAX)
    threads = _check_int(threads, "threads", 0, _MAX_THREADS)
    batch_size = _check_int(batch_size, "batch_size", 1, 2**20)
    Game(preset, n, seed=0, rules=rules)  # validates preset, player count and rules
    for a in agents:
        if a.bot is not None:  # "net" plays only the rules it was trained for
            _core.check_bot_rules(a.bot, preset, n, rules)
    recorder = EpisodeRecorder.from_arg(record_dir, "record_dir")
    parts = []
    if all(a.is_builtin for a in agents) and recorder is None:
        chunk = max(8, 4 * (threads or os.cpu_count() or 1))
        if any(a.bot == "net" for a in agents):  # net decides for a chunk's games in batches
            chunk = 64 * (threads or os.cpu_count() or 1)
        for start in range(0, games, chunk):
            count = min(chunk, games - start)
            bots = [a.bot for a in agents if a.bot is not None]
            res = _core.arena_play(preset, n, bots, seed, start, count, threads, rules)
            parts.append(res)
            if progress is not None:
                progress(count * n)
    else:
        chunk = max(1, batch_size // n)
        for start in range(0, games, chunk):
            count = min(chunk, games - start)
            parts.append(_play_python(agents, preset, n, seed, start, count, rules, recorder))
            if progress is not None:
                progress(count * n)
    return _concat(parts, n)


# --------------------------------------------------------------------------
# Statistics
# --------------------------------------------------------------------------


def wilson_interval(successes: float, trials: int, z: float = Z95) -> Tuple[float, float]:
    """Wilson score interval for a proportion (``successes`` may be fractional)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1.0 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _outcomes(res: Dict[str, np.ndarray], n: int) -> np.ndarray:
    """Per game and table entry: 1 win, 0 loss, 1/n without a winner. Shape (games, n)."""
    g = len(res["winner"])
    out = np.zeros((g, n))
    for i in range(g):
        r = int(res["rotation"][i])
        w = int(res["winner"][i])
        if w < 0:
            out[i, :] = 1.0 / n
        else:
            out[i, _core.arena_agent_at(w, r, n)] = 1.0
    return out


def _by_entry(values: np.ndarray, res: Dict[str, np.ndarray], n: int) -> np.ndarray:
    """Reorder per-seat columns (games, n) into per-table-entry columns."""
    out = np.empty_like(values)
    for i in range(len(values)):
        r = int(res["rotation"][i])
        for s in range(n):
            out[i, _core.arena_agent_at(s, r, n)] = values[i, s]
    return out


def _bootstrap_ci(per_deal: np.ndarray, rng: np.random.Generator, samples: int) -> Tuple[float, float]:
    d = len(per_deal)
    idx = rng.integers(0, d, size=(samples, d))
    means = per_deal[idx].mean(axis=1)
    lo, hi = np.percentile(means, [2.5, 97.5])
    return float(lo), float(hi)


@dataclass
class EvalResult:
    """Result of :func:`evaluate` (agent = table entry 0)."""

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

    def __str__(self) -> str:
        lo, hi = self.ci
        return (
            f"{self.agent} vs {', '.join(self.opponents)} on {self.preset} ({self.num_players} players, "
            f"{self.deals} deals x {self.num_players} seats): win rate {self.win_rate:.3f} "
            f"[{lo:.3f}, {hi:.3f}], hand points {self.mean_hand_points:.2f}, score {self.mean_score:+.3f}, "
            f"length {self.mean_length:.1f} decisions"
        )


def _summarise(
    agents: Sequence[Agent], names: Sequence[str], res: Dict[str, np.ndarray], preset: str, deals: int,
    seed: int, bootstrap: int, seconds: float,
) -> EvalResult:
    n = len(agents)
    out = _outcomes(res, n)[:, 0]
    games = len(out)
    per_deal = out.reshape(deals, n).mean(axis=1)
    rng = np.random.default_rng([seed, 0xC1])
    lo, hi = _bootstrap_ci(per_deal, rng, bootstrap)
    method = "bootstrap over deals"
    if hi - lo <= 0.0:
        lo, hi = wilson_interval(float(out.sum()), games)
        method = "Wilson over games"
    seat_of_0 = np.asarray([(n - int(r)) % n for r in res["rotation"]])
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
    )


def _progress_bar(total: int, show: Any, desc: str):
    """A tqdm bar (when ``show`` and tqdm is installed) as (update, close) callables."""
    if not show:
        return None, lambda: None
    try:
        from tqdm import tqdm
    except ImportError:
        return None, lambda: None
    bar = tqdm(total=total, desc=desc, unit="game", smoothing=0.1)
    return bar.update, bar.close


def evaluate(
    agent: AgentSpec,
    opponents: Union[AgentSpec, Sequence[AgentSpec]] = "random",
    preset: str = "crazy_eights",
    num_players: int = 2,
    games: int = 1000,
    seed: int = 0,
    threads: int = 0,
    rules: Optional[Dict[str, Any]] = None,
    batch_size: int = 256,
    bootstrap: int = 2000,
    progress: bool = False,
    record_dir: Optional[str] = None,
) -> EvalResult:
    """Evaluate ``agent`` against ``opponents`` over ``games`` duplicate deals.

    ``opponents`` is one agent for every other seat or a list of ``num_players - 1``
    agents. Every deal is played ``num_players`` times with the seats rotated, so the
    run has ``games * num_players`` games. See the module documentation for agents and
    statistics. ``record_dir`` saves the record of every game (see :func:`play`).

    Raises:
        ValueError: unknown bot names, bad counts, an unknown preset, invalid rules, or a
            Python agent choosing an illegal action.
        TypeError: arguments of the wrong type.
    """
    num_players = _check_int(num_players, "num_players", 2, 10)
    games = _check_int(games, "games", 1, _MAX_GAMES)
    bootstrap = _check_int(bootstrap, "bootstrap", 100, 10**6)
    main = as_agent(agent, "agent")
    if isinstance(opponents, (list, tuple)) and not (
        isinstance(opponents, tuple) and len(opponents) == 2 and isinstance(opponents[0], str)
        and not isinstance(opponents[1], str)
    ):
        if len(opponents) != num_players - 1:
            raise ValueError(
                f"opponents must be one agent or a list of num_players - 1 = {num_players - 1} agents, "
                f"got a list of {len(opponents)}"
            )
        opp = [as_agent(o, f"opponents[{i}]") for i, o in enumerate(opponents)]
    else:
        opp = [as_agent(opponents, "opponents")] * (num_players - 1)
    table = [main] + opp
    names = _unique_names(table)
    update, close = _progress_bar(games * num_players, progress, f"{names[0]} vs {', '.join(names[1:])}")
    t = time.perf_counter()
    try:
        res = play(table, preset, games, seed, threads, rules, batch_size, update, record_dir)
    finally:
        close()
    return _summarise(table, names, res, preset, games, seed, bootstrap, time.perf_counter() - t)


# --------------------------------------------------------------------------
# Tournaments and ratings
# --------------------------------------------------------------------------


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


@dataclass
class TournamentResult:
    """Result of :func:`tournament`."""

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
            f"{'agent':<{w}}  {'rating':>7}  {'95% interval':>17}  {'dec/s':>10}",
        ]
        order = np.argsort(-self.ratings, kind="stable")
        for i in order:
            lo, hi = self.rating_ci[i]
            a = self.agents[i]
            dps = self.decisions_per_second.get(a, float("nan"))
            lines.append(f"{a:<{w}}  {self.ratings[i]:7.0f}  [{lo:7.0f}, {hi:7.0f}]  {dps:10,.0f}")
        lines.append("")
        lines.append("matches (win rate of the first agent, 95% interval; hand points; game length):")
        for m in self.matches:
            lo, hi = m.ci
            lines.append(
                f"  {m.agent} vs {', '.join(m.opponents)}: {m.win_rate:.3f} [{lo:.3f}, {hi:.3f}]  "
                f"points {m.mean_hand_points:.2f}  length {m.mean_length:.1f}"
            )
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()

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
                    "decisions_per_second": float(self.decisions_per_second.get(a, float("nan"))),
                    "mean_length": float(self.mean_length.get(a, float("nan"))),
                }
                for i, a in enumerate(self.agents)
            ],
            "pairwise_wins": self.wins.tolist(),
            "matches": [
                {
                    "agent": m.agent,
                    "opponents": list(m.opponents),
                    "games": m.games,
                    "win_rate": m.win_rate,
                    "win_rate_low": m.ci[0],
                    "win_rate_high": m.ci[1],
                    "wins": m.wins,
                    "losses": m.losses,
                    "no_winner": m.no_winner,
                    "mean_hand_points": m.mean_hand_points,
                    "mean_score": m.mean_score,
                    "mean_length": m.mean_length,
                    "truncated": m.truncated,
                }
                for m in self.matches
            ],
        }

    def save(self, path: str) -> None:
        """Write the results to ``path``: JSON (:meth:`to_dict`) for ``.json``, or CSV with one
        row per agent (agent, rating, interval, decisions per second, mean length) for ``.csv``.

        Raises:
            ValueError: another file extension.
        """
        ext = os.path.splitext(str(path))[1].lower()
        data = self.to_dict()
        if ext == ".json":
            with open(path, "w", encoding="utf-8") as f:
                json.dump(data, f, indent=2)
                f.write("\n")
        elif ext == ".csv":
            import csv

            with open(path, "w", encoding="utf-8", newline="") as f:
                fields = ["agent", "rating", "rating_low", "rating_high", "decisions_per_second", "mean_length"]
                writer = csv.DictWriter(f, fieldnames=["preset", "num_players", "deals"] + fields)
                writer.writeheader()
                for row in data["agents"]:
                    writer.writerow({"preset": self.preset, "num_players": self.num_players, "deals": self.deals, **row})
        else:
            raise ValueError(f"results can be saved as .json or .csv, got {path!r}")

    def plot(self, path: str) -> None:
        """Save a chart of the ratings with their intervals (needs matplotlib)."""
        try:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            raise ImportError(
                "plotting needs matplotlib: pip install 'eights[plot]' (or pip install matplotlib)"
            ) from None
        order = np.argsort(self.ratings, kind="stable")
        names = [self.agents[i] for i in order]
        r = self.ratings[order]
        lo = r - self.rating_ci[order, 0]
        hi = self.rating_ci[order, 1] - r
        fig, ax = plt.subplots(figsize=(7, 1.2 + 0.5 * len(names)))
        ax.errorbar(r, range(len(names)), xerr=[lo, hi], fmt="o", capsize=4)
        ax.set_yticks(range(len(names)))
        ax.set_yticklabels(names)
        ax.set_xlabel(f"rating (Elo scale, {self.agents[0]} = 0), 95% interval")
        ax.set_title(f"{self.preset}, {self.num_players} players, {self.deals} duplicate deals per table")
        ax.grid(axis="x", alpha=0.3)
        fig.tight_layout()
        fig.savefig(path, dpi=120)
        plt.close(fig)


def _pair_wins_per_deal(res: Dict[str, np.ndarray], idx: Sequence[int], k: int, deals: int) -> np.ndarray:
    """Pairwise wins of one table, per deal: shape (deals, k, k)."""
    n = len(idx)
    out = np.zeros((deals, k, k))
    for g in range(len(res["winner"])):
        d = g // n
        r = int(res["rotation"][g])
        w = int(res["winner"][g])
        if w < 0:
            for a, b in itertools.permutations(range(n), 2):
                out[d, idx[a], idx[b]] += 0.5
            continue
        win = _core.arena_agent_at(w, r, n)
        for b in range(n):
            if b != win:
                out[d, idx[win], idx[b]] += 1.0
    return out


def tournament(
    agents: Sequence[AgentSpec],
    preset: str = "crazy_eights",
    num_players: int = 2,
    games: int = 500,
    seed: int = 0,
    threads: int = 0,
    rules: Optional[Dict[str, Any]] = None,
    batch_size: int = 256,
    bootstrap: int = 1000,
    progress: bool = False,
    record_dir: Optional[str] = None,
) -> TournamentResult:
    """Play every table of ``num_players`` distinct agents over ``games`` duplicate deals
    (the same deals for every table) and fit Bradley-Terry ratings.

    With two players every pair meets; with more, every combination of ``num_players``
    agents plays, and the winner of a game beats each other seat. Ratings are on the Elo
    scale (a 200-point gap means about 76% wins) with the first agent at 0; the 95%
    intervals come from ``bootstrap`` resamples of the deals. ``record_dir`` saves the
    record of every game (see :func:`play`).

    Raises:
        ValueError: fewer agents than seats, duplicate agent names, bad counts, unknown
            bot names, an unknown preset or invalid rules.
        TypeError: arguments of the wrong type.
    """
    if isinstance(agents, (str, bytes)) or not isinstance(agents, Sequence):
        raise TypeError(f"agents must be a list of agents ({AGENT_HELP}); got {_describe(agents)}")
    num_players = _check_int(num_players, "num_players", 2, 10)
    games = _check_int(games, "games", 1, _MAX_GAMES)
    bootstrap = _check_int(bootstrap, "bootstrap", 100, 10**6)
    ags = [as_agent(a, f"agents[{i}]") for i, a in enumerate(agents)]
    if len(ags) < max(2, num_players):
        raise ValueError(
            f"a tournament needs at least {max(2, num_players)} agents for {num_players} players, got {len(ags)}"
        )
    names = [a.name for a in ags]
    dup = sorted({x for x in names if names.count(x) > 1})
    if dup:
        raise ValueError(
            f"agent names must be unique, got {', '.join(map(repr, dup))} more than once; "
            "label agents with (name, agent) pairs"
        )
    k = len(ags)
    tables = list(itertools.combinations(range(k), num_players))
    update, close = _progress_bar(len(tables) * games * num_players, progress, "tournament")
    matches: List[EvalResult] = []
    per_table: List[np.ndarray] = []
    dec = np.zeros(k)
    sec = np.zeros(k)
    lengths: Dict[str, List[float]] = {a: [] for a in names}
    try:
        for idx in tables:
            t = time.perf_counter()
            table = [ags[i] for i in idx]
            res = play(table, preset, games, seed, threads, rules, batch_size, update, record_dir)
            matches.append(
                _summarise(table, [names[i] for i in idx], res, preset, games, seed, bootstrap,
                           time.perf_counter() - t)
            )
            per_table.append(_pair_wins_per_deal(res, idx, k, games))
            for pos, i in enumerate(idx):
                dec[i] += res["agent_decisions"][pos]
                sec[i] += res["agent_seconds"][pos]
                lengths[names[i]].append(float(res["decisions"].mean()))
    finally:
        close()
    wins = sum(p.sum(axis=0) for p in per_table)
    ratings = bradley_terry(wins)
    rng = np.random.default_rng([seed, 0xB7])
    resampled = np.zeros((bootstrap, k * k))
    for p in per_table:
        counts = rng.multinomial(games, np.full(games, 1.0 / games), size=bootstrap)
        resampled += counts @ p.reshape(games, k * k)
    boot = bradley_terry(resampled.reshape(bootstrap, k, k))
    ci = np.stack([np.percentile(boot, 2.5, axis=0), np.percentile(boot, 97.5, axis=0)], axis=1)
    dps = {names[i]: (dec[i] / sec[i] if sec[i] > 0 else float("inf")) for i in range(k)}
    return TournamentResult(
        agents=names,
        preset=preset,
        num_players=num_players,
        deals=games,
        ratings=ratings,
        rating_ci=ci,
        wins=wins,
        matches=matches,
        decisions_per_second=dps,
        mean_length={a: float(np.mean(v)) for a, v in lengths.items()},
    )
