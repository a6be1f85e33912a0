"""``replay``: prints a saved game record (the arena's ``--record``, the envs'
``record_dir``, or ``json.dump(game.record())``) in the terminal, move by move."""

from __future__ import annotations

import argparse
from typing import Any

from . import _args


def add_parser(subparsers: Any) -> None:
    """The ``replay`` command and its options."""
    p = subparsers.add_parser(
        "replay",
        help="print a saved game record move by move",
        description="Replay a game record (a JSON file written by the envs' or the arena's record "
        "option, or json.dump(game.record())): the dealt table, every action, and the final table.",
    )
    p.add_argument("file", help="the record's JSON file")
    p.add_argument(
        "--viewer",
        type=_args.non_negative,
        default=None,
        metavar="SEAT",
        help="show only this seat's hand (default: every hand)",
    )
    p.add_argument(
        "--tables",
        type=_args.non_negative,
        default=0,
        metavar="N",
        help="also print the table after every N-th action (default: 0, only first and last)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print a saved game record in the terminal, move by move."""
    from .._utils.checks import terminal_safe
    from ..records import load_record
    from ..render import replay_text

    try:
        record = load_record(args.file)
    except OSError as exc:
        raise ValueError(f"cannot read {args.file!r}: {exc}") from None
    viewer = None if args.viewer is None else int(args.viewer)
    # The record's labels are a file's text: escaped, they cannot act on the terminal.
    print(terminal_safe(replay_text(record, viewer=viewer, every=args.tables)), end="")
    return 0
