"""The arena's entry points: :func:`evaluate` (one agent against opponents) and
:func:`tournament` (every table of agents, rated), with their argument checks, the
optional progress bar (tqdm.auto, through :mod:`eights._utils.progress`) and the
choice of where the games run (this machine, or a Ray cluster: ``ray=``)."""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Sequence as _SequenceABC
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from .._utils.checks import MAX_DEALS, as_flag
from .._utils.checks import describe as _describe
from .._utils.progress import progress_bar
from ..agents.spec import AGENT_HELP, AgentSpec, as_agent
from ..rules import resolve_preset
from ..rules.changes import label as rules_label
from .cluster import check_address
from .cluster import play as _play_on_cluster
from .ratings import bradley_terry, pair_wins_per_deal, rating_intervals
from .report import EvalResult, TournamentResult
from .run import _MAX_GAMES, AgentLike, Preset, count_arg, play
from .stats import summarise

__all__ = ["evaluate", "tournament"]

#: The most tables one tournament plays. Every table is kept (its match result, and its
#: wins per deal for the bootstrap), so the count is bounded before anything is built: a
#: round robin of 447 agents at 2 players, 85 at 3, 37 at 4 or 20 at 7 stays under it, far
#: beyond the largest sane field; 22 agents at 10 players (646,646 tables) or 40 (847,660,528,
#: whose list of tables alone is tens of gigabytes) do not.
MAX_TABLES = 100_000


def _progress_bar(total: int, show: Any, desc: str) -> Tuple[Optional[Callable[[int], Any]], Callable[[], Any]]:
    """A tqdm bar (:func:`eights._utils.progress.progress_bar`: a notebook's widget or the text
    bar; none, with a warning, without tqdm) as (update, close) callables, or (None, a no-op)
    when ``show`` is False; ``TypeError`` when ``show`` (the ``progress`` argument) is not True
    or False."""
    bar = progress_bar(as_flag(show, "progress"), total=total, desc=desc, unit="game", smoothing=0.1)
    if bar is None:
        return None, lambda: None
    return bar.update, bar.close


def _where(ray: Any, record_dir: Optional[str]) -> Callable[..., Dict[str, np.ndarray]]:
    """The player of the runs: :func:`~eights.arena.run.play` on this machine, or on the Ray
    cluster ``ray`` (see :func:`eights.arena.cluster.connect`; the same results for the same
    seed), which saves no records (they would be written on the workers)."""
    address = check_address(ray)
    if address is None:
        return play
    if record_dir is not None:
        raise ValueError("record_dir cannot be combined with ray: the records would be written on the workers")

    def on_cluster(table, preset, games, seed, threads, rules, batch_size, progress, _record_dir):
        return _play_on_cluster(table, address, preset, games, seed, threads, rules, batch_size, progress)

    return on_cluster


def _unique_names(agents: Sequence[AgentSpec]) -> List[str]:
    """The agents' labels, each once: different bots under one label (two weights files of a
    run of one name) each add their file's absolute path, ``NAME [PATH]``; one agent given more
    than once is numbered, ``NAME#1``, ``NAME#2``."""
    names = [a.name for a in agents]
    for i, a in enumerate(agents):
        bots = {b.bot for b in agents if b.name == a.name}
        if len(bots) > 1 and a.bot is not None and a.bot != a.name:
            names[i] = f"{a.name} [{a.bot}]"
    out = []
    for i, n in enumerate(names):
        if names.count(n) > 1:
            n = f"{n}#{names[:i].count(n) + 1}"
        out.append(n)
    return out


def _opponents(opponents: Any, num_players: int) -> List[AgentSpec]:
    """One agent for every other seat, or a list of ``num_players - 1`` agents (a
    ``(label, agent)`` pair is one agent)."""
    if isinstance(opponents, (list, tuple)) and not (
        isinstance(opponents, tuple)
        and len(opponents) == 2
        and isinstance(opponents[0], str)
        and not isinstance(opponents[1], str)
    ):
        if len(opponents) != num_players - 1:
            raise ValueError(
                f"opponents must be one agent or a list of num_players - 1 = {num_players - 1} agents, "
                f"got a list of {len(opponents)}"
            )
        return [as_agent(o, f"opponents[{i}]") for i, o in enumerate(opponents)]
    return [as_agent(opponents, "opponents")] * (num_players - 1)


