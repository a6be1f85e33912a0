"""``presets``: lists the rules presets, one name a line."""

from __future__ import annotations

import argparse
from typing import Any

import eights


def add_parser(subparsers: Any) -> None:
    """The ``presets`` command (no options)."""
    p = subparsers.add_parser(
        "presets",
        help="list the rules presets",
        description="List the names of the rules presets, one a line: what --preset takes in every command "
        "('rules --preset NAME' shows one in words).",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the available presets, one per line."""
    for name in eights.presets():
        print(name)
    return 0
