"""Self-play PPO on eights.VecEnv: the package's PPO (``eights.train``) with a league of opponents.

A masked-logit PPO agent (a small MLP with observation normalisation) learns
``crazy_eights`` by playing against a mix of opponents: the built-in random and
heuristic bots and a pool of frozen snapshots of itself.  It plays both seats
(one VecEnv per learner seat), logs its win rate against each kind of opponent
over training, saves checkpoints and a learning-curve plot, and ends with an
arena evaluation on duplicate deals against ``random`` and ``heuristic``.  The rollouts,
advantages and clipped updates are ``eights.train.Rollout`` and ``eights.train.ppo_update``
(the PPO that trains the ``net`` bot and the best responses of ``eights.arena.exploit``); this
file holds the agent, the opponent schedule, the logging and the evaluation.

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
from eights.train import Normalizer, Rollout, layer, ppo_update


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
    args = Args(**vars(p.parse_args()))
    if args.smoke:
        args.num_envs, args.num_steps, args.total_timesteps = 8, 16, 8 * 16 * 3
        args.snapshot_every = args.log_every = args.checkpoint_every = 1
        args.eval_deals = min(args.eval_deals, 8)
    if not args.plot:
        args.plot = os.path.join(args.out, "learning_curve.png")
    return args


# ----------------------------------------------------------------------------- the agent


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
    print(
        f"\narena: {args.preset}, {args.num_players} players, {args.eval_deals} duplicate deals per opponent "
        f"({args.eval_deals * args.num_players} games), seed {args.eval_seed}"
    )
    print(
        f"{'opponent':<10} {'win rate':>8}  {'95% interval':>16}  {'wins':>5} {'losses':>6} {'none':>4}  {'length':>6}"
    )
    for opp in ("random", "heuristic"):
        r = arena.evaluate(
            me,
            opp,
            preset=args.preset,
            num_players=args.num_players,
            games=args.eval_deals,
            seed=args.eval_seed,
            threads=1,
        )
        rows[opp] = r
        print(
            f"{opp:<10} {r.win_rate:8.3f}  [{r.ci[0]:.3f}, {r.ci[1]:.3f}]  {r.wins:5d} {r.losses:6d} "
            f"{r.no_winner:4d}  {r.mean_length:6.1f}"
        )
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
    pools = [MixedPool(args, seed=args.seed * 100 + s) for s in range(n_seats)]
    envs = [
        eights.VecEnv(
            args.preset,
            per_seat,
            n_seats,
            opponents=pools[s],
            learner_seat=s,
            num_threads=args.env_threads,
            seed=args.seed * 1000 + s,
        )
        for s in range(n_seats)
    ]
    obs_size, n_act = eights.OBS_SIZE, eights.NUM_ACTIONS
    agent = Agent(obs_size, n_act, args.hidden)
    if args.load:
        agent.load_state_dict(torch.load(args.load, weights_only=False)["model"])
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    rollout = Rollout(envs, args.num_steps, obs_size)
    next_obs = rollout.reset()
    if not args.load:
        agent.norm.update(next_obs)  # initial statistics from the first deals
    results = {k: [] for k in ("random", "heuristic", "snapshots")}  # outcomes since the last curve point
    curve, global_step, update = [], 0, 0
    t_rollout = t_update = 0.0  # seconds spent playing and learning
    start = time.time()
    budget = args.time_budget_minutes * 60
    bar = tqdm(total=args.total_timesteps if args.smoke else None, unit="step", smoothing=0.05, dynamic_ncols=True)

    def record(s: int, env, rows: np.ndarray, r: np.ndarray) -> None:
        """The outcome of each game that ended, by the kind of opponent it was drawn."""
        choice = env.pool_choices()[(s + 1) % n_seats]  # the finished episodes' draw
        for i in rows:
            kind = ("random", "heuristic")[choice[i]] if choice[i] < 2 else "snapshots"
            results[kind].append(r[i] > 0)

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
        global_step += rollout.collect(agent, record)
        t_rollout += time.time() - t0
        # ---- GAE (a dummy step always follows a done one, so it is never bootstrapped from)
        adv, ret = rollout.advantages(agent, args.gamma, args.gae_lambda)

        # ---- PPO update on the valid transitions (then the normaliser, used from the next rollout on)
        t0 = time.time()
        agent.train()
        stats = ppo_update(agent, optimizer, rollout.batch(adv, ret), args)
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
            bar.set_postfix(
                rnd=f"{point['vs_random']:.2f}",
                heur=f"{point['vs_heuristic']:.2f}",
                snap=f"{point['vs_snapshots']:.2f}",
                ent=f"{stats['ent']:.2f}",
                kl=f"{stats['kl']:.3f}",
            )
        if update % args.checkpoint_every == 0:
            torch.save(
                {"model": agent.state_dict(), "args": dataclasses.asdict(args), "step": global_step},
                os.path.join(args.out, "checkpoint.pt"),
            )
            if curve:  # the plot so far, should the run be stopped early
                save_plot(curve, args.plot, f"PPO self-play, {args.preset}, {args.num_players} players")
        bar.update(global_step - bar.n)

    bar.close()
    elapsed = time.time() - start
    print(
        f"trained {global_step:,} learner decisions in {elapsed / 60:.1f} min "
        f"({global_step / max(elapsed, 1e-9):,.0f} steps/s, {update} updates; rollouts {t_rollout:.0f} s, "
        f"updates {t_update:.0f} s)"
    )
    torch.save(
        {"model": agent.state_dict(), "args": dataclasses.asdict(args), "step": global_step},
        os.path.join(args.out, "final.pt"),
    )
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
