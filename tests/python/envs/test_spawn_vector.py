"""``eights.make`` environments in spawned worker processes (issue #61): Gymnasium's
``AsyncVectorEnv(context="spawn")`` and Stable-Baselines3's ``SubprocVecEnv(start_method=
"spawn")`` run 100 steps and match a single-process run (``SyncVectorEnv``, ``DummyVecEnv``)
on the same seeds and actions, with the envs built in the workers or built here and sent
there pickled (mid-hand)."""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest

import eights

HOUSE = Path(__file__).resolve().parents[3] / "examples" / "house_rules.toml"
STEPS = 100
SEEDS = [3, 1, 4]


def _sent(env):
    """An env function that returns ``env`` itself: the env travels pickled to the worker."""
    return env


def _factories(prebuilt: bool):
    """One env function per worker: ``eights.make`` there, or envs built and stepped here."""
    args = [
        ("crazy_eights", 2, "heuristic"),
        (str(HOUSE), 3, ["random", "ismcts:6"]),
        ("switch_blackjack", 2, "pimc:3"),
    ]
    if not prebuilt:
        return [functools.partial(eights.make, p, num_players=n, opponents=o, seed=7) for p, n, o in args]
    envs = []
    for p, n, o in args:
        env = eights.make(p, num_players=n, opponents=o, seed=7)
        env.reset(seed=99)
        env.step(int(np.flatnonzero(env.action_masks())[0]))  # mid-hand when sent
        envs.append(functools.partial(_sent, env))
    return envs


def _gym_run(vec):
    """Observations, rewards and end flags over ``STEPS`` steps of legal actions drawn from a
    fixed generator (the action of a game that has just ended is ignored by the autoreset)."""
    rng = np.random.default_rng(0)
    obs, info = vec.reset(seed=SEEDS)
    seen = [obs.copy()]
    for _ in range(STEPS):
        actions = np.array([int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in info["action_mask"]])
        obs, rewards, terminated, truncated, info = vec.step(actions)
        seen.append((obs.copy(), rewards.copy(), terminated.copy(), truncated.copy(), info["action_mask"].copy()))
    vec.close()
    return seen


def _same(a, b):
    assert len(a) == len(b)
    for x, y in zip(a, b):
        if isinstance(x, tuple):
            for u, v in zip(x, y):
                np.testing.assert_array_equal(u, v)
        else:
            np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("prebuilt", [False, True], ids=["built-there", "sent-pickled"])
def test_gymnasium_async_spawn_matches_sync(prebuilt):
    from gymnasium.vector import AsyncVectorEnv, SyncVectorEnv

    here = _gym_run(SyncVectorEnv(_factories(prebuilt)))
    there = _gym_run(AsyncVectorEnv(_factories(prebuilt), context="spawn"))
    ended = sum(int(s[2].sum()) for s in here[1:])
    assert ended >= 2, "the run should cover several hands"
    _same(here, there)


def _sb3_run(vec):
    rng = np.random.default_rng(1)
    vec.seed(5)
    seen = [vec.reset().copy()]
    for _ in range(STEPS):
        masks = vec.env_method("action_masks")
        actions = np.array([int(rng.choice(np.flatnonzero(m))) for m in masks])
        obs, rewards, dones, infos = vec.step(actions)
        seen.append((obs.copy(), rewards.copy(), dones.copy()))
    vec.close()
    return seen


@pytest.mark.integration
@pytest.mark.parametrize("prebuilt", [False, True], ids=["built-there", "sent-pickled"])
def test_sb3_subproc_spawn_matches_dummy(prebuilt):
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    here = _sb3_run(DummyVecEnv(_factories(prebuilt)))
    there = _sb3_run(SubprocVecEnv(_factories(prebuilt), start_method="spawn"))
    assert sum(int(s[2].sum()) for s in here[1:]) >= 2
    _same(here, there)
