"""The package's PPO: masked-logit proximal policy optimisation on :class:`eights.VecEnv`, as
the training examples and :func:`eights.train.exploit` run it.

:class:`Rollout` plays one learner over several VecEnvs (one per learner seat) and keeps the
buffers of a rollout; :meth:`Rollout.advantages` computes GAE; :func:`ppo_update` runs the
clipped-objective epochs (or trains the value head alone, after a warm start) and updates the
observation normaliser. The hyperparameters are read from any object with the fields of
:class:`PPOConfig` (the examples pass their own argument dataclasses).

With ``next_step`` autoreset the step after an episode's end is a dummy transition (its action
is ignored): it is kept out of the loss, and a done step is never bootstrapped from.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Callable, Dict, Optional, Sequence

import numpy as np
import torch
import torch.nn as nn

from .._core import NUM_ACTIONS

__all__ = ["PPOConfig", "Rollout", "ppo_update"]


@dataclass
class PPOConfig:
    """PPO's hyperparameters, PPO's usual defaults. A run of :func:`~eights.train.train` starts
    from :func:`~eights.train.default_ppo` instead (a wider network, a higher learning rate
    annealed to zero, the ``net`` bot as a teacher): a ``PPOConfig()`` given to it drops those,
    and a run on smaller batches lost its teacher (0 wins in 40 games against ``random``, where
    ``default_ppo`` scored 0.95). To change a few settings of a run, replace them in it:
    ``dataclasses.replace(default_ppo(), num_envs=16, num_steps=32)``."""

    num_envs: int = 128
    """games played in parallel (split evenly over the learner seats)"""
    num_steps: int = 64
    """learner decisions per game per rollout"""
    learning_rate: float = 3e-4
    """Adam learning rate, annealed linearly to ``lr_floor * learning_rate`` over the budget"""
    lr_floor: float = 0.1
    """the annealed learning rate's final fraction"""
    gamma: float = 0.99
    """discount of future rewards"""
    gae_lambda: float = 0.95
    """GAE's lambda (bias against variance of the advantages)"""
    num_minibatches: int = 4
    """minibatches per epoch of an update"""
    update_epochs: int = 4
    """passes over a rollout per update"""
    clip_coef: float = 0.2
    """PPO's clipping of the probability ratio (and of the value change)"""
    ent_coef: float = 0.01
    """weight of the entropy bonus"""
    vf_coef: float = 0.5
    """weight of the value loss"""
    max_grad_norm: float = 0.5
    """gradients clipped to this norm"""
    target_kl: float = 0.05
    """stop an update's epochs early above this approximate KL (0: never)"""
    hidden: int = 192
    """width of the two hidden layers of a network trained from scratch (a warm start keeps
    the width of the network it starts from)"""

    teacher: str = ""
    """a built-in bot whose moves the learner is pulled towards early in the run (kickstarting:
    a cross-entropy to the bot's move at each learner decision); empty: none"""
    teacher_coef: float = 1.0
    """weight of the teacher's cross-entropy at the start of the run, falling linearly to 0"""
    teacher_until: float = 0.3
    """the fraction of the budget by which the teacher's weight has fallen to 0"""

    def to_dict(self) -> Dict[str, Any]:
        return dataclasses.asdict(self)

    def check(self) -> None:
        """``ValueError`` naming the first field out of its range (``TypeError`` for a wrong type)."""
        counts = ("num_envs", "num_steps", "num_minibatches", "update_epochs", "hidden")
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name == "teacher":
                if not isinstance(value, str):
                    raise TypeError(f"PPOConfig.teacher must be a bot name (str), got {value!r}")
                continue
            if f.name in counts:
                if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                    raise TypeError(f"PPOConfig.{f.name} must be an integer, got {value!r}")
                if value < 1:
                    raise ValueError(f"PPOConfig.{f.name} must be >= 1, got {value}")
                if f.name in COUNT_MAX and value > COUNT_MAX[f.name]:
                    raise ValueError(f"PPOConfig.{f.name} must be in [1, {COUNT_MAX[f.name]}], got {value}")
                continue
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
                raise TypeError(f"PPOConfig.{f.name} must be a number, got {value!r}")
            unit = f.name in ("lr_floor", "gamma", "gae_lambda", "teacher_until")
            positive = f.name == "learning_rate"
            try:
                value = float(value)
            except OverflowError:  # an int past float's range
                value = float("inf")
            top = 1.0 if unit else FLOAT_MAX
            if not (0 <= value <= top) or (positive and value == 0):
                allowed = "in [0, 1]" if unit else (f"in (0, {FLOAT_MAX:g}]" if positive else f"in [0, {FLOAT_MAX:g}]")
                raise ValueError(f"PPOConfig.{f.name} must be {allowed}, got {getattr(self, f.name)!r:.40}")
        rollout = self.num_envs * self.num_steps
        if rollout > MAX_ROLLOUT:
            raise ValueError(
                f"PPOConfig.num_envs * num_steps must be at most {MAX_ROLLOUT:,} learner decisions a rollout "
                f"(its buffers take about 1.5 KB a decision), got {rollout:,}"
            )
        if self.num_minibatches > rollout:
            raise ValueError(
                f"PPOConfig.num_minibatches must be at most num_envs * num_steps = {rollout} (a minibatch holds "
                f"at least one decision), got {self.num_minibatches}"
            )


