"""``botspeed``: times each bot's decisions (per second, mean and longest, one thread) in
games against the heuristic bot, on one or more presets."""

from __future__ import annotations

import argparse
from typing import Any

from . import _args


def add_parser(subparsers: Any) -> None:
    """The ``botspeed`` command and its options."""
    p = subparsers.add_parser(
        "botspeed",
        help="time each bot's decisions",
        description="Play each bot against the heuristic bot on each preset (one thread) and print "
        "its decisions per second, mean milliseconds per decision and longest decision.",
    )
    p.add_argument(
        "--presets",
        default="crazy_eights,crazy_eights_specials,switch_blackjack",
        help="comma-separated presets (default: crazy_eights,crazy_eights_specials,switch_blackjack)",
    )
    p.add_argument("--players", type=_args.players, default=2, help="number of players (default: 2)")
    p.add_argument(
        "--bots",
        default="random,heuristic,pimc:50,ismcts:400",
        help="comma-separated bot names (default: random,heuristic,pimc:50,ismcts:400)",
    )
    p.add_argument("--games", type=_args.deals, default=20, help="duplicate deals per bot (default: 20)")
    p.add_argument("--seed", type=_args.seed, default=0, help="random seed (default: 0)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Time each bot's decisions on each preset (one thread, games against the heuristic)."""
    from .. import arena
    from .._core import Game, check_bot_rules
    from .._utils.checks import distinct_names
    from ..agents.spec import as_agent

    # A name listed twice was timed twice (and a preset 5,000 times, 5,000 times).
    bots = distinct_names(_args.names(args.bots), "--bots", "bot")
    presets = distinct_names(_args.names(args.presets), "--presets", "preset")
    if not bots:
        raise ValueError(f"--bots needs at least one bot name (e.g. random,heuristic), got {args.bots!r}")
    if not presets:
        raise ValueError(f"--presets needs at least one preset name (e.g. crazy_eights), got {args.presets!r}")
    specs = [as_agent(b, "--bots") for b in bots]  # ValueError naming the allowed bots
    for preset in presets:  # every preset and the player count checked before any timing
        try:
            Game(preset, args.players, seed=0)
        except ValueError as exc:
            raise ValueError(f"--presets: {exc}") from None
    for preset in presets:  # and every bot on every preset (net1 plays only its own presets)
        for b, spec in zip(bots, specs):
            if spec.bot is None:
                continue
            try:
                check_bot_rules(spec.bot, preset, args.players)
            except ValueError as exc:
                raise ValueError(f"--bots {b} cannot play --presets {preset}: {exc}") from None
    print(
        f"{args.players} players, {args.games} duplicate deals against heuristic per bot, one thread, seed {args.seed}"
    )
    w = max(10, max(len(b) for b in bots))
    print(f"{'preset':<22}  {'bot':<{w}}  {'decisions/s':>12}  {'ms/decision':>11}  {'longest ms':>10}")
    for preset in presets:
        for b in bots:
            opponents = ["heuristic"] * (args.players - 1)
            res = arena.play([b] + opponents, preset, args.games, args.seed, threads=1)
            dec = float(res["agent_decisions"][0])
            sec = float(res["agent_seconds"][0])
            rate = dec / sec if sec > 0 else float("inf")
            ms = 1000.0 * sec / dec if dec > 0 else float("nan")
            longest = 1000.0 * float(res["agent_max_seconds"][0])
            # The mean and the longest with the same precision, so the printed mean never
            # exceeds the printed longest (a random bot's decisions take well under a
            # microsecond).
            print(f"{preset:<22}  {b:<{w}}  {rate:12,.0f}  {ms:11.4f}  {longest:10.4f}")
    return 0
