"""``generalize``: the generalization benchmark (see :mod:`eights.generalization`): an agent
against the heuristic on every rule set of a split, with each win rate's 95% interval, the
mean and interquartile mean over rule sets, and optionally a chart and the results as JSON."""

from __future__ import annotations

import argparse
import time
from typing import Any

from .._utils import outputs as _outputs
from .._utils.progress import installed as progress_installed
from . import _args


def add_parser(subparsers: Any) -> None:
    """The ``generalize`` command and its options."""
    from ..generalization import SPLITS

    p = subparsers.add_parser(
        "generalize",
        help="generalization benchmark: an agent on held-out rules",
        description="Play an agent against the heuristic (or --opponent) on every rule set of a "
        "split of the generalization benchmark, over duplicate deals, and report each win rate with "
        "its 95% interval and the mean and interquartile mean over rule sets (stratified bootstrap "
        "intervals). A bot refused by a rule set (net1 away from its presets) is reported as refused.",
    )
    p.add_argument(
        "--agent",
        required=True,
        help="a bot name, the path of a .safetensors weights file (a trained network, such as eights train's "
        "final.safetensors), module:attribute (a policy; obs_rules = True on it to be given the rules) or the "
        "path of a saved SB3 model",
    )
    p.add_argument("--split", default="heldout_presets", choices=SPLITS, help="the split (default: heldout_presets)")
    p.add_argument("--opponent", default="heuristic", help="the opponent at every other seat (default: heuristic)")
    p.add_argument("--players", type=_args.players, default=2, help="number of players (default: 2)")
    p.add_argument("--games", type=_args.deals, default=200, help="duplicate deals per rule set (default: 200)")
    p.add_argument("--seed", type=_args.seed, default=0, help="random seed (default: 0)")
    p.add_argument("--threads", type=_args.threads, default=0, help="worker threads, 0 = all cores (default: 0)")
    _args.add_ray(p)
    p.add_argument("--plot", default=None, metavar="PNG", help="save a chart of the win rates (needs matplotlib)")
    p.add_argument("--out", default=None, metavar="JSON", help="also write the results to this JSON file")
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the benchmark and print the table."""
    from ..agents.load import one_torch_thread_for_play
    from ..agents.spec import load_agent
    from ..generalization import evaluate, refusals, split, unseated

    _outputs.check_outputs([("--out", args.out, "file"), ("--plot", args.plot, "plot")])  # before the run
    sets = split(args.split, args.players)
    if not sets:
        raise ValueError(
            f"--players {args.players}: no rule set of split {args.split!r} seats {args.players} players"
            + (
                f" ({', '.join(unseated(args.split, args.players))} do not)"
                if unseated(args.split, args.players)
                else ""
            )
        )
    agent = load_agent(args.agent, what="--agent")
    opponent = load_agent(args.opponent, what="--opponent")
    if any(a.strip().endswith(".zip") for a in (args.agent, args.opponent)):  # a saved SB3 model
        one_torch_thread_for_play()
    refused = refusals(agent, sets, args.players)
    if all(why is not None for why in refused):  # a run that would play nothing
        raise ValueError(
            f"--agent {args.agent}: {agent.label} can play none of the {len(sets)} rule sets of split "
            f"{args.split!r} with {args.players} players ({sets[0].name}: {refused[0]})"
        )
    ray = _args.ray_of(args)
    start = time.perf_counter()
    result = evaluate(
        agent,
        args.split,
        num_players=args.players,
        games=args.games,
        seed=args.seed,
        opponent=opponent,
        threads=args.threads,
        progress=not args.no_progress and progress_installed(),
        ray=ray,
    )
    print(result.table())
    print(f"time: {time.perf_counter() - start:.1f} s")
    if args.out:
        result.save(args.out)
        print(f"results saved to {args.out}")
    if args.plot:
        print(f"chart saved to {result.plot(args.plot)}")
    return 0
