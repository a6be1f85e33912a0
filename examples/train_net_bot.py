"""Train the built-in ``net`` bot: masked PPO self-play per preset, exported to safetensors.

This is the recipe of the weights that ship in the package (``src/bots/net/weights.safetensors``),
played in Rust by the bot ``net``.  For each preset of the plan, in order, a small policy (an
observation normaliser, two hidden ReLU layers of ``--hidden`` units, a policy head and a value
head) learns by PPO on ``eights.VecEnv`` against a mix of opponents: the Rust ``heuristic`` and
``random`` bots, optionally a cheap search bot, and a league of frozen snapshots of itself.  The
presets after the first start from the first preset's weights (all presets share the observation
layout and the 197 actions); with ``--parallel`` every preset trains in its own process, side by
side, from scratch (or, with ``--init-from``, from an earlier run).  Only the policy (normaliser,
trunk, policy head) is exported.
The network and the PPO itself are the package's (``eights.train.PolicyNet``, ``Rollout``,
``ppo_update``); this file holds the recipe: the league, the plan, resuming and the export.

Run (needs ``pip install -e '.[train]'``: torch, safetensors, tqdm)::

    # the shipped recipe's first stage: 21 minutes on a GPU machine (one H100, 16 cores)
    python examples/train_net_bot.py --plan crazy_eights=21,switch_blackjack=21,crazy_eights_specials=21 \
        --num-envs 2048 --num-minibatches 16 --env-threads 4 --device cuda --parallel --checkpoint-every 5
    python examples/train_net_bot.py                        # the defaults: sequential, on the CPU (74 minutes)
    python examples/train_net_bot.py --smoke                # a few seconds, for CI
    python examples/train_net_bot.py --plan crazy_eights=5 --out runs/try --export runs/try/net.safetensors
    # a second stage: continue runs/net's presets for 95 more minutes each (crazy_eights as it is)
    python examples/train_net_bot.py --plan crazy_eights=0,switch_blackjack=95,crazy_eights_specials=95 \
        --init-from runs/net --out runs/net-2 --seed 2 --learning-rate 1e-4 --parallel
    # a third: crazy_eights for 120 more minutes
    python examples/train_net_bot.py --plan crazy_eights=120,switch_blackjack=0,crazy_eights_specials=0 \
        --init-from runs/net-2 --out runs/net-3 --seed 3 --learning-rate 1e-4
    # a fourth: crazy_eights and switch_blackjack for 130 more minutes, side by side
    python examples/train_net_bot.py --plan crazy_eights=130,switch_blackjack=130,crazy_eights_specials=0 \
        --init-from runs/net-3 --out runs/net-4 --seed 4 --learning-rate 1e-4 --parallel
    # a fifth: crazy_eights for 95 more minutes, widened to read the whole observation
    python examples/train_net_bot.py --plan crazy_eights=95,switch_blackjack=0,crazy_eights_specials=0 \
        --inputs 346 --init-from runs/net-4 --out runs/net-5 --seed 6 --learning-rate 1e-4
    # a sixth, on a GPU machine: 17 more minutes, more games against the heuristic and a stronger
    # search opponent (the shipped file is this stage's export)
    python examples/train_net_bot.py --plan crazy_eights=17,switch_blackjack=0,crazy_eights_specials=0 \
        --inputs 346 --init-from runs/net-5 --out runs/net-6 --seed 8 --learning-rate 1e-4 --device cuda \
        --num-envs 4096 --num-minibatches 32 --env-threads 14 --eval-deals 0 \
        --heuristic-share 0.35 --search-bot ismcts:200 --search-share 0.2

Every preset's run writes ``<out>/<preset>/checkpoint.pt`` every ``--checkpoint-every`` updates
and ``final.pt`` at its end; started again with the same ``--out``, the script skips presets with a
``final.pt`` and resumes the others from their checkpoint (time already spent counts toward the
preset's budget), so a stopped run loses at most a few minutes.  The same way, a run trained on a
GPU machine is exported on another without one: copy its ``--out`` over and run the same command
there (every preset it trained is done; the rest is loaded on the CPU).  The export then writes one
safetensors file with, per preset ``P``: ``P.norm.mean``, ``P.norm.inv_std`` (float32, ``[IN]``),
``P.fc1.weight`` ``[H, IN]``, ``P.fc1.bias``, ``P.fc2.weight`` ``[H, H]``, ``P.fc2.bias``,
``P.pi.weight`` ``[197, H]``, ``P.pi.bias`` (PyTorch's ``[out, in]`` layout; ``--export-dtype``,
float16 by default), and metadata ``format = "eights-net-v1"``, ``presets`` (comma-separated),
``players``, ``clip``, ``hidden``, ``dtype``, ``hardware`` (the machines this run trained on), the
command and how each preset was trained
(``trained``, JSON: per preset this run's decisions and minutes and, for a continuation,
``earlier``: the earlier runs of the chain that trained it, oldest first, each with its decisions,
minutes and command).  Recorded commands name the conventional directories, not the real ones:
``runs/net`` for a first run, ``runs/net-K`` for the K-th run of a chain of ``--init-from``.
The policy: ``x = clamp((obs - mean) * inv_std, -clip, clip)``,
``h = relu(fc2(relu(fc1(x))))``, ``logits = pi(h)``, illegal actions masked out; the bot plays
the legal action of the largest logit.  ``IN`` is ``--inputs``: the network reads the first ``IN``
values of the observation (the layout only appends slices), 310 by default (the layout before the
``declined`` slice, as the first four stages above were trained, so their commands reproduce
them); ``--inputs 346`` reads it all, and with ``--init-from`` widens a 310-input network with
zero weights for the new inputs (its policy unchanged until it learns to use them), as the fifth
stage did.

``--init-from`` also takes an exported file (``FILE.safetensors``, such as the shipped one), for a
chain whose run directories are gone: each preset starts from the file's policy, with a new value
head that learns alone for the first ``--value-warmup`` updates (the policy and its normaliser do
not move meanwhile), new optimiser moments and an empty league. The new file's ``trained`` carries
the old one's history on, and its recorded command names the file by the conventional place of an
export, ``src/bots/net/weights.safetensors``, and numbers its ``--out`` after the file's own stage::

    # a seventh stage, from the shipped file (recorded as --out runs/net-7)
    python examples/train_net_bot.py --plan crazy_eights=30,switch_blackjack=0,crazy_eights_specials=0 \
        --inputs 346 --init-from src/bots/net/weights.safetensors --out runs/try-7 --seed 11 \
        --learning-rate 5e-5 --export runs/try-7/net.safetensors
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import json
import os
import platform
import time
from dataclasses import dataclass

import numpy as np
import torch

import eights
from eights import arena
from eights.train import GreedyPolicy, Rollout, exported_state_dict, ppo_update
from eights.train import PolicyNet as Agent  # noqa: F401 (the network, as this script calls it)

EXPORT_FORMAT = "eights-net-v1"


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
    num_envs: int = 256
    """games played in parallel (split evenly over the learner seats)"""
    num_steps: int = 64
    """learner decisions per game per rollout"""
    learning_rate: float = 3e-4
    """Adam learning rate, annealed linearly to lr_floor * learning_rate over each preset's run"""
    lr_floor: float = 0.1
    """the annealed learning rate's final fraction"""
    gamma: float = 0.99
    gae_lambda: float = 0.95
    num_minibatches: int = 4
    update_epochs: int = 4
    clip_coef: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    target_kl: float = 0.05
    hidden: int = 192
    """width of the two hidden layers (192: three presets' float16 policies fit in 1 MB)"""
    inputs: int = 310
    """leading observation values the network reads (310: the layout before the ``declined``
    slice, as the first four stages of the shipped networks were trained; ``eights.OBS_SIZE``
    for all of it). With
    ``--init-from`` a network may be widened: the new inputs start with zero weights, so the
    policy is unchanged until it learns to use them"""
    heuristic_share: float = 0.3
    """share of games against the heuristic bot"""
    random_share_start: float = 0.15
    """share of games against the random bot at the start"""
    random_share_end: float = 0.0
    """share of games against the random bot at the end"""
    search_bot: str = "ismcts:50"
    """an extra built-in opponent (a cheap search bot); empty: none"""
    search_share: float = 0.15
    """share of games against search_bot"""
    snapshot_every: int = 10
    """updates between snapshots added to the league"""
    pool_size: int = 12
    """the latest snapshots that are played"""
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
    export: str = "src/bots/net/weights.safetensors"
    """the safetensors file written at the end (empty: no export)"""
    eval_deals: int = 200
    """duplicate deals against the heuristic after each preset (0: skip)"""
    smoke: bool = False
    """a tiny run that finishes in seconds (for CI)"""


