"""``arena``: a duplicate-deal tournament between bots and policies (see :mod:`eights.arena`),
with a progress bar, the ratings table, and optionally the results saved as JSON/CSV and a
chart of the ratings."""

from __future__ import annotations

import argparse
import time
from typing import Any

from .._core import BOT_NAMES_HELP
from .._utils import outputs as _outputs
from .._utils.progress import installed as progress_installed
from . import _args


def add_parser(subparsers: Any) -> None:
    """The ``arena`` command and its options."""
    p = subparsers.add_parser(
        "arena",
        help="duplicate-deal tournament between bots, with ratings",
        description="Play every table of the given bots over duplicate deals (each deal replayed "
        "with the seats rotated), print win rates with 95% intervals and Bradley-Terry ratings "
        "(Elo scale) with bootstrap intervals. "
        f"Bots: {BOT_NAMES_HELP}.",
    )
    _args.add_preset(p)
    p.add_argument("--players", type=_args.players, default=2, help="number of players (default: 2)")
    p.add_argument(
        "--agents",
        default="random,heuristic,ismcts:400",
        help="comma-separated agents: bot names, paths of trained weights files (.safetensors, "
        "played in Rust, labelled by the name they record), module:attribute (a policy f(obs, mask) -> "
        "action or an object with act/act_batch, from the current folder) or paths of saved SB3 models (.zip); "
        "one given twice plays twice, numbered NAME#1, NAME#2 (model.zip,heuristic,heuristic at --players 3: "
        "the model against two heuristic bots) (default: random,heuristic,ismcts:400)",
    )
    p.add_argument(
        "--games",
        type=_args.deals,
        default=1000,
        help="duplicate deals per table, each played once per seat rotation: the progress bar counts "
        "PLAYERS x GAMES games a table (default: 1000)",
    )
    p.add_argument("--seed", type=_args.seed, default=0, help="random seed (default: 0)")
    p.add_argument("--threads", type=_args.threads, default=0, help="worker threads, 0 = all cores (default: 0)")
    p.add_argument(
        "--bootstrap",
        type=_args.int_in(100, 10**6),
        default=1000,
        help="bootstrap resamples for the intervals, 100 to 10**6 (default: 1000)",
    )
    _args.add_rules(p)
    _args.add_variants(p)
    _args.add_ray(p)
    p.add_argument("--plot", default=None, metavar="PNG", help="save a chart of the ratings (needs matplotlib)")
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    p.add_argument(
        "--record",
        default=None,
        metavar="DIR",
        help="save a replay record of every game in DIR (episode_<k>.json; see 'replay')",
    )
    p.add_argument(
        "--out",
        action="append",
        default=None,
        metavar="FILE",
        help="also write the results to FILE: .json (everything) or .csv (the ratings table); repeatable",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run a duplicate-deal tournament between bots and print the ratings."""
    from .. import arena
    from .._core import check_bot_rules
    from ..arena.report import results_format
    from ..observation import ObservationBounds

    preset, rules = _args.rules_of(args)
    for path in args.out or []:
        try:
            results_format(path)  # the save's own rule, so that it refuses nothing checked here
        except ValueError:
            bare = path.lower().endswith((".json", ".csv"))  # ".json", "dir/..json": no name before it
            hint = " (the file needs a name before its extension)" if bare else ""
            raise ValueError(f"--out must name a .json or .csv file, got {path!r}{hint}") from None
    # Every output checked before the tournament runs, not after (the chart at the path it
    # will be written to).
    _outputs.check_outputs(
        [*_outputs.each("--out", args.out, "file"), ("--record", args.record, "folder"), ("--plot", args.plot, "plot")]
    )
    if args.ray is not None and args.record is not None:
        raise ValueError("--record cannot be combined with --ray: the records would be written on the workers")
    # Bot names, module:attribute policies and saved SB3 models (ValueError when unknown).
    scale = ObservationBounds(preset, args.players, rules=rules)
    agents = [_args.load_agent(a, scale, what="--agents") for a in _args.names(args.agents)]
    for agent in agents:  # "net1" plays only its presets: said before the progress bar is drawn
        if agent.bot is not None:
            check_bot_rules(agent.bot, preset, args.players, rules)
    ray = _args.ray_of(args)
    start = time.perf_counter()
    result = arena.tournament(
        agents,
        preset=preset,
        num_players=args.players,
        games=args.games,
        seed=args.seed,
        threads=args.threads,
        rules=rules,
        bootstrap=args.bootstrap,
        progress=not args.no_progress and progress_installed(),
        record_dir=args.record,
        ray=ray,
    )
    print(result.table())
    print(f"time: {time.perf_counter() - start:.1f} s")
    for path in args.out or []:
        result.save(path)
        print(f"results saved to {path}")
    if args.plot:
        print(f"chart saved to {result.plot(args.plot)}")
    return 0
