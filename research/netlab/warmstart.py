"""The imitation stage of the rules-reading ``net``: a :class:`~eights.train.cardnet.CardNet`
taught by the Rust ``heuristic`` across the rule space (:mod:`netlab.imitation`), resumable
from a checkpoint, with a curve of its loss, its agreement with the teacher on fixed states and
its score against the teacher.

Each iteration adds ``collect`` fresh labelled decisions to the replay buffer (the student steers
a share ``beta`` of the moves, rising over the first iterations) and takes ``updates`` Adam steps
on minibatches of ``blocks`` blocks of ``block`` decisions that share a rule set.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np
import torch

from eights.train.cardnet import from_checkpoint, load_path
from eights.train.files import load_checkpoint
from netlab.device import describe, env_threads, pick_device
from netlab.flatnet import build
from netlab.imitation import Collector, ReplayBuffer, heldout_encodings

__all__ = ["WarmStartConfig", "warm_start", "greedy_student", "score_against"]


@dataclass
class WarmStartConfig:
    """The settings of a warm-start run (recorded in its checkpoint)."""

    seed: int = 0
    games: Dict[int, int] = field(default_factory=lambda: {2: 512, 3: 128, 4: 256, 5: 96, 6: 64})
    capacity: int = 1_500_000
    collect: int = 65_536
    updates: int = 32
    blocks: int = 256
    block: int = 16
    lr: float = 1e-3
    beta_max: float = 0.5
    beta_ramp: int = 40
    width: int = 32
    context: int = 96
    eval_every: int = 20
    eval_games: int = 200
    #: The bot that labels the states (``heuristic``; a search bot such as ``ismcts:200`` to
    #: distil search into the network).
    teacher: str = "heuristic"
    #: Threads of the collecting envs (a search teacher runs on them; 0: one per core).
    env_threads: int = 0
    #: Where the network learns: ``auto`` (CUDA when PyTorch sees a GPU), ``cpu``, ``cuda[:K]``.
    device: str = "auto"
    #: The network: ``card`` (:class:`CardNet`) or ``flat:H``, the flat baseline
    #: (:class:`netlab.flatnet.FlatNet`, ``H`` wide) it is measured against.
    arch: str = "card"


def greedy_student(net: torch.nn.Module, sample: bool = True) -> Callable[..., np.ndarray]:
    """``f(obs, mask, rules_rows, ridx) -> actions`` of the network (sampled or argmax)."""

    def act(obs: np.ndarray, mask: np.ndarray, rows: np.ndarray, ridx: np.ndarray) -> np.ndarray:
        distinct, inverse = np.unique(ridx, return_inverse=True)
        dev = next(net.parameters()).device
        with torch.no_grad():
            logits, _ = net(
                torch.from_numpy(np.asarray(obs, np.float32)).to(dev),
                torch.from_numpy(np.asarray(mask, bool)).to(dev),
                torch.from_numpy(rows[distinct]).to(dev),
                torch.from_numpy(inverse.reshape(-1).astype(np.int64)).to(dev),
            )
            if sample:
                logits = logits - torch.empty_like(logits).exponential_().log()
            return logits.argmax(1).cpu().numpy()

    return act


def score_against(
    net: torch.nn.Module, preset: Any, num_players: int, games: int, seed: int, opponent: str = "heuristic"
) -> float:
    """The network's mean win share (``win_loss`` reward mapped to [0, 1]: 1 a win, 0 a loss,
    ties split) in ``games`` games against ``opponent`` in every other seat, its seat rotating."""
    from eights.envs.vector import VecEnv

    total, count = 0.0, 0
    dev = next(net.parameters()).device
    for seat in range(num_players):
        n = max(1, games // num_players)
        env = VecEnv(preset, n, num_players, opponents=opponent, learner_seat=seat, obs_rules=True, num_threads=1)
        obs, _ = env.reset(seed=seed + seat)
        done = np.zeros(n, bool)
        result = np.zeros(n)
        rows = obs["rules"][:1].copy()
        for _ in range(100_000):
            mask = env.action_masks()
            with torch.no_grad():
                logits, _ = net(
                    torch.from_numpy(obs["obs"]).to(dev),
                    torch.from_numpy(mask).to(dev),
                    torch.from_numpy(rows).to(dev),
                    torch.zeros(n, dtype=torch.int64, device=dev),
                )
            act = logits.argmax(1).cpu().numpy()
            act[~mask.any(1)] = 0
            obs, r, term, trunc, _ = env.step(act)
            new = (term | trunc) & ~done
            result[new] = r[new]
            done |= term | trunc
            if done.all():
                break
        # win_loss: +1 the winner, -1/(n-1) the others... map to a share of the wins.
        total += float(((result > 0) + 0.0).sum())
        count += n
    return total / max(count, 1)


def _start(path: str, cfg: WarmStartConfig, init: Optional[str], log: Callable[[str], None], device=None):
    """The network (on ``device``), its optimiser and the run's counters: resumed from
    ``path``, or a new run (from the network of ``init`` when given: a checkpoint, or an
    exported ``.safetensors`` file such as the shipped one)."""
    net = build(cfg.arch, cfg.width, cfg.context)
    state: Dict[str, Any] = {"iteration": 0, "decisions": 0, "seconds": 0.0}
    if init and cfg.arch != "card":
        raise ValueError(f"init: only a card network starts from another network, not arch {cfg.arch!r}")
    if os.path.exists(path):
        ck = load_checkpoint(path, ("model", "optimizer", "state"), map_location="cpu")
        if cfg.arch == "card":
            net = from_checkpoint(ck["model"], cfg.width, cfg.context)
        else:
            net.load_state_dict(ck["model"])
        net = net.to(device)
        opt = torch.optim.Adam(net.parameters(), lr=cfg.lr)
        opt.load_state_dict(ck["optimizer"])
        state = ck["state"]
        log(f"resumed at iteration {state['iteration']} ({state['decisions']} decisions)")
        return net, opt, state
    if init and init.endswith(".safetensors"):  # an exported file: its layers, a new value head
        net = load_path(init)
        log(f"started from the exported network {init}")
    elif init:
        net = from_checkpoint(load_checkpoint(init, map_location="cpu")["model"], cfg.width, cfg.context)
        log(f"started from the network of {init}")
    net = net.to(device)
    return net, torch.optim.Adam(net.parameters(), lr=cfg.lr), state


def _learn(
    net: torch.nn.Module, opt: torch.optim.Optimizer, buffer: ReplayBuffer, rng: np.random.Generator, cfg
) -> tuple:
    """``cfg.updates`` Adam steps on minibatches of blocks sharing a rule set; their mean
    loss and agreement with the labels."""
    net.train()
    dev = next(net.parameters()).device
    blocks = buffer.blocks(rng, cfg.block)
    losses, accs = [], []
    for j in range(cfg.updates):
        pick = blocks[(j * cfg.blocks) % len(blocks) :][: cfg.blocks].reshape(-1)
        obs, mask, label, rules, ridx = (x.to(dev) for x in buffer.batch(pick))
        logits, _ = net(obs, mask, rules, ridx)
        loss = torch.nn.functional.cross_entropy(logits, label)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
        opt.step()
        losses.append(loss.detach())
        accs.append((logits.argmax(1) == label).float().mean())
    net.eval()
    return float(torch.stack(losses).mean()), float(torch.stack(accs).mean())  # one wait for the device


def _validation() -> tuple:
    """A fixed validation set: the heuristic's own states and labels from a seed of its own
    (agreement with the heuristic is the curve's yardstick whatever a stage's teacher)."""
    val_buf = ReplayBuffer(20_000)
    Collector({2: 256, 4: 128}, seed=987_654_321, exclude=heldout_encodings([2, 4])).collect(val_buf, 20_000)
    return val_buf.batch(np.arange(val_buf.size))


def warm_start(
    out: str,
    cfg: WarmStartConfig,
    minutes: float,
    log: Callable[[str], None] = print,
    eval_presets: Optional[List[Tuple[str, int]]] = None,
    init: Optional[str] = None,
) -> torch.nn.Module:
    """Run (or resume from ``out/ckpt.pt``; a new run starts from the network of checkpoint
    ``init`` when given) for ``minutes``; returns the network. Writes
    ``out/ckpt.pt`` after every iteration and appends one JSON line per iteration to
    ``out/curve.jsonl``."""
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "ckpt.pt")
    device = pick_device(cfg.device)
    net, opt, state = _start(path, cfg, init, log, device)
    it0 = state["iteration"]
    log(f"on {describe(device)}, {env_threads(cfg.env_threads)} env threads")
    collector = Collector(
        cfg.games,
        seed=cfg.seed * 1_000_003 + it0,
        teacher=cfg.teacher,
        exclude=heldout_encodings(sorted(cfg.games)),
        threads=env_threads(cfg.env_threads),
    )
    buffer = ReplayBuffer(cfg.capacity)
    rng = np.random.default_rng(cfg.seed + 7919 * it0)
    student = greedy_student(net)
    val = tuple(x.to(device) for x in _validation())
    while buffer.size < min(cfg.capacity, 4 * cfg.collect):  # the teacher's moves only, first
        collector.collect(buffer, cfg.collect)
    t_end = time.time() + 60 * minutes
    while time.time() < t_end:
        t0 = time.time()
        it = state["iteration"]
        beta = cfg.beta_max * min(1.0, (it - it0 if init else it) / max(1, cfg.beta_ramp))
        net.eval()
        added = collector.collect(buffer, cfg.collect, student, beta)
        t_collect = time.time() - t0
        loss, acc = _learn(net, opt, buffer, rng, cfg)
        with torch.no_grad():
            val_acc = float((net(val[0], val[1], val[3], val[4])[0].argmax(1) == val[2]).float().mean())
        state["iteration"] = it + 1
        state["decisions"] += added
        dt = time.time() - t0
        state["seconds"] += dt
        row: Dict[str, Any] = {
            "iteration": it + 1,
            "decisions": state["decisions"],
            "minutes": round(state["seconds"] / 60, 2),
            "beta": round(beta, 3),
            "loss": round(loss, 4),
            "train_acc": round(acc, 4),
            "val_acc": round(val_acc, 4),
            "collect_s": round(t_collect, 2),
            "iter_s": round(dt, 2),
            "samples_per_s": round(cfg.updates * cfg.blocks * cfg.block / max(dt - t_collect, 1e-9)),
        }
        if eval_presets and (it + 1) % cfg.eval_every == 0:
            scores = {p: score_against(net, p, n, cfg.eval_games, 12345) * n for p, n in eval_presets}
            row["vs_heuristic"] = round(float(np.mean(list(scores.values()))), 4)
            row["vs_heuristic_min"] = min(scores, key=scores.get)  # type: ignore[arg-type]
        model = {k: v.cpu() for k, v in net.state_dict().items()}  # loads on a machine without the GPU too
        ckpt = {"model": model, "optimizer": opt.state_dict(), "state": state, "config": asdict(cfg)}
        torch.save(ckpt, path + ".tmp")
        os.replace(path + ".tmp", path)
        with open(os.path.join(out, "curve.jsonl"), "a") as f:
            f.write(json.dumps(row) + "\n")
        log(json.dumps(row))
    return net
