"""gymnasium.make_vec(..., vectorization_mode="vector_entry_point") returns eights.VecEnv, and
the vector env's action space samples legal actions."""

import gymnasium
import numpy as np
import pytest

import eights


@pytest.mark.parametrize("preset", eights.presets())
def test_every_registered_id_has_a_vector_entry_point(preset):
    spec = gymnasium.spec(f"eights/{preset}-v1")
    assert spec.vector_entry_point is not None


def test_make_vec_returns_the_rust_vec_env():
    envs = gymnasium.make_vec(
        "eights/switch_blackjack-v1", num_envs=8, vectorization_mode="vector_entry_point", num_players=3
    )
    assert isinstance(envs, eights.VecEnv)
    assert envs.num_envs == 8 and envs.num_players == 3 and envs.preset == "switch_blackjack"
    obs, info = envs.reset(seed=0)
    assert obs.shape == (8, eights.OBS_SIZE)
    # With no mode given, make_vec picks the vector entry point too.
    assert isinstance(gymnasium.make_vec("eights/crazy_eights-v1", num_envs=2), eights.VecEnv)
    # The sync mode still builds Python envs.
    sync = gymnasium.make_vec("eights/crazy_eights-v1", num_envs=2, vectorization_mode="sync")
    assert isinstance(sync, gymnasium.vector.SyncVectorEnv)


def test_action_space_sample_is_legal():
    envs = eights.VecEnv("crazy_eights_specials", num_envs=64, num_players=3, seed=1)
    envs.reset()
    for _ in range(200):
        masks = envs.action_masks().copy()
        actions = envs.action_space.sample()
        assert actions.shape == (64,)
        legal = masks[np.arange(64), actions]
        # A game with no legal action (episode just ended) gets 0, which the step ignores.
        assert (legal | ~masks.any(axis=1)).all()
        envs.step(actions)  # raises IllegalActionError on an illegal action


def test_action_space_sample_with_a_mask_and_before_reset():
    envs = eights.VecEnv("crazy_eights", num_envs=4, seed=0)
    with pytest.raises(RuntimeError, match="random_actions"):
        envs.action_space.sample()
    mask = np.zeros((4, eights.NUM_ACTIONS), dtype=bool)
    mask[:, 58] = True
    mask[2, 60] = True
    for _ in range(20):
        a = envs.action_space.sample(mask=mask)
        assert a[0] == a[1] == a[3] == 58 and a[2] in (58, 60)
    with pytest.raises(ValueError, match="shape"):
        envs.action_space.sample(mask=np.ones((3, eights.NUM_ACTIONS), dtype=bool))
    # The draws are uniform over the legal actions.
    counts = np.bincount([envs.action_space.sample(mask=mask)[2] for _ in range(400)], minlength=61)
    assert 140 < counts[58] < 260 and counts[58] + counts[60] == 400


def test_make_vec_hands_out_copies_as_gymnasiums_vector_envs_do():
    # The buffers themselves came back: `obs is next_obs` after a step, and a replay buffer
    # that kept (obs, next_obs) held the same array twice. SyncVectorEnv's default is copy=True.
    envs = gymnasium.make_vec("eights/crazy_eights-v1", num_envs=4)
    obs, info = envs.reset(seed=0)
    kept = obs.copy()
    nobs, rewards, terminated, truncated, info2 = envs.step(envs.action_space.sample())
    assert nobs is not obs and info2["action_mask"] is not info["action_mask"]
    np.testing.assert_array_equal(obs, kept)  # what was returned before is left as it was
    assert not np.array_equal(nobs, kept)
    fast = gymnasium.make_vec("eights/crazy_eights-v1", num_envs=4, copy=False)
    obs, _ = fast.reset(seed=0)
    assert fast.step(fast.action_space.sample())[0] is obs  # the buffers, on request


@pytest.mark.parametrize(
    "kwargs, words",
    [({"render_mode": "rgb_array"}, "render_mode='rgb_array': the batched eights.VecEnv does not render"),
     ({"max_episode_steps": 50}, "max_episode_steps=50: the batched eights.VecEnv does not count steps")],
)  # fmt: skip
def test_make_vec_names_the_single_envs_options_it_does_not_take(kwargs, words):
    # Both were taken for rules fields: "invalid rules field 'render_mode'".
    with pytest.raises(TypeError, match=words):
        gymnasium.make_vec("eights/crazy_eights-v1", num_envs=2, **kwargs)
    assert gymnasium.make_vec("eights/crazy_eights-v1", num_envs=2, render_mode=None).num_envs == 2


@pytest.mark.parametrize("version", [0, 1])
@pytest.mark.parametrize("preset", eights.presets())
def test_every_registered_id_builds_with_no_arguments(preset, version):
    # stalin (4 to 10 players), rose_mau (5 to 9) and thirty_eights (4 to 8) were registered
    # with the envs' default of two players, and `gymnasium.make(id)` raised.
    import warnings

    fewest = eights.Rules(preset).players.start
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # -v0
        env = gymnasium.make(f"eights/{preset}-v{version}")
        envs = gymnasium.make_vec(f"eights/{preset}-v{version}", num_envs=2)
    assert env.unwrapped.num_players == max(2, fewest) and envs.num_players == max(2, fewest)
    env.reset(seed=0)
    envs.reset(seed=0)
    if fewest + 1 in eights.Rules(preset).players:  # a count given still wins
        assert gymnasium.make(f"eights/{preset}-v{version}", num_players=fewest + 1).unwrapped.num_players == fewest + 1


def test_reset_with_a_seed_seeds_np_random_as_gymnasiums_vector_envs_do():
    # np_random_seed stayed an unrelated 128-bit number after reset(seed=5).
    envs = eights.VecEnv("crazy_eights", num_envs=2, seed=3)
    assert envs.np_random_seed == 3
    envs.reset(seed=5)
    assert envs.np_random_seed == 5
    # The unseeded resets after it draw their seeds from that generator: the same deals again.
    first = [envs.reset()[0].copy() for _ in range(2)]
    envs.reset(seed=5)
    again = [envs.reset()[0].copy() for _ in range(2)]
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)
