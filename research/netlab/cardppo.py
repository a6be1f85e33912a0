"""The reinforcement stage of the rules-reading ``net``: PPO on mixed-rules :class:`eights.VecEnv`
batches (a :class:`eights.RuleSpace` per table size, ``obs_rules=True``) starting from the
imitation network (:mod:`netlab.warmstart`), resumable, with a curve of its win shares.

* **Tables** (:attr:`CardPPOConfig.tables`): groups of games ``players:opponent:games[:space]``
  (``space``: ``all``, the rule space, or ``presets``, the presets as written); each
  group is one ``VecEnv`` per learner seat (the seat rotates with the group), its other seats
  played inside the step by a built-in bot (``heuristic``; ``net``, the shipped network, is the
  warm-start policy of the league). Rule sets held out for the generalization benchmark are
  dealt but never learnt from. The games, the rules-part cache, the shaping potential and the
  search teacher's labels live in :mod:`netlab.cardppo_games`.
* **Rollout**: every game plays ``num_steps`` learner decisions by the network's sampled
  actions, one forward pass over every game a step; the rules part of the network is computed
  once per rule set dealt and kept. The network runs on :attr:`CardPPOConfig.device`
  (:func:`netlab.device.pick_device`: CUDA when present), the envs stepped side by side on
  ``env_threads`` threads (0: one per core); the update is :mod:`netlab.cardppo_update`'s.
* **Update**: GAE, then ``update_epochs`` passes of clipped PPO over minibatches made of blocks
  of decisions that share a rule set, plus an imitation term, the cross-entropy to the
  ``heuristic``'s action in the same state, weighted ``bc_coef`` (falling linearly to
  ``bc_coef_end`` over ``bc_updates`` updates) so the policy leaves its teacher gradually. The
  first ``value_updates`` updates train the value head alone (the imitation network has none).
  A ``width`` or ``context`` above the starting network's widens it first
  (:func:`eights.train.cardnet_grow.widen`: new units, same play); ``attention = 1`` adds the
  attention layer among the cards in hand and the top card (:func:`eights.train.cardnet_grow.attend`,
  silent at first).
* **Search teacher** (:attr:`CardPPOConfig.dagger`, off by default): DAgger with a slower,
  stronger bot. Every rollout, the teacher (``ismcts:400``, say; the search runs on the env
  threads) is asked about ``dagger_labels`` of the learner's own states at the tables of
  ``dagger_players`` seats dealt the presets as written. Its answer is a policy: the search's
  root visit shares. With ``dagger_keep`` above 0 only the states where the teacher is sure
  (top share at least ``dagger_keep``) and disagrees with the network's greedy action are
  kept; with 0, all of them. With ``dagger_root = "learner"`` the search's root favours the
  network's greedy action in the heuristic's place, so it leaves that move only on evidence.
  They go to a :class:`netlab.imitation.ReplayBuffer` of the
  latest ``dagger_capacity``, and every PPO minibatch adds ``dagger_coef`` times the
  cross-entropy to the teacher's policy (``dagger_target = "top"``: to its top action) on
  ``dagger_batch`` samples drawn from it, once it holds ``dagger_start``. The buffer
  is saved beside the checkpoint, so a resumed run keeps its labels.
* **Shaping** (:attr:`CardPPOConfig.shaping`, off by default): a potential-based bonus
  ``gamma * phi(s') - phi(s)`` with
  ``phi(s) = shaping * clip((mean opponent hand - own hand) / 10, -1, 1)`` and ``phi = 0``
  once the game is over, so a learner that wins a quarter of its games still hears whether it
  shed cards faster than the table. It fades linearly to zero over ``shaping_updates``
  updates; being potential-based, it does not change which policy is best.
* **Twin deals** (:attr:`CardPPOConfig.copies` above 1, off by default): every game is played
  that many times over the same deals, and each copy's moves from the decision where the
  copies part are credited with its return minus the other copies' mean, so the luck of the
  deal cancels (:mod:`netlab.cardppo_twins`); this replaces GAE, the value head and the
  shaping. A deal is learnt from at the first update after every copy has finished it; every
  ``twin_redeal`` rollouts every game is dealt anew, so the copies stay in step.
* **Curve**: per update, the learner's win share in the games that ended, by group, the PPO
  statistics and the agreement with the heuristic.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass
from typing import Any, Callable, Dict, Optional

import numpy as np
import torch

from eights import NUM_ACTIONS
from eights.train.cardnet import CardNet, from_checkpoint, load_path
from eights.train.cardnet_grow import attend, widen
from eights.train.files import load_checkpoint
from netlab.cardppo_games import MixedGames, PartsCache, SearchLabels, potential
from netlab.cardppo_twins import TwinBook
from netlab.cardppo_update import gae, ppo_update
from netlab.device import describe, env_threads, pick_device
from netlab.imitation import RulesTable

__all__ = ["CardPPOConfig", "card_ppo"]


@dataclass
class CardPPOConfig:
    """The settings of a PPO stage (recorded in its checkpoint)."""

    seed: int = 0
    #: Groups ``players:opponent:games[:all|presets]`` (games split evenly over the learner seats).
    tables: str = "2:heuristic:256,3:heuristic:48,4:heuristic:128,5:heuristic:40,6:heuristic:36,2:net:64"
    num_steps: int = 32
    lr: float = 1e-4
    update_epochs: int = 2
    block: int = 16
    blocks: int = 256
    gamma: float = 0.995
    gae_lambda: float = 0.95
    clip_coef: float = 0.2
    ent_coef: float = 0.003
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    target_kl: float = 0.03
    bc_coef: float = 0.3
    bc_coef_end: float = 0.0
    bc_updates: int = 200
    value_updates: int = 5
    width: int = 32
    context: int = 96
    #: Threads stepping each env (0: one per core).
    env_threads: int = 0
    #: Where the network runs: ``auto`` (CUDA when PyTorch sees a GPU), ``cpu``, ``cuda[:K]``.
    device: str = "auto"
    #: The search teacher of the DAgger term (a built-in bot name; empty: no DAgger term).
    dagger: str = ""
    #: The table sizes whose states the search teacher labels, comma separated.
    dagger_players: str = "4,5"
    dagger_labels: int = 512
    dagger_capacity: int = 200_000
    dagger_batch: int = 1024
    dagger_coef: float = 0.5
    #: Keep only the states where the teacher's top share is at least this and its top action
    #: is not the network's greedy one (0: keep every state asked about).
    dagger_keep: float = 0.0
    #: The action the search teacher's root favours: the ``heuristic``'s or the ``learner``'s
    #: greedy one.
    dagger_root: str = "heuristic"
    #: What the teacher's term learns: its policy (``shares``) or its ``top`` action alone.
    dagger_target: str = "shares"
    #: Labels the buffer holds before the teacher's term starts (at least 4 minibatches).
    dagger_start: int = 0
    shaping: float = 0.0
    shaping_updates: int = 400
    #: Play every game this many times over the same deals and credit each copy's moves with
    #: its return minus the other copies' mean (:mod:`netlab.cardppo_twins`; no value
    #: head, shaping or search teacher); 1: GAE.
    copies: int = 1
    #: Rollouts between two new deals of every game with twin deals: the copies' games differ
    #: in length, so their episodes drift apart; each new deal drops the deals not finished by
    #: every copy.
    twin_redeal: int = 6
    #: 1: give a network without it the attention layer among the cards in hand and the top
    #: card (:func:`eights.train.cardnet_grow.attend`: it starts silent, playing as before).
    attention: int = 0


def _start(path: str, cfg: CardPPOConfig, init: Optional[str], log: Callable[[str], None], device: torch.device):
    state: Dict[str, Any] = {"update": 0, "decisions": 0, "seconds": 0.0}
    if os.path.exists(path):
        ck = load_checkpoint(path, ("model", "optimizer", "state"), map_location="cpu")
        net = from_checkpoint(ck["model"], cfg.width, cfg.context).to(device)
        opt = torch.optim.Adam(net.parameters(), lr=cfg.lr, eps=1e-5)
        opt.load_state_dict(ck["optimizer"])
        for group in opt.param_groups:  # this stretch's learning rate
            group["lr"] = cfg.lr
        log(f"resumed at update {ck['state']['update']} ({ck['state']['decisions']} decisions)")
        return net, opt, ck["state"]
    if init is None:
        raise ValueError("a new PPO stage starts from a network: pass init (a .pt checkpoint or a .safetensors file)")
    if init.endswith(".safetensors"):
        net = load_path(init)
    else:
        sd = load_checkpoint(init, ("model",), map_location="cpu")["model"]
        net = from_checkpoint(sd, sd["r1.weight"].shape[0], sd["c1.weight"].shape[0])
    log(f"started from the network of {init}")
    if (cfg.width, cfg.context) != (net.width, net.context):
        net = widen(net, cfg.width, cfg.context, seed=cfg.seed)
        log(f"widened to width {cfg.width} and context {cfg.context} (playing as before)")
    if cfg.attention and not net.attention:
        net = attend(net, seed=cfg.seed)
        log("gave it attention among the cards in hand and the top card (playing as before)")
    net = net.to(device)
    return net, torch.optim.Adam(net.parameters(), lr=cfg.lr, eps=1e-5), state


@torch.no_grad()
def _act(net: CardNet, games: MixedGames, cache: PartsCache, sample: bool = True):
    """The network's (sampled) actions, their log-probabilities, the values of the games'
    current states and the greedy actions, one forward pass over every game on the network's
    device (a finished game's dummy row gets action 0)."""
    m = games.mask.copy()
    m[~m.any(1), 0] = True  # a finished game has no legal action; its dummy action is ignored
    dev = cache.device
    obs, mask = torch.from_numpy(games.obs).to(dev), torch.from_numpy(m).to(dev)
    logits, v = net(obs, mask, None, torch.from_numpy(games.row).to(dev), cache.parts)
    g = logits - torch.empty_like(logits).exponential_().log() if sample else logits
    a = g.argmax(1)
    lp = logits.log_softmax(1).gather(1, a[:, None]).squeeze(1)
    # One transfer back (action ids are exact in float32).
    out = torch.stack([a.to(lp.dtype), lp, v, logits.argmax(1).to(lp.dtype)]).cpu().numpy()
    return m, out[0].astype(np.int64), out[1], out[2], out[3].astype(np.int64)


def _rollout(
    net: CardNet,
    games: MixedGames,
    cache: PartsCache,
    T: int,
    pending: np.ndarray,
    dagger: Optional[SearchLabels] = None,
    shaping: float = 0.0,
    gamma: float = 1.0,
):
    """``T`` steps of every game; the buffers (``(T, N)`` arrays; ``rew`` includes the shaping
    bonus, ``shaping`` alone), the games whose last step ended them, and the wins and ends per
    group. ``dagger`` labels some of the states on the way."""
    N, G = games.N, len(games.groups)
    buf = {
        "obs": np.zeros((T, N, games.obs.shape[1]), np.float32),
        "mask": np.zeros((T, N, NUM_ACTIONS), bool),
        **{k: np.zeros((T, N), np.int64) for k in ("act", "ridx", "label")},
        **{k: np.zeros((T, N), np.float32) for k in ("logp", "val", "rew", "done", "phi")},
        "valid": np.zeros((T, N), bool),
    }
    wins, ends = np.zeros(G), np.zeros(G)
    per_step = 0 if dagger is None else -(-dagger.per_rollout // T)
    for t in range(T):
        buf["valid"][t] = ~pending & ~games.skip & games.mask.any(1)
        buf["phi"][t] = potential(games.obs, shaping)
        buf["obs"][t], buf["ridx"][t], buf["label"][t] = games.obs, games.row, games.labels()
        buf["mask"][t], buf["act"][t], buf["logp"][t], buf["val"][t], greedy = _act(net, games, cache)
        if dagger is not None and per_step:
            dagger.label(buf["valid"][t], per_step, greedy)
        r, d, _ = games.step(buf["act"][t])
        cache.extend()
        buf["rew"][t], buf["done"][t] = r, d
        finished = d & ~pending & ~games.skip
        for gi in range(G):
            sel = finished & (games.game_group == gi)
            ends[gi] += sel.sum()
            wins[gi] += (r[sel] > 0).sum()
        pending = d & ~pending
    phi_next = np.concatenate([buf["phi"][1:], potential(games.obs, shaping)[None]])
    buf["shaping"] = buf["valid"] * (gamma * phi_next * (1.0 - buf["done"]) - buf["phi"])
    buf["rew"] += buf["shaping"]
    return buf, pending, wins, ends


def _collect(net, games, cache, table, cfg: CardPPOConfig, u: int, pending, dagger, book: Optional[TwinBook]):
    """One rollout of ``num_steps`` steps of every game, and its decisions as flat arrays with
    their advantages: by GAE or, with the twin deals' ``book``, the decisions of the deals
    that every copy has finished. Returns the decisions, the rules table their ``ridx`` index,
    how many decisions were played, the wins and ends per group, the rollout's own statistics
    and the games whose last step ended them."""
    if book is not None:
        buf, after, wins, ends = _rollout(net, games, cache, cfg.num_steps, pending)
        samples, rules, st = book.add(buf, table, pending)
        if (u + 1) % cfg.twin_redeal == 0:  # deal every game anew: the copies in step again
            games.reset(cfg.seed * 1_000_003 + 7_919 * u + 1)
            cache.extend()
            book.restart()
            after = np.zeros(games.N, bool)
        zeros = np.zeros(len(samples["adv"]), np.float32)
        samples.update(ret=zeros, val=zeros)
        extra = {f"twin_{k}": v for k, v in st.items()}
        extra.update(twin_kept=int(samples["valid"].sum()), twin_held=len(book.held.get("game", ())))
        return samples, rules, int(buf["valid"].sum()), wins, ends, extra, after
    shaping = cfg.shaping * max(0.0, 1.0 - u / max(1, cfg.shaping_updates))
    buf, pending, wins, ends = _rollout(net, games, cache, cfg.num_steps, pending, dagger, shaping, cfg.gamma)
    adv, ret = gae(buf, _act(net, games, cache, sample=False)[3], cfg)
    flat = {k: v.reshape(-1, *v.shape[2:]) for k, v in buf.items()}
    flat["adv"], flat["ret"] = adv.reshape(-1), ret.reshape(-1)
    extra = {}
    if shaping:
        extra["shaping_coef"] = round(shaping, 4)
        extra["shaping_mean"] = round(float(buf["shaping"][buf["valid"]].mean()), 5)
    return flat, table, int(buf["valid"].sum()), wins, ends, extra, pending


def _search_teacher(cfg: CardPPOConfig, games: MixedGames, out: str, u0: int) -> Optional[SearchLabels]:
    """The search teacher's labels (None without ``dagger``), reloaded from ``out`` on resume."""
    if cfg.dagger_target not in ("shares", "top"):
        raise ValueError(f"dagger_target: 'shares' or 'top', got {cfg.dagger_target!r}")
    if not cfg.dagger:
        return None
    return SearchLabels(
        cfg.dagger,
        cfg.dagger_players,
        cfg.dagger_labels,
        cfg.dagger_capacity,
        cfg.dagger_batch,
        games,
        os.path.join(out, "dagger.npz"),
        cfg.seed + 31 * u0,
        keep=cfg.dagger_keep,
        root=cfg.dagger_root,
        start=cfg.dagger_start,
    )


def card_ppo(
    out: str, cfg: CardPPOConfig, minutes: float, init: Optional[str] = None, log: Callable[[str], None] = print
) -> CardNet:
    """Run (or resume from ``out/ckpt.pt``) for ``minutes`` (at least one update); returns the network. Writes
    ``out/ckpt.pt`` after every update and one JSON line per update to ``out/curve.jsonl``."""
    if cfg.copies < 1 or (cfg.copies > 1 and cfg.dagger):
        raise ValueError(f"copies: 1, or above 1 without a search teacher (dagger), got {cfg.copies}")
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "ckpt.pt")
    device = pick_device(cfg.device)
    torch.manual_seed(cfg.seed)  # the new value head (and any widening) is the seed's
    net, opt, state = _start(path, cfg, init, log, device)
    u0 = state["update"]
    seed = cfg.seed * 1_000_003 + 101 * u0
    threads = env_threads(cfg.env_threads)
    log(f"on {describe(device)}, {threads} env threads")
    games = MixedGames(cfg.tables, threads, seed=seed, table=RulesTable(), copies=cfg.copies)
    cache = PartsCache(net, games.table)
    games.reset()
    dagger = _search_teacher(cfg, games, out, u0)
    book = TwinBook(games, most=cfg.twin_redeal * cfg.num_steps + 1) if cfg.copies > 1 else None
    rng = np.random.default_rng(cfg.seed + 7919 * u0)
    torch.manual_seed(cfg.seed + u0)
    names = [f"{n}p_{opp}" + ("" if space == "all" else f"_{space}") for n, opp, _, space in games.groups]
    pending = np.zeros(games.N, bool)  # the last step ended the game: the next one is a dummy
    t_end = time.time() + 60 * minutes
    while True:  # at least one update per call
        t0 = time.time()
        net.eval()
        table = RulesTable(2 * games.N)  # per rollout: the games' rules now, then those dealt
        games.retable(table)
        cache.refresh(table)
        flat, rules, played, wins, ends, extra, pending = _collect(
            net, games, cache, table, cfg, state["update"], pending, dagger, book
        )
        t_collect = time.time() - t0
        stats = ppo_update(net, opt, flat, rules, cfg, state["update"], rng, dagger, value=book is None)
        state["update"] += 1
        state["decisions"] += played
        dt = time.time() - t0
        state["seconds"] += dt
        row = {"update": state["update"], "decisions": state["decisions"], "minutes": round(state["seconds"] / 60, 2)}
        row.update(stats)
        row.update(extra)
        if dagger is not None:
            row["dagger_size"] = dagger.buffer.size
            row["dagger_s"] = round(dagger.seconds, 2)
            row["dagger_asked"] = dagger.asked
            dagger.seconds, dagger.asked = 0.0, 0
        row.update(  # update_s: the whole update, the rollout (collect_s) and PPO's epochs (ppo_s)
            collect_s=round(t_collect, 2),
            ppo_s=round(dt - t_collect, 2),
            update_s=round(dt, 2),
            decisions_per_s=round(played / dt),
            rules_seen=len(table.index),
        )
        for gi, name in enumerate(names):
            if ends[gi]:
                row[f"win_{name}"] = round(float(wins[gi] / ends[gi]), 4)
                row[f"games_{name}"] = int(ends[gi])
        model = {k: v.cpu() for k, v in net.state_dict().items()}  # loads on a machine without the GPU too
        ckpt = {"model": model, "optimizer": opt.state_dict(), "state": state, "config": asdict(cfg)}
        torch.save(ckpt, path + ".tmp")
        os.replace(path + ".tmp", path)
        with open(os.path.join(out, "curve.jsonl"), "a") as f:
            f.write(json.dumps(row) + "\n")
        log(json.dumps(row))
        done = time.time() >= t_end
        if dagger is not None and (done or state["update"] % 20 == 0):
            dagger.save()
        if done:
            return net
