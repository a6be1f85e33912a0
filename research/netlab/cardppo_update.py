"""The learning half of a PPO stage of the rules-reading ``net`` (:mod:`netlab.cardppo`): GAE
over a rollout (:func:`gae`), the clipped PPO loss with its imitation term (:func:`ppo_loss`)
and the epochs over minibatches of blocks that share a rule set (:func:`ppo_update`).

The rollout's decisions and the rows of the rule sets they play go to the network's device
once per update; the minibatches are gathered there, and the statistics stay tensors until an
epoch ends (one wait for the GPU per epoch, not one per statistic and minibatch)."""

from __future__ import annotations

from typing import Any, Dict, List, Optional

import numpy as np
import torch

from eights.train.cardnet import CardNet
from netlab.cardppo_games import SearchLabels
from netlab.imitation import RulesTable

__all__ = ["gae", "ppo_loss", "ppo_update"]

#: The arrays of a rollout a minibatch reads.
KEYS = ("obs", "mask", "act", "logp", "val", "adv", "ret", "label")


def gae(buf: Dict[str, np.ndarray], next_value: np.ndarray, cfg):
    """GAE advantages and returns ``(T, N)``, bootstrapped from ``next_value``."""
    val, rew, done = buf["val"], buf["rew"], buf["done"]
    adv = np.zeros_like(val)
    last = np.zeros(val.shape[1], np.float32)
    for t in reversed(range(len(val))):
        nvt = next_value if t == len(val) - 1 else val[t + 1]
        nonterminal = 1.0 - done[t]
        delta = rew[t] + cfg.gamma * nvt * nonterminal - val[t]
        last = delta + cfg.gamma * cfg.gae_lambda * nonterminal * last
        adv[t] = last
    return adv, adv + val


def ppo_loss(net: CardNet, b: Dict[str, torch.Tensor], cfg, bc: float, value_only: bool, vf: float):
    """The loss of minibatch ``b`` (the value's weighted ``vf``) and its statistics (0-d
    tensors, detached)."""
    logits, v = net(b["obs"], b["mask"], b["rules"], b["inverse"])
    v_clipped = b["val"] + (v - b["val"]).clamp(-cfg.clip_coef, cfg.clip_coef)
    v_loss = 0.5 * torch.max((v - b["ret"]) ** 2, (v_clipped - b["ret"]) ** 2).mean()
    logp_all = logits.log_softmax(-1)
    new_lp = logp_all.gather(1, b["act"][:, None]).squeeze(1)
    ratio = (new_lp - b["logp"]).exp()
    ad = (b["adv"] - b["adv"].mean()) / (b["adv"].std(unbiased=False) + 1e-8)
    pg = torch.max(-ad * ratio, -ad * ratio.clamp(1 - cfg.clip_coef, 1 + cfg.clip_coef)).mean()
    ent = -(logp_all.exp() * logp_all.clamp(min=-1e4)).sum(-1).mean()
    bc_loss = torch.nn.functional.nll_loss(logp_all, b["label"])
    loss = vf * v_loss
    if not value_only:
        loss = loss + pg - cfg.ent_coef * ent + bc * bc_loss
    with torch.no_grad():
        stats = {
            "pg": pg.detach(),
            "v": v_loss.detach(),
            "ent": ent.detach(),
            "kl": ((ratio - 1) - (new_lp - b["logp"])).mean(),
            "bc": bc_loss.detach(),
            "agree": (logits.argmax(1) == b["label"]).float().mean(),
            "clip": ((ratio - 1).abs() > cfg.clip_coef).float().mean(),
        }
    return loss, stats


def _teacher_term(net, labelled: SearchLabels, idx: np.ndarray, cfg, device: torch.device):
    """The search teacher's cross-entropy on its buffer's samples ``idx`` and its statistics."""
    top = cfg.dagger_target == "top"
    d_obs, d_mask, d_target, d_rules, d_inv = (x.to(device) for x in labelled.batch_of(idx, top=top))
    d_logits, _ = net(d_obs, d_mask, d_rules, d_inv)
    d_logp = d_logits.log_softmax(-1)
    # Cross-entropy to the teacher's policy (0 * log p is 0 on the illegal actions).
    d_loss = -torch.where(d_target > 0, d_target * d_logp, torch.zeros_like(d_logp)).sum(-1).mean()
    agree = (d_logits.argmax(1) == d_target.argmax(1)).float().mean()
    return d_loss, {"dagger": d_loss.detach(), "dagger_agree": agree}


