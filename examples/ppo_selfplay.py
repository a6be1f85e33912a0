"""Self-play PPO on eights.VecEnv, in one file (CleanRL style).

A masked-logit PPO agent (a small MLP with observation normalisation) learns
``crazy_eights`` by playing against a mix of opponents: the built-in random and
heuristic bots and a pool of frozen snapshots of itself.  It plays both seats
(one VecEnv per learner seat), logs its win rate against each kind of opponent
over training, saves checkpoints and a learning-curve plot, and ends with an
arena evaluation on duplicate deals against ``random`` and ``heuristic``.

Run (needs ``pip install -e '.[train]'``: torch, tqdm, matplotlib)::

    python examples/ppo_selfplay.py                      # 30 minutes of training, then the arena
    python examples/ppo_selfplay.py --smoke              # a few seconds, for CI
    python examples/ppo_selfplay.py --time-budget-minutes 5 --out runs/short --plot runs/short/curve.png
    python examples/ppo_selfplay.py --load runs/short/final.pt --time-budget-minutes 0 --out runs/eval  # evaluate

Opponent mixing schedule (per game, drawn when its episode starts; ``p`` is the
training progress in [0, 1], the larger of the step and the time fractions):

* heuristic bot: ``--heuristic-share`` (default 0.5) all along;
* random bot: ``--random-share-start`` -> ``--random-share-end`` (0.3 -> 0.05),
  linear in ``p``;
* frozen snapshots: the rest (0.2 -> 0.45), uniform over the latest
  ``--pool-size`` snapshots; a snapshot of the policy is added every
  ``--snapshot-every`` updates.  Until the first snapshot exists, its share
  goes to the random bot.

The pool (an ``eights.OpponentPool``) holds the bot names ``"random"`` and
``"heuristic"``, which the VecEnv plays with the Rust bots on the real game
state, and the snapshots, which are batched torch policies. The final
evaluation plays the same Rust bots through ``eights.arena``.

Reward: +1 for a win, -1 for a loss at the end of the hand (``win_loss``);
truncated hands (5,000 decisions) are treated as ended with their reward.
With ``next_step`` autoreset the step after an episode's end is a dummy
transition (its action is ignored); it is left out of the loss.
"""

from __future__ import annotations

import argparse
import copy
import csv
import dataclasses
import os
import time
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn
from tqdm import tqdm

import eights
from eights import arena



@dataclass
class Args:
    preset: str = "crazy_eights"
    """rules preset"""
    num_players: int = 2
    """seats per table (the learner plays every seat in turn, one VecEnv per seat)"""
    seed: int = 1
    """seed of torch, numpy and the envs"""
    time_budget_minutes: float = 30.0
    """stop training after this much wall time (the arena evaluation comes after)"""
    total_timesteps: int = 100_000_000
    """stop after this many learner decisions (whichever comes first)"""
    num_envs: int = 128
    """games played in parallel (split evenly over the learner seats)"""
    num_steps: int = 64
    """learner decisions per game per rollout"""
    learning_rate: float = 3e-4
    """Adam learning rate, annealed linearly to 0 with the training progress"""
    anneal_lr: bool = True
    """anneal the learning rate"""
    gamma: float = 0.99
    """discount"""
    gae_lambda: float = 0.95
    """GAE lambda"""
    num_minibatches: int = 4
    """minibatches per epoch"""
    update_epochs: int = 4
    """epochs per rollout"""
    clip_coef: float = 0.2
    """PPO clipping"""
    ent_coef: float = 0.01
    """entropy bonus"""
    vf_coef: float = 0.5
    """value loss weight"""
    max_grad_norm: float = 0.5
    """gradient clipping"""
    target_kl: float = 0.05
    """stop the epochs of an update early above this KL (0: never)"""
    hidden: int = 256
    """width of the two hidden layers"""
    heuristic_share: float = 0.5
    """share of games against the heuristic bot"""
    random_share_start: float = 0.3
    """share of games against the random bot at the start"""
    random_share_end: float = 0.05
    """share of games against the random bot at the end"""
    snapshot_every: int = 10
    """updates between snapshots added to the pool"""
    pool_size: int = 8
    """the latest snapshots that are played"""
    torch_threads: int = 1
    """torch.set_num_threads (1 was twice as fast as 2 on a busy 2-core machine)"""
    env_threads: int = 1
    """threads of each VecEnv's Rust pool"""
    log_every: int = 5
    """updates between learning-curve points"""
    checkpoint_every: int = 50
    """updates between checkpoints"""
    out: str = "runs/ppo_selfplay"
    """directory of the checkpoints and the learning-curve CSV"""
    plot: str = ""
    """learning-curve PNG (default: <out>/learning_curve.png)"""
    eval_deals: int = 1000
    """duplicate deals per opponent in the final arena evaluation (0: skip)"""
    eval_seed: int = 12345
    """seed of the arena deals"""
    greedy_eval: bool = True
    """play the most likely legal action in the arena (else sample)"""
    load: str = ""
    """start from this checkpoint (with --time-budget-minutes 0: evaluate it only)"""
    smoke: bool = False
    """a tiny run that finishes in seconds (for CI)"""