def parse_args(argv=None) -> Args:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter
    )
    for f in dataclasses.fields(Args):
        flag = "--" + f.name.replace("_", "-")
        if f.type in ("bool", bool):
            p.add_argument(flag, action=argparse.BooleanOptionalAction, default=f.default)
        else:
            typ = {"int": int, "float": float, "str": str}[f.type if isinstance(f.type, str) else f.type.__name__]
            p.add_argument(flag, type=typ, default=f.default)
    return Args(**vars(p.parse_args(argv)))


def to_argv(args: Args, **changes) -> list:
    """The command-line flags that give ``args`` (with ``changes``), defaults left out."""
    out = []
    for f in dataclasses.fields(Args):
        value = changes.get(f.name, getattr(args, f.name))
        if value == f.default:
            continue
        flag = "--" + f.name.replace("_", "-")
        if isinstance(value, bool):
            out.append(flag if value else "--no-" + flag[2:])
        else:
            out += [flag, str(value)]
    return out


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
            return torch.load(path, weights_only=False, map_location="cpu")
    return None


def is_export(path: str) -> bool:
    """Whether ``--init-from`` names an exported file rather than a run directory."""
    return path.endswith(".safetensors")


def export_metadata(path: str) -> dict:
    """The metadata of an exported file (its safetensors header's ``__metadata__``)."""
    with open(path, "rb") as f:
        return json.loads(f.read(int.from_bytes(f.read(8), "little"))).get("__metadata__", {})


