"""Finite observation bounds derived from the rules, and the scaled observation option."""

import warnings

import numpy as np
import pytest

import eights
from eights.observation import ObservationBounds


def _random_observations(preset, n, games=3, seed=0):
    rng = np.random.default_rng(seed)
    out = []
    for g in range(games):
        game = eights.Game(preset, n, seed=seed + g)
        while not (game.is_terminal or game.is_truncated):
            for p in range(n):
                out.append(game.observation(p))
            game.step(int(rng.choice(game.legal_actions())))
        out.extend(game.observation(p) for p in range(n))
    return np.array(out)


@pytest.mark.parametrize(
    "preset,n", [("crazy_eights", 2), ("switch_blackjack", 4), ("crazy_eights", 6), ("crazy_eights_xtreme", 3)]
)
def test_bounds_hold_and_scaling_is_in_unit_interval(preset, n):
    b = ObservationBounds(preset, n)
    assert np.isfinite(b.low).all() and np.isfinite(b.high).all() and (b.low < b.high).all()
    obs = _random_observations(preset, n)
    assert (obs >= b.low).all() and (obs <= b.high).all()
    scaled = b.scale(obs)
    assert scaled.dtype == np.float32 and scaled.shape == obs.shape
    assert (scaled >= 0).all() and (scaled <= 1).all()


def test_bounds_follow_the_deck():
    two = ObservationBounds("crazy_eights", 2)
    six = ObservationBounds("crazy_eights", 6)  # the preset deals two packs to six players
    assert two.deck_size == 52 and six.deck_size == 104
    hand = slice(*two.spec["hand"])
    assert two.high[hand][:52].max() == 1 and six.high[hand][:52].max() == 2
    assert two.high[slice(*two.spec["stock_size"])][0] == 52
    # Scaling divides counts by the deck: a full stock is 1, half of it 0.5.
    obs = np.zeros(eights.OBS_SIZE, dtype=np.float32)
    obs[two.spec["stock_size"][0]] = 26
    obs[two.spec["direction"][0]] = -1
    s = two.scale(obs)
    assert s[two.spec["stock_size"][0]] == pytest.approx(0.5)
    assert s[two.spec["direction"][0]] == 0.0


def test_env_spaces_are_bounded_and_check_env_is_silent():
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.env_checker import check_env

    env = eights.make("crazy_eights", scale_obs=True, seed=0)
    assert env.observation_space.low.min() == 0 and env.observation_space.high.max() == 1
    obs, _ = env.reset()
    assert env.observation_space.contains(obs)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env)
        check_env(eights.make("switch_blackjack", num_players=3, scale_obs=True))
    assert [str(w.message) for w in caught] == []
    raw = eights.make("crazy_eights")
    assert np.isfinite(raw.observation_space.high).all()
    with pytest.raises(TypeError, match="scale_obs"):
        eights.make("crazy_eights", scale_obs="yes")


def test_vec_env_and_pettingzoo_scaled():
    envs = eights.VecEnv("crazy_eights", num_envs=8, seed=0, scale_obs=True)
    obs, _ = envs.reset()
    assert envs.single_observation_space.high.max() == 1
    for _ in range(30):
        obs, *_ = envs.step(envs.random_actions())
        assert envs.observation_space.contains(obs)
    assert np.isfinite(eights.VecEnv("crazy_eights", num_envs=2).single_observation_space.high).all()
    with pytest.raises(ValueError, match="obs_dtype"):
        eights.VecEnv("crazy_eights", num_envs=2, scale_obs=True, obs_dtype="uint8")
    pytest.importorskip("pettingzoo")
    from eights.envs.pettingzoo import raw_env

    env = raw_env("crazy_eights", 2, scale_obs=True)
    env.reset(seed=0)
    o = env.observe("player_0")
    assert env.observation_space("player_0").contains(o)
    assert o["observation"].max() <= 1
