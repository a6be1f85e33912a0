"""Expert iteration offline for the rules-reading ``net``: a fixed set of ``net``'s own states,
labelled once by a search rooted on ``net``, then supervised training of the network on it.

:func:`collect` plays groups of mixed-rules ``VecEnv`` games (:class:`MixedGames`, the PPO
stage's ``tables``) with the shipped ``net`` (or the file ``EIGHTS_NET_WEIGHTS`` names) in the
learner's seat and built-in bots in the others. At every learner decision with more than one
legal move, the search (``ismcts:N``) is asked for its root visit shares, its root favouring
``net``'s greedy move (so it leaves that move only on evidence). The game goes on by ``net``'s
greedy move or, for a share ``explore`` of the decisions, by a move drawn from the search's
shares, so the set also holds states an improved policy reaches. The states are written in
shards (``labels_XXXX.npz``: float16 observations, packed masks, float16 shares, ``net``'s move,
each state's row in the shard's own table of rules encodings); a stopped collection resumes
at the next shard. The generalization benchmark's held-out house rules are never stored.

:func:`distill` trains a :class:`~eights.train.cardnet.CardNet` on the shards (a share held out
for validation): the cross-entropy from the search's shares, sharpened by ``power`` (or from
its top move alone, ``target="top"``, where it leads ``net``'s by more than ``margin``), on
minibatches of blocks of states that share a rule set, Adam, a checkpoint after each epoch in
the format ``research/export_card_net.py`` reads, and a curve line per epoch with the agreement
of the network's greedy move with the search's top move and with ``net``'s move at the start.
"""

from __future__ import annotations

import glob
import json
import os
import time
from dataclasses import asdict, dataclass
from typing import Any, Callable, Dict, List

import numpy as np
import torch

from eights import NUM_ACTIONS
from eights.train.cardnet import from_checkpoint, load_path
from eights.train.files import load_checkpoint
from netlab.cardppo_games import MixedGames
from netlab.device import env_threads
from netlab.imitation import RulesTable

__all__ = ["CollectConfig", "DistillConfig", "collect", "distill", "load_shards"]


@dataclass
class CollectConfig:
    """The settings of a collection (recorded in each shard)."""

    tables: str = (
        "2:heuristic:256:presets,4:heuristic:256:presets,5:heuristic:60:presets,"
        "2:heuristic:96,3:heuristic:48,4:heuristic:64,6:heuristic:24"
    )
    teacher: str = "ismcts:400"
    explore: float = 0.1
    shard: int = 100_000
    seed: int = 0
    #: Threads stepping each env, the search's too (0: one per core).
    env_threads: int = 0


def _shards(out: str) -> List[str]:
    return sorted(glob.glob(os.path.join(out, "labels_*.npz")))


def collect(out: str, cfg: CollectConfig, states: int, minutes: float, log: Callable[[str], None] = print) -> int:
    """Label up to ``states`` states in ``minutes`` (the module documentation) into shards in
    ``out``; returns the states held there."""
    os.makedirs(out, exist_ok=True)
    done = sum(int(np.load(p)["size"]) for p in _shards(out))
    k0 = len(_shards(out))
    games = MixedGames(cfg.tables, env_threads(cfg.env_threads), cfg.seed * 1_000_003 + 97 * k0, RulesTable())
    games.reset()
    rng = np.random.default_rng(cfg.seed + 7919 * k0)
    t_end = time.time() + 60 * minutes
    k = k0
    while done < states and time.time() < t_end:
        t0 = time.time()
        shard = _collect_shard(games, cfg, rng, min(cfg.shard, states - done), t_end)
        if shard is None:
            break
        path = os.path.join(out, f"labels_{k:04d}.npz")
        with open(path + ".tmp", "wb") as f:
            np.savez(f, **shard, config=json.dumps(asdict(cfg)))
        os.replace(path + ".tmp", path)
        n = int(shard["size"])
        done += n
        k += 1
        log(json.dumps({"shard": k, "states": n, "total": done, "seconds": round(time.time() - t0, 1)}))
    return done


def _collect_shard(games: MixedGames, cfg: CollectConfig, rng: np.random.Generator, size: int, t_end: float):
    """One shard of ``size`` labelled states (fewer if time runs out first; None if none)."""
    table = RulesTable()
    obs, mask = [], []
    shares, moves, ridx = [], [], []
    have = 0
    while have < size and time.time() < t_end:
        greedy = games.labels("net")
        choice = games.mask.sum(1) > 1
        asked = np.flatnonzero(choice & ~games.skip & (greedy >= 0))
        act = greedy.copy()
        if len(asked):
            pol = games.policies_of(cfg.teacher, asked, greedy[asked])
            ok = pol.sum(1) > 0.5
            asked, pol = asked[ok], pol[ok]
            obs.append(games.obs[asked].astype(np.float16))
            mask.append(np.packbits(games.mask[asked], axis=1))
            shares.append(pol.astype(np.float16))
            moves.append(greedy[asked].astype(np.int16))
            ridx.append(np.array([table.add(games.enc[g]) for g in asked], np.int32))
            have += len(asked)
            roam = rng.random(len(asked)) < cfg.explore
            if roam.any():
                p = pol[roam].astype(np.float64)
                p /= p.sum(1, keepdims=True)
                u = rng.random((len(p), 1))
                act[asked[roam]] = np.minimum((p.cumsum(1) < u).sum(1), NUM_ACTIONS - 1)
        act[act < 0] = 0
        games.step(act)
    if not have:
        return None
    return {
        "obs": np.concatenate(obs),
        "mask": np.concatenate(mask),
        "shares": np.concatenate(shares),
        "move": np.concatenate(moves),
        "ridx": np.concatenate(ridx),
        "rules": table.rows[: len(table.index)],
        "size": have,
    }