def exported_model(path: str, preset: str, hidden: int = 0) -> dict:
    """``preset``'s policy in an exported file as the state dict of an ``Agent`` without its value
    head (see ``eights.train.exported_state_dict``). ``hidden``, if given, is the width the
    caller expects."""
    from safetensors.numpy import load_file

    try:
        model = exported_state_dict(load_file(path), preset)
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
        out = parse_args(command.split("train_net_bot.py", 1)[1].split()).out
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
        a = Args(**{f: v for f, v in ck["args"].items() if f in {x.name for x in dataclasses.fields(Args)}})
        if ck["step"] > 0:
            paths = {"out": stage_dir(k), "init_from": stage_dir(k - 1) if a.init_from else ""}
            argv = to_argv(a, export=Args.export, eval_deals=Args.eval_deals, **paths)
            out.append(
                {
                    "decisions": ck["step"],
                    "minutes": round(ck["seconds"] / 60, 1),
                    "command": " ".join(["python examples/train_net_bot.py"] + argv),
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


# ----------------------------------------------------------------------------- the agent


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


def ArenaAgent(agent: Agent, name: str) -> GreedyPolicy:
    """The trained policy as an arena agent (its most likely legal action)."""
    return GreedyPolicy(agent, name)


class League(eights.OpponentPool):
    """Entry 0: random bot, 1: heuristic bot, (2: search bot,) then frozen snapshots."""

    def __init__(self, args: Args, seed: int):
        fixed = ["random", "heuristic"] + ([args.search_bot] if args.search_bot else [])
        super().__init__(fixed, seed=seed)
        self.args, self.progress, self.fixed = args, 0.0, len(fixed)

    def kind(self, k: int) -> str:
        return ("random", "heuristic", "search")[k] if k < self.fixed else "snapshots"

    def sample(self, size: int) -> np.ndarray:
        a, p = self.args, self.progress
        rnd = a.random_share_start + (a.random_share_end - a.random_share_start) * p
        search = a.search_share if a.search_bot else 0.0
        live = list(range(max(self.fixed, len(self) - a.pool_size), len(self)))
        snap = max(0.0, 1.0 - a.heuristic_share - rnd - search) if live else 0.0
        w = np.zeros(len(self))
        w[0] = rnd + (0.0 if live else max(0.0, 1.0 - a.heuristic_share - rnd - search))
        w[1] = a.heuristic_share
        if a.search_bot:
            w[2] = search
        if live:
            w[live] = snap / len(live)
        return self.rng.choice(len(self), size=size, p=w / w.sum())


# ----------------------------------------------------------------------------- training one preset


def hardware_of(args: Args) -> str:
    """The machine this process trains on, as checkpoints and the export record it."""
    hardware = (
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, torch {args.torch_threads} thread"
    )
    if args.device.startswith("cuda") and torch.cuda.is_available():
        hardware += f", {torch.cuda.get_device_name(args.device)}"
    return hardware


def train_preset(args: Args, preset: str, minutes: float, out: str, init: str, log) -> Agent:
    """PPO on ``preset`` for ``minutes`` of wall time (resuming ``out/checkpoint.pt``)."""
    os.makedirs(out, exist_ok=True)
    n_seats = args.num_players
    per_seat = max(1, args.num_envs // n_seats)
    T = args.num_steps
    obs_size, n_act = args.inputs, eights.NUM_ACTIONS
    dev = torch.device(args.device)
    agent = Agent(obs_size, n_act, args.hidden).to(dev)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)
    ckpt_path = os.path.join(out, "checkpoint.pt")
    global_step, update, spent, snapshots = 0, 0, 0.0, []
    if os.path.exists(ckpt_path):
        ck = torch.load(ckpt_path, weights_only=False, map_location=dev)
        if inputs_of(ck["model"]) != obs_size:
            raise SystemExit(
                f"{ckpt_path} reads {inputs_of(ck['model'])} observation values but --inputs is "
                f"{obs_size}: resume with the --inputs it was started with"
            )
        agent.load_state_dict(ck["model"])
        optimizer.load_state_dict(ck["optimizer"])
        global_step, update, spent, snapshots = ck["step"], ck["update"], ck["seconds"], ck["snapshots"]
        log(f"{preset}: resumed at update {update}, {global_step:,} decisions, {spent / 60:.1f} min")
    elif init and is_export(init):
        model, _, widened = widen(exported_model(init, preset, args.hidden), None, obs_size)
        agent.load_state_dict(model, strict=False)  # the value head stays new
        log(
            f"{preset}: continuing the exported {init}"
            + (f", widened to {obs_size} observation values" if widened else "")
        )
    elif init:
        ck = torch.load(init, weights_only=False, map_location=dev)
        model, opt_state, widened = widen(ck["model"], ck.get("optimizer"), obs_size)
        agent.load_state_dict(model)
        if widened:
            agent.norm.count.clamp_(max=1e5)  # let the new inputs' statistics settle
            log(f"{preset}: widened from {inputs_of(ck['model'])} to {obs_size} observation values")
        if ck.get("preset") == preset:
            # A continuation of this preset's own run: its optimiser and league carry over.
            optimizer.load_state_dict(opt_state)
            snapshots = ck["snapshots"]
            log(f"{preset}: continuing {init} ({ck['step']:,} decisions)")
        else:
            agent.norm.count.clamp_(max=1e5)  # let the statistics adapt to this preset
            log(f"{preset}: warm start from {init}")

    seed = args.seed + 7919 * update  # a resumed run does not replay the same deals
    pools = [League(args, seed=seed * 100 + s) for s in range(n_seats)]
    for sd in snapshots:
        snap = Agent(inputs_of(sd), n_act, args.hidden).to(dev)
        snap.load_state_dict(sd)
        snap.eval()
        for pool in pools:
            pool.add(lambda o, m, s=snap: s.act(o, m))
    envs = [
        eights.VecEnv(
            preset,
            per_seat,
            n_seats,
            opponents=pools[s],
            learner_seat=s,
            num_threads=args.env_threads,
            seed=seed * 1000 + s,
        )
        for s in range(n_seats)
    ]

    rollout = Rollout(envs, T, obs_size, dev)
    next_obs = rollout.reset()
    if update == 0 and not init:
        agent.norm.update(next_obs)
    results: dict = {k: [] for k in ("random", "heuristic", "search", "snapshots")}
    budget = minutes * 60
    start = time.time() - spent
    # From an exported file the value head is new: the first updates train it alone, on the
    # trunk's features as they are, and keep the normaliser (the policy) unchanged.
    warmup = args.value_warmup if init and is_export(init) else 0
    hardware = hardware_of(args)

    def record(s: int, env, rows: np.ndarray, r: np.ndarray) -> None:
        """The outcome of each game that ended, by the kind of opponent it was drawn."""
        choice = env.pool_choices()[(s + 1) % n_seats]
        for i in rows:
            results[pools[s].kind(int(choice[i]))].append(r[i] > 0)

    def save(path: str) -> None:
        torch.save(
            {
                "model": agent.state_dict(),
                "optimizer": optimizer.state_dict(),
                "step": global_step,
                "update": update,
                "seconds": time.time() - start,
                "args": dataclasses.asdict(args),
                "preset": preset,
                "snapshots": snapshots[-args.pool_size :],
                "hardware": hardware,
            },
            path + ".tmp",
        )
        os.replace(path + ".tmp", path)

    while True:
        p = min(1.0, (time.time() - start) / budget) if budget > 0 else 1.0
        if p >= 1.0:
            break
        update += 1
        optimizer.param_groups[0]["lr"] = args.learning_rate * (1.0 - (1.0 - args.lr_floor) * p)
        for pool in pools:
            pool.progress = p
        agent.eval()
        global_step += rollout.collect(agent, record)
        adv, ret = rollout.advantages(agent, args.gamma, args.gae_lambda)
        agent.train()
        # From an exported file the value head trains alone first (the policy does not move).
        stats = ppo_update(agent, optimizer, rollout.batch(adv, ret), args, value_only=update <= warmup)

        if update % args.snapshot_every == 0:
            snap = copy.deepcopy(agent).eval()
            snapshots.append({k: v.detach().cpu().clone() for k, v in snap.state_dict().items()})
            snapshots = snapshots[-args.pool_size :]
            for pool in pools:
                pool.add(lambda o, m, s=snap: s.act(o, m))
        if update % args.log_every == 0:
            rates = " ".join(f"{k}={np.mean(v):.3f}({len(v)})" for k, v in results.items() if v)
            log(
                f"{preset} update {update} step {global_step:,} min {(time.time() - start) / 60:.1f} "
                f"ent {stats['ent']:.3f} kl {stats['kl']:.4f} | win rates: {rates}"
            )
            for v in results.values():
                v.clear()
        if update % args.checkpoint_every == 0:
            save(ckpt_path)

    save(ckpt_path)
    save(os.path.join(out, "final.pt"))
    elapsed = time.time() - start
    log(f"{preset}: trained {global_step:,} learner decisions in {elapsed / 60:.1f} min, {update} updates")
    return agent


# ----------------------------------------------------------------------------- export


def export(policies: dict, path: str, meta: dict, dtype: str = "float16") -> None:
    """Write the policies (preset -> Agent) to one safetensors file (see the module docstring):
    the normaliser in float32, the layers in ``dtype`` (float16 or float32)."""
    from safetensors.numpy import save_file

    if dtype not in ("float16", "float32"):
        raise ValueError(f"export dtype must be 'float16' or 'float32', got {dtype!r}")
    tensors = {}
    for preset, agent in policies.items():
        sd = agent.state_dict()
        for key in (
            "norm.mean",
            "norm.inv_std",
            "fc1.weight",
            "fc1.bias",
            "fc2.weight",
            "fc2.bias",
            "pi.weight",
            "pi.bias",
        ):
            dt = np.float32 if key.startswith("norm.") else np.dtype(dtype)
            tensors[f"{preset}.{key}"] = np.ascontiguousarray(sd[key].detach().cpu().numpy(), dtype=dt)
    metadata = {
        "format": EXPORT_FORMAT,
        "presets": ",".join(policies),
        "clip": "5.0",
        **{k: str(v) for k, v in meta.items()},
    }
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    save_file(tensors, path, metadata=metadata)


def load_exported(path: str) -> dict:
    """The policies of an exported file as PyTorch agents (without value heads), preset -> Agent."""
    from safetensors import safe_open

    with safe_open(path, framework="np") as f:
        presets = sorted({k.split(".")[0] for k in f.keys()})
    out = {}
    for preset in presets:
        model = exported_model(path, preset)
        hidden, inputs = model["fc1.weight"].shape
        agent = Agent(inputs, eights.NUM_ACTIONS, hidden)
        agent.load_state_dict(model, strict=False)  # no value head in a file
        out[preset] = agent.eval()
    return out


def main(argv=None) -> None:
    args = parse_args(argv)
    if args.smoke:
        args.num_envs, args.num_steps = 8, 16
        args.snapshot_every = args.log_every = args.checkpoint_every = 1
        args.eval_deals = min(args.eval_deals, 4)
        if args.out == Args.out:
            args.out = "runs/net_smoke"
        if args.export == Args.export:
            args.export = os.path.join(args.out, "net.safetensors")
    if not 0 < args.inputs <= eights.OBS_SIZE:
        raise SystemExit(f"--inputs must be in [1, {eights.OBS_SIZE}] (eights.OBS_SIZE), got {args.inputs}")
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
    log_path = os.path.join(args.out, "train.log")

    def log(msg: str) -> None:
        line = f"[{time.strftime('%H:%M:%S')}] {msg}"
        print(line, flush=True)
        with open(log_path, "a") as f:
            f.write(line + "\n")

    hardware = hardware_of(args)
    # The recipe, without where its files went (out, export): the command that reproduces the weights.
    # Stage k of a chain of continuations reads stage k - 1's conventional directory (see stage_dir).
    stage = stage_depth(args.init_from) + 1
    # An exported file is named by the conventional place of an export (the shipped file's path).
    previous = (Args.export if is_export(args.init_from) else stage_dir(stage - 1)) if args.init_from else ""
    paths = {"out": stage_dir(stage), "init_from": previous}
    command = " ".join(
        ["python examples/train_net_bot.py"] + to_argv(args, device=args.device, export=Args.export, **paths)
    )
    log(f"train_net_bot: seed {args.seed}, plan {args.plan}, hidden {args.hidden}, {hardware}")
    if args.parallel and len(plan) > 1:
        # One process per preset, each from scratch or from --init-from; this process then evaluates and exports.
        import subprocess
        import sys

        children = []
        for preset, minutes in plan:
            if os.path.exists(os.path.join(args.out, preset, "final.pt")):
                continue
            argv = to_argv(
                args, plan=f"{preset}={minutes}", parallel=False, export="", eval_deals=0, device=run_args.device
            )
            children.append((preset, subprocess.Popen([sys.executable, os.path.abspath(__file__)] + argv)))
        failed = [preset for preset, child in children if child.wait() != 0]
        if failed:
            raise SystemExit(f"training failed for {', '.join(failed)}")
    policies, trained, machines = {}, {}, []
    first_final = ""
    for k, (preset, minutes) in enumerate(plan):
        out = os.path.join(args.out, preset)
        final = os.path.join(out, "final.pt")
        if args.smoke:
            minutes = min(minutes, 0.05)
        if os.path.exists(final):
            ck = torch.load(final, weights_only=False, map_location=run_args.device)
            agent = Agent(inputs_of(ck["model"]), eights.NUM_ACTIONS, args.hidden).to(run_args.device)
            agent.load_state_dict(ck["model"])
            log(f"{preset}: already trained ({final})")
        else:
            if args.init_from and is_export(args.init_from):
                init = args.init_from
                exported_model(init, preset, args.hidden)  # a clear error now if it cannot be continued
            elif args.init_from:
                init = os.path.join(args.init_from, preset, "final.pt")
                if not os.path.exists(init):
                    raise SystemExit(f"--init-from: no {init} to continue {preset} from")
            else:
                init = first_final if (args.warm_start and k > 0 and not args.parallel) else ""
            agent = train_preset(run_args, preset, minutes, out, init, log)
            ck = torch.load(final, weights_only=False, map_location=run_args.device)
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
            r = arena.evaluate(
                ArenaAgent(agent, "net"),
                "heuristic",
                preset=preset,
                num_players=args.num_players,
                games=args.eval_deals,
                seed=12345,
                threads=1,
            )
            log(
                f"{preset}: against heuristic {r.win_rate:.3f} [{r.ci[0]:.3f}, {r.ci[1]:.3f}]"
                f" over {args.eval_deals} deals"
            )
    if args.export:
        meta = {
            "players": args.num_players,
            "hidden": args.hidden,
            "seed": args.seed,
            "trained": json.dumps(trained),
            "hardware": "; ".join(machines) or hardware,
            "command": command,
            "dtype": args.export_dtype,
        }
        export(policies, args.export, meta, args.export_dtype)
        log(f"exported {', '.join(policies)} to {args.export} ({os.path.getsize(args.export):,} bytes)")


if __name__ == "__main__":
    main()