#: Upper bounds of PPOConfig's counts: a batch of games the envs take (``VecEnv``'s most), and
#: hidden layers a machine holds (8,192 units: 67 M weights a layer).
COUNT_MAX = {"num_envs": 2**20, "hidden": 8192, "num_steps": 2**16, "num_minibatches": 2**22, "update_epochs": 10_000}

#: The most learner decisions of one rollout (``num_envs * num_steps``): 4 M, some 6 GB of buffers.
MAX_ROLLOUT = 2**22

#: The largest coefficient, rate or norm: past it a float32 network's losses overflow (a
#: ``clip_coef`` of 1e308 was a torch ``RuntimeError``, an ``ent_coef`` of 1e308 NaN weights).
FLOAT_MAX = 1e6

#: Called for the games that ended at a step: (learner seat index, env, game rows, rewards).
OnDone = Callable[[int, Any, np.ndarray, np.ndarray], None]


class Rollout:
    """The buffers of one rollout of ``num_steps`` learner decisions in every game of
    ``envs`` (VecEnvs in learner mode with ``next_step`` autoreset; their games are stacked
    in order), and the state carried from one rollout to the next. The first ``obs_size``
    values of each observation are stored (what the network reads)."""

    def __init__(self, envs: Sequence[Any], num_steps: int, obs_size: int, device: Any = "cpu"):
        self.envs = list(envs)
        self.sizes = [e.num_envs for e in self.envs]
        self.T, self.N, self.dev = num_steps, sum(self.sizes), torch.device(device)
        T, N, dev = self.T, self.N, self.dev
        self.obs = torch.zeros(T, N, obs_size, device=dev)
        self.mask = torch.zeros(T, N, NUM_ACTIONS, dtype=torch.bool, device=dev)
        self.act = torch.zeros(T, N, dtype=torch.long, device=dev)
        self.logp, self.rew, self.done, self.val = (torch.zeros(T, N, device=dev) for _ in range(4))
        self.valid = torch.zeros(T, N, dtype=torch.bool, device=dev)
        self.teach = torch.full((T, N), -1, dtype=torch.long, device=dev)  # the teacher's moves (-1: none)
        self.next_obs = torch.zeros(N, obs_size, device=dev)
        self.next_mask = torch.zeros(N, NUM_ACTIONS, dtype=torch.bool, device=dev)
        self.pending = torch.zeros(N, dtype=torch.bool, device=dev)  # the last step ended the game

    def reset(self) -> torch.Tensor:
        """Reset every env; returns the first observations (whole)."""
        outs = [e.reset() for e in self.envs]
        self.next_obs = torch.from_numpy(np.concatenate([o for o, _ in outs])).to(self.dev)
        self.next_mask = torch.from_numpy(np.concatenate([e.action_masks() for e in self.envs])).to(self.dev)
        self.pending = torch.zeros(self.N, dtype=torch.bool, device=self.dev)
        return self.next_obs

    def collect(
        self,
        agent: Any,
        on_done: Optional[OnDone] = None,
        stop: Optional[Callable[[], bool]] = None,
        teacher: str = "",
    ) -> int:
        """Play ``num_steps`` steps of every game with ``agent.sample``; returns the learner
        decisions made (dummy steps after an episode's end excluded). ``stop`` is asked before
        every step; when it says so the rollout is abandoned with ``KeyboardInterrupt`` (a
        Ctrl-C recorded by the caller, acted on within one step). ``teacher``: a built-in bot
        whose move at each decision is kept beside it (:meth:`eights.VecEnv.bot_actions`)."""
        decisions = 0
        if not teacher:
            self.teach.fill_(-1)
        for t in range(self.T):
            if stop is not None and stop():
                raise KeyboardInterrupt
            if teacher:
                moves = np.concatenate([e.bot_actions(teacher) for e in self.envs])
                self.teach[t] = torch.from_numpy(moves).to(self.dev)
            valid = ~self.pending
            m = self.next_mask.clone()
            m[~valid, 0] = True  # a finished game has no legal action; its dummy action is ignored
            action, logp, value = agent.sample(self.next_obs, m)
            self.obs[t], self.mask[t], self.act[t] = self.next_obs[:, : self.obs.shape[2]], m, action
            self.logp[t], self.val[t], self.valid[t] = logp, value, valid
            acts = action.cpu().numpy()
            o_parts, m_parts, r_parts, d_parts = [], [], [], []
            start = 0
            for s, (env, size) in enumerate(zip(self.envs, self.sizes)):
                ob, r, term, trunc, info = env.step(acts[start : start + size])
                start += size
                done = term | trunc
                if on_done is not None and done.any():
                    on_done(s, env, np.flatnonzero(done), r)
                o_parts.append(ob.copy())
                m_parts.append(info["action_mask"].copy())
                r_parts.append(r.copy())
                d_parts.append(done)
            self.next_obs = torch.from_numpy(np.concatenate(o_parts)).to(self.dev)
            self.next_mask = torch.from_numpy(np.concatenate(m_parts)).to(self.dev)
            self.rew[t] = torch.from_numpy(np.concatenate(r_parts).astype(np.float32)).to(self.dev)
            done_now = torch.from_numpy(np.concatenate(d_parts)).to(self.dev)
            self.done[t] = done_now.float()
            self.pending = done_now & valid
            decisions += int(valid.sum())
        return decisions

    def advantages(self, agent: Any, gamma: float, gae_lambda: float):
        """GAE advantages and returns of the rollout, shape ``(num_steps, N)`` each."""
        T, dev = self.T, self.dev
        with torch.no_grad():
            m = self.next_mask.clone()
            m[self.pending, 0] = True
            _, next_value = agent.logits_value(self.next_obs, m)
            adv = torch.zeros(T, self.N, device=dev)
            last = torch.zeros(self.N, device=dev)
            for t in reversed(range(T)):
                nv = next_value if t == T - 1 else self.val[t + 1]
                nonterminal = 1.0 - self.done[t]
                delta = self.rew[t] + gamma * nv * nonterminal - self.val[t]
                last = delta + gamma * gae_lambda * nonterminal * last
                adv[t] = last
            return adv, adv + self.val

    def batch(self, adv: torch.Tensor, ret: torch.Tensor) -> Dict[str, torch.Tensor]:
        """The valid transitions of the rollout, flattened: obs, mask, act, logp, adv, ret, val."""
        idx = torch.nonzero(self.valid.reshape(-1)).squeeze(1)
        flat = self.T * self.N
        return {
            "obs": self.obs.reshape(flat, -1)[idx],
            "mask": self.mask.reshape(flat, -1)[idx],
            "act": self.act.reshape(-1)[idx],
            "logp": self.logp.reshape(-1)[idx],
            "adv": adv.reshape(-1)[idx],
            "ret": ret.reshape(-1)[idx],
            "val": self.val.reshape(-1)[idx],
            "teach": self.teach.reshape(-1)[idx],
        }


