"""``soak``: random games with the engine's invariants checked over every preset and player
count, for a time or (fast mode) a number of decisions; runs :mod:`eights.diagnostics.soak`
and prints its result as a summary or JSON, exiting 1 on a violation."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Dict

from .._utils.checks import distinct_names
from ..diagnostics import soak
from . import _args

_MIB = 2**20


def add_parser(subparsers: Any) -> None:
    """The ``soak`` command and its options."""
    p = subparsers.add_parser(
        "soak",
        help="random games with invariant checks over every preset and player count",
        description="Plays random games over every preset and player count through the Rust loop, the "
        "Python API and VecEnv, checks the invariants after every decision and reports memory "
        "before and after; exits 1 on a violation.",
    )
    p.add_argument("--seconds", type=_args.positive_seconds, default=60.0, help="how long to run, > 0 (default: 60)")
    p.add_argument(
        "--decisions",
        type=_args.int_in(*soak.FAST_LIMITS["decisions"]),
        default=None,
        metavar="N",
        help="fast mode: play in Rust on all cores until N decisions, at least one game per table, in batches "
        "of games (cheap checks at every decision, the full check on a sample; --seconds is ignored)",
    )
    p.add_argument("--threads", type=_args.threads, default=0, help="fast mode: threads, 0 = all cores (default: 0)")
    p.add_argument(
        "--obs-every",
        type=_args.int_in(*soak.FAST_LIMITS["obs_every"]),
        default=1,
        metavar="K",
        help="fast mode: check the acting seat's observation every K-th decision (default: 1)",
    )
    p.add_argument(
        "--full-every",
        type=_args.int_in(*soak.FAST_LIMITS["full_every"]),
        default=1000,
        metavar="K",
        help="fast mode: the full check every K-th decision of a game (default: 1000)",
    )
    p.add_argument("--seed", type=_args.seed, default=0, help="random seed (default: 0)")
    p.add_argument("--presets", default=None, help="comma-separated presets (default: all)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=run)


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _print_failures_and_memory(res: Dict[str, Any], first: str, after: str) -> None:
    """The violations, the first failure messages and the memory line of either mode."""
    print(f"  violations: {res['violations']}")
    for f in res["failures"]:
        print(f"    {f}")
    print(
        f"  memory (RSS): start {res['rss_start'] / _MIB:.1f} MiB, after the first {after} "
        f"{(res[first] or 0) / _MIB:.1f} MiB, end {res['rss_end'] / _MIB:.1f} MiB "
        f"(growth {res['rss_growth'] / _MIB:+.1f} MiB)"
    )


def print_summary(res: Dict[str, Any]) -> None:
    """The summary of :func:`eights.diagnostics.soak.soak`'s result."""
    print(
        f"soak: {res['seconds']} s, {res['rounds']} round(s), {res['tables_visited']} of "
        f"{res['table_sizes']} (preset, players) tables visited"
    )
    for d in ("rust", "python", "vec_env"):
        print(f"  {d:<8} games {res['games'][d]:>9,}  decisions checked {res['decisions'][d]:>12,}")
    _print_failures_and_memory(res, "rss_after_first_round", "round")


def print_fast_summary(res: Dict[str, Any]) -> None:
    """The summary of :func:`eights.diagnostics.soak.fast_soak`'s result."""
    print(f"soak (fast): {res['seconds']} s over {res['tables']} (preset, players) tables")
    print(f"  games {res['games']:,}  decisions checked {res['decisions']:,}  truncated {res['truncated']:,}")
    print(f"  observations checked {res['observations_checked']:,}  full checks {res['full_checks']:,}")
    _print_failures_and_memory(res, "rss_after_first_batch", "batch")


def run(args: argparse.Namespace) -> int:
    """Run the soak (timed, or fast with ``--decisions``), print the summary or JSON; 1 on a
    violation."""
    presets = None if args.presets is None else _args.names(args.presets)
    if presets == []:
        raise ValueError(f"--presets {args.presets!r} names no preset: give comma-separated preset names")
    if presets is not None:  # named as the option: "--presets: preset ... is listed twice"
        presets = distinct_names(presets, "--presets", "preset")
    if args.decisions is not None:
        res = soak.fast_soak(
            args.decisions, args.seed, presets, args.threads, args.obs_every, args.full_every, log=_log
        )
        summary = print_fast_summary
    else:
        res = soak.soak(args.seconds, args.seed, presets, log=_log)
        summary = print_summary
    if args.json:
        print(json.dumps(res, indent=2))
    else:
        summary(res)
    return 1 if res["violations"] else 0