def ppo_update(
    net,
    opt,
    flat: Dict[str, np.ndarray],
    table: RulesTable,
    cfg,
    u: int,
    rng,
    dagger: Optional[SearchLabels] = None,
    value: bool = True,
) -> Dict[str, Any]:
    """PPO's epochs over the ``valid`` decisions of ``flat`` (one row per decision, with its
    ``adv`` and ``ret``), in minibatches of blocks that share a rule set (each with a minibatch
    of the search teacher's labels when ``dagger`` has enough); ``value``: train the value head
    too. Returns the mean statistics and the imitation weight used."""
    device = next(net.parameters()).device
    keep = np.flatnonzero(flat["valid"] & (flat["label"] >= 0))
    order = np.argsort(flat["ridx"][keep], kind="stable")  # positions into ``keep``
    k = len(order) // cfg.block
    blocks = order[: k * cfg.block].reshape(k, cfg.block)
    # The kept decisions on the device, once; the minibatches are gathered there.
    on = {key: torch.from_numpy(np.ascontiguousarray(flat[key][keep])).to(device) for key in KEYS}
    # The rule sets these decisions play, on the device once too; ``ridx`` indexes them.
    used, ridx = np.unique(flat["ridx"][keep], return_inverse=True)
    ridx = ridx.reshape(-1)
    rules_on = torch.from_numpy(table.rows[used]).to(device)
    value_only = value and u < cfg.value_updates
    bc = cfg.bc_coef + (cfg.bc_coef_end - cfg.bc_coef) * min(1.0, u / max(1, cfg.bc_updates))
    stats: Dict[str, List[torch.Tensor]] = {}
    # The search teacher's buffer, once it holds enough and the policy trains.
    labelled = dagger if dagger is not None and dagger.ready() and not value_only else None
    if labelled is not None:
        dblocks = labelled.buffer.blocks(rng, cfg.block)
        per, at = max(1, cfg.dagger_batch // cfg.block), 0
    net.train()
    for _epoch in range(cfg.update_epochs):
        perm, kls = rng.permutation(len(blocks)), []
        for j in range(0, len(perm), cfg.blocks):
            idx = blocks[perm[j : j + cfg.blocks]].reshape(-1)
            distinct, inverse = np.unique(ridx[idx], return_inverse=True)
            at_dev = torch.from_numpy(idx).to(device)
            b = {key: t[at_dev] for key, t in on.items()}
            b["rules"] = rules_on[torch.from_numpy(distinct).to(device)]
            b["inverse"] = torch.from_numpy(inverse.reshape(-1).astype(np.int64)).to(device)
            loss, st = ppo_loss(net, b, cfg, bc, value_only, cfg.vf_coef if value else 0.0)
            if labelled is not None:
                pick = np.arange(at, at + per) % len(dblocks)
                at += per
                d_loss, d_st = _teacher_term(net, labelled, dblocks[pick].reshape(-1), cfg, device)
                loss = loss + cfg.dagger_coef * d_loss
                st.update(d_st)
            opt.zero_grad()
            loss.backward()
            if value_only:  # only the value head moves
                for name, p in net.named_parameters():
                    if not name.startswith("v."):
                        p.grad = None
            torch.nn.utils.clip_grad_norm_(net.parameters(), cfg.max_grad_norm)
            opt.step()
            kls.append(st["kl"])
            for key, x in st.items():
                stats.setdefault(key, []).append(x)
        if not value_only and cfg.target_kl and kls and float(torch.stack(kls).mean()) > cfg.target_kl:
            break
    net.eval()
    means: Dict[str, float] = {}
    if stats:  # one transfer of every statistic's mean
        values = torch.stack([torch.stack(x).mean() for x in stats.values()]).tolist()
        means = {key: round(float(v), 4) for key, v in zip(stats, values)}
    return {"bc_coef": round(bc, 4), "value_only": value_only, **means}
