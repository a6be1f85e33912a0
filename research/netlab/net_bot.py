"""Training the ``net1`` bot's networks: the recipe's runs (``research/train_net_bot.py``, or
``python -m netlab.net_bot``; its arguments are :class:`netlab.recipe.Args`).

For each preset of the plan, in order, a :class:`~eights.train.PolicyNet` learns by self-play
(:class:`~eights.train.SelfPlay`) against a league; the presets after the first start from the
first preset's weights (all presets share the observation layout and the 197 actions); with
``--parallel`` every preset trains in its own process, side by side, from scratch (or, with
``--init-from``, from an earlier run). Every preset's run writes ``<out>/<preset>/checkpoint.pt``
every ``--checkpoint-every`` updates and ``final.pt`` at its end; started again with the same
``--out``, a run skips presets with a ``final.pt`` and resumes the others from their checkpoint
(time already spent counts toward the preset's budget). The policies are then exported to one
``eights-net-v1`` file (:mod:`eights.train.export`), whose metadata records the machines, the
command and how each preset was trained (``trained``, JSON: per preset this run's decisions and
minutes and, for a continuation, ``earlier``: the earlier runs of the chain that trained it).
"""

from __future__ import annotations

import dataclasses
import json
import os
import platform
import shlex
import subprocess
import sys
import time
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np
import torch

from eights import NUM_ACTIONS, OBS_SIZE, arena
from eights.train import config
from eights.train.export import write_exported
from eights.train.files import load_checkpoint
from eights.train.model import GreedyPolicy, PolicyNet
from eights.train.selfplay import SelfPlay
from netlab.recipe import (
    SCRIPT,
    Args,
    earlier_stages,
    exported_model,
    inputs_of,
    is_export,
    parse_args,
    parse_plan,
    stage_depth,
    stage_dir,
    to_argv,
    widen,
)

__all__ = ["main", "train_preset"]


def hardware_of(args: Args) -> str:
    """The machine this process trains on, as checkpoints and the export record it."""
    hardware = (
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, torch {args.torch_threads} thread"
    )
    if args.device.startswith("cuda") and torch.cuda.is_available():
        hardware += f", {torch.cuda.get_device_name(args.device)}"
    return hardware


def _start(
    args: Args,
    preset: str,
    agent: PolicyNet,
    optimizer: torch.optim.Optimizer,
    ckpt_path: str,
    init: str,
    log: Callable[[str], None],
) -> Dict:
    """Load where a preset's run starts from (its checkpoint, or ``init``: an exported file or
    a ``final.pt``) into ``agent`` and ``optimizer``; returns what :class:`SelfPlay` resumes."""
    obs_size, dev = args.inputs, torch.device(args.device)
    resume: Dict = {}
    if os.path.exists(ckpt_path):
        ck = load_checkpoint(ckpt_path, ("model", "optimizer", "update", "step", "seconds", "snapshots"), dev)
        if inputs_of(ck["model"]) != obs_size:
            raise SystemExit(
                f"{ckpt_path} reads {inputs_of(ck['model'])} observation values but --inputs is "
                f"{obs_size}: resume with the --inputs it was started with"
            )
        agent.load_state_dict(ck["model"])
        optimizer.load_state_dict(ck["optimizer"])
        resume = {k: ck[k] for k in ("update", "step", "seconds", "snapshots")}
        log(f"{preset}: resumed at update {ck['update']}, {ck['step']:,} decisions, {ck['seconds'] / 60:.1f} min")
    elif init and is_export(init):
        model, _, widened = widen(exported_model(init, preset, args.ppo.hidden), None, obs_size)
        agent.load_state_dict(model, strict=False)  # the value head stays new
        log(
            f"{preset}: continuing the exported {init}"
            + (f", widened to {obs_size} observation values" if widened else "")
        )
    elif init:
        ck = load_checkpoint(init, ("model",), dev)
        model, opt_state, widened = widen(ck["model"], ck.get("optimizer"), obs_size)
        agent.load_state_dict(model)
        if widened:
            agent.norm.count.clamp_(max=1e5)  # let the new inputs' statistics settle
            log(f"{preset}: widened from {inputs_of(ck['model'])} to {obs_size} observation values")
        if ck.get("preset") == preset:
            # A continuation of this preset's own run: its optimiser and league carry over.
            optimizer.load_state_dict(opt_state)
            resume = {"snapshots": ck["snapshots"]}
            log(f"{preset}: continuing {init} ({ck['step']:,} decisions)")
        else:
            agent.norm.count.clamp_(max=1e5)  # let the statistics adapt to this preset
            log(f"{preset}: warm start from {init}")
    return resume