def parse_args() -> Args:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    for f in dataclasses.fields(Args):
        flag = "--" + f.name.replace("_", "-")
        if f.type in ("bool", bool):
            p.add_argument(flag, action=argparse.BooleanOptionalAction, default=f.default)
        else:
            typ = {"int": int, "float": float, "str": str}[f.type if isinstance(f.type, str) else f.type.__name__]
            p.add_argument(flag, type=typ, default=f.default)
    args = Args(**vars(p.parse_args()))
    if args.smoke:
        args.num_envs, args.num_steps, args.total_timesteps = 8, 16, 8 * 16 * 3
        args.snapshot_every = args.log_every = args.checkpoint_every = 1
        args.eval_deals = min(args.eval_deals, 8)
    if not args.plot:
        args.plot = os.path.join(args.out, "learning_curve.png")
    return args


# ----------------------------------------------------------------------------- the agent


class Normalizer(nn.Module):
    """Running mean and variance of the observations, updated once per rollout (after the
    PPO update, so a rollout and its update see the same function); snapshots keep a copy."""

    def __init__(self, size: int, clip: float = 5.0):
        super().__init__()
        self.register_buffer("mean", torch.zeros(size))
        self.register_buffer("var", torch.ones(size))
        self.register_buffer("inv_std", torch.ones(size))
        self.register_buffer("count", torch.tensor(0.0))
        self.clip = clip

    @torch.no_grad()
    def update(self, x: torch.Tensor) -> None:
        n = x.shape[0]
        mean, var = x.mean(0), x.var(0, unbiased=False)
        delta, total = mean - self.mean, self.count + n
        self.mean += delta * n / total
        self.var.copy_((self.var * self.count + var * n + delta**2 * self.count * n / total) / total)
        self.count += n
        self.inv_std.copy_(1.0 / torch.sqrt(self.var + 1e-8))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ((x - self.mean) * self.inv_std).clamp(-self.clip, self.clip)


def layer(i: int, o: int, std: float = np.sqrt(2)) -> nn.Linear:
    lin = nn.Linear(i, o)
    nn.init.orthogonal_(lin.weight, std)
    nn.init.constant_(lin.bias, 0.0)
    return lin


class Agent(nn.Module):
    """A shared 2-layer MLP trunk with a masked policy head and a value head."""

    def __init__(self, obs_size: int, num_actions: int, hidden: int):
        super().__init__()
        self.norm = Normalizer(obs_size)
        self.trunk = nn.Sequential(layer(obs_size, hidden), nn.ReLU(), layer(hidden, hidden), nn.ReLU())
        self.pi = layer(hidden, num_actions, 0.01)
        self.v = layer(hidden, 1, 1.0)

    def logits_value(self, obs: torch.Tensor, mask: torch.Tensor):
        h = self.trunk(self.norm(obs))
        logits = self.pi(h).masked_fill(~mask, -1e9)  # illegal actions get no probability
        return logits, self.v(h).squeeze(-1)

    def sample(self, obs: torch.Tensor, mask: torch.Tensor, greedy: bool = False):
        """Actions (Gumbel-max sampling from the masked logits), their log-probabilities and
        the values, without gradients."""
        with torch.no_grad():
            logits, value = self.logits_value(obs, mask)
            logp = logits.log_softmax(-1)
            if greedy:
                action = logits.argmax(1)
            else:
                action = (logits - torch.empty_like(logits).exponential_().log()).argmax(1)
            return action, logp.gather(1, action[:, None]).squeeze(1), value

    def act(self, obs: np.ndarray, mask: np.ndarray, greedy: bool = False) -> np.ndarray:
        """Batched actions for numpy inputs (used by snapshots and the arena)."""
        return self.sample(torch.from_numpy(obs), torch.from_numpy(mask), greedy)[0].numpy()


