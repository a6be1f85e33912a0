"""Train sb3-contrib's MaskablePPO on an eights environment, then evaluate it in the arena.

The games are stepped together in Rust by ``eights.integrations.sb3.SB3VecEnv``, a stable-baselines3
``VecEnv`` over the batched engine with an ``action_masks()`` method, which
``MaskablePPO`` finds by itself. ``--dummy`` trains on SB3's ``DummyVecEnv`` of
``eights.make(...)`` envs instead (one Python env per game; slower, same results in
kind). No other wrapper is needed.

Run::

    pip install '.[sb3]'
    python examples/sb3_maskable_ppo.py --timesteps 200000
    python examples/sb3_maskable_ppo.py --smoke        # a few seconds, for CI

The learner sits at seat 0 and every other seat is played by the built-in bot named by
``--opponent``. At the end the policy is evaluated with duplicate deals against
``random`` and ``heuristic`` (see :mod:`eights.arena`).
"""

from __future__ import annotations

import argparse
import os

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.vec_env import VecMonitor

import eights
import eights.arena
import eights.integrations.sb3
from eights.train.machine import pick_threads


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--preset", default="crazy_eights")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--opponent", default="random", help="built-in bot at the other seats")
    p.add_argument("--timesteps", type=int, default=200_000)
    p.add_argument("--n-envs", type=int, default=8)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--eval-games", type=int, default=500, help="duplicate deals per opponent")
    p.add_argument("--out", default="runs/sb3_maskable_ppo", help="directory for the saved model")
    p.add_argument("--dummy", action="store_true", help="train on DummyVecEnv(eights.make) instead")
    p.add_argument(
        "--torch-threads",
        type=int,
        default=None,
        help="PyTorch's threads (default: chosen as eights train chooses them; one on a busy 2-core machine)",
    )
    p.add_argument("--smoke", action="store_true", help="tiny budget, for CI")
    args = p.parse_args()
    args.n_steps = max(64, 2048 // args.n_envs)  # steps per env per rollout
    if args.smoke:
        args.timesteps, args.n_envs, args.eval_games, args.n_steps = 512, 2, 4, 128
    return args


def main() -> None:
    args = parse_args()
    # A second PyTorch thread on a busy 2-core machine made the updates 100 times slower.
    torch.set_num_threads(pick_threads(1, args.torch_threads, "cpu")[1])
    if args.dummy:
        env = make_vec_env(
            eights.make,
            n_envs=args.n_envs,
            seed=args.seed,
            env_kwargs={"preset": args.preset, "num_players": args.players, "opponents": args.opponent},
        )
    else:  # every game in one Rust batch; VecMonitor logs the episode returns
        env = VecMonitor(
            eights.integrations.sb3.SB3VecEnv(
                args.preset, num_envs=args.n_envs, num_players=args.players, opponents=args.opponent, seed=args.seed
            )
        )
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=args.n_steps,
        batch_size=256 if not args.smoke else 64,
        learning_rate=3e-4,
        ent_coef=0.01,
        gamma=1.0,
        seed=args.seed,
        verbose=0,
    )
    model.learn(total_timesteps=args.timesteps, progress_bar=_has_progress_bar())
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "model.zip")
    model.save(path)
    print(f"saved {path}")

    class Policy:
        """The arena calls act_batch with the observations and masks of many games at once."""

        def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
            actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
            return actions

    policy = Policy()

    for opponent in ("random", "heuristic"):
        result = eights.arena.evaluate(
            ("maskable_ppo", policy),
            opponent,
            preset=args.preset,
            num_players=args.players,
            games=args.eval_games,
            seed=args.seed + 1,
        )
        print(f"vs {opponent:9s} {result}")


def _has_progress_bar() -> bool:
    """stable-baselines3 draws its progress bar with tqdm and rich when both are installed."""
    try:
        import rich  # noqa: F401
        import tqdm  # noqa: F401
    except ImportError:
        return False
    return True


if __name__ == "__main__":
    main()
