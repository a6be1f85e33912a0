"""MaskablePPO training speed on eights.integrations.sb3.SB3VecEnv against SB3's DummyVecEnv.

    python benchmarks/sb3_vec.py --envs 16 --timesteps 8192

Trains sb3-contrib's MaskablePPO (MlpPolicy, CPU) for the same number of timesteps on
the same number of games, once with every game in the Rust batch (``eights.integrations.sb3.SB3VecEnv``)
and once with one Python env per game (``make_vec_env(eights.make)``, a
``DummyVecEnv``), and prints environment steps per second of the whole ``learn`` call
(rollouts and gradient updates together), of the rollouts alone (one more
``collect_rollouts``, no update), and of the vector env alone (``env_method("action_masks")``
and ``step`` with random legal actions, what MaskablePPO asks of the env per step).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import CallbackList
from stable_baselines3.common.env_util import make_vec_env

import eights
import eights.integrations.sb3


def build(kind: str, preset: str, envs: int, seed: int):
    if kind == "eights.integrations.sb3.SB3VecEnv":
        return eights.integrations.sb3.SB3VecEnv(preset, num_envs=envs, seed=seed)
    return make_vec_env(eights.make, n_envs=envs, seed=seed, env_kwargs={"preset": preset})


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--preset", default="crazy_eights")
    p.add_argument("--envs", type=int, default=16)
    p.add_argument("--timesteps", type=int, default=8192)
    p.add_argument("--n-steps", type=int, default=128)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    args = p.parse_args()
    torch.set_num_threads(args.threads)
    print(
        f"MaskablePPO, {args.preset}, {args.envs} games, n_steps={args.n_steps}, {args.timesteps} timesteps, "
        f"torch threads {args.threads}"
    )
    for kind in ("eights.integrations.sb3.SB3VecEnv", "DummyVecEnv(eights.make)"):
        venv = build(kind, args.preset, args.envs, args.seed)
        model = MaskablePPO(
            "MlpPolicy", venv, n_steps=args.n_steps, batch_size=256, n_epochs=4, seed=args.seed, device="cpu"
        )
        start = time.perf_counter()
        model.learn(total_timesteps=args.timesteps)
        learn = model.num_timesteps / (time.perf_counter() - start)
        # Rollouts alone: one more collection of n_steps per game, no update.
        model._last_obs = venv.reset()
        callback = CallbackList([])
        callback.init_callback(model)
        start = time.perf_counter()
        model.collect_rollouts(venv, callback, model.rollout_buffer, n_rollout_steps=args.n_steps)
        rollout = args.n_steps * args.envs / (time.perf_counter() - start)
        venv.reset()
        rng = np.random.default_rng(0)
        start = time.perf_counter()
        for _ in range(args.n_steps):
            masks = np.stack(venv.env_method("action_masks"))
            venv.step((rng.random(masks.shape) * masks).argmax(axis=1))
        env_only = args.n_steps * args.envs / (time.perf_counter() - start)
        print(f"{kind:<26} learn: {learn:8,.0f}   rollouts only: {rollout:8,.0f}   env only: {env_only:8,.0f}  steps/s")
        venv.close()


if __name__ == "__main__":
    main()