class ArenaAgent:
    """The trained policy as an arena agent (``act_batch`` on batches)."""

    def __init__(self, agent: Agent, name: str, greedy: bool):
        self.agent, self.name, self.greedy = agent, name, greedy

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return self.agent.act(np.ascontiguousarray(obs, np.float32), np.ascontiguousarray(masks, bool), self.greedy)


class MixedPool(eights.OpponentPool):
    """Entry 0: random bot, 1: heuristic bot, 2...: frozen snapshots, drawn by the schedule."""

    RANDOM, HEURISTIC = 0, 1

    def __init__(self, args: Args, seed: int):
        super().__init__(["random", "heuristic"], seed=seed)
        self.args, self.progress = args, 0.0

    def shares(self):
        a, p = self.args, self.progress
        rnd = a.random_share_start + (a.random_share_end - a.random_share_start) * p
        snap = max(0.0, 1.0 - a.heuristic_share - rnd) if len(self) > 2 else 0.0
        return 1.0 - a.heuristic_share - snap, a.heuristic_share, snap

    def sample(self, size: int) -> np.ndarray:
        rnd, heur, snap = self.shares()
        live = list(range(max(2, len(self) - self.args.pool_size), len(self)))
        p = np.zeros(len(self))
        p[self.RANDOM], p[self.HEURISTIC] = rnd, heur
        if live:
            p[live] = snap / len(live)
        return self.rng.choice(len(self), size=size, p=p / p.sum())


def evaluate(agent: Agent, args: Args) -> dict:
    """Arena evaluation of the (greedy) policy against the built-in bots; prints a table."""
    me = ArenaAgent(agent, "ppo", args.greedy_eval)
    rows = {}
    print(f"\narena: {args.preset}, {args.num_players} players, {args.eval_deals} duplicate deals per opponent "
          f"({args.eval_deals * args.num_players} games), seed {args.eval_seed}")
    print(f"{'opponent':<10} {'win rate':>8}  {'95% interval':>16}  {'wins':>5} {'losses':>6} {'none':>4}  {'length':>6}")
    for opp in ("random", "heuristic"):
        r = arena.evaluate(me, opp, preset=args.preset, num_players=args.num_players, games=args.eval_deals,
                           seed=args.eval_seed, threads=1)
        rows[opp] = r
        print(f"{opp:<10} {r.win_rate:8.3f}  [{r.ci[0]:.3f}, {r.ci[1]:.3f}]  {r.wins:5d} {r.losses:6d} "
              f"{r.no_winner:4d}  {r.mean_length:6.1f}")
    return rows


