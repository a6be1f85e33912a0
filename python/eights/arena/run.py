"""Playing the games of an arena run: :func:`play` deals every duplicate deal once per
rotation, in Rust threads for a table of built-in bots, else in a Python lockstep loop
that asks the engine for the schedule (deal seeds, seats, bot seeds) once per batch."""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Sequence as _SequenceABC
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from .._core import (
    NUM_ACTIONS,
    Game,
    IllegalActionError,
    RulesError,
    arena_play,
    arena_schedule,
    bot_is_batched,
    check_bot_rules,
)
from .._utils.checks import MAX_DEALS, MAX_TABLE, as_action, as_int
from .._utils.checks import describe as _describe
from .._utils.seeds import check_seed
from ..agents.spec import AgentActionError, AgentSpec, as_agent
from ..records import EpisodeRecorder
from ..rules import resolve_preset

__all__ = ["AgentLike", "Preset", "checked_table", "concat", "play", "play_range", "rotation_table"]

#: Anything :func:`eights.agents.spec.as_agent` accepts.
AgentLike = Union[str, Callable[[np.ndarray, np.ndarray], Any], Any]
#: A preset name, a path to a TOML rules file or an :class:`eights.Rules`
#: (:func:`eights.rules.resolve_preset`).
Preset = Any

#: Upper bounds of the integer arguments (the Rust core takes them as 64-bit integers).
_MAX_GAMES = MAX_DEALS
_MAX_THREADS = 1024
_MAX_BATCH = 2**20


def count_arg(value: Any, name: str, low: int, high: int) -> int:
    """An integer argument in ``[low, high]`` through the package's integer check, with the
    arena's messages (``"games must be >= 1"`` below, ``"must be in [low, high]"`` above)."""
    return as_int(as_int(value, name, low), name, low, high)


def check_progress(progress: Any) -> Optional[Callable[[int], Any]]:
    """``progress`` of :func:`play`: None or a callable taking the number of games just
    finished; ``TypeError`` for anything else (an int was called after the first chunk)."""
    if progress is None or (callable(progress) and not isinstance(progress, (bool, np.bool_))):
        return progress
    raise TypeError(
        "progress must be None or a callable taking the number of games just finished, got "
        f"{_describe(progress)} (arena.evaluate and arena.tournament take progress=True for a bar)"
    )


@functools.cache
def rotation_table(n: int) -> np.ndarray:
    """``[rotation, seat] -> table entry`` at a table of ``n`` (read-only), from the engine's
    schedule (the seating is the same in every deal)."""
    table = arena_schedule(0, n, 0, 1)["agent"]
    table.setflags(write=False)
    return table


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
        "agent_choices": np.zeros(n, np.int64),
        "agent_seconds": np.zeros(n),
        "agent_max_seconds": np.zeros(n),
    }


def concat(parts: List[Dict[str, np.ndarray]], n: int) -> Dict[str, np.ndarray]:
    """The results of consecutive ranges of deals as one run: the per-game rows joined in
    order, the per-entry counts and times summed, the longest decisions the longest."""
    out = _empty_results(n)
    if not parts:
        return out
    for key in out:
        if key in ("agent_decisions", "agent_choices", "agent_seconds"):
            out[key] = np.sum([p[key] for p in parts], axis=0)
        elif key == "agent_max_seconds":
            out[key] = np.max([p[key] for p in parts], axis=0)
        else:
            out[key] = np.concatenate([p[key] for p in parts])
    return out


class _Clock:
    """Per table entry: decisions, decisions with a choice (more than one legal action),
    thinking seconds and the longest decision."""

    def __init__(self, n: int) -> None:
        self.decisions = np.zeros(n, np.int64)
        self.choices = np.zeros(n, np.int64)
        self.seconds = np.zeros(n)
        self.longest = np.zeros(n)

    def add(self, k: int, seconds: float, count: int = 1, choices: int = 0) -> None:
        # A batched decision counts as the batch's time shared equally.
        self.seconds[k] += seconds
        self.longest[k] = max(self.longest[k], seconds / count)
        self.decisions[k] += count
        self.choices[k] += choices


def _checked_action(agent: AgentSpec, raw: Any, mask: np.ndarray, seat: int) -> int:
    """The action id an agent returned (a Python or numpy integer, or a one-element integer
    array or tensor, as :func:`~eights._utils.checks.as_action` takes), checked legal."""
    try:
        action = as_action(raw)
    except TypeError:  # a TypeError the command line reports in one line, as an illegal action
        raise AgentActionError.of(agent.name, raw) from None
    if not (0 <= action < NUM_ACTIONS and mask[action]):
        raise IllegalActionError(
            f"agent {agent.name!r} chose illegal action {action} at seat {seat}; legal actions: "
            f"{np.flatnonzero(mask).tolist()}"
        )
    return action