def _value_loss(v: torch.Tensor, b: Dict[str, torch.Tensor], j: torch.Tensor, clip: float) -> torch.Tensor:
    """The clipped value loss of minibatch ``j``."""
    v_clipped = b["val"][j] + (v - b["val"][j]).clamp(-clip, clip)
    return 0.5 * torch.max((v - b["ret"][j]) ** 2, (v_clipped - b["ret"][j]) ** 2).mean()


#: Why an update stopped: a loss or gradient that is not finite would leave NaN weights, which
#: play (and were rated) as if they were a policy.
NON_FINITE = (
    "the PPO update's {what} is not finite: the network cannot train with these settings (a learning_rate, "
    "ent_coef, vf_coef, teacher_coef or clip_coef too large for it?); its weights are as before this step"
)


def ppo_update(
    agent: Any,
    optimizer: torch.optim.Optimizer,
    b: Dict[str, torch.Tensor],
    cfg: Any,
    value_only: bool = False,
    teacher_coef: float = 0.0,
) -> Dict[str, float]:
    """PPO's epochs over the batch ``b`` (:meth:`Rollout.batch`), then the normaliser's update
    with the batch's observations. ``value_only``: train the value head alone on the trunk's
    features as they are (after a warm start from a policy without a value head); the policy
    and its normaliser do not move. ``teacher_coef``: the weight of the cross-entropy to the
    teacher's moves ``b["teach"]`` where there are some (kickstarting). Returns the last
    epoch's pg, v, ent and kl (and ``teacher``, the cross-entropy, with a teacher)."""
    stats: Dict[str, float] = dict(pg=float("nan"), v=float("nan"), ent=float("nan"), kl=0.0)
    taught = teacher_coef > 0 and "teach" in b and bool((b["teach"] >= 0).any())
    teach_loss = torch.zeros(())
    n = len(b["act"])
    for _epoch in range(cfg.update_epochs):
        approx_kl = 0.0
        for j in torch.tensor_split(torch.randperm(n, device=b["act"].device), cfg.num_minibatches):
            if value_only:
                with torch.no_grad():
                    h = agent.trunk(b["obs"][j], b["mask"][j])
                v_loss = _value_loss(agent.v(h).squeeze(-1), b, j, cfg.clip_coef)
                stats["v"] = v_loss.item()
                if not np.isfinite(stats["v"]):
                    raise FloatingPointError(NON_FINITE.format(what=f"value loss ({stats['v']:g})"))
                optimizer.zero_grad()
                (cfg.vf_coef * v_loss).backward()
                optimizer.step()
                continue
            logits, v = agent.logits_value(b["obs"][j], b["mask"][j])
            logp_all = logits.log_softmax(-1)
            logp = logp_all.gather(1, b["act"][j][:, None]).squeeze(1)
            ratio = (logp - b["logp"][j]).exp()
            a = b["adv"][j]
            a = (a - a.mean()) / (a.std(unbiased=False) + 1e-8)
            pg_loss = torch.max(-a * ratio, -a * ratio.clamp(1 - cfg.clip_coef, 1 + cfg.clip_coef)).mean()
            v_loss = _value_loss(v, b, j, cfg.clip_coef)
            entropy = -(logp_all.exp() * logp_all).sum(-1).mean()
            loss = pg_loss - cfg.ent_coef * entropy + cfg.vf_coef * v_loss
            if taught:
                label = b["teach"][j]
                has = label >= 0
                if bool(has.any()):  # a minibatch of finished games only has no teacher's move
                    teach_loss = -logp_all[has].gather(1, label[has][:, None]).mean()
                    loss = loss + teacher_coef * teach_loss
            optimizer.zero_grad()
            loss.backward()
            try:
                nn.utils.clip_grad_norm_(agent.parameters(), cfg.max_grad_norm, error_if_nonfinite=True)
            except RuntimeError:
                raise FloatingPointError(NON_FINITE.format(what=f"gradient (loss {loss.item():g})")) from None
            optimizer.step()
            with torch.no_grad():
                approx_kl = ((ratio - 1) - (logp - b["logp"][j])).mean().item()
        if value_only:
            continue
        stats = dict(pg=pg_loss.item(), v=v_loss.item(), ent=entropy.item(), kl=approx_kl)
        if taught:
            stats["teacher"] = teach_loss.item()
        if cfg.target_kl and approx_kl > cfg.target_kl:
            break
    if not value_only:
        agent.norm.update(b["obs"])  # used from the next rollout on
    return stats
