"""Soak test, as a library: random games over every preset and player count, with the
engine's invariants checked and the process memory measured before and after; each mode
returns its findings as a dict, which the command line (:mod:`eights.cli.soak`) prints.
Two modes:

* ``python -m eights soak --seconds 60`` (:func:`soak`): for a fixed time, through three
  drivers (the Rust loop, the Python ``Game`` API and ``VecEnv``), everything checked at
  every decision (about 20,000 decisions/s).
* ``python -m eights soak --decisions N`` (:func:`fast_soak`): until ``N`` decisions, in
  Rust on all cores without the GIL, for runs of 10^9 decisions
  and more. At every decision: the legal set non-empty exactly while the game is live, every
  legal id decodes, the drawn action accepted, the cards conserved face by face, the game
  ending or truncating within its cap, and the acting seat's observation finite and within
  the declared bounds (those of :class:`eights.observation.ObservationBounds`, computed by
  the engine for each table; every ``--obs-every``-th decision, default every one);
  zero-sum returns at every end. On a sampled fraction
  (``--full-every``, default one decision in 1000 per game, plus the deal and the end): the
  full check (every seat's observation, the legal vector against the mask, the snapshot
  round trip) and every legal action applied to a copy. Deterministic per seed whatever
  the thread count.
"""

from __future__ import annotations

import math
import os
import random
import sys
import time
import zlib
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple

import numpy as np

from .._core import FastSoak, Game, checked_selfplay, preset_rules
from .._core import Game as _Game
from .._core import presets as _presets
from .._utils.checks import as_int, describe, distinct_names
from .._utils.seeds import check_seed
from ..envs.vector import VecEnv

__all__ = ["soak", "fast_soak", "table_sizes", "rss_bytes", "FAST_LIMITS"]

#: Decisions a game may take beyond ``limits.max_decisions`` before it counts as endless.
_SLACK = 1000
#: Games per Rust-loop batch, VecEnv batch size and steps.
_RUST_GAMES = 4
_VEC_ENVS = 16
_VEC_STEPS = 120
#: A full from_dict round trip every this many Python-API decisions (and at the end).
_ROUND_TRIP_EVERY = 7