def evaluate(
    agent: AgentLike,
    opponents: Union[AgentLike, Sequence[AgentLike]] = "random",
    preset: Preset = "crazy_eights",
    num_players: int = 2,
    games: int = 1000,
    seed: int = 0,
    threads: int = 0,
    rules: Optional[Dict[str, Any]] = None,
    batch_size: int = 256,
    bootstrap: int = 2000,
    progress: bool = False,
    record_dir: Optional[str] = None,
    ray: Optional[str] = None,
) -> EvalResult:
    """Evaluate ``agent`` against ``opponents`` over ``games`` duplicate deals.

    ``opponents`` is one agent for every other seat or a list of ``num_players - 1``
    agents. ``preset`` is a preset name, a path to a TOML rules file or an
    :class:`eights.Rules`, ``rules`` overrides on top. Every deal is played ``num_players``
    times with the seats rotated, so the run has ``games * num_players`` games. See the
    module documentation for agents and statistics. ``record_dir`` saves the record of every
    game (see :func:`play`). ``ray``: play on a Ray cluster (``"local"`` starts one on this
    machine, ``"auto"`` joins the running one, or its address; needs the ``rllib`` extra):
    the same results for the same seed, but for the timings. See ``docs/cluster.md``.

    Raises:
        ValueError: unknown bot names, bad counts, an unknown preset, invalid rules, or a
            Python agent choosing an illegal action.
        TypeError: arguments of the wrong type.
    """
    preset = resolve_preset(preset)
    num_players = count_arg(num_players, "num_players", 2, 10)
    games = count_arg(games, "games", 1, _MAX_GAMES)
    bootstrap = count_arg(bootstrap, "bootstrap", 100, 10**6)
    run = _where(ray, record_dir)
    table = [as_agent(agent, "agent")] + _opponents(opponents, num_players)
    names = _unique_names(table)
    update, close = _progress_bar(games * num_players, progress, f"{names[0]} vs {', '.join(names[1:])}")
    t = time.perf_counter()
    try:
        res = run(table, preset, games, seed, threads, rules, batch_size, update, record_dir)
    finally:
        close()
    return summarise(names, res, rules_label(preset, rules), games, seed, bootstrap, time.perf_counter() - t)


def _tournament_agents(agents: Sequence[Any], num_players: int) -> Tuple[List[AgentSpec], List[str]]:
    """The agents of a tournament, a list of at least ``max(2, num_players)``, and their
    names: a name given more than once is numbered each time (``heuristic#1``,
    ``heuristic#2``), as in :func:`evaluate`, so that one bot can fill several seats."""
    ags = [as_agent(a, f"agents[{i}]") for i, a in enumerate(agents)]
    if len(ags) < max(2, num_players):
        raise ValueError(
            f"a tournament needs at least {max(2, num_players)} agents for {num_players} players, got {len(ags)}"
            + (" (list an agent more than once to seat it more than once)" if len(ags) > 0 else "")
        )
    names = _unique_names(ags)
    dup = sorted({x for x in names if names.count(x) > 1})
    if dup:
        raise ValueError(
            f"agent names must be unique, got {', '.join(map(repr, dup))} more than once (a repeated name is "
            "numbered NAME#1, NAME#2, ..., which these labels already use); label agents with (name, agent) pairs"
        )
    return ags, names


def _check_size(agents: Any, num_players: int, games: int) -> None:
    """Refuse ``agents`` that are not a list (``TypeError``), and a tournament of more than
    :data:`MAX_TABLES` tables, or of more deals in all (tables times ``games``) than
    ``MAX_DEALS``, the most one arena call plays; counted with ``math.comb``, before any
    table is built."""
    if isinstance(agents, (str, bytes)) or not isinstance(agents, _SequenceABC):
        raise TypeError(f"agents must be a list of agents ({AGENT_HELP}); got {_describe(agents)}")
    k = len(agents)
    tables = math.comb(k, num_players)
    if tables > MAX_TABLES:
        raise ValueError(
            f"agents and num_players: {k} agents at {num_players} players make {tables:,} tables "
            f"(every combination); a tournament plays at most {MAX_TABLES:,}: pass fewer agents"
        )
    if tables * games > MAX_DEALS:
        raise ValueError(
            f"games: {tables:,} tables ({k} agents at {num_players} players) of {games:,} deals each are "
            f"{tables * games:,} deals; a tournament plays at most {MAX_DEALS:,}: lower games or pass fewer agents"
        )


