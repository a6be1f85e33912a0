"""The recipe of the ``net1`` bot's networks: its arguments, and the history of a chain of runs.

The recipe (:mod:`netlab.net_bot`, run by ``research/train_net_bot.py``) trains one
network per preset of a plan by self-play (:class:`eights.train.SelfPlay`) and exports them to
one ``eights-net-v1`` file (:mod:`eights.train.export`). A run can continue an earlier one
(``--init-from`` a run directory or an exported file), and the export records the command of
every run of the chain, with the conventional directories (``runs/net`` for a first run,
``runs/net-K`` for the K-th run of a chain) instead of the real ones: this module reads and
writes those records (:func:`stage_depth`, :func:`earlier_stages`), the arguments
(:class:`Args`) and widens a saved network to read more observation values (:func:`widen`).
"""

from __future__ import annotations

import copy
import json
import os
import shlex
from dataclasses import dataclass, field
from typing import Any, List, Optional, Sequence

import torch

from eights.observation import observation_spec
from eights.train import config
from eights.train.export import export_metadata
from eights.train.files import load_arrays, load_checkpoint
from eights.train.model import exported_state_dict
from eights.train.ppo import PPOConfig
from eights.train.selfplay import LeagueConfig

__all__ = ["SCRIPT", "Args", "earlier_stages", "parse_args", "parse_plan", "stage_depth", "to_argv", "widen"]

#: The script that runs the recipe, as recorded commands name it.
SCRIPT = "research/train_net_bot.py"


@dataclass
class Args:
    plan: str = "crazy_eights=40,switch_blackjack=17,crazy_eights_specials=17"
    """presets to train, in order, with their wall-time budgets in minutes"""
    num_players: int = 2
    """seats per table (the learner plays every seat, one VecEnv per seat)"""
    seed: int = 1
    """seed of torch, numpy and the envs"""
    warm_start: bool = True
    """start every preset after the first from the first preset's final weights"""
    ppo: PPOConfig = field(default_factory=lambda: PPOConfig(num_envs=256))
    """PPO's hyperparameters (flags ``--num-envs`` ... ``--hidden``; ``--hidden`` 192: three
    presets' float16 policies fit in 1 MB)"""
    inputs: int = observation_spec()["declined"][0]
    """leading observation values the network reads (310: the layout before the ``declined``
    slice, as the first four stages of the shipped networks were trained; ``eights.OBS_SIZE``
    for all of it). With
    ``--init-from`` a network may be widened: the new inputs start with zero weights, so the
    policy is unchanged until it learns to use them"""
    league: LeagueConfig = field(default_factory=lambda: LeagueConfig(search_bot="ismcts:50"))
    """the opponents and their shares (flags ``--heuristic-share`` ... ``--pool-size``)"""
    torch_threads: int = 1
    env_threads: int = 1
    """threads of each VecEnv (its games and its search-bot opponents)"""
    device: str = "cpu"
    """torch device of the learner and its snapshots ("cpu", "cuda", "auto": cuda when available)"""
    parallel: bool = False
    """train the presets of the plan side by side, one process each (no warm start from the first preset)"""
    init_from: str = ""
    """continue an earlier run: every preset starts from ``<init_from>/<preset>/final.pt`` (its
    weights, optimiser moments and snapshot league) with a fresh learning-rate schedule over
    this plan's minutes; a preset given 0 minutes is exported as it was. Or continue an exported
    ``.safetensors`` file (such as the shipped weights): every preset starts from its policy,
    with a new value head, new optimiser moments and an empty league (see value_warmup)"""
    value_warmup: int = 25
    """after ``--init-from`` an exported file (which holds no value head): the first updates
    in which only the new value head learns, so the policy's first updates use sensible
    advantages"""
    export_dtype: str = "float16"
    """dtype of the exported layers ("float16" or "float32"; the normaliser stays float32)"""
    log_every: int = 5
    checkpoint_every: int = 20
    out: str = "runs/net"
    """directory of the per-preset checkpoints and logs"""
    export: str = "src/bots/weights/net1.safetensors"
    """the safetensors file written at the end (empty: no export)"""
    eval_deals: int = 200
    """duplicate deals against the heuristic after each preset (0: skip)"""
    smoke: bool = False
    """a tiny run that finishes in seconds (for CI)"""


def parse_args(argv: Optional[Sequence[str]] = None) -> Args:
    """The recipe's arguments from command-line flags (default: ``sys.argv[1:]``)."""
    return config.parse_args(Args, argv, "Train the built-in net bot: masked PPO self-play per preset.")


def to_argv(args: Args, **changes: Any) -> List[str]:
    """The command-line flags that give ``args`` (with ``changes``), defaults left out."""
    return config.to_argv(args, **changes)


def stage_dir(k: int) -> str:
    """The conventional output directory of stage ``k`` of a chain of runs (1: the first run,
    2: its continuation, ...), written into recorded commands instead of the real paths."""
    return Args.out if k == 1 else f"{Args.out}-{k}"


