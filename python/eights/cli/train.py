"""``train``: train an agent for a user's rules and table and evaluate it in the arena
(:func:`eights.train.train`, the ``train`` extra). The run's own flags come first; PPO's and the
league's settings follow, one flag per field with its help line and default
(:func:`eights.train.config.add_flags`). The same command with the same ``--out`` resumes a
stopped run; Ctrl-C saves the checkpoint and the agent file, then stops (exit status 130)."""

from __future__ import annotations

import argparse
import shlex
import sys
from typing import Any

from .._utils import outputs as _outputs
from . import _args

#: The budget of a run given neither --minutes nor --decisions.
DEFAULT_MINUTES = 30.0


def _seats(text: str) -> list:
    try:
        seats = [int(s) for s in text.split(",") if s.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"seats are seat numbers, comma separated (0,2), got {text!r}") from None
    if len(set(seats)) < len(seats):
        raise argparse.ArgumentTypeError(f"seats are distinct seat numbers, comma separated (0,2), got {text!r}")
    return seats


def add_parser(subparsers: Any) -> None:
    """The ``train`` command and its options."""
    p = subparsers.add_parser(
        "train",
        help="train an agent for any rules and table (PPO, the train extra) and evaluate it",
        description="Train an agent with the package's PPO against a league (the heuristic and random bots and "
        "snapshots of itself, and any --opponents: bot names or saved agents) for any rules (--preset, "
        "--variants, --rules FILE.toml) and any table size, for a budget of minutes or learner decisions, "
        "with a progress bar; write the agent file, "
        "a resumable checkpoint, the learning curve and a summary to --out, then evaluate the agent on "
        "duplicate deals against random and heuristic. The same command resumes a stopped run; a run whose "
        "budget is spent is evaluated again without its files being rewritten.",
        complete=_add_settings,  # PPO's flags import the train extra: only for this command
    )
    _args.add_preset(p)
    p.add_argument("--players", type=_args.players, default=2, help="number of players at the table (default: 2)")
    _args.add_rules(p)
    rules = p._option_string_actions["--rules"]
    rules.help = f"{rules.help} (default: none, the preset's own rules)"
    p.add_argument(
        "--variants",
        type=_args.variant_list,
        default=None,
        help="the preset's variants to apply, comma separated (default: none)",
    )
    p.add_argument("--out", default="runs/train", metavar="DIR", help="the run folder (default: runs/train)")
    p.add_argument(
        "--minutes",
        type=_args.minutes,
        default=None,
        help=f"budget in wall minutes (default: {DEFAULT_MINUTES:g} without --decisions)",
    )
    p.add_argument("--decisions", type=_args.positive, default=None, help="budget in learner decisions (default: none)")
    p.add_argument(
        "--seats", type=_seats, default=None, help="the learner's seats, comma separated (default: every seat)"
    )
    p.add_argument(
        "--init",
        default="scratch",
        help="start from a new flat network (scratch), fine-tune the shipped card network, which plays any "
        "rules (net), or fine-tune the card network of a file (eights-net-v2 or -v3, such as the "
        "final.safetensors of an earlier --init net run) (default: scratch)",
    )
    p.add_argument(
        "--device", default="auto", help="PyTorch device: auto (CUDA when present), cpu, cuda (default: auto)"
    )
    p.add_argument(
        "--env-threads", type=_args.int_in(1, 1024), default=None, help="env threads (default: chosen for the machine)"
    )
    p.add_argument(
        "--torch-threads",
        type=_args.int_in(1, 1024),
        default=None,
        help="PyTorch threads (default: chosen for the machine)",
    )
    p.add_argument("--seed", type=_args.seed, default=0, help="seed of the training, below 2**32 (default: 0)")
    p.add_argument(
        "--eval-deals",
        type=_args.eval_deals,
        default=1000,
        help="duplicate deals of the final evaluation (default: 1000)",
    )
    p.add_argument("--eval-seed", type=_args.seed, default=12345, help="seed of the evaluation deals (default: 12345)")
    p.add_argument(
        "--plot", default=None, metavar="FILE", help="also save the learning curve here (png, svg...) (default: none)"
    )
    p.add_argument("--log-every", type=_args.positive, default=5, help="updates between curve points (default: 5)")
    p.add_argument("--restart", action="store_true", help="ignore a checkpoint in --out and start again (default: off)")
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar (default: shown)")
    p.set_defaults(func=run)


def _add_settings(p: argparse.ArgumentParser) -> None:
    """PPO's and the league's flags, their defaults those of a run from scratch (``--init net``
    changes PPO's unless given)."""
    try:
        from ..train import config
        from ..train.run import default_league, default_ppo
    except ImportError:  # without the train extra the command says so when run
        missing = "PPO's and the league's options, such as --teacher, need the train extra: pip install 'eights[train]'"
        p.epilog = missing
        if isinstance(p, _args.Parser):
            p.missing_options = missing
        return
    net = default_ppo("net")
    changed = ", ".join(
        f"--{k.replace('_', '-')} {shlex.quote(str(v))}"
        for k, v in config.flatten(net).items()
        if v != getattr(default_ppo(), k)
    )
    group = p.add_argument_group(
        f"PPO (the defaults of --init scratch; --init net changes them to {changed}, as does a card-network file)"
    )
    config.add_flags(group, default_ppo(), omit_defaults=True)
    config.add_flags(
        p.add_argument_group("league (the opponents and their shares of the games)"),
        default_league(),
        omit_defaults=True,
    )