def train_preset(args: Args, preset: str, minutes: float, out: str, init: str, log: Callable[[str], None]) -> PolicyNet:
    """PPO on ``preset`` for ``minutes`` of wall time (resuming ``out/checkpoint.pt``), from
    ``init`` (a ``final.pt`` or an exported file) when given."""
    os.makedirs(out, exist_ok=True)
    obs_size, dev = args.inputs, torch.device(args.device)
    agent = PolicyNet(obs_size, NUM_ACTIONS, args.ppo.hidden).to(dev)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.ppo.learning_rate, eps=1e-5)
    ckpt_path = os.path.join(out, "checkpoint.pt")
    resume = _start(args, preset, agent, optimizer, ckpt_path, init, log)
    run = SelfPlay(
        agent,
        optimizer,
        preset,
        args.ppo,
        args.league,
        num_players=args.num_players,
        seed=args.seed,
        env_threads=args.env_threads,
        device=dev,
        **resume,
    )
    hardware = hardware_of(args)

    def save(path: str) -> None:
        state = run.state()
        state.update(args=config.flatten(args), preset=preset, hardware=hardware)
        torch.save(state, path + ".tmp")
        os.replace(path + ".tmp", path)

    def on_update(run: SelfPlay) -> None:
        if run.update % args.log_every == 0:
            rates = " ".join(f"{k}={np.mean(v):.3f}({len(v)})" for k, v in run.results.items() if v)
            log(
                f"{preset} update {run.update} step {run.step:,} min {run.elapsed() / 60:.1f} "
                f"ent {run.stats['ent']:.3f} kl {run.stats['kl']:.4f} | win rates: {rates}"
            )
            for v in run.results.values():
                v.clear()
        if run.update % args.checkpoint_every == 0:
            save(ckpt_path)

    # From an exported file the value head is new: the first updates train it alone, on the
    # trunk's features as they are, and keep the normaliser (the policy) unchanged.
    warmup = args.value_warmup if init and is_export(init) else 0
    fresh = run.update == 0 and not init
    run.run(minutes, init_norm=fresh, value_warmup=warmup, on_update=on_update)
    save(ckpt_path)
    save(os.path.join(out, "final.pt"))
    log(f"{preset}: trained {run.step:,} learner decisions in {run.elapsed() / 60:.1f} min, {run.update} updates")
    return agent


def evaluate(agent: PolicyNet, preset: str, args: Args, log: Callable[[str], None]) -> None:
    """Log the greedy policy's win rate against the heuristic on duplicate deals."""
    r = arena.evaluate(
        GreedyPolicy(agent, "net"),
        "heuristic",
        preset=preset,
        num_players=args.num_players,
        games=args.eval_deals,
        seed=12345,
        threads=1,
    )
    log(f"{preset}: against heuristic {r.win_rate:.3f} [{r.ci[0]:.3f}, {r.ci[1]:.3f}] over {args.eval_deals} deals")


def recorded_command(args: Args) -> str:
    """The recipe, without where its files went (out, export): the command that reproduces the
    weights. Stage k of a chain of continuations reads stage k - 1's conventional directory
    (see ``stage_dir``); an exported file is named by the conventional place of an export (the
    shipped file's path)."""
    stage = stage_depth(args.init_from) + 1
    previous = (Args.export if is_export(args.init_from) else stage_dir(stage - 1)) if args.init_from else ""
    paths = {"out": stage_dir(stage), "init_from": previous}
    argv = to_argv(args, device=args.device, export=Args.export, **paths)
    return f"python {SCRIPT} " + shlex.join(argv)  # quoted, so an empty value survives


def train_side_by_side(args: Args, plan: List[Tuple[str, float]], device: str) -> None:
    """One process per preset still to train, each from scratch or from ``--init-from``."""
    children = []
    for preset, minutes in plan:
        if os.path.exists(os.path.join(args.out, preset, "final.pt")):
            continue
        argv = to_argv(args, plan=f"{preset}={minutes}", parallel=False, export="", eval_deals=0, device=device)
        # The children import netlab as this process does: from the folder above it.
        research = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [research, os.environ.get("PYTHONPATH")])))
        children.append((preset, subprocess.Popen([sys.executable, "-m", "netlab.net_bot"] + argv, env=env)))
    failed = [preset for preset, child in children if child.wait() != 0]
    if failed:
        raise SystemExit(f"training failed for {', '.join(failed)}")


