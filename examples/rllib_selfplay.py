"""Self-play PPO with Ray RLlib on an eights game, with several env runners.

Every seat is an agent of :class:`eights.integrations.rllib.EightsMultiAgentEnv`, all mapped to one
shared policy, so the policy plays against itself. Actions are masked by the package's
action-masking module (:func:`eights.integrations.rllib.action_masking_module_spec`), which with
``--obs-rules`` reads the rules encoding beside the observation. Collection runs
in ``--env-runners`` Ray actors; on a Ray cluster (``ray start --head`` and
``--address auto``) the same script spreads them over machines.

Run::

    pip install '.[rllib]'
    python examples/rllib_selfplay.py --iterations 50 --env-runners 2
    python examples/rllib_selfplay.py --smoke          # one small iteration, for CI
    python examples/rllib_selfplay.py --obs-rules --preset switch_blackjack   # reading the rules

After training, the policy is evaluated with duplicate deals against ``random`` and
``heuristic`` in the arena (:mod:`eights.arena`).
"""

from __future__ import annotations

import argparse
import os

import numpy as np
import ray
import torch
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.columns import Columns

import eights
import eights.arena
import eights.integrations.rllib


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--preset", default="crazy_eights")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--iterations", type=int, default=50)
    p.add_argument("--env-runners", type=int, default=2)
    p.add_argument("--train-batch", type=int, default=8000, help="env steps per training iteration")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--eval-games", type=int, default=500, help="duplicate deals per opponent")
    p.add_argument("--address", default=None, help="Ray cluster address ('auto'); default: a local Ray")
    p.add_argument("--out", default="runs/rllib_selfplay", help="directory for the checkpoint")
    p.add_argument("--smoke", action="store_true", help="one tiny iteration, for CI")
    p.add_argument("--obs-rules", action="store_true", help="the policy reads the rules encoding too")
    args = p.parse_args()
    if args.smoke:
        args.iterations, args.train_batch, args.eval_games = 1, 1000, 4
    return args


def build_config(args: argparse.Namespace) -> PPOConfig:
    env_config = {"preset": args.preset, "num_players": args.players, "seed": args.seed, "obs_rules": args.obs_rules}
    return (
        PPOConfig()
        .environment(eights.integrations.rllib.register(), env_config=env_config)
        .multi_agent(
            policies={"shared"},
            policy_mapping_fn=lambda agent_id, episode, **kwargs: "shared",
        )
        .rl_module(rl_module_spec=eights.integrations.rllib.action_masking_module_spec(["shared"]))
        .env_runners(num_env_runners=args.env_runners, num_cpus_per_env_runner=1)
        .training(
            train_batch_size_per_learner=args.train_batch,
            minibatch_size=min(1000, args.train_batch),
            num_epochs=4 if not args.smoke else 1,
            lr=3e-4,
            gamma=1.0,
            entropy_coeff=0.01,
        )
        .debugging(seed=args.seed)
    )


class ModulePolicy:
    """Greedy actions of the trained RLModule, in batches, for the arena (which gives a policy
    with ``obs_rules`` the dict of ``obs`` and ``rules``)."""

    def __init__(self, module, obs_rules: bool = False):
        self.module = module
        self.obs_rules = obs_rules

    def act_batch(self, obs, masks: np.ndarray) -> np.ndarray:
        inputs = {"observations": obs["obs"], "rules": obs["rules"]} if self.obs_rules else {"observations": obs}
        entry = {k: torch.as_tensor(v, dtype=torch.float32) for k, v in inputs.items()}
        batch = {Columns.OBS: {**entry, "action_mask": torch.as_tensor(masks, dtype=torch.float32)}}
        with torch.no_grad():
            logits = self.module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
        return logits.argmax(dim=-1).numpy()


def main() -> None:
    args = parse_args()
    ray.init(
        address=args.address,
        num_cpus=None if args.address else args.env_runners + 1,
        include_dashboard=False,
        log_to_driver=False,
    )
    try:
        algo = build_config(args).build_algo()
        for i in range(args.iterations):
            result = algo.train()
            runners = result.get("env_runners", {})
            print(
                f"iteration {i + 1:3d}: episodes {runners.get('num_episodes', 0):5d}, "
                f"mean episode length {runners.get('episode_len_mean', float('nan')):7.1f}, "
                f"env steps {int(result.get('num_env_steps_sampled_lifetime', 0))}"
            )
        os.makedirs(args.out, exist_ok=True)
        path = algo.save(os.path.abspath(args.out)).checkpoint.path
        print(f"checkpoint saved to {path}")
        policy = ModulePolicy(algo.get_module("shared"), args.obs_rules)
        for opponent in ("random", "heuristic"):
            res = eights.arena.evaluate(
                ("rllib_ppo", policy),
                opponent,
                preset=args.preset,
                num_players=args.players,
                games=args.eval_games,
                seed=args.seed + 1,
            )
            print(f"vs {opponent:9s} {res}")
        algo.stop()
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