def _advance_bots(
    games: List[Any], seats: List[List[Any]], entries: np.ndarray, active: List[int], clock: _Clock
) -> Tuple[Dict[int, List[Tuple[int, int]]], List[int]]:
    """Play the built-in bots of the active games up to their next Python decision: the
    games waiting on each table entry, as (game, seat), and the games still running."""
    waiting: Dict[int, List[Tuple[int, int]]] = {}
    still = []
    for gi in active:
        g = games[gi]
        while not (g.is_terminal or g.is_truncated):
            s = g.current_player
            k = int(entries[gi, s])
            bot = seats[gi][s]
            if bot is None:
                waiting.setdefault(k, []).append((gi, s))
                still.append(gi)
                break
            choice = int(len(g.legal_actions()) > 1)
            t = time.perf_counter()
            a = bot.act(g)
            clock.add(k, time.perf_counter() - t, choices=choice)
            g.step(a)
    return waiting, still


def _act_python(
    agent: AgentSpec, k: int, games: List[Any], items: List[Tuple[int, int]], clock: _Clock, encodings: List[Any]
) -> None:
    """One batched decision of the Python agent at table entry ``k`` in every waiting game
    (given the rules encodings of the games too when it reads them)."""
    obs: Any = np.stack([games[gi].observation(s) for gi, s in items])
    if agent.obs_rules:
        obs = {"obs": obs, "rules": np.stack([encodings[gi] for gi, _ in items])}
    masks = np.stack([games[gi].action_mask() for gi, _ in items])
    t = time.perf_counter()
    actions = agent.act_batch(obs, masks)
    clock.add(k, time.perf_counter() - t, len(items), int(np.count_nonzero(masks.sum(axis=1) > 1)))
    for (gi, s), raw, m in zip(items, actions, masks):
        games[gi].step(_checked_action(agent, raw, m, s))


def _play_python(
    table: Sequence[AgentSpec],
    preset: Preset,
    n: int,
    seed: int,
    start: int,
    count: int,
    rules: Optional[Dict[str, Any]],
    recorder: Optional[EpisodeRecorder] = None,
) -> Dict[str, np.ndarray]:
    """Play deals ``start..start+count`` with Python agents, batched per agent (and save
    the record of every game with ``recorder``)."""
    sched = arena_schedule(seed, n, start, count)
    entries = sched["agent"]
    games = [Game(preset, n, seed=int(s), rules=rules) for s in sched["deal_seed"]]
    seats = [
        [table[k].make_bot(int(bs)) if table[k].is_builtin else None for k, bs in zip(row, bot_seeds)]
        for row, bot_seeds in zip(entries, sched["bot_seed"])
    ]
    clock = _Clock(n)
    encodings = [g.rules_encoding() for g in games] if any(a.obs_rules for a in table) else []
    active = list(range(len(games)))
    while active:
        waiting, active = _advance_bots(games, seats, entries, active, clock)
        for k, items in waiting.items():
            _act_python(table[k], k, games, items, clock, encodings)
    if recorder is not None:
        for gi, g in enumerate(games):
            arena = {
                "deal": int(sched["deal"][gi]),
                "rotation": int(sched["rotation"][gi]),
                "seed": seed,
                "agents": [table[k].name for k in entries[gi]],
            }
            recorder.save(g, {"arena": arena})
    return {
        "deal": sched["deal"],
        "rotation": sched["rotation"],
        "winner": np.asarray([-1 if g.winner is None else g.winner for g in games], np.int64),
        "hand_points": np.asarray([g.hand_points for g in games], float).reshape(-1, n),
        "score_returns": np.asarray([g.returns("score") for g in games], float).reshape(-1, n),
        "decisions": np.asarray([g.decision_count for g in games], np.int64),
        "truncated": np.asarray([g.is_truncated for g in games], bool),
        "agent_decisions": clock.decisions,
        "agent_choices": clock.choices,
        "agent_seconds": clock.seconds,
        "agent_max_seconds": clock.longest,
    }


def _rust_chunk(agents: Sequence[AgentSpec], threads: int) -> int:
    """Deals per call of the Rust arena: the batched bots (``net``, ``net1``, weights files)
    decide for a chunk's games in one forward pass, and the call spreads its deals over the
    threads, so they want many deals a call."""
    cores = threads or os.cpu_count() or 1
    if any(a.bot is not None and bot_is_batched(a.bot) for a in agents):
        return 64 * cores
    return max(8, 4 * cores)


