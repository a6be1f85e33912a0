"""``play``: a person plays a hand against bots in the terminal (see :mod:`eights.cli.terminal`)."""

from __future__ import annotations

import argparse
from typing import Any

from .._core import BOT_NAMES_HELP
from . import _args


def add_parser(subparsers: Any) -> None:
    """The ``play`` command and its options."""
    p = subparsers.add_parser(
        "play",
        help="play a hand against bots in the terminal",
        description="Play one hand against built-in bots: each turn shows the table and your legal "
        'moves; answer with a move number or its text ("8h", "10D", "draw", "suit H"). '
        '"help" lists the moves, "quit" or end of input leaves.',
    )
    _args.add_preset(p)
    p.add_argument("--players", type=_args.players, default=2, help="number of players (default: 2)")
    p.add_argument("--seat", type=_args.non_negative, default=0, help="your seat, 0 moves first (default: 0)")
    p.add_argument(
        "--bots",
        default="heuristic",
        help=f"bot for every other seat, or a comma-separated bot per other seat: {BOT_NAMES_HELP}, "
        "module:attribute (your policy) or a saved SB3 model (.zip) (default: heuristic)",
    )
    p.add_argument("--seed", type=_args.seed, default=None, help="random seed (default: a fresh one, printed)")
    _args.add_rules(p)
    _args.add_variants(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Play a hand against bots in the terminal."""
    from .terminal import play

    preset, rules = _args.rules_of(args)
    bots = _args.names(args.bots)
    if not bots:
        raise ValueError(f"--bots needs at least one bot name (e.g. heuristic), got {args.bots!r}")
    return play(preset, args.players, seat=args.seat, bots=bots, seed=args.seed, rules=rules)
