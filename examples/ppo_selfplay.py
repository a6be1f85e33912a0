"""Self-play PPO on eights.VecEnv: the package's PPO and self-play loop with a league of opponents.

A masked-logit PPO agent (``eights.train.PolicyNet``: an observation normaliser, two hidden
ReLU layers, a policy and a value head) learns ``crazy_eights`` against a league
(``eights.train.LeagueConfig``): the heuristic bot (``--heuristic-share`` 0.5 all along), the
random bot (``--random-share-start`` 0.3 -> ``--random-share-end`` 0.05, linear in the progress
``p``, the larger of the step and the time fractions) and, for the rest, the latest
``--pool-size`` frozen snapshots of itself, one added every ``--snapshot-every`` updates. It plays
every seat (one VecEnv per seat), logs its win rate against each kind of opponent, saves
checkpoints and a learning-curve plot, and ends with an arena evaluation on duplicate deals.
The loop is ``eights.train.SelfPlay``; this file holds the settings, the logging and the
evaluation. Reward: +1 for a win, -1 for a loss at the end of the hand.

Run (needs ``pip install -e '.[train]'``: torch, tqdm, matplotlib)::

    python examples/ppo_selfplay.py                      # 30 minutes of training, then the arena
    python examples/ppo_selfplay.py --smoke              # a few seconds, for CI
    python examples/ppo_selfplay.py --time-budget-minutes 5 --out runs/short --plot runs/short/curve.png
    python examples/ppo_selfplay.py --load runs/short/final.pt --time-budget-minutes 0 --out runs/eval  # evaluate
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np
import torch
from tqdm import tqdm

import eights
from eights import arena
from eights.train import GreedyPolicy, LeagueConfig, PolicyNet, PPOConfig, SelfPlay, config
from eights.train.curves import LearningCurve
from eights.train.files import load_checkpoint


@dataclass
class Args:
    preset: str = "crazy_eights"
    num_players: int = 2
    seed: int = 1
    time_budget_minutes: float = 30.0  # then the arena evaluation
    total_timesteps: int = 100_000_000  # learner decisions (whichever limit comes first)
    ppo: PPOConfig = field(default_factory=lambda: PPOConfig(lr_floor=0.0, hidden=256))
    anneal_lr: bool = True
    league: LeagueConfig = field(default_factory=lambda: LeagueConfig(0.5, 0.3, 0.05, pool_size=8))
    torch_threads: int = 1  # 1 was twice as fast as 2 on a busy 2-core machine
    env_threads: int = 1
    log_every: int = 5  # updates between learning-curve points
    checkpoint_every: int = 50
    out: str = "runs/ppo_selfplay"
    plot: str = ""  # default: <out>/learning_curve.png
    eval_deals: int = 1000  # duplicate deals per opponent in the final evaluation (0: skip)
    eval_seed: int = 12345
    greedy_eval: bool = True  # play the most likely legal action in the arena (else sample)
    load: str = ""  # start from this checkpoint (with --time-budget-minutes 0: evaluate it only)
    smoke: bool = False  # a tiny run that finishes in seconds (for CI)


def main() -> None:
    args = config.parse_args(Args, description=__doc__.split("\n\n")[0])
    if args.smoke:
        args.ppo.num_envs, args.ppo.num_steps, args.total_timesteps = 8, 16, 8 * 16 * 3
        args.league.snapshot_every = args.log_every = args.checkpoint_every = 1
        args.eval_deals = min(args.eval_deals, 8)
    args.plot = args.plot or os.path.join(args.out, "learning_curve.png")
    torch.set_num_threads(args.torch_threads)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    os.makedirs(args.out, exist_ok=True)

    agent = PolicyNet(eights.OBS_SIZE, eights.NUM_ACTIONS, args.ppo.hidden)
    if args.load:
        agent.load_state_dict(load_checkpoint(args.load)["model"])
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.ppo.learning_rate, eps=1e-5)
    run = SelfPlay(agent, optimizer, args.preset, args.ppo, args.league, num_players=args.num_players, seed=args.seed)
    curve, title = LearningCurve(), f"PPO self-play, {args.preset}, {args.num_players} players"
    bar = tqdm(total=args.total_timesteps if args.smoke else None, unit="step", dynamic_ncols=True)

    def save(name: str) -> None:
        saved = {"model": agent.state_dict(), "args": config.flatten(args), "step": run.step}
        torch.save(saved, os.path.join(args.out, name))

    def on_update(run: SelfPlay) -> None:
        if run.update % args.log_every == 0:
            point = curve.add(run)
            bar.set_postfix({k[3:]: f"{v:.2f}" for k, v in point.items() if k.startswith("vs_")})
        if run.update % args.checkpoint_every == 0:
            save("checkpoint.pt")
            curve.plot(args.plot, title)  # the plot so far, should the run be stopped early
        bar.update(run.step - bar.n)

    run.run(args.time_budget_minutes, args.total_timesteps, init_norm=not args.load, anneal_lr=args.anneal_lr,
            on_update=on_update)  # fmt: skip
    bar.close()
    print(f"trained {run.step:,} learner decisions in {run.elapsed() / 60:.1f} min, {run.update} updates")
    save("final.pt")
    curve.write_csv(os.path.join(args.out, "learning_curve.csv"))
    curve.plot(args.plot, title)
    print(f"checkpoint: {os.path.join(args.out, 'final.pt')}  plot: {args.plot if curve.points else '(no curve)'}")
    if args.eval_deals > 0:
        print(f"\narena: {args.preset}, {args.num_players} players, {args.eval_deals} duplicate deals, 95% interval")
        for opp in ("random", "heuristic"):
            me = GreedyPolicy(agent.eval(), "ppo", args.greedy_eval)
            r = arena.evaluate(me, opp, preset=args.preset, num_players=args.num_players, games=args.eval_deals,
                               seed=args.eval_seed, threads=1)  # fmt: skip
            print(f"{opp:<10} {r.win_rate:.3f} [{r.ci[0]:.3f}, {r.ci[1]:.3f}] wins {r.wins} losses {r.losses}")


if __name__ == "__main__":
    main()