@dataclass
class DistillConfig:
    """The settings of a distillation (recorded in its checkpoint)."""

    epochs: int = 8
    lr: float = 3e-4
    blocks: int = 256
    block: int = 16
    #: What the network is trained towards: ``"shares"``, the search's shares raised to
    #: ``power`` and renormalised; ``"top"``, the search's most visited move alone (one-hot).
    target: str = "shares"
    #: The search's shares are raised to this power and renormalised (above 1: sharper).
    power: float = 1.0
    #: With ``target="top"``: the search's top move replaces ``net``'s only where its share
    #: exceeds the share of ``net``'s move by more than this (a search that barely departs is
    #: taken for noise).
    margin: float = 0.0
    #: The share of the states held out for validation.
    valid: float = 0.02
    #: Units per card and of the context (wider than the start: :func:`cardnet_grow.widen`).
    width: int = 0
    context: int = 0
    seed: int = 0
    #: Stop once this many minutes have passed (0: no limit); the epoch under way ends early.
    minutes: float = 0.0


class Labels:
    """The shards of :func:`collect`, joined: observations, masks, the search's shares,
    ``net``'s move and each state's row in one table of rules encodings, with the rows held out
    for validation; :meth:`to` puts them on a device as tensors."""

    def __init__(self, dirs: List[str], valid: float, seed: int):
        paths = [p for d in dirs for p in _shards(d)]
        if not paths:
            raise ValueError(f"labels: no labels_*.npz shards in {dirs}")
        obs, mask, shares, move, ridx = [], [], [], [], []
        table = RulesTable()
        for p in paths:
            with np.load(p) as z:
                rows = np.array([table.add(r) for r in z["rules"]], np.int64)
                obs.append(z["obs"])
                mask.append(z["mask"])
                shares.append(z["shares"])
                move.append(z["move"].astype(np.int64))
                ridx.append(rows[z["ridx"]])
        self.obs, self.mask, self.shares = np.concatenate(obs), np.concatenate(mask), np.concatenate(shares)
        self.move, self.ridx = np.concatenate(move), np.concatenate(ridx)
        self.rules = table.rows[: len(table.index)]
        self.size = len(self.move)
        rng = np.random.default_rng(seed)
        self.val = np.sort(rng.choice(self.size, size=max(1, int(valid * self.size)), replace=False))
        self.train = np.setdiff1d(np.arange(self.size), self.val)
        self.t: Dict[str, torch.Tensor] = {}

    def to(self, device: str) -> Labels:
        """Keep the arrays as tensors on ``device`` (masks unpacked)."""
        mask = np.unpackbits(self.mask, axis=1, count=NUM_ACTIONS).astype(bool)
        arrays = {"obs": self.obs, "mask": mask, "shares": self.shares, "move": self.move, "ridx": self.ridx}
        self.t = {k: torch.from_numpy(v).to(device) for k, v in arrays.items()}
        self.t["rules"] = torch.from_numpy(self.rules).to(device)
        return self

    def blocks(self, rng: np.random.Generator, block: int) -> np.ndarray:
        """The training rows sorted by rule set, cut into blocks of ``block``, in random order."""
        order = self.train[np.argsort(self.ridx[self.train], kind="stable")]
        k = len(order) // block
        return rng.permutation(order[: k * block].reshape(k, block))

    def batch(self, idx: np.ndarray, cfg: DistillConfig):
        """``(obs, mask, move, rules, inverse, shares, target)`` of rows ``idx`` on the device
        of :meth:`to`: ``rules`` the distinct encodings of the batch, ``inverse`` each row's
        one, ``target`` what ``cfg`` trains towards (:class:`DistillConfig`)."""
        t = self.t
        i = torch.from_numpy(np.ascontiguousarray(idx, np.int64)).to(t["obs"].device)
        distinct, inverse = torch.unique(t["ridx"][i], return_inverse=True)
        shares, move = t["shares"][i].float(), t["move"][i]
        if cfg.target == "top":
            top = shares.argmax(1)
            lead = shares.gather(1, top[:, None])[:, 0] - shares.gather(1, move[:, None])[:, 0]
            top = torch.where(lead > cfg.margin, top, move)
            target = torch.nn.functional.one_hot(top, NUM_ACTIONS).float()
        else:
            target = shares.pow(cfg.power) if cfg.power != 1.0 else shares
            target = target / target.sum(1, keepdim=True).clamp(min=1e-9)
        return t["obs"][i].float(), t["mask"][i], move, t["rules"][distinct], inverse, shares, target