def _settings(args: argparse.Namespace) -> tuple:
    """PPO's and the league's settings: the defaults of ``--init`` and the flags given."""
    from ..train import config
    from ..train.run import default_league, default_ppo

    given = vars(args)
    ppo, league = default_ppo(args.init), default_league()
    ppo = config.unflatten(
        type(ppo), {**config.flatten(ppo), **{k: given[k] for k in config.flatten(ppo) if k in given}}
    )
    league = config.unflatten(
        type(league), {**config.flatten(league), **{k: given[k] for k in config.flatten(league) if k in given}}
    )
    return ppo, league


def _keep_width(args: argparse.Namespace, ppo: Any) -> Any:
    """PPO's settings for a run that resumes the flat network of ``--out``'s checkpoint, whose
    width it keeps: ``--hidden`` left out is that width; given and another, a ``ValueError``
    naming it (training a network of another width than asked, silently, is worse)."""
    import dataclasses
    import os

    from ..train.files import load_checkpoint

    path = os.path.join(args.out, "checkpoint.pt")
    if args.restart or args.init != "scratch" or not os.path.isfile(path):
        return ppo
    saved = load_checkpoint(path, ("kind", "model"))  # a damaged file: the error naming it
    weight = saved["model"].get("fc1.weight") if isinstance(saved["model"], dict) else None
    if weight is None or saved["kind"] != "flat" or getattr(weight, "ndim", 0) != 2:
        return ppo  # a card network (--hidden is not read), or a file the run itself refuses
    width = int(weight.shape[0])
    if "hidden" in vars(args) and args.hidden != width:
        raise ValueError(
            f"--hidden {args.hidden}: --out {args.out} holds a run whose network is {width} wide, and a resumed run "
            f"keeps it; give --hidden {width} (or leave it out), or --restart to start again"
        )
    return dataclasses.replace(ppo, hidden=width)


#: The files of a run folder, in the order the closing line lists them.
RUN_FILES = (
    "final.safetensors",
    "checkpoint.pt",
    "learning_curve.csv",
    "learning_curve.png",
    "summary.json",
    "summary.md",
)


def _run_files(out: str) -> list:
    """The files of :data:`RUN_FILES` that the run folder ``out`` holds."""
    import os

    return [name for name in RUN_FILES if os.path.isfile(os.path.join(out, name))]


def run(args: argparse.Namespace) -> int:
    """Train, evaluate, print the result."""
    from .._utils.optional import require

    preset, overrides = _args.rules_of(args)
    try:
        require(["torch", "safetensors", "tqdm", "matplotlib"], "train", "eights train")
    except ImportError as exc:
        _args.print_error(exc)
        return 2
    from .._utils.outputs import chart_path
    from ..rules import Rules
    from ..rules.changes import label
    from ..train import train

    if overrides:
        # On a preset name or on the rules of a TOML file alike (as the other commands do).
        preset = Rules(preset, overrides) if isinstance(preset, str) else preset.replace(overrides)
    _outputs.check_outputs([("--out", args.out, "folder"), ("--plot", args.plot, "plot")])
    plot = None if args.plot is None else chart_path(args.plot)  # the file the chart is written to
    ppo, league = _settings(args)
    ppo = _keep_width(args, ppo)
    try:
        result = train(
            preset,
            args.players,
            out=args.out,
            minutes=args.minutes,
            decisions=args.decisions,
            variants=_args.names(args.variants),
            seats=args.seats,
            init=args.init,
            device=args.device,
            env_threads=args.env_threads,
            torch_threads=args.torch_threads,
            seed=args.seed,
            eval_deals=args.eval_deals,
            eval_seed=args.eval_seed,
            ppo=ppo,
            league=league,
            log_every=args.log_every,
            restart=args.restart,
            progress=not args.no_progress,
            command=" ".join(["eights", *(shlex.quote(a) for a in sys.argv[1:])]),
        )
    except ValueError as exc:  # a setting named by its flag
        raise ValueError(_args.as_flags(str(exc))) from None
    print(f"run folder: {result.out} ({', '.join(_run_files(result.out))})")
    if plot is not None:
        from ..train.curves import LearningCurve
        from ..train.files import load_checkpoint

        curve = LearningCurve()
        curve.points = list(load_checkpoint(f"{result.out}/checkpoint.pt", ("curve",))["curve"])
        curve.plot(plot, f"{label(preset)}, {args.players} players", fair=1.0 / args.players)
        print(f"learning curve: {plot}")
    return 0