def checked_table(
    table: Sequence[AgentLike],
    preset: Preset,
    games: Any,
    seed: Any,
    threads: Any,
    rules: Optional[Dict[str, Any]],
    batch_size: Any,
) -> Tuple[List[AgentSpec], int, int, int, int, int]:
    """The checks of :func:`play`: ``(agents, n, games, seed, threads, batch_size)``, or the
    exception naming the bad argument (the preset, player count and rules checked by dealing
    a game; ``net1`` refusing rules it was not trained for)."""
    if isinstance(table, (str, bytes)) or not isinstance(table, _SequenceABC):
        # A string would be read as one bot per character ("random": 'r', 'a', ...).
        raise TypeError(
            f"table must be a list of agents, one per seat, such as ['random', 'heuristic'], got {_describe(table)}"
        )
    n = len(table)
    if not 2 <= n <= MAX_TABLE:
        raise ValueError(f"table must hold one agent per seat, 2 to {MAX_TABLE} of them, got {n}")
    agents = [as_agent(a, f"table[{i}]") for i, a in enumerate(table)]
    games = count_arg(games, "games", 1, _MAX_GAMES)
    seed = check_seed(seed)
    threads = count_arg(threads, "threads", 0, _MAX_THREADS)
    batch_size = count_arg(batch_size, "batch_size", 1, _MAX_BATCH)
    try:
        Game(preset, n, seed=0, rules=rules)  # validates preset, player count and rules
    except RulesError as exc:
        if "'num_players'" not in str(exc):
            raise
        raise RulesError(f"table: {n} agents, one per seat: {exc}") from None
    for a in agents:
        if a.bot is not None:  # "net1" plays only the rules it was trained for
            check_bot_rules(a.bot, preset, n, rules)
    # A saved model of the scaled observation, loaded without its scale, scales by this table's.
    agents = [a.for_table(preset, n, rules) for a in agents]
    return agents, n, games, seed, threads, batch_size


def play_range(
    agents: Sequence[AgentSpec],
    preset: Preset,
    seed: int,
    start: int,
    count: int,
    threads: int,
    rules: Optional[Dict[str, Any]],
    batch_size: int,
    recorder: Optional[EpisodeRecorder] = None,
    progress: Any = None,
) -> Dict[str, np.ndarray]:
    """Deals ``start..start+count`` of a run of checked agents (see :func:`checked_table`), in
    chunks: in Rust threads for built-in bots (unless recording), else in the Python loop.
    Every game is dealt and seated from its deal's index, so a range gives the rows the
    whole run gives for those deals (a Ray task plays one range, see
    :mod:`eights.arena.cluster`)."""
    n = len(agents)
    rust = all(a.is_builtin for a in agents) and recorder is None
    chunk = _rust_chunk(agents, threads) if rust else max(1, batch_size // n)
    parts = []
    for first in range(start, start + count, chunk):
        size = min(chunk, start + count - first)
        if rust:
            bots = [a.bot for a in agents if a.bot is not None]
            parts.append(arena_play(preset, n, bots, seed, first, size, threads, rules))
        else:
            parts.append(_play_python(agents, preset, n, seed, first, size, rules, recorder))
        if progress is not None:
            progress(size * n)
    return concat(parts, n)


def play(
    table: Sequence[AgentLike],
    preset: Preset = "crazy_eights",
    games: int = 100,
    seed: int = 0,
    threads: int = 0,
    rules: Optional[Dict[str, Any]] = None,
    batch_size: int = 256,
    progress: Any = None,
    record_dir: Optional[str] = None,
) -> Dict[str, np.ndarray]:
    """Play ``games`` duplicate deals at one table (one agent per seat).

    ``preset`` is a preset name, a path to a house-rules TOML file or an :class:`eights.Rules`;
    ``rules`` are overrides on top. ``record_dir``: save the record of every game there
    (``episode_<k>.json``, see ``eights.Game.record``, with an ``"arena"`` entry: deal,
    rotation, seed and the agent at each seat); the games are then played through the
    Python loop (same deals, same bot seeds, so the same results), which is slower for
    tables of built-in bots.

    Returns a dict of numpy arrays with one row per game, in (deal, rotation) order:
    ``deal``, ``rotation``, ``winner`` (seat, -1 for none), ``hand_points`` and
    ``score_returns`` (games, n), ``decisions``, ``truncated``; plus per table entry
    ``agent_decisions``, ``agent_choices`` (decisions with more than one legal action),
    ``agent_seconds`` (thinking time) and ``agent_max_seconds``
    (the longest decision; for a batched Python agent, a batch's time over its size). ``progress`` is an
    optional callable receiving the number of games just finished (``TypeError`` for anything
    else but None). ``table`` is a list (or tuple) of agents, one per seat. On a Ray cluster:
    :func:`eights.arena.cluster.play`.
    """
    preset = resolve_preset(preset)
    agents, n, games, seed, threads, batch_size = checked_table(table, preset, games, seed, threads, rules, batch_size)
    progress = check_progress(progress)
    recorder = EpisodeRecorder.from_arg(record_dir, "record_dir")
    return play_range(agents, preset, seed, 0, games, threads, rules, batch_size, recorder, progress)