def tournament(
    agents: Sequence[AgentLike],
    preset: Preset = "crazy_eights",
    num_players: int = 2,
    games: int = 500,
    seed: int = 0,
    threads: int = 0,
    rules: Optional[Dict[str, Any]] = None,
    batch_size: int = 256,
    bootstrap: int = 1000,
    progress: bool = False,
    record_dir: Optional[str] = None,
    ray: Optional[str] = None,
) -> TournamentResult:
    """Play every table of ``num_players`` agents over ``games`` duplicate deals (the same
    deals for every table) and fit Bradley-Terry ratings. An agent given twice plays twice,
    numbered (``["me", "heuristic", "heuristic"]`` at three players: me against two copies).

    With two players every pair meets; with more, every combination of ``num_players``
    agents plays, and the winner of a game beats each other seat. ``preset`` is a preset
    name, a path to a TOML rules file or an :class:`eights.Rules`, ``rules`` overrides on top. Ratings are on the Elo
    scale (a 200-point gap means about 76% wins) with the first agent at 0; the 95%
    intervals come from ``bootstrap`` resamples of the deals, widened to the fit's profile
    likelihood for the agents of a pair the bootstrap cannot bound (one agent won every game,
    or nearly: listed in ``profiled`` and marked in the table; the sweeps themselves are
    listed by :meth:`~eights.arena.TournamentResult.sweeps` and noted under the table). ``record_dir`` saves the
    record of every game (see :func:`play`). ``ray``: play every table on a Ray cluster, as
    in :func:`evaluate` (the same ratings for the same seed).

    Raises:
        ValueError: fewer agents than seats, a label equal to a repeated name's number, bad counts, unknown bot
            names, an unknown preset, invalid rules; over :data:`MAX_TABLES` tables or MAX_DEALS deals.
        TypeError: arguments of the wrong type.
    """
    preset = resolve_preset(preset)
    num_players = count_arg(num_players, "num_players", 2, 10)
    games = count_arg(games, "games", 1, _MAX_GAMES)
    bootstrap = count_arg(bootstrap, "bootstrap", 100, 10**6)
    _check_size(agents, num_players, games)
    run = _where(ray, record_dir)
    ags, names = _tournament_agents(agents, num_players)
    k, label = len(ags), rules_label(preset, rules)
    tables = list(itertools.combinations(range(k), num_players))
    update, close = _progress_bar(len(tables) * games * num_players, progress, "tournament")
    matches: List[EvalResult] = []
    per_table: List[np.ndarray] = []
    dec, sec = np.zeros(k), np.zeros(k)
    lengths: Dict[str, List[float]] = {a: [] for a in names}
    try:
        for idx in tables:
            t = time.perf_counter()
            res = run([ags[i] for i in idx], preset, games, seed, threads, rules, batch_size, update, record_dir)
            seated = [names[i] for i in idx]
            matches.append(summarise(seated, res, label, games, seed, bootstrap, time.perf_counter() - t))
            per_table.append(pair_wins_per_deal(res, idx, k, games))
            for pos, i in enumerate(idx):
                dec[i] += res["agent_decisions"][pos]
                sec[i] += res["agent_seconds"][pos]
                lengths[names[i]].append(float(res["decisions"].mean()))
    finally:
        close()
    wins = sum(p.sum(axis=0) for p in per_table)
    ci, profiled = rating_intervals(per_table, games, seed, bootstrap)
    return TournamentResult(
        agents=names,
        preset=label,
        num_players=num_players,
        deals=games,
        ratings=bradley_terry(wins),
        rating_ci=ci,
        wins=wins,
        matches=matches,
        decisions_per_second={names[i]: (dec[i] / sec[i] if sec[i] > 0 else float("inf")) for i in range(k)},
        mean_length={a: float(np.mean(v)) for a, v in lengths.items()},
        profiled=profiled,
    )