def save_plot(curve: list, path: str, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = np.array([c["step"] for c in curve])
    fig, ax = plt.subplots(figsize=(7, 4))
    for key, label in (("vs_random", "random bot"), ("vs_heuristic", "heuristic bot"), ("vs_snapshots", "snapshots")):
        y = np.array([c[key] for c in curve], dtype=float)
        ax.plot(steps, y, label=label)
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("learner decisions")
    ax.set_ylabel("win rate in training games")
    ax.set_ylim(0, 1)
    ax.set_title(title)
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


# ----------------------------------------------------------------------------- training


def main() -> None:
    args = parse_args()
    torch.set_num_threads(args.torch_threads)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    os.makedirs(args.out, exist_ok=True)

    n_seats = args.num_players
    per_seat = max(1, args.num_envs // n_seats)
    num_envs = per_seat * n_seats
    pools = [MixedPool(args, seed=args.seed * 100 + s) for s in range(n_seats)]
    envs = [
        eights.VecEnv(args.preset, per_seat, n_seats, opponents=pools[s], learner_seat=s,
                      num_threads=args.env_threads, seed=args.seed * 1000 + s)
        for s in range(n_seats)
    ]
    obs_size, n_act = eights.OBS_SIZE, eights.NUM_ACTIONS
    agent = Agent(obs_size, n_act, args.hidden)
    if args.load:
        agent.load_state_dict(torch.load(args.load, weights_only=False)["model"])
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    T, N = args.num_steps, num_envs
    obs_buf = torch.zeros(T, N, obs_size)
    mask_buf = torch.zeros(T, N, n_act, dtype=torch.bool)
    act_buf = torch.zeros(T, N, dtype=torch.long)
    logp_buf = torch.zeros(T, N)
    rew_buf = torch.zeros(T, N)
    done_buf = torch.zeros(T, N)
    val_buf = torch.zeros(T, N)
    valid_buf = torch.zeros(T, N, dtype=torch.bool)

    outs = [e.reset() for e in envs]
    next_obs = torch.from_numpy(np.concatenate([o for o, _ in outs]))
    next_mask = torch.from_numpy(np.concatenate([e.action_masks() for e in envs]))
    if not args.load:
        agent.norm.update(next_obs)  # initial statistics from the first deals
    pending = torch.zeros(N, dtype=torch.bool)  # the game ended at the last step: this step is a dummy
    results = {k: [] for k in ("random", "heuristic", "snapshots")}  # outcomes since the last curve point
    curve, global_step, update = [], 0, 0
    t_rollout = t_update = 0.0  # seconds spent playing and learning
    start = time.time()
    budget = args.time_budget_minutes * 60
    batch = T * N
    bar = tqdm(total=args.total_timesteps if args.smoke else None, unit="step", smoothing=0.05, dynamic_ncols=True)

    def progress() -> float:
        if budget <= 0 or args.total_timesteps <= 0:
            return 1.0
        return min(1.0, max(global_step / args.total_timesteps, (time.time() - start) / budget))

    while progress() < 1.0:
        update += 1
        p = progress()
        if args.anneal_lr:
            optimizer.param_groups[0]["lr"] = args.learning_rate * (1.0 - p)
        for pool in pools:
            pool.progress = p

        # ---- rollout
        t0 = time.time()
        agent.eval()
        for t in range(T):
            valid = ~pending
            m = next_mask.clone()
            m[~valid, 0] = True  # a finished game has no legal action; its dummy action is ignored
            action, logp, value = agent.sample(next_obs, m)
            obs_buf[t], mask_buf[t], act_buf[t] = next_obs, m, action
            logp_buf[t], val_buf[t], valid_buf[t] = logp, value, valid
            acts = action.numpy()
            o_parts, m_parts, r_parts, d_parts = [], [], [], []
            for s, env in enumerate(envs):
                rows = slice(s * per_seat, (s + 1) * per_seat)
                ob, r, term, trunc, info = env.step(acts[rows])
                done = term | trunc
                if done.any():
                    choice = env.pool_choices()[(s + 1) % n_seats]  # the finished episodes' draw
                    for i in np.flatnonzero(done):
                        kind = ("random", "heuristic")[choice[i]] if choice[i] < 2 else "snapshots"
                        results[kind].append(r[i] > 0)
                o_parts.append(ob.copy())
                m_parts.append(info["action_mask"].copy())
                r_parts.append(r.copy())
                d_parts.append(done)
            next_obs = torch.from_numpy(np.concatenate(o_parts))
            next_mask = torch.from_numpy(np.concatenate(m_parts))
            rew_buf[t] = torch.from_numpy(np.concatenate(r_parts).astype(np.float32))
            done_now = torch.from_numpy(np.concatenate(d_parts))
            done_buf[t] = done_now.float()
            pending = done_now & valid
            global_step += int(valid.sum())

        t_rollout += time.time() - t0
        # ---- GAE (a dummy step always follows a done one, so it is never bootstrapped from)
        with torch.no_grad():
            m = next_mask.clone()
            m[pending, 0] = True
            _, next_value = agent.logits_value(next_obs, m)
            adv = torch.zeros(T, N)
            last = torch.zeros(N)
            for t in reversed(range(T)):
                nv = next_value if t == T - 1 else val_buf[t + 1]
                nonterminal = 1.0 - done_buf[t]
                delta = rew_buf[t] + args.gamma * nv * nonterminal - val_buf[t]
                last = delta + args.gamma * args.gae_lambda * nonterminal * last
                adv[t] = last
            ret = adv + val_buf

        # ---- PPO update on the valid transitions
        t0 = time.time()
        agent.train()
        idx = torch.nonzero(valid_buf.reshape(-1)).squeeze(1)
        b_obs, b_mask = obs_buf.reshape(batch, -1)[idx], mask_buf.reshape(batch, -1)[idx]
        b_act, b_logp = act_buf.reshape(-1)[idx], logp_buf.reshape(-1)[idx]
        b_adv, b_ret, b_val = adv.reshape(-1)[idx], ret.reshape(-1)[idx], val_buf.reshape(-1)[idx]
        stats = {}
        for epoch in range(args.update_epochs):
            for j in torch.tensor_split(torch.randperm(len(idx)), args.num_minibatches):
                logits, v = agent.logits_value(b_obs[j], b_mask[j])
                logp_all = logits.log_softmax(-1)
                logp = logp_all.gather(1, b_act[j][:, None]).squeeze(1)
                ratio = (logp - b_logp[j]).exp()
                a = b_adv[j]
                a = (a - a.mean()) / (a.std(unbiased=False) + 1e-8)
                pg_loss = torch.max(-a * ratio, -a * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)).mean()
                v_clipped = b_val[j] + (v - b_val[j]).clamp(-args.clip_coef, args.clip_coef)
                v_loss = 0.5 * torch.max((v - b_ret[j]) ** 2, (v_clipped - b_ret[j]) ** 2).mean()
                entropy = -(logp_all.exp() * logp_all).sum(-1).mean()
                loss = pg_loss - args.ent_coef * entropy + args.vf_coef * v_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()
                with torch.no_grad():
                    approx_kl = ((ratio - 1) - (logp - b_logp[j])).mean().item()
            stats = dict(pg=pg_loss.item(), v=v_loss.item(), ent=entropy.item(), kl=approx_kl)
            if args.target_kl and approx_kl > args.target_kl:
                break

        agent.norm.update(b_obs)  # used from the next rollout on
        t_update += time.time() - t0

        # ---- snapshots, learning curve, checkpoints
        if update % args.snapshot_every == 0:
            snap = copy.deepcopy(agent).eval()
            for pool in pools:
                pool.add(lambda o, m, s=snap: s.act(o, m))
        if update % args.log_every == 0:
            point = {"step": global_step, "seconds": round(time.time() - start, 1)}
            for kind, res in results.items():
                point[f"vs_{kind}"] = float(np.mean(res)) if res else float("nan")
                point[f"games_{kind}"] = len(res)
                res.clear()
            curve.append(point)
            bar.set_postfix(rnd=f"{point['vs_random']:.2f}", heur=f"{point['vs_heuristic']:.2f}",
                            snap=f"{point['vs_snapshots']:.2f}", ent=f"{stats['ent']:.2f}", kl=f"{stats['kl']:.3f}")
        if update % args.checkpoint_every == 0:
            torch.save({"model": agent.state_dict(), "args": dataclasses.asdict(args), "step": global_step},
                       os.path.join(args.out, "checkpoint.pt"))
            if curve:  # the plot so far, should the run be stopped early
                save_plot(curve, args.plot, f"PPO self-play, {args.preset}, {args.num_players} players")
        bar.update(global_step - bar.n)

    bar.close()
    elapsed = time.time() - start
    print(f"trained {global_step:,} learner decisions in {elapsed / 60:.1f} min "
          f"({global_step / max(elapsed, 1e-9):,.0f} steps/s, {update} updates; rollouts {t_rollout:.0f} s, "
          f"updates {t_update:.0f} s)")
    torch.save({"model": agent.state_dict(), "args": dataclasses.asdict(args), "step": global_step},
               os.path.join(args.out, "final.pt"))
    if curve:
        with open(os.path.join(args.out, "learning_curve.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(curve[0]))
            w.writeheader()
            w.writerows(curve)
    if curve:
        save_plot(curve, args.plot, f"PPO self-play, {args.preset}, {args.num_players} players")
    print(f"checkpoint: {os.path.join(args.out, 'final.pt')}  plot: {args.plot if curve else '(no curve)'}")
    if args.eval_deals > 0:
        evaluate(agent.eval(), args)


if __name__ == "__main__":
    main()
