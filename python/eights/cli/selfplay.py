"""``selfplay``: random-vs-random games in the Rust loop (:func:`eights.random_selfplay`),
then in a plain Python loop over :class:`eights.Game`, with win rates and decisions per
second, to show the cost of driving the engine from Python."""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any, Dict, Optional, Union

import eights

from .._utils.optional import import_optional
from ..rules.changes import label
from . import _args


def add_parser(subparsers: Any) -> None:
    """The ``selfplay`` command and its options."""
    p = subparsers.add_parser(
        "selfplay",
        help="benchmark random-vs-random games",
        description="Play random-vs-random games in the Rust loop and in a Python loop; "
        "report win rates and decisions per second.",
    )
    _args.add_preset(p)
    p.add_argument("--players", type=_args.players, default=2, help="number of players (default: 2)")
    p.add_argument("--games", type=_args.non_negative, default=20000, help="games in the Rust loop (default: 20000)")
    p.add_argument("--seed", type=_args.seed, default=0, help="random seed (default: 0)")
    p.add_argument(
        "--python-loop",
        type=_args.int_in(0, 10**9),  # as --games (random_selfplay's cap): 2**64 - 1 was taken
        default=2000,
        metavar="N",
        help="games in the Python loop; 0 skips it (default: 2000)",
    )
    _args.add_rules(p)
    _args.add_variants(p)
    p.set_defaults(func=run)


def _progress(iterable: Any, total: int, desc: str) -> Any:
    """Wrap ``iterable`` in a tqdm progress bar when tqdm is installed (else no bar)."""
    try:
        tqdm = import_optional("tqdm", "progress", "a progress bar").tqdm
    except ImportError:
        return iterable
    return tqdm(iterable, total=total, desc=desc, unit="game", file=sys.stderr)


def _rate(count: float, seconds: float) -> str:
    return f"{count / seconds:,.0f}" if seconds > 0 else "inf"


def run_python_loop(
    preset: Union[str, eights.Rules], players: int, games: int, seed: int, rules: Optional[Dict[str, Any]] = None
) -> Dict[str, Any]:
    """Play ``games`` random games through the Python API (``preset``: a name or an
    :class:`eights.Rules`).

    Returns a dict with ``games``, ``decisions``, ``wins`` (per seat),
    ``no_winner``, ``truncated`` and ``seconds``.
    """
    rng = random.Random(seed)
    game = eights.Game(preset, players, seed=seed, rules=rules)
    wins = [0] * players
    no_winner = truncated = decisions = 0
    start = time.perf_counter()
    for _ in _progress(range(games), games, "python loop"):
        game.reset(seed=rng.getrandbits(63))
        while not game.is_terminal and not game.is_truncated:
            game.step(rng.choice(game.legal_actions()))
            decisions += 1
        if game.is_truncated:
            truncated += 1
        if game.winner is None:
            no_winner += 1
        else:
            wins[game.winner] += 1
    seconds = time.perf_counter() - start
    return {
        "games": games,
        "decisions": decisions,
        "wins": wins,
        "no_winner": no_winner,
        "truncated": truncated,
        "seconds": seconds,
    }


def _report(title: str, stats: Dict[str, Any]) -> None:
    games = stats["games"]
    seconds = stats["seconds"]
    decisions = stats["decisions"]
    print(f"{title}")
    print(f"  games played:       {games:,}")
    if games:
        rates = ", ".join(f"seat {seat}: {wins / games:.3f}" for seat, wins in enumerate(stats["wins"]))
        print(f"  win rate per seat:  {rates}")
        print(f"  no winner:          {stats['no_winner']:,}")
        print(f"  truncated:          {stats['truncated']:,}")
        print(f"  decisions per game: {decisions / games:.1f}")
    print(f"  time:               {seconds:.3f} s")
    print(f"  decisions/second:   {_rate(decisions, seconds)}")
    print(f"  games/second:       {_rate(games, seconds)}")


def run(args: argparse.Namespace) -> int:
    """Run the Rust self-play benchmark, then the optional Python loop."""
    preset, rules = _args.rules_of(args)
    print(f"preset={label(preset, rules)} players={args.players} seed={args.seed}")
    stats = eights.random_selfplay(preset, num_players=args.players, games=args.games, seed=args.seed, rules=rules)
    _report("Rust loop (eights.random_selfplay)", stats)
    if args.python_loop > 0:
        py_stats = run_python_loop(preset, args.players, args.python_loop, args.seed, rules)
        _report("Python loop (eights.Game + random.Random)", py_stats)
        rust_rate = stats["decisions"] / stats["seconds"] if stats["seconds"] > 0 else 0.0
        py_rate = py_stats["decisions"] / py_stats["seconds"] if py_stats["seconds"] > 0 else 0.0
        if rust_rate > 0 and py_rate > 0:
            print(f"Rust loop speed-up over the Python loop: {rust_rate / py_rate:.1f}x decisions/second")
    return 0