def load_final(directory: str, preset: str = ""):
    """``directory/<preset>/final.pt`` (any preset's when none is named), or None."""
    names = [preset] if preset else (sorted(os.listdir(directory)) if os.path.isdir(directory) else [])
    for name in names:
        path = os.path.join(directory, name, "final.pt")
        if os.path.exists(path):
            return load_checkpoint(path, ("model",), "cpu")
    return None


def is_export(path: str) -> bool:
    """Whether ``--init-from`` names an exported file rather than a run directory."""
    return path.endswith(".safetensors")


def exported_model(path: str, preset: str, hidden: int = 0) -> dict:
    """``preset``'s policy in an exported file as the state dict of an ``Agent`` without its value
    head (see ``eights.train.exported_state_dict``). ``hidden``, if given, is the width the
    caller expects."""
    try:
        model = exported_state_dict(load_arrays(path), preset)
    except KeyError as exc:
        raise SystemExit(f"--init-from {path}: {exc.args[0]}") from None
    if hidden and model["fc1.weight"].shape[0] != hidden:
        raise SystemExit(
            f"--init-from {path}: its {preset} network has {model['fc1.weight'].shape[0]} hidden units, "
            f"--hidden is {hidden}"
        )
    return model


def stage_depth(init_from: str) -> int:
    """How many runs the chain ending in ``init_from`` holds (each run's ``--init-from`` is
    recorded in its checkpoints, an exported file's own stage in its recorded command's
    ``--out``); 0 without ``init_from``."""
    if init_from and is_export(init_from):
        command = export_metadata(init_from).get("command", "")
        if "train_net_bot.py" not in command:
            raise SystemExit(f"--init-from {init_from}: not a file this script exported (no command recorded)")
        out = parse_args(shlex.split(command.split("train_net_bot.py", 1)[1])).out
        if out == Args.out:
            return 1
        stage = out.removeprefix(Args.out + "-")
        if not stage.isdigit():
            raise SystemExit(f"--init-from {init_from}: its recorded --out {out} is not a stage of a chain")
        return int(stage)
    depth = 0
    while init_from and depth < 1000:
        depth += 1
        ck = load_final(init_from)
        init_from = ck["args"].get("init_from", "") if ck else ""
    return depth


def earlier_stages(init_from: str, preset: str) -> list:
    """What the earlier runs of the chain did for ``preset``, oldest first: decisions, minutes
    and the command that reproduces each (with the conventional directories); runs that only
    passed the preset on (0 decisions) are left out."""
    if init_from and is_export(init_from):
        # The file records its own run and the runs before it that trained each preset.
        meta = export_metadata(init_from)
        mine = json.loads(meta.get("trained", "{}")).get(preset)
        if mine is None:
            return []
        out = list(mine.get("earlier", []))
        if mine["decisions"] > 0:
            out.append({"decisions": mine["decisions"], "minutes": mine["minutes"], "command": meta["command"]})
        return out
    out = []
    k = stage_depth(init_from)
    while init_from and k >= 1:
        ck = load_final(init_from, preset)
        if ck is None:
            break
        a = config.unflatten(Args, ck["args"])
        if ck["step"] > 0:
            paths = {"out": stage_dir(k), "init_from": stage_dir(k - 1) if a.init_from else ""}
            argv = to_argv(a, export=Args.export, eval_deals=Args.eval_deals, **paths)
            out.append(
                {
                    "decisions": ck["step"],
                    "minutes": round(ck["seconds"] / 60, 1),
                    "command": " ".join([f"python {SCRIPT}"] + argv),
                }
            )
        init_from, k = a.init_from, k - 1
    return out[::-1]


def parse_plan(plan: str) -> list:
    out = []
    for part in plan.split(","):
        name, _, minutes = part.strip().partition("=")
        if not name or not minutes:
            raise SystemExit(f"--plan entries are preset=minutes, got {part!r}")
        out.append((name, float(minutes)))
    return out


def inputs_of(model: dict) -> int:
    """The observation values a saved network reads."""
    return int(model["fc1.weight"].shape[1])


def widen(model: dict, optimizer, inputs: int):
    """A saved network (and its Adam moments) made to read ``inputs`` observation values: the
    new inputs get zero first-layer weights and a neutral normaliser (mean 0, variance 1), so
    the policy is unchanged. Returns the model, the optimiser state and whether it widened."""
    w = model["fc1.weight"]
    old = w.shape[1]
    if old == inputs:
        return model, optimizer, False
    if old > inputs:
        raise SystemExit(
            f"--inputs {inputs}: the saved network reads {old} observation values; a network can only be widened"
        )
    extra = inputs - old
    model = dict(model)
    model["fc1.weight"] = torch.cat([w, w.new_zeros(w.shape[0], extra)], 1)
    for key, fill in (("norm.mean", 0.0), ("norm.var", 1.0), ("norm.inv_std", 1.0)):
        v = model[key]
        model[key] = torch.cat([v, v.new_full((extra,), fill)])
    if optimizer is not None:
        optimizer = copy.deepcopy(optimizer)
        for state in optimizer["state"].values():
            for key, v in state.items():
                if torch.is_tensor(v) and tuple(v.shape) == tuple(w.shape):
                    state[key] = torch.cat([v, v.new_zeros(v.shape[0], extra)], 1)
    return model, optimizer, True