def prepare(args: Args) -> Tuple[Args, List[Tuple[str, float]]]:
    """Check and complete ``args`` (the smoke settings, the device), seed torch and numpy and
    make the output directory; returns the arguments the presets train with and the plan."""
    if args.smoke:
        args.ppo.num_envs, args.ppo.num_steps = 8, 16
        args.league.snapshot_every = args.log_every = args.checkpoint_every = 1
        args.eval_deals = min(args.eval_deals, 4)
        if args.out == Args.out:
            args.out = "runs/net_smoke"
        if args.export == Args.export:
            args.export = os.path.join(args.out, "net.safetensors")
    if not 0 < args.inputs <= OBS_SIZE:
        raise SystemExit(f"--inputs must be in [1, {OBS_SIZE}] (eights.OBS_SIZE), got {args.inputs}")
    if args.init_from and is_export(args.init_from) and not os.path.isfile(args.init_from):
        raise SystemExit(f"--init-from {args.init_from}: no such file")
    if args.device == "auto":
        args.device = "cuda" if torch.cuda.is_available() else "cpu"
    torch.set_num_threads(args.torch_threads)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    os.makedirs(args.out, exist_ok=True)
    plan = parse_plan(args.plan)
    # A run trained on a GPU machine can be exported elsewhere: started again with the same command
    # and --out, every preset it trained is already done, and the rest is loaded on the CPU.
    run_args = args
    if args.device.startswith("cuda") and not torch.cuda.is_available():
        todo = [p for p, m in plan if m > 0 and not os.path.exists(os.path.join(args.out, p, "final.pt"))]
        if todo:
            raise SystemExit(f"--device {args.device}: no CUDA device here to train {', '.join(todo)}")
        run_args = dataclasses.replace(args, device="cpu")
    return run_args, plan


def main(argv: Optional[Sequence[str]] = None) -> None:
    """Run the recipe with command-line flags (default: ``sys.argv[1:]``)."""
    args = parse_args(argv)
    run_args, plan = prepare(args)
    log_path = os.path.join(args.out, "train.log")

    def log(msg: str) -> None:
        line = f"[{time.strftime('%H:%M:%S')}] {msg}"
        print(line, flush=True)
        with open(log_path, "a") as f:
            f.write(line + "\n")

    hardware = hardware_of(args)
    command = recorded_command(args)
    log(f"train_net_bot: seed {args.seed}, plan {args.plan}, hidden {args.ppo.hidden}, {hardware}")
    if args.parallel and len(plan) > 1:
        # One process per preset; this process then evaluates and exports.
        train_side_by_side(args, plan, run_args.device)
    policies, trained, machines = {}, {}, []
    first_final = ""
    for k, (preset, minutes) in enumerate(plan):
        out = os.path.join(args.out, preset)
        final = os.path.join(out, "final.pt")
        if args.smoke:
            minutes = min(minutes, 0.05)
        if os.path.exists(final):
            ck = load_checkpoint(final, ("model", "step", "seconds"), run_args.device)
            agent = PolicyNet(inputs_of(ck["model"]), NUM_ACTIONS, args.ppo.hidden).to(run_args.device)
            agent.load_state_dict(ck["model"])
            log(f"{preset}: already trained ({final})")
        else:
            if args.init_from and is_export(args.init_from):
                init = args.init_from
                exported_model(init, preset, args.ppo.hidden)  # a clear error now if it cannot be continued
            elif args.init_from:
                init = os.path.join(args.init_from, preset, "final.pt")
                if not os.path.exists(init):
                    raise SystemExit(f"--init-from: no {init} to continue {preset} from")
            else:
                init = first_final if (args.warm_start and k > 0 and not args.parallel) else ""
            agent = train_preset(run_args, preset, minutes, out, init, log)
            ck = load_checkpoint(final, ("model", "step", "seconds"), run_args.device)
        trained[preset] = {"decisions": ck["step"], "minutes": round(ck["seconds"] / 60, 1)}
        if ck["step"] > 0 and ck.get("hardware", hardware) not in machines:
            machines.append(ck.get("hardware", hardware))  # where this run trained it
        if args.init_from:
            # The earlier runs this preset continued, each with the command that reproduces it.
            trained[preset]["earlier"] = earlier_stages(args.init_from, preset)
        if k == 0:
            first_final = final
        agent.eval()
        policies[preset] = agent
        if args.eval_deals > 0:
            evaluate(agent, preset, args, log)
    if args.export:
        meta = {
            "players": args.num_players,
            "hidden": args.ppo.hidden,
            "seed": args.seed,
            "trained": json.dumps(trained),
            "hardware": "; ".join(machines) or hardware,
            "command": command,
            "dtype": args.export_dtype,
        }
        write_exported(policies, args.export, meta, args.export_dtype)
        log(f"exported {', '.join(policies)} to {args.export} ({os.path.getsize(args.export):,} bytes)")


if __name__ == "__main__":
    main()