def load_shards(dirs: List[str], valid: float = 0.02, seed: int = 0) -> Labels:
    """The shards of every folder in ``dirs``, joined, with a share ``valid`` of the states held
    out for validation (drawn with ``seed``)."""
    return Labels(dirs, valid, seed)


def _soft_ce(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """The mean cross-entropy from ``target`` distributions (zero on illegal moves)."""
    return -(target * torch.log_softmax(logits, 1).clamp(min=-1e4)).sum(1).mean()


@torch.no_grad()
def _validate(net, labels: Labels, cfg: DistillConfig, device: str) -> Dict[str, float]:
    """Loss and agreements on the validation rows."""
    net.eval()
    tot = {"loss": 0.0, "search": 0.0, "start": 0.0, "apart": 0.0, "apart_n": 0.0}
    for i in range(0, len(labels.val), 4096):
        obs, mask, move, rules, inv, shares, target = labels.batch(labels.val[i : i + 4096], cfg)
        logits, _ = net(obs, mask, rules, inv)
        top, greedy = shares.argmax(1), logits.argmax(1)
        tot["loss"] += float(_soft_ce(logits, target)) * len(obs)
        tot["search"] += float((greedy == top).sum())
        tot["start"] += float((greedy == move).sum())
        apart = top != move
        tot["apart"] += float((greedy[apart] == top[apart]).sum())
        tot["apart_n"] += float(apart.sum())
    n = len(labels.val)
    return {
        "val_loss": round(tot["loss"] / n, 4),
        "agree_search": round(tot["search"] / n, 4),
        "agree_start": round(tot["start"] / n, 4),
        "search_apart": round(tot["apart_n"] / n, 4),
        "takes_search_where_apart": round(tot["apart"] / max(tot["apart_n"], 1.0), 4),
    }


def distill(
    out: str, labels: Labels, init: str, cfg: DistillConfig, device: str = "cpu", log: Callable[[str], None] = print
) -> torch.nn.Module:
    """Train the network of ``init`` (an exported file or a checkpoint) on ``labels`` for
    ``cfg.epochs`` epochs (the module documentation); writes ``out/ckpt.pt`` after each epoch
    and a line of ``out/curve.jsonl``, the first before any training."""
    from eights.train.cardnet_grow import widen

    if cfg.target not in ("shares", "top"):
        raise ValueError(f"target must be 'shares' or 'top', not {cfg.target!r}")
    if not cfg.power > 0:
        raise ValueError(f"power must be above 0, not {cfg.power}")
    if not 0 <= cfg.margin <= 1:
        raise ValueError(f"margin must be between 0 and 1, not {cfg.margin}")
    os.makedirs(out, exist_ok=True)
    if init.endswith(".safetensors"):
        net = load_path(init)
    else:
        ck = load_checkpoint(init, ("model", "config"), map_location="cpu")
        net = from_checkpoint(ck["model"], ck["config"]["width"], ck["config"]["context"])
    if cfg.width or cfg.context:
        net = widen(net, max(cfg.width, net.width), max(cfg.context, net.context), seed=cfg.seed)
    net = net.to(device)
    labels.to(device)
    torch.manual_seed(cfg.seed)
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr)
    rng = np.random.default_rng(cfg.seed)
    state: Dict[str, Any] = {"iteration": 0, "decisions": 0, "seconds": 0.0}
    record = {**asdict(cfg), "width": net.width, "context": net.context, "init": init, "states": labels.size}
    curve = os.path.join(out, "curve.jsonl")

    def write(row: Dict[str, Any]) -> None:
        row.update(_validate(net, labels, cfg, device))
        with open(curve, "a") as f:
            f.write(json.dumps(row) + "\n")
        log(json.dumps(row))

    write({"epoch": 0})
    deadline = time.time() + 60 * cfg.minutes if cfg.minutes else float("inf")
    for epoch in range(cfg.epochs):
        if time.time() > deadline:
            break
        t0 = time.time()
        net.train()
        blocks = labels.blocks(rng, cfg.block)
        losses = []
        for j in range(0, len(blocks) - cfg.blocks + 1, cfg.blocks):
            if time.time() > deadline:
                break
            obs, mask, _move, rules, inv, _shares, target = labels.batch(blocks[j : j + cfg.blocks].reshape(-1), cfg)
            logits, _ = net(obs, mask, rules, inv)
            loss = _soft_ce(logits, target)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            opt.step()
            losses.append(float(loss.detach()))
        state["iteration"] = epoch + 1
        state["decisions"] += len(losses) * cfg.blocks * cfg.block
        state["seconds"] += time.time() - t0
        torch.save(
            {"model": {k: v.cpu() for k, v in net.state_dict().items()}, "state": state, "config": record},
            os.path.join(out, "ckpt.pt"),
        )
        write({"epoch": epoch + 1, "loss": round(float(np.mean(losses)), 4), "seconds": round(time.time() - t0, 1)})
    return net.cpu().eval()