def rss_bytes() -> int:
    """Resident memory of this process in bytes (current, from /proc; elsewhere the peak)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024


def table_sizes(presets: Optional[List[str]] = None) -> List[Tuple[str, int]]:
    """Every (preset, player count) the presets allow (every preset's when ``presets`` is
    None; an empty list is a ``ValueError``, not every preset, and so is a preset listed
    twice)."""
    if presets is not None:
        if isinstance(presets, str) or not isinstance(presets, Iterable):
            raise TypeError(f"presets must be a list of preset names, got {describe(presets)}")
        # Each name once, read before any table is built: 5,000 copies of one preset were
        # 2.2 GB of tables, and Ctrl-C took 7 s.
        presets = distinct_names(presets, "presets", "preset")
        if not presets:
            raise ValueError("presets is empty: name at least one preset, or leave it out for every preset")
    out = []
    for name in presets or _presets():
        players = preset_rules(name)["players"]
        for n in range(max(2, players["min"]), min(players["max"], 10) + 1):
            try:
                _Game(name, n, seed=0)
            except ValueError:
                continue  # e.g. a deck too small for that many hands
            out.append((name, n))
    return out


class _Report:
    def __init__(self) -> None:
        self.games = {"rust": 0, "python": 0, "vec_env": 0}
        self.decisions = {"rust": 0, "python": 0, "vec_env": 0}
        self.violations = 0
        self.failures: List[str] = []

    def fail(self, where: str, message: str) -> None:
        self.violations += 1
        if len(self.failures) < 20:
            self.failures.append(f"{where}: {message}")


def _cards_in_play(g: Any) -> int:
    return sum(g.hand_sizes) + g.stock_size + g.discard_size + len(g.rogue_pile())


def _python_game(preset: str, n: int, seed: int, rep: _Report) -> None:
    """One game through the Python API, checked after every decision."""
    where = f"python {preset} n={n} seed={seed}"
    rng = random.Random(seed)
    g = Game(preset, n, seed=seed)
    cards = _cards_in_play(g)
    cap = g.rules_dict()["limits"]["max_decisions"] or 100_000
    steps = 0
    while True:
        legal = g.legal_actions()
        mask = g.action_mask()
        if mask.shape != (g.num_actions,) or list(np.flatnonzero(mask)) != legal:
            return rep.fail(where, f"mask differs from the legal set at decision {steps}")
        over = g.is_terminal or g.is_truncated
        if over != (not legal) or over != (g.current_player == -1):
            return rep.fail(where, f"legal set {legal} with terminal={g.is_terminal} truncated={g.is_truncated}")
        if _cards_in_play(g) != cards:
            return rep.fail(where, f"cards not conserved at decision {steps}")
        for p in range(n):
            obs = g.observation(p)
            if obs.shape != (g.observation_size,) or obs.dtype != np.float32 or not np.isfinite(obs).all():
                return rep.fail(where, f"observation of seat {p} not finite or of the wrong shape")
        if over or steps % _ROUND_TRIP_EVERY == 0:
            d = g.to_dict()
            if Game.from_dict(d).to_dict() != d:
                return rep.fail(where, f"from_dict round trip changed the state at decision {steps}")
        if over:
            break
        g.step(rng.choice(legal))
        steps += 1
        if steps > cap + _SLACK:
            return rep.fail(where, f"no end after {steps} decisions")
    for kind in ("win_loss", "score"):
        r = g.returns(kind)
        if not np.isfinite(r).all() or abs(float(r.sum())) > 1e-6:
            return rep.fail(where, f"{kind} returns not zero-sum: {r}")
    rep.games["python"] += 1
    rep.decisions["python"] += steps


def _vec_env(preset: str, n: int, seed: int, rep: _Report) -> None:
    """A self-play VecEnv batch stepped with random legal actions, checked every step."""
    where = f"vec_env {preset} n={n} seed={seed}"
    env = VecEnv(preset, num_envs=_VEC_ENVS, num_players=n, self_play=True, num_threads=1, seed=seed)
    space = env.single_observation_space
    obs, info = env.reset(seed=seed)
    cards = [_cards_in_play(env.game(i)) for i in range(_VEC_ENVS)]
    for step in range(_VEC_STEPS):
        mask = info["action_mask"]
        to_act = info["current_player"]
        live = to_act >= 0
        if (mask.any(axis=1) != live).any():
            return rep.fail(where, f"a mask row is empty exactly when the game is live is false at step {step}")
        if not np.isfinite(obs).all() or not all(space.contains(row) for row in obs):
            return rep.fail(where, f"an observation is outside the declared space at step {step}")
        actions = env.random_actions().copy()
        if not mask[np.arange(_VEC_ENVS), actions][live].all():
            return rep.fail(where, f"random_actions picked an action outside the mask at step {step}")
        obs, rewards, terminated, truncated, info = env.step(actions)
        rep.decisions["vec_env"] += int(live.sum())
        ended = terminated | truncated
        rep.games["vec_env"] += int(ended.sum())
        if (np.abs(rewards.sum(axis=1)) > 1e-4).any() or not np.isfinite(rewards).all():
            return rep.fail(where, f"rewards not zero-sum at step {step}")
        if (rewards[~terminated] != 0).any():
            return rep.fail(where, f"a reward outside the end of an episode at step {step}")
        if step % 50 == 49:
            # Every deal puts the whole deck in play, so the count never changes.
            for i in range(_VEC_ENVS):
                if _cards_in_play(env.game(i)) != cards[i]:
                    return rep.fail(where, f"cards not conserved in game {i} at step {step}")
    env.close()


def _rust_loop(preset: str, n: int, seed: int, rep: _Report) -> None:
    stats = checked_selfplay(preset, n, games=_RUST_GAMES, seed=seed)
    rep.games["rust"] += stats["games"]
    rep.decisions["rust"] += stats["decisions"]
    for f in stats["failures"][: max(0, stats["violations"])]:
        rep.fail(f"rust {preset} n={n} seed={seed}", f)
    rep.violations += stats["violations"] - len(stats["failures"])


def soak(
    seconds: float,
    seed: int = 0,
    presets: Optional[List[str]] = None,
    log: Optional[Callable[[str], None]] = None,
) -> Dict[str, Any]:
    """Play random games over every preset and player count for about ``seconds``, in
    rounds. A round visits every table size (preset and player count) once, each preset's
    smallest table first: the Rust loop plays a few checked games there, then one of the
    Python drivers (the Python API or a VecEnv batch, alternating from table to table and
    round to round). The smallest table of every preset is always visited, so every preset
    is covered however short the time; the other tables as time allows
    (``tables_visited``). Returns a dict:
    ``seconds``, ``rounds``, ``games`` and ``decisions`` per driver, ``violations``,
    ``failures`` (the first few messages), ``rss_start``, ``rss_after_first_round`` and
    ``rss_end`` in bytes, and ``rss_growth`` (end minus after the first round)."""
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        raise TypeError(f"seconds must be a number, got {seconds!r}")
    if not math.isfinite(seconds) or seconds <= 0:
        raise ValueError(f"seconds must be a finite number > 0, got {seconds!r}")
    seed = check_seed(seed)
    sizes = table_sizes(presets)
    first: Dict[str, Tuple[str, int]] = {}
    for preset, n in sizes:
        first.setdefault(preset, (preset, n))
    must = len(first)
    sizes = list(first.values()) + [t for t in sizes if t not in first.values()]
    visited = 0
    rep = _Report()
    rss_start = rss_bytes()
    rss_first: Optional[int] = None
    start = time.perf_counter()
    rounds = 0
    python_drivers = (("python", _python_game), ("vec_env", _vec_env))
    if log:  # a round visits every table and may take a minute: say at once what runs
        log(f"soak: {len(sizes)} (preset, players) tables, {seconds:g} s; a line after each round")
    done = False
    while not done:
        for k, (preset, n) in enumerate(sizes):
            s = (seed * 1_000_003 + rounds * 7919 + n * 131 + zlib.crc32(preset.encode())) % 2**63
            for name, driver in (("rust", _rust_loop), python_drivers[(k + rounds) % 2]):
                try:
                    driver(preset, n, s, rep)
                except Exception as exc:  # any exception from valid play is a violation
                    rep.fail(f"{name} {preset} n={n} seed={s}", f"{type(exc).__name__}: {exc}")
            visited = max(visited, k + 1) if rounds == 0 else len(sizes)
            if (rounds > 0 or k + 1 >= must) and time.perf_counter() - start >= seconds:
                done = True
                break
        rounds += 1
        if rss_first is None:
            rss_first = rss_bytes()
        elapsed = time.perf_counter() - start
        done = done or elapsed >= seconds
        if log:
            log(
                f"round {rounds}: {elapsed:.0f} s, decisions {sum(rep.decisions.values()):,}, "
                f"violations {rep.violations}, rss {rss_bytes() / 2**20:.1f} MiB"
            )
    rss_end = rss_bytes()
    return {
        "seconds": round(time.perf_counter() - start, 1),
        "rounds": rounds,
        "table_sizes": len(sizes),
        "tables_visited": visited,
        "games": rep.games,
        "decisions": rep.decisions,
        "decisions_checked": sum(rep.decisions.values()),
        "violations": rep.violations,
        "failures": rep.failures,
        "rss_start": rss_start,
        "rss_after_first_round": rss_first,
        "rss_end": rss_end,
        "rss_growth": rss_end - (rss_first or rss_start),
    }


#: The ranges (inclusive) of :func:`fast_soak`'s counts, which the command line checks too.
FAST_LIMITS = {"decisions": (1, 2**63 - 1), "obs_every": (1, 2**32 - 1), "full_every": (1, 2**32 - 1)}

#: The most games in one :func:`fast_soak` batch (a multiple of any table count is not needed:
#: game ``i`` goes to table ``i % tables``). The first batch is one game per table, and each
#: next one twice the last, so that a small budget stops near its count (a whole 4,096-game
#: batch was 3.5 million decisions for ``--decisions 20000``) and a large one in few calls.
_FAST_BATCH = 4096


def fast_soak(
    decisions: int,
    seed: int = 0,
    presets: Optional[List[str]] = None,
    num_threads: int = 0,
    obs_every: int = 1,
    full_every: int = 1000,
    log: Optional[Callable[[str], None]] = None,
) -> Dict[str, Any]:
    """Random games over every (preset, player count) table in Rust until at least
    ``decisions`` decisions (at least one game per table), in batches of games (one per
    table, then doubling up to 4,096) on ``num_threads`` threads (0: all cores),
    the GIL released; see the module docstring for the checks. Game ``i`` is played at
    table ``i % len(tables)`` from a seed derived from ``(seed, i)``, and batches are
    summed in order, so the result depends only on the arguments, not on the thread count.
    Returns a dict: ``seconds``, ``tables``, ``games``, ``decisions``, ``truncated``,
    ``observations_checked``, ``full_checks``, ``violations``, ``failures`` and the memory
    (``rss_start``, ``rss_after_first_batch``, ``rss_end``, ``rss_growth``), in bytes."""
    for name, value in (("decisions", decisions), ("obs_every", obs_every), ("full_every", full_every)):
        as_int(value, name, *FAST_LIMITS[name])
    as_int(num_threads, "num_threads", 0, 1024)
    seed = check_seed(seed)
    # Each table's observations are checked against the rules' own bounds, computed in Rust.
    sizes = table_sizes(presets)
    runner = FastSoak(sizes, seed=seed, obs_every=obs_every, full_every=full_every, num_threads=num_threads)
    totals: Dict[str, Any] = {
        k: 0 for k in ("games", "decisions", "truncated", "observations_checked", "full_checks", "violations")
    }
    failures: List[str] = []
    rss_start = rss_bytes()
    rss_first: Optional[int] = None
    start = time.perf_counter()
    first, batch, batches = 0, min(len(sizes), _FAST_BATCH), 0
    while totals["decisions"] < decisions or first == 0:
        r = runner.run(first, batch)
        first, batch, batches = first + batch, min(2 * batch, _FAST_BATCH), batches + 1
        for k in totals:
            totals[k] += r[k]
        failures.extend(r["failures"][: max(0, 20 - len(failures))])
        if rss_first is None:
            rss_first = rss_bytes()
        if log and batches % 25 == 0:
            elapsed = time.perf_counter() - start
            log(
                f"{elapsed:.0f} s: games {totals['games']:,}, decisions {totals['decisions']:,} "
                f"({totals['decisions'] / max(elapsed, 1e-9):,.0f}/s), violations {totals['violations']}, "
                f"rss {rss_bytes() / 2**20:.1f} MiB"
            )
    rss_end = rss_bytes()
    return {
        "mode": "fast",
        "seconds": round(time.perf_counter() - start, 1),
        "tables": len(sizes),
        **totals,
        "failures": failures,
        "rss_start": rss_start,
        "rss_after_first_batch": rss_first,
        "rss_end": rss_end,
        "rss_growth": rss_end - (rss_first or rss_start),
    }
