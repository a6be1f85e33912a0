"""Illegal learner actions under the default ``illegal_action="terminate"``, and the generic
environment checkers of Gymnasium, stable-baselines3 and TorchRL on the default env: they
step with actions sampled from the action space without the mask, which used to end in
``IllegalActionError``."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import eights


def _illegal(info) -> int:
    return int(np.flatnonzero(~info["action_mask"])[0])


def test_the_default_ends_the_episode_on_an_illegal_action_and_says_why():
    env = eights.make("crazy_eights", num_players=2, seed=0)
    obs, info = env.reset()
    before = env.game.to_dict()
    legal = [f"{a} ({env.game.action_to_string(a)})" for a in np.flatnonzero(info["action_mask"])]
    with pytest.warns(UserWarning, match="illegal_action='terminate'"):
        obs, reward, terminated, truncated, info = env.step(_illegal(info))
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["illegal_action"] is True and "illegal action" in info["illegal_reason"]
    # The legal actions by id and name (the ids alone said nothing to a reader).
    assert info["illegal_reason"].endswith("legal actions: " + ", ".join(legal[:12])), info["illegal_reason"]
    assert not info["action_mask"].any() and not env.action_masks().any()
    assert env.game.to_dict() == before  # the game itself is left as it was
    with pytest.raises(eights.IllegalActionError, match="call reset"):
        env.step(int(np.flatnonzero(env.game.action_mask())[0]))
    obs, info = env.reset()
    assert info["action_mask"].any()
    obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert info["illegal_action"] is False


def test_out_of_range_actions_end_the_episode_with_the_chosen_reward():
    env = eights.make("crazy_eights", seed=1, illegal_reward=-5.0)
    env.reset()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, reward, terminated, _, info = env.step(eights.NUM_ACTIONS)
    assert reward == -5.0 and terminated and "out of range" in info["illegal_reason"]


def test_raise_mode_is_still_there():
    env = eights.make("crazy_eights", seed=0, illegal_action="raise")
    _, info = env.reset()
    with pytest.raises(eights.IllegalActionError):
        env.step(_illegal(info))


def test_gymnasium_check_env_passes_on_the_default_env():
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(eights.make("crazy_eights", num_players=2).unwrapped)


def test_sb3_check_env_passes_on_the_default_env():
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(eights.make("crazy_eights", num_players=2))


def test_torchrl_check_env_specs_passes_on_the_gym_env():
    pytest.importorskip("torchrl")
    from torchrl.envs import GymWrapper
    from torchrl.envs.utils import check_env_specs

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env_specs(GymWrapper(eights.make("crazy_eights", num_players=2)), seed=0)


def test_torchrl_gym_env_builds_a_registered_id_and_its_specs_pass():
    # TorchRL's GymEnv(id) passes frameskip= and drops it only on Python's TypeError "unexpected
    # keyword argument 'frameskip'"; the env's rules error for it stopped GymEnv from building.
    pytest.importorskip("torchrl")
    from torchrl.envs import GymEnv
    from torchrl.envs.utils import check_env_specs

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = GymEnv("eights/crazy_eights-v1", num_players=3)
        check_env_specs(env, seed=0)
    assert env._env.unwrapped.num_players == 3


def test_torchrl_check_env_specs_passes_on_the_pettingzoo_env():
    pytest.importorskip("torchrl")
    pytest.importorskip("pettingzoo")
    from torchrl.envs import PettingZooWrapper
    from torchrl.envs.utils import check_env_specs

    from eights.envs.pettingzoo import env as aec_env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wrapped = PettingZooWrapper(aec_env("crazy_eights", num_players=2), use_mask=True)
        check_env_specs(wrapped, seed=0)


def test_an_illegal_actions_reason_lists_at_most_twelve_legal_actions_by_name():
    from eights.envs._common import illegal_reason

    hearts = [r + "H" for r in "A2356789TJQK"]  # twelve hearts on 4H, and the draw: 13 legal
    g = eights.Game.from_position(
        "crazy_eights", 2, hands=[hearts, ["2C", "3C"]], discard=["4H"], stock=["5C", "6C", "7C"]
    )
    reason = illegal_reason(g, 1)
    assert reason.startswith("illegal action 'play 2C' (1); legal actions: 26 (play AH), 27 (play 2H), ")
    assert reason.endswith("38 (play KH), and 1 more"), reason
    assert illegal_reason(g, 26) is None
